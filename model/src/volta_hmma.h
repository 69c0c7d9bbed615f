/* volta_hmma.h - Volta's HMMA pipeline as the rest of the model drives it (internal to
 * the model, not installed): the beats of one step (timing.c) and the HMMA events of a
 * wmma or mma.m8n8k4 (gpu_timing.c), for the per-op timing and bench.c's replay. */
#ifndef TCSIM_VOLTA_HMMA_H
#define TCSIM_VOLTA_HMMA_H

#include <stddef.h>
#include <stdint.h>
#include "tcsim_tc.h"
#include "tcsim_timing.h"

/* timing.c - cycles one HMMA step keeps the FEDPs busy (its beats), for t's FEDPs per threadgroup
 * and an accumulator of `steps` steps (t checked): the pipeline's and the handle's. */
unsigned tc_volta_step_beats(const tc_volta_timing *t, unsigned steps);

/* gpu_timing.c - Volta's wmma (m16n16k16) or mma.m8n8k4 as the HMMA pipeline of
 * timing.c runs it: its configuration, events and completion. ESHAPE for other shapes,
 * EUNSUPPORTED for inputs other than dense fp16. Serves tc_op_timing_of and the
 * Table I / Figure 9 replay of bench.c. */
enum { VOLTA_MAX_HMMA = 16 };
typedef struct tc_volta_events {
    tc_hmma_cfg cfg;
    tc_hmma_event ev[VOLTA_MAX_HMMA];
    size_t n;       /* events in ev */
    uint64_t done;  /* the cycle the last result is written */
} tc_volta_events;
tc_status tc_volta_events_of(const tc_gpu_timing *g, const tc_mma_op *op, tc_volta_events *e);

#endif
