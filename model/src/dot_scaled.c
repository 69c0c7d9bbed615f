/* dot_scaled.c - the block-scaled kinds (tc_dot_scaled): mxf8f6f4, one FEDP step per
 * scale block with the scale exponents added to every product's (a in p->in, b in
 * p->in_b: its mixed pairs decode each by its own format); mxf4 / mxf4nvf4, whose
 * step sums groups of 16 products exactly before scaling them, from fedp_step.h's
 * stages. */
#include "tcsim.h"
#include "fmt_table.h"
#include "fedp_step.h"

/* mxf4 / mxf4nvf4: one instruction step of L = 64 e2m1 products in four groups of
 * 16, each summed exactly and scaled; a group's alignment exponent is its scales'
 * exponents alone; one fused step keeps F bits, then RZ to fp32 (fedp_step.h's group
 * stages, which gemm_lanes.h runs on lanes). */
static uint32_t mxf4_step(const tc_profile *p, size_t n, const uint32_t *a, const uint32_t *b,
                          const uint32_t *sa, const uint32_t *sb, size_t scale0, uint32_t c)
{
    enum { GROUP = TC_MXF4_GROUP, MAX_GROUPS = TC_MAX_L / TC_MXF4_GROUP };
    const tc_fmt_info *fs = tc_fmt_get(p->scale);
    fedp_consts k;
    fedp_consts_for(p, p->in, p->out, p->round, p->out_man_bits, p->F, &k);
    fedp_group_consts_for(p, &k);
    fedp_special sp = {0, 0, 0};
    uint32_t mc;
    int32_t ec;
    int sc;
    fedp_unpack_c_general(p->out, c, &mc, &ec, &sc, &sp);
    int32_t E = fedp_c_exp(&k, mc, ec), gexp[MAX_GROUPS];
    uint64_t gsig[MAX_GROUPS], gneg[MAX_GROUPS];
    const size_t ng = (n + GROUP - 1) / GROUP;

    /* ---- UNPACK + MUL: each group's products summed exactly, then scaled */
    for (size_t g = 0; g < ng; g++) {
        int32_t gsum = 0, orp = 0; /* orp: the products or'ed, non-zero if one is */
        uint32_t bad = 0; /* e2m1 has no special value: bad stays 0 */
        for (size_t i = g * GROUP; i < n && i < (g + 1) * GROUP; i++) {
            int32_t ea, eb;
            uint32_t na, nb;
            uint32_t ma = fedp_unpack(&k.in, a[i], 0, k.gdown, &ea, &na, &bad);
            uint32_t mb = fedp_unpack(&k.in, b[i], 0, k.gdown, &eb, &nb, &bad);
            int32_t t = fedp_group_prod(fedp_group_fixed(ma, ea, na), fedp_group_fixed(mb, eb, nb));
            gsum += t;
            orp |= t;
        }
        size_t si = (scale0 + g * GROUP) / p->scale_block;
        int ss1, ss2, es1, es2;
        uint64_t ms1, ms2;
        if (fmt_unpack(fs, sa[si], &ss1, &ms1, &es1) == TC_VAL_NAN ||
            fmt_unpack(fs, sb[si], &ss2, &ms2, &es2) == TC_VAL_NAN) {
            sp.nan = 1; /* the step's result is NaN: the group's figures do not matter */
            ms1 = ms2 = 0;
        }
        gsig[g] = fedp_group_scale(&k, gsum, FEDP_MASK_S(uint32_t, orp != 0),
                                   (uint32_t)(ms1 * ms2), es1 + es2, &gexp[g], &gneg[g]);
        E = fedp_emax(E, gexp[g]);
    }
    uint32_t d;
    int code;
    if (fedp_special_result(&sp, p->out, &d, &code))
        return d;

    /* ---- ALIGN + ADD, NORM + ROUND: as every step (fedp_step.h) */
    int64_t sum = fedp_group_sum(&k, mc, ec, 0u - (uint32_t)sc, ng, gsig, gexp, gneg, E);
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
    if (!fmt_all_fit(p->in, k, a) || !fmt_all_fit(p->in_b, k, b) || !fmt_all_fit(p->out, 1, &c) ||
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
