/* bw_pins.c - the instruction and shared-memory pins of tc_blackwell.sv (bw_pins.h). */
#include <string.h>
#include "bw_pins.h"

tc_status bw_pins_load(bw_pins_in *in, const tc_bw_mma_desc *m)
{
    const tc_profile *p;
    const tc_fmt in_b = tc_bw_mma_in_b(m);
    tc_status st = tc_bw_profile_ab(m->kind, m->in, in_b, m->out, m->scale, &p);
    if (st != TC_OK)
        return st;
    if ((m->M != 64 && m->M != 128) || m->N < 8 || m->N > TC_BW_MAX_N || m->N % 8)
        return TC_ESHAPE;
    if (m->d_col >= TC_TMEM_COLS || m->a_col >= TC_TMEM_COLS || m->sfa_col >= TC_TMEM_COLS ||
        m->sfb_col >= TC_TMEM_COLS || !m->b_smem.words ||
        (!m->a_tmem && !m->a_smem.words))
        return TC_EINVAL;
    in->kind = (unsigned)m->kind;
    in->in_fmt = (unsigned)m->in;
    in->in_fmt_b = (unsigned)in_b;
    in->out_fmt = (unsigned)m->out;
    in->scale_fmt = (unsigned)m->scale;
    in->m128 = m->M == 128;
    in->n8_m1 = m->N / 8 - 1;
    in->d_col = m->d_col;
    in->a_tmem = (unsigned)m->a_tmem;
    in->a_col = m->a_col;
    in->sfa_col = m->sfa_col;
    in->sfb_col = m->sfb_col;
    in->enable_input_d = (unsigned)m->enable_input_d;
    memcpy(in->disable, m->disable, sizeof in->disable);
    in->start = 1;
    return TC_OK;
}

tc_status bw_pins_smem_row(bw_pins_in *in, const tc_bw_mma_desc *m, int sel, unsigned row)
{
    const tc_bw_smem *sm = sel ? &m->b_smem : &m->a_smem;
    if (row >= (sel ? m->N : m->M))
        return TC_EIO;
    memcpy(in->smem_data, sm->words + (size_t)row * sm->row_stride, sizeof in->smem_data);
    return TC_OK;
}
