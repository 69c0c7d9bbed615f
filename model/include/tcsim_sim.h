/*
 * tcsim_sim.h - the model as a component of a larger simulator: an opaque handle that
 * owns the tensor cores of some SMs (timing from tcsim_timing.h, optionally the
 * arithmetic of tcsim.h and a tensor memory), driven cycle by cycle by its host.
 * Included by tcsim.h.
 *
 * The host's loop:
 *     tc_sim_can_issue(s, &op, &ok)   does the sub-core take op this cycle?
 *     tc_sim_issue(s, &op, &ticket)   issue it (TC_EBUSY if it does not)
 *     tc_sim_tick(s, n)               advance n cycles (or jump to tc_sim_next_event)
 *     tc_sim_poll(s, done, cap, &n)   the tickets whose results became readable
 * The handle's clock starts at 0 and only tick moves it; everything is deterministic.
 *
 * Thread safety: a handle belongs to one thread at a time (no locks inside); different
 * handles are independent and can be used from different threads at once. The library
 * has no global mutable state.
 *
 * ABI: the handle is opaque, so its layout can change. tc_sim_config, tc_sim_op,
 * tc_sim_completion and tc_sim_stats are public structs: within a major version
 * (TCSIM_VERSION_MAJOR) fields are only appended, and each begins with `size`, set by
 * the caller to sizeof the struct it was compiled with (tc_sim_*_init do it): a newer
 * library reads and writes only the fields that fit in `size` (a config or op smaller
 * than the 0.1 struct is TC_EINVAL; tc_sim_stats_get fills whatever prefix of the
 * stats fits). Enum values are append-only. The library is static
 * (libtcsim.a): its ABI matters to a simulator that links a different build of it
 * than the header it compiled against; TCSIM_VERSION_* say which header that was.
 */
/* A part of tcsim.h: included on its own, it brings in tcsim.h, which includes it
 * back in its place (its declarations need tcsim.h's types, and tcsim.h its). */
#ifndef TCSIM_H
#include "tcsim.h"
#else
#ifndef TCSIM_SIM_H
#define TCSIM_SIM_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

typedef struct tc_sim tc_sim;

typedef struct tc_sim_config {
    size_t size;                  /* sizeof(tc_sim_config) */
    const char *gpu;              /* built-in GPU or arch name ("a100", "ampere") ... */
    const tc_gpu_timing *timing;  /* ... or explicit parameters (copied); wins if set */
    unsigned sms;                 /* SMs in the handle (1 to 4096), each of timing->subcores
                                     sub-cores: unit u is SM u / subcores */
    unsigned max_in_flight;       /* completions held before poll must drain them
                                     (0 to 2^24; 0: 1024). Issue fails with TC_EBUSY
                                     when full */
    unsigned tmem_banks;          /* a tensor memory in the handle: 0 none, else its
                                     banks per lane group, 8 or 4 (tcsim_tmem.h) */
} tc_sim_config;

/* Defaults: gpu "a100", one SM, no tensor memory. */
void tc_sim_config_init(tc_sim_config *cfg);

/* TC_EINVAL for a NULL or malformed config (explicit timing outside what
 * tc_gpu_timing_parse accepts included), TC_EUNSUPPORTED for an unknown GPU,
 * TC_ENOMEM. *out is untouched on failure. */
tc_status tc_sim_create(const tc_sim_config *cfg, tc_sim **out);
void tc_sim_destroy(tc_sim *s);   /* NULL is fine */

typedef enum tc_sim_opcode {
    TC_SIM_MMA = 0,   /* timing of op.mma; with data pointers also D = A*B + C */
    TC_SIM_OPCODE_COUNT
} tc_sim_opcode;

typedef struct tc_sim_op {
    size_t size;                  /* sizeof(tc_sim_op) */
    tc_sim_opcode code;
    unsigned unit;                /* sub-core: sm * subcores + subcore */
    tc_mma_op mma;
    uint64_t tag;                 /* the host's own value, returned with the completion */
    /* Optional arithmetic (all four set, or all NULL): A m x k, B k x n, C and D m x n,
     * row-major bit patterns, computed by tc_mma_tile with the profile of
     * (arch, mma, mma.in, mma.acc) at issue. The host must not read D before the ticket
     * completes (the timing says when a GPU would have it). */
    const uint32_t *A, *B, *C;
    uint32_t *D;
} tc_sim_op;

