/* bw_engine.c - `tcsim conv --engine rtl`: each MMA of a convolution on the Verilated
 * tc_blackwell (bw_engine.h), reading and writing the convolution's tensor memory. */
#include <stdlib.h>
#include "bw_dut.h"
#include "bw_engine.h"

struct bw_engine {
    bw_dut *dut;
};

tc_status bw_engine_new(bw_engine **out)
{
    if (!out)
        return TC_EINVAL;
    bw_engine *e = calloc(1, sizeof *e);
    if (!e)
        return TC_ENOMEM;
    tc_status st = bw_dut_new(&e->dut);
    if (st != TC_OK) {
        free(e);
        return st;
    }
    *out = e;
    return TC_OK;
}

void bw_engine_free(bw_engine *e)
{
    if (e)
        bw_dut_free(e->dut);
    free(e);
}

uint64_t bw_engine_rtl_cycles(const bw_engine *e) { return e ? bw_dut_cycles(e->dut) : 0; }

tc_status bw_engine_mma(void *ctx, tc_tmem *t, const tc_bw_mma_desc *d, tc_bw_cost *cost)
{
    bw_engine *e = ctx;
    if (!e || !t || !d)
        return TC_EINVAL;
    tc_status st = bw_dut_mma(e->dut, t, d, NULL);
    if (st != TC_OK || !cost)
        return st;
    /* what the RTL asked of the memories (the tensor-memory cycles its ports were
     * served, the shared-memory rows), priced as the model prices an instruction */
    bw_dut_traffic tr;
    bw_dut_traffic_get(e->dut, &tr);
    return tc_bw_mma_cost(d->M, d->N, tr.smem_rows, tr.tmem_cycles, cost);
}
