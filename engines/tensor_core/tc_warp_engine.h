/* tc_warp_engine.h - one Volta warp instruction (wmma.mma m16n16k16 or mma.m8n8k4) on the
 * Verilated rtl/tc_warp.sv, with the model's types: `tcsim hmma-trace|mma --engine rtl`
 * and the testbench use it.
 *
 *   tc_warp_engine *e;
 *   tc_warp_engine_open(NULL, &e);
 *   tc_warp_engine_run(e, &cfg, &frags, ev, 16, &n, &done);  // frags.c: C in, D out
 *                                                              // frags.a, .b: read back
 *   tc_warp_engine_close(e);
 */
#ifndef TC_WARP_ENGINE_H
#define TC_WARP_ENGINE_H

#include <stddef.h>
#include <stdint.h>
#include "tcsim.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct tc_warp_engine tc_warp_engine;

/* A Verilated warp top, reset and idle. fst_path: an FST waveform of all it runs, or
 * NULL. TC_EINVAL for a NULL out, TC_ENOMEM (or TC_EIO without trace support). */
tc_status tc_warp_engine_open(const char *fst_path, tc_warp_engine **out);

/* Runs one instruction: loads w's fragments into the warp's registers (two fp16 per
 * register), starts it, clocks until D is readable and reads D back into w->c, and A
 * and B back into w->a and w->b (an HMMA must leave its sources as they were). The
 * trace is the RTL's: per HMMA in dispatch order its set, step, dispatch cycle (cycle 0
 * is the first cycle after start), the cycle its beat 0 entered the FEDPs and the first
 * cycle its accumulator pair was readable; `cumulative` is Figure 9's count with the
 * model's issue_offset (a property of the measurement, tcsim_tc.h); *done the first
 * cycle D was readable. cap >= the HMMA count (16) else TC_ESHAPE; TC_EFORMAT for a
 * pattern wider than its format; TC_EIO if the RTL does not finish. */
tc_status tc_warp_engine_run(tc_warp_engine *e, const tc_hmma_cfg *cfg, tc_warp_frags *w,
                             tc_hmma_event *ev, size_t cap, size_t *n, uint64_t *done);

/* Clocks the model has run, for benchmarks. */
uint64_t tc_warp_engine_cycles(const tc_warp_engine *e);

/* The Verilated fedp's LATENCY (rtl/fedp.sv), to check against TC_FEDP_LATENCY. */
unsigned tc_warp_engine_fedp_latency(void);

void tc_warp_engine_close(tc_warp_engine *e);

/* The warp's registers read into fragments as tc_warp_engine_run reads them back (two
 * fp16 per register; FP16 mode: C/D in registers 0..3; nab A and B elements per lane),
 * for a testbench that drives a Verilated top of its own (tc_warp_dut.h). */
struct tcw;
void tc_warp_read_frags(struct tcw *d, int f16, unsigned nab, tc_warp_frags *w);

#ifdef __cplusplus
}
#endif
#endif
