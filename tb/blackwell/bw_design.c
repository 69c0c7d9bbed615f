/* bw_design.c - the unit alone or the joined design behind bw_design.h. */
#include <stdlib.h>
#include "bw_design.h"
#include "bw_sys.h"

struct bw_design {
    bw_design_kind kind;
    bw_dut *unit;          /* the unit on the C model: the design, or the joined one's */
    bw_sys *sys;           /* the joined design */
    int stalls;
    uint64_t ref_cycles;
};

tc_status bw_design_open(bw_design_kind kind, const char *fst_path, bw_design **out)
{
    if (!out || (kind == BW_DESIGN_SYS && fst_path))
        return TC_EINVAL;
    bw_design *d = calloc(1, sizeof *d);
    if (!d)
        return TC_ENOMEM;
    d->kind = kind;
    tc_status st = bw_dut_open(fst_path, &d->unit);
    if (st == TC_OK && kind == BW_DESIGN_SYS)
        st = bw_sys_new(bw_sys_shim_banks(), &d->sys);
    if (st != TC_OK) {
        bw_design_free(d);
        return st;
    }
    *out = d;
    return TC_OK;
}

void bw_design_free(bw_design *d)
{
    if (!d)
        return;
    bw_dut_free(d->unit);
    bw_sys_free(d->sys);
    free(d);
}

/* A copy of t's words in a memory of its organization; NULL if out of memory. */
static tc_tmem *copy(const tc_tmem *t)
{
    tc_tmem *c;
    if (tc_tmem_new(tc_tmem_banks(t), &c) != TC_OK)
        return NULL;
    for (unsigned l = 0; l < TC_TMEM_LANES; l++)
        for (unsigned col = 0; col < TC_TMEM_COLS; col++) {
            uint32_t w;
            tc_tmem_peek(t, l, col, &w);
            tc_tmem_poke(c, l, col, w);
        }
    return c;
}

tc_status bw_design_mma(bw_design *d, tc_tmem *t, const tc_bw_mma_desc *m, uint64_t *cycles)
{
    if (!d || !t)
        return TC_EINVAL;
    if (d->kind == BW_DESIGN_UNIT)
        return bw_dut_mma(d->unit, t, m, cycles);
    d->ref_cycles = 0;
    tc_tmem *ref = d->stalls ? NULL : copy(t);
    if (!d->stalls && !ref)
        return TC_ENOMEM;
    uint64_t c = 0;
    tc_status st = bw_sys_mma(d->sys, t, m, &c);
    if (cycles)
        *cycles = c;
    if (st == TC_OK && ref)
        st = bw_dut_mma(d->unit, ref, m, &d->ref_cycles);
    tc_tmem_free(ref);
    return st;
}

tc_status bw_design_mma_reset(bw_design *d, tc_tmem *t, const tc_bw_mma_desc *m,
                              uint64_t run, unsigned hold, int *busy)
{
    if (!d || !t)
        return TC_EINVAL;
    if (d->kind == BW_DESIGN_UNIT)
        return bw_dut_mma_reset(d->unit, t, m, run, hold, busy);
    return bw_sys_mma_reset(d->sys, t, m, run, hold, busy);
}

void bw_design_stalls(bw_design *d, uint64_t seed)
{
    if (!d)
        return;
    d->stalls = seed != 0;
    if (d->kind == BW_DESIGN_UNIT) {
        bw_dut_stalls(d->unit, seed);
    } else {
        bw_sys_stalls(d->sys, seed);
    }
}

void bw_design_traffic_get(const bw_design *d, bw_dut_traffic *out)
{
    if (!d)
        return;
    if (d->kind == BW_DESIGN_UNIT)
        bw_dut_traffic_get(d->unit, out);
    else
        bw_sys_traffic_get(d->sys, out);
}

uint64_t bw_design_cycles(const bw_design *d)
{
    if (!d)
        return 0;
    return bw_dut_cycles(d->unit) + bw_sys_cycles(d->sys);
}

unsigned bw_design_banks(const bw_design *d)
{
    return d && d->kind == BW_DESIGN_SYS ? bw_sys_banks(d->sys) : 0;
}

uint64_t bw_design_ref_cycles(const bw_design *d) { return d ? d->ref_cycles : 0; }
