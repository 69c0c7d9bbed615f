/* bw_engine.h - the Verilated tc_blackwell as a tc_bw_mma_fn: `tcsim conv --engine rtl`
 * runs every MMA of a convolution on the RTL instead of tc_bw_mma. */
#ifndef BW_ENGINE_H
#define BW_ENGINE_H

#include "tcsim.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct bw_engine bw_engine;
tc_status bw_engine_new(bw_engine **out);
void bw_engine_free(bw_engine *e);   /* NULL is fine */
/* ctx is a bw_engine. Runs the instruction on the RTL, its tensor-memory ports served by
 * the convolution's own memory t (bw_dut.h). The cost is the array model's
 * (tc_bw_mma_cost with the requests the instruction makes, priced by t's organization):
 * the RTL's own cycles are those of a unit with one FEDP per kind. */
tc_status bw_engine_mma(void *ctx, tc_tmem *t, const tc_bw_mma_desc *d, tc_bw_cost *cost);
/* RTL cycles the MMAs took, in total. */
uint64_t bw_engine_rtl_cycles(const bw_engine *e);

#ifdef __cplusplus
}
#endif
#endif
