/* ref_f64.c - the fp64 form's reference on MPFR (see ref_f64.h).
 *
 * The product of two 53-bit significands is exact in 106 bits; the sum of it and c is
 * rounded once to 53 bits in MPFR's widest exponent range, and then onto binary64's range
 * and subnormal grid by mpfr_check_range and mpfr_subnormalize, which take the first
 * rounding's direction (its ternary value) into account so that the two roundings are
 * one. MPFR's special values and signed zeros follow IEEE 754 (Inf*0 and Inf-Inf are NaN,
 * an exact zero sum is +0 unless both terms are -0 in round to nearest). */
#include <mpfr.h>
#include "ref_f64.h"

#define REF_F64_NAN UINT64_C(0x7fffffffffffffff)

uint64_t ref_fma_f64(uint64_t a, uint64_t b, uint64_t c)
{
    mpfr_exp_t emin = mpfr_get_emin(), emax = mpfr_get_emax();
    mpfr_set_emin(mpfr_get_emin_min());
    mpfr_set_emax(mpfr_get_emax_max());
    mpfr_t x, y, z, p, s;
    mpfr_inits2(53, x, y, z, s, (mpfr_ptr)0);
    mpfr_init2(p, 106);
    mpfr_set_d(x, ref_f64_double(a), MPFR_RNDN); /* exact: 53 bits */
    mpfr_set_d(y, ref_f64_double(b), MPFR_RNDN);
    mpfr_set_d(z, ref_f64_double(c), MPFR_RNDN);
    mpfr_mul(p, x, y, MPFR_RNDN);           /* exact: 106 bits, the widest exponent range */
    int t = mpfr_add(s, p, z, MPFR_RNDN);   /* the one rounding, to 53 bits */
    /* binary64's range: values in [2^(emin-1), 2^emax) with emin = -1073, emax = 1024 */
    mpfr_set_emin(-1073);
    mpfr_set_emax(1024);
    t = mpfr_check_range(s, t, MPFR_RNDN);
    mpfr_subnormalize(s, t, MPFR_RNDN);
    uint64_t r = mpfr_nan_p(s) ? REF_F64_NAN : ref_f64_bits(mpfr_get_d(s, MPFR_RNDN));
    mpfr_clears(x, y, z, p, s, (mpfr_ptr)0);
    mpfr_set_emin(emin);
    mpfr_set_emax(emax);
    return r;
}

uint64_t ref_dot_f64(size_t k, const uint64_t *a, const uint64_t *b, uint64_t c)
{
    uint64_t d = c;
    for (size_t i = 0; i < k; i++)
        d = ref_fma_f64(a[i], b[i], d);
    return d;
}
