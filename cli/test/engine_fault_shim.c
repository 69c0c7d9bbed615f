/* engine_fault_shim.c - tcsim whose Verilated engines get their results wrong on demand,
 * to show that --engine rtl runs them: `--engine rtl` answers exactly what the model
 * answers, so a command that ran the model instead would pass every comparison.
 * Linked into tcsim_engine_fault with -Wl,--wrap=fedp_engine_step and
 * -Wl,--wrap=tc_warp_engine_run: the engines compute, then, with TCSIM_ENGINE_FAULT set
 * in the environment, bit 0 of each FEDP step's d, of lane 0's first accumulator
 * element and of the first HMMA's cycle count is flipped. Without it the program is
 * tcsim. */
#include <stdlib.h>
#include "fedp_engine.h"     /* engines/fedp */
#include "tc_warp_engine.h"  /* engines/tensor_core */

tc_status __real_fedp_engine_step(void *ctx, const tc_profile *step_profile, size_t n,
                                  const uint32_t *a, const uint32_t *b, uint32_t c,
                                  uint32_t *d);
tc_status __wrap_fedp_engine_step(void *ctx, const tc_profile *step_profile, size_t n,
                                  const uint32_t *a, const uint32_t *b, uint32_t c,
                                  uint32_t *d);
tc_status __real_tc_warp_engine_run(tc_warp_engine *e, const tc_hmma_cfg *cfg,
                                    tc_warp_frags *w, tc_hmma_event *ev, size_t cap,
                                    size_t *n, uint64_t *done);
tc_status __wrap_tc_warp_engine_run(tc_warp_engine *e, const tc_hmma_cfg *cfg,
                                    tc_warp_frags *w, tc_hmma_event *ev, size_t cap,
                                    size_t *n, uint64_t *done);

tc_status __wrap_fedp_engine_step(void *ctx, const tc_profile *step_profile, size_t n,
                                  const uint32_t *a, const uint32_t *b, uint32_t c,
                                  uint32_t *d)
{
    tc_status st = __real_fedp_engine_step(ctx, step_profile, n, a, b, c, d);
    if (st == TC_OK && getenv("TCSIM_ENGINE_FAULT"))
        *d ^= 1u;
    return st;
}

tc_status __wrap_tc_warp_engine_run(tc_warp_engine *e, const tc_hmma_cfg *cfg,
                                    tc_warp_frags *w, tc_hmma_event *ev, size_t cap,
                                    size_t *n, uint64_t *done)
{
    tc_status st = __real_tc_warp_engine_run(e, cfg, w, ev, cap, n, done);
    if (st == TC_OK && getenv("TCSIM_ENGINE_FAULT")) {
        w->c[0][0] ^= 1u;
        if (*n > 0)
            ev[0].cumulative ^= 1u;
    }
    return st;
}
