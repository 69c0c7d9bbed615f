/* dot_scaled.c - the block-scaled kinds (tc_dot_scaled): mxf8f6f4, one FEDP step per
 * scale block with the scale exponents added to every product's; mxf4 / mxf4nvf4, whose
 * step sums groups of 16 products exactly before scaling them, from fedp_step.h's
 * stages. */
#include "tcsim.h"
#include "fmt_table.h"
#include "fedp_step.h"

/* mxf4 / mxf4nvf4: one instruction step of L = 64 e2m1 products in four groups of
 * 16, each summed exactly and scaled; a group's alignment exponent is its scales'
 * exponents alone; one fused step keeps F bits, then RZ to fp32. */
static uint32_t mxf4_step(const tc_profile *p, size_t n, const uint32_t *a, const uint32_t *b,
                          const uint32_t *sa, const uint32_t *sb, size_t scale0, uint32_t c)
{
    enum { GROUP = TC_MXF4_GROUP, MAX_GROUPS = 4 };
    const tc_fmt_info *fi = tc_fmt_get(p->in), *fs = tc_fmt_get(p->scale);
    fedp_consts k;
    fedp_consts_for(p, p->in, p->out, p->round, p->out_man_bits, p->F, &k);
    /* group sums in units of 2^(2*emin - 2*man) of the input format (exact integers);
     * a scaled group has gfb fraction bits, is moved up by GH and shifted gsh more
     * than a product (the working domain of fedp_step.h) */
    const int unit_fb = 2 * (int)fi->man_bits - 2 * fi->emin;
    const int gfb = unit_fb + 2 * (int)fs->man_bits;
    const int GH = k.F > gfb ? k.F - gfb : 0, gsh = gfb + GH - k.F;
    fedp_special sp = {0, 0, 0};
    uint64_t gsig[MAX_GROUPS];
    int32_t gexp[MAX_GROUPS];
    uint32_t gneg[MAX_GROUPS];
    size_t ng = 0;

    /* ---- UNPACK + MUL: each group's products summed exactly, then scaled */
    for (size_t g = 0; g * GROUP < n; g++) {
        int64_t gsum = 0;
        int any = 0; /* a non-zero product: the group takes part in E even if it cancels */
        for (size_t i = g * GROUP; i < n && i < (g + 1) * GROUP; i++) {
            int s1, s2, e1, e2;
            uint64_t m1, m2;
            fmt_unpack(fi, a[i], &s1, &m1, &e1); /* e2m1: no Inf/NaN */
            fmt_unpack(fi, b[i], &s2, &m2, &e2);
            int64_t prod = (int64_t)((m1 * m2) << (e1 + e2 - 2 * fi->emin));
            gsum += (s1 ^ s2) ? -prod : prod;
            any |= prod != 0;
        }
        size_t si = (scale0 + g * GROUP) / p->scale_block;
        int ss1, ss2, es1, es2;
        uint64_t ms1, ms2;
        if (fmt_unpack(fs, sa[si], &ss1, &ms1, &es1) == TC_VAL_NAN ||
            fmt_unpack(fs, sb[si], &ss2, &ms2, &es2) == TC_VAL_NAN) {
            sp.nan = 1;
            continue;
        }
        if (!any || !ms1 || !ms2)
            continue; /* all products zero, or a zero scale: the group drops out */
        gsig[ng] = ((uint64_t)(gsum < 0 ? -gsum : gsum) * ms1 * ms2) << GH;
        gexp[ng] = es1 + es2 - k.prod_sh;
        gneg[ng] = 0u - (uint32_t)(gsum < 0);
        ng++;
    }
    uint32_t mc;
    int32_t ec;
    int sc;
    fedp_unpack_c_general(p->out, c, &mc, &ec, &sc, &sp);
    uint32_t d;
    int code;
    if (fedp_special_result(&sp, p->out, &d, &code))
        return d;

    /* ---- ALIGN + ADD, NORM + ROUND: as every step (fedp_step.h) */
    int32_t E = fedp_c_exp(&k, mc, ec);
    for (size_t g = 0; g < ng; g++)
        E = fedp_emax(E, gexp[g]);
    /* F = 35 here: the c term and the groups are wider than 32 bits once moved up */
    int64_t sum = (int64_t)fedp_align64((uint64_t)mc << k.HC, fedp_c_x(&k, ec), E);
    sum = sc ? -sum : sum;
    for (size_t g = 0; g < ng; g++) {
        int64_t t = (int64_t)fedp_align64(gsig[g], gexp[g] - gsh, E);
        sum += gneg[g] ? -t : t;
    }
    return fedp_round(&k, sum, E + k.prod_sh - k.F, 0);
}

tc_status tc_dot_scaled(const tc_profile *p, size_t k, const uint32_t *a, const uint32_t *b,
                        const uint32_t *scale_a, const uint32_t *scale_b, uint32_t c,
                        uint32_t *d)
{
    if (!p || !a || !b || !scale_a || !scale_b || !d || k == 0)
        return TC_EINVAL;
    if (p->kind != TC_KIND_MX && p->kind != TC_KIND_MXF4)
        return TC_EUNSUPPORTED;
    if (k % p->scale_block)
        return TC_ESHAPE;
    size_t ns = k / p->scale_block;
    if (!fmt_all_fit(p->in, k, a) || !fmt_all_fit(p->in, k, b) || !fmt_all_fit(p->out, 1, &c) ||
        !fmt_all_fit(p->scale, ns, scale_a) || !fmt_all_fit(p->scale, ns, scale_b))
        return TC_EFORMAT;
    const tc_fmt_info *fs = tc_fmt_get(p->scale);
    uint32_t acc = c;
    for (size_t base = 0; base < k; base += p->L) {
        size_t n = k - base < p->L ? k - base : p->L;
        if (p->kind == TC_KIND_MXF4) {
            acc = mxf4_step(p, n, a + base, b + base, scale_a, scale_b, base, acc);
            continue;
        }
        /* mxf8f6f4: L = scale_block, one scale pair per step */
        size_t si = base / p->scale_block;
        int s1, s2, e1, e2;
        uint64_t m1, m2;
        if (fmt_unpack(fs, scale_a[si], &s1, &m1, &e1) == TC_VAL_NAN ||
            fmt_unpack(fs, scale_b[si], &s2, &m2, &e2) == TC_VAL_NAN) {
            acc = tc_canonical_nan(p->out);
            continue;
        }
        acc = tc_fedp_run(p, n, a + base, b + base, acc, e1 + e2);
    }
    *d = acc;
    return TC_OK;
}
