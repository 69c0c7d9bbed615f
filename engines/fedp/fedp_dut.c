/* fedp_dut.c - the C side of fedp_dut.h: instance lookup, profile matching, and the
 * per-operation conversion from model bit patterns to RTL elements. */
#include <stdlib.h>
#include <string.h>
#include "fedp_dut.h"

struct fedp_dut {
    const fedp_dut_ops *ops;
    void *impl;
};

const fedp_dut_ops *fedp_instance_find(const char *name)
{
    const fedp_dut_ops *const *list;
    size_t n = fedp_instances(&list);
    for (size_t i = 0; i < n; i++)
        if (!strcmp(list[i]->name, name))
            return list[i];
    return NULL;
}

int fedp_implements(const fedp_params *q, const tc_profile *p)
{
    /* a mixed pair needs b's own format select (fedp.sv's InPairs) */
    if (p->kind != TC_KIND_FEDP || (p->in_b != p->in && !q->in_pairs) ||
        (unsigned)p->in >= 32 || (unsigned)p->in_b >= 32 || (unsigned)p->out >= 32)
        return 0;
    if (!((q->in_fmts >> p->in) & 1u) || !((q->in_fmts >> p->in_b) & 1u) ||
        !((q->out_fmts >> p->out) & 1u))
        return 0;
    /* fedp.sv rounds fp32 toward zero to fp32_man_bits and fp16 to nearest even */
    int fp16 = p->out == TC_FMT_FP16;
    if (!fp16 && p->out != TC_FMT_FP32)
        return 0;
    unsigned man = fp16 ? tc_fmt_get(TC_FMT_FP16)->man_bits : q->fp32_man_bits;
    int emin = fp16 ? q->emin_align_fp16 : q->emin_align_fp32;
    return p->L == q->L && p->F == q->F && p->emin_align == emin &&
           p->out_man_bits == man && p->round == (fp16 ? TC_RNE : TC_RZ);
}

const fedp_dut_ops *fedp_instance_for(const tc_profile *p)
{
    const fedp_dut_ops *const *list;
    size_t n = fedp_instances(&list);
    for (size_t i = 0; p && i < n; i++)
        if (fedp_implements(&list[i]->params, p))
            return list[i];
    return NULL;
}

uint32_t fedp_to_elem(tc_fmt f, uint32_t bits)
{
    const tc_fmt_info *fi = tc_fmt_get(f);
    return fi ? bits >> fi->ignore_low : bits;
}

fedp_dut *dut_new(const fedp_dut_ops *ops, const char *fst_path)
{
    fedp_dut *d = calloc(1, sizeof *d);
    if (!d)
        return NULL;
    d->ops = ops;
    d->impl = ops->create(fst_path);
    if (!d->impl) {
        free(d);
        return NULL;
    }
    dut_reset(d);
    return d;
}

void dut_reset(fedp_dut *d)
{
    uint32_t zero[TC_MAX_L] = {0};
    fedp_port_in in = {0, TC_FMT_FP16, TC_FMT_FP16, TC_FMT_FP32, zero, zero, 0};
    d->ops->drive(d->impl, &in);
    d->ops->set_reset(d->impl, 0);
    d->ops->step(d->impl);
    d->ops->set_reset(d->impl, 1);
}

void dut_set_reset(fedp_dut *d, int rst_n)
{
    d->ops->set_reset(d->impl, rst_n);
}

void dut_drive(fedp_dut *d, int valid, tc_fmt in, tc_fmt in_b, tc_fmt out, size_t n,
               const uint32_t *a, const uint32_t *b, uint32_t c)
{
    uint32_t ea[TC_MAX_L], eb[TC_MAX_L];
    size_t L = d->ops->params.L, i = 0;
    for (; i < n && i < L; i++) {
        ea[i] = fedp_to_elem(in, a[i]);
        eb[i] = fedp_to_elem(in_b, b[i]);
    }
    for (; i < L; i++)
        ea[i] = eb[i] = 0;
    fedp_port_in pin = {valid, (unsigned)in, (unsigned)in_b, (unsigned)out, ea, eb, c};
    d->ops->drive(d->impl, &pin);
}

void dut_step(fedp_dut *d)
{
    d->ops->step(d->impl);
}

int dut_sample(fedp_dut *d, uint32_t *out)
{
    return d->ops->sample(d->impl, out);
}

void dut_stages(fedp_dut *d, fedp_stages *s)
{
    d->ops->stages(d->impl, s);
}

const fedp_params *dut_params(const fedp_dut *d)
{
    return &d->ops->params;
}

void dut_free(fedp_dut *d)
{
    if (!d)
        return;
    d->ops->destroy(d->impl);
    free(d);
}