void tc_sim_op_init(tc_sim_op *op);   /* size set, everything else 0 / NULL */

/* *ok = 1 if tc_sim_issue(s, op) would succeed this cycle, else 0 (and TC_OK); an
 * error status if op itself is bad (the reason issue would give). The data's bit
 * patterns are not read here: a pattern too wide for its format is issue's TC_EFORMAT. */
tc_status tc_sim_can_issue(const tc_sim *s, const tc_sim_op *op, int *ok);

/* Issues op in the current cycle. TC_EBUSY: the sub-core's tensor cores are busy with
 * an earlier instruction, or max_in_flight completions are waiting for poll; nothing
 * changes and the same op can be issued later. The ticket (*ticket, from 1 up)
 * identifies the completion. TC_EINVAL / TC_ESHAPE / TC_EUNSUPPORTED for a bad op (bad
 * unit, shape, formats, data); the arithmetic's error if the data is bad. */
tc_status tc_sim_issue(tc_sim *s, const tc_sim_op *op, uint64_t *ticket);

/* The clock stops here: ticking past it is TC_EINVAL (no ready cycle can wrap). */
#define TC_SIM_MAX_CYCLE (UINT64_C(1) << 63)

/* Advances the clock by `cycles` (0 is fine); TC_EINVAL past TC_SIM_MAX_CYCLE. */
tc_status tc_sim_tick(tc_sim *s, uint64_t cycles);

/* The current cycle. */
tc_status tc_sim_now(const tc_sim *s, uint64_t *cycle);

/* The next cycle at which something changes: now if a result is readable and not yet
 * polled; else the first cycle after now at which a result becomes readable, or a
 * sub-core's front end or accumulator frees, or its last kind of instruction can be
 * taken again; UINT64_MAX when nothing is pending. (An fp32 instruction of another
 * shape can go into a lagging accumulator between these cycles; tc_sim_can_issue
 * tells exactly.) */
tc_status tc_sim_next_event(const tc_sim *s, uint64_t *cycle);

typedef struct tc_sim_completion {
    uint64_t ticket;
    uint64_t tag;                 /* the op's tag */
    unsigned unit;
    uint64_t issued, ready;       /* issue cycle; first cycle the result is readable */
} tc_sim_completion;

/* Moves up to cap completions whose ready cycle is <= now into out, oldest ready
 * first (ties by ticket); *n how many. cap 0 with out NULL only counts them. */
tc_status tc_sim_poll(tc_sim *s, tc_sim_completion *out, size_t cap, size_t *n);

typedef struct tc_sim_stats {
    size_t size;                  /* sizeof(tc_sim_stats) */
    uint64_t cycles;              /* now */
    uint64_t issued, completed;   /* instructions */
    uint64_t busy_rejects;        /* tc_sim_issue calls answered TC_EBUSY */
    uint64_t fmas;                /* multiply-adds issued (dense count) */
    uint64_t busy_cycles;         /* sum over units of cycles their tensor cores were busy */
    unsigned units;               /* sub-cores in the handle */
} tc_sim_stats;

/* out->size must be set (tc_sim_stats_init); fills what fits in out->size. */
void tc_sim_stats_init(tc_sim_stats *st);
tc_status tc_sim_stats_get(const tc_sim *s, tc_sim_stats *out);

/* The handle's timing parameters (for printing). */
tc_status tc_sim_timing(const tc_sim *s, const tc_gpu_timing **out);

/* Tensor memory of the handle (tcsim_tmem.h): TC_EUNSUPPORTED if created without one.
 * Reads and writes through tc_tmem_peek/poke/ld/st/... on *out; the handle owns it. */
tc_status tc_sim_tmem(tc_sim *s, tc_tmem **out);

#ifdef __cplusplus
}
#endif
#endif /* TCSIM_SIM_H */
#endif /* TCSIM_H */
