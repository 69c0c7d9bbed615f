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
    if (!e)
        return;
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
    /* the requests the instruction makes, priced as the model's memory prices them */
    unsigned a_cyc, d_cyc, banks = tc_tmem_banks(t);
    if ((st = tc_tmem_op_cycles(banks, TC_TMEM_OP_MMA_A, 8, &a_cyc)) != TC_OK ||
        (st = tc_tmem_op_cycles(banks, TC_TMEM_OP_MMA_D, 8, &d_cyc)) != TC_OK)
        return st;
    uint64_t slices = d->N / TC_TMEM_SLICE;
    uint64_t tmem = (d->a_tmem ? a_cyc : 0) + (d->enable_input_d ? slices * a_cyc : 0) +
                    slices * d_cyc;
    return tc_bw_mma_cost(d->M, d->N, d->N + (d->a_tmem ? 0 : d->M), tmem, cost);
}
