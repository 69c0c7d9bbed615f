/* chain_model.c - exact fused multiply-add chains (see chain_model.h). */
#include "chain_model.h"

#include <gmp.h>

chain_round chain_round_of(tc_fmt out, unsigned fp32_man_bits)
{
    chain_round r = {out, out == TC_FMT_FP32 ? fp32_man_bits : tc_fmt_get(out)->man_bits,
                     out != TC_FMT_FP32};
    return r;
}

static uint32_t inf_of(const tc_fmt_info *f, int sign)
{
    return (uint32_t)sign << (f->width - 1) | ((1u << f->exp_bits) - 1u) << f->man_bits;
}

/* Rounds (-1)^sign * mag * 2^lsb_exp (mag > 0) to r and packs it. */
static uint32_t round_pack(const chain_round *r, int sign, const mpz_t mag, long lsb_exp)
{
    const tc_fmt_info *f = tc_fmt_get(r->fmt);
    long man = (long)r->man_bits;
    long lead = lsb_exp + (long)mpz_sizeinbase(mag, 2) - 1;
    /* The result's last place: man bits below the leading one, or the subnormal one. */
    long q_exp = (lead > f->emin ? lead : f->emin) - man;
    long shift = q_exp - lsb_exp;
    mpz_t q;
    mpz_init(q);
    if (shift > 0) {
        mpz_tdiv_q_2exp(q, mag, (mp_bitcnt_t)shift);
        if (r->rne) {
            /* Round half to even: look at the dropped bits against half a place. */
            int round_bit = mpz_tstbit(mag, (mp_bitcnt_t)(shift - 1));
            int sticky = mpz_scan1(mag, 0) < (mp_bitcnt_t)(shift - 1);
            if (round_bit && (sticky || mpz_odd_p(q)))
                mpz_add_ui(q, q, 1);
        }
    } else {
        mpz_mul_2exp(q, mag, (mp_bitcnt_t)(-shift));
    }
    /* A carry out of the significand moves the result up one binade. */
    if (mpz_sizeinbase(q, 2) > (size_t)man + 1) {
        mpz_tdiv_q_2exp(q, q, 1);
        q_exp++;
    }
    uint32_t result;
    if (mpz_sgn(q) == 0) {
        result = (uint32_t)sign << (f->width - 1);
    } else if (mpz_sizeinbase(q, 2) == (size_t)man + 1) {
        long e = q_exp + man;
        if (e > f->emax) {
            result = inf_of(f, sign);
        } else {
            uint32_t frac = (uint32_t)(mpz_get_ui(q) - (1ul << man));
            result = (uint32_t)sign << (f->width - 1) |
                     (uint32_t)(e + f->bias) << f->man_bits |
                     frac << (f->man_bits - r->man_bits);
        }
    } else {
        /* Subnormal: the biased exponent is 0 and q_exp is emin - man. */
        result = (uint32_t)sign << (f->width - 1) |
                 (uint32_t)mpz_get_ui(q) << (f->man_bits - r->man_bits);
    }
    mpz_clear(q);
    return result;
}

uint32_t chain_fma(tc_fmt in, uint32_t a, uint32_t b, uint32_t c, const chain_round *r)
{
    const tc_fmt_info *fi = tc_fmt_get(in), *fo = tc_fmt_get(r->fmt);
    tc_value va, vb, vc;
    if (tc_decode(in, a, &va) != TC_OK || tc_decode(in, b, &vb) != TC_OK ||
        tc_decode(r->fmt, c, &vc) != TC_OK)
        return tc_canonical_nan(r->fmt);

    int psign = va.sign ^ vb.sign;
    int a_inf = va.kind == TC_VAL_INF, b_inf = vb.kind == TC_VAL_INF;
    int c_inf = vc.kind == TC_VAL_INF;
    int a_zero = va.kind == TC_VAL_FINITE && va.sig == 0;
    int b_zero = vb.kind == TC_VAL_FINITE && vb.sig == 0;
    int c_zero = vc.kind == TC_VAL_FINITE && vc.sig == 0;
    if (va.kind == TC_VAL_NAN || vb.kind == TC_VAL_NAN || vc.kind == TC_VAL_NAN ||
        (a_inf && b_zero) || (a_zero && b_inf) || ((a_inf || b_inf) && c_inf && psign != vc.sign))
        return tc_canonical_nan(r->fmt);
    if (a_inf || b_inf)
        return inf_of(fo, psign);
    if (c_inf)
        return inf_of(fo, vc.sign);

    /* Exact: a*b = pa*pb * 2^(ea+eb-2m), c = sc * 2^(ec-mc); both on the finer grid. */
    long p_lsb = (long)va.exp + vb.exp - 2L * (long)fi->man_bits;
    long c_lsb = (long)vc.exp - (long)fo->man_bits;
    long lsb = p_lsb < c_lsb ? p_lsb : c_lsb;
    mpz_t p, s;
    mpz_init_set_ui(p, (unsigned long)va.sig);
    mpz_mul_ui(p, p, (unsigned long)vb.sig);
    mpz_mul_2exp(p, p, (mp_bitcnt_t)(p_lsb - lsb));
    if (psign)
        mpz_neg(p, p);
    mpz_init_set_ui(s, (unsigned long)vc.sig);
    mpz_mul_2exp(s, s, (mp_bitcnt_t)(c_lsb - lsb));
    if (vc.sign)
        mpz_neg(s, s);
    mpz_add(s, s, p);

    uint32_t result;
    if (mpz_sgn(s) == 0) {
        /* -0 only for (-0) + (-0); a cancellation is +0 (RNE and RZ alike). */
        int zsign = (a_zero || b_zero) && c_zero && psign && vc.sign;
        result = (uint32_t)zsign << (fo->width - 1);
    } else {
        int sign = mpz_sgn(s) < 0;
        mpz_abs(s, s);
        result = round_pack(r, sign, s, lsb);
    }
    mpz_clear(p);
    mpz_clear(s);
    return result;
}

uint32_t chain_dot(tc_fmt in, unsigned n, const uint32_t *a, const uint32_t *b, uint32_t c,
                   const chain_round *r)
{
    for (unsigned j = 0; j < n; j++)
        c = chain_fma(in, a[j], b[j], c, r);
    return c;
}
