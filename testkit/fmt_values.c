/* fmt_values.c - values of a format drawn from the format table (fmt_values.h). */
#include "fmt_values.h"

uint32_t tk_mask32(unsigned w)
{
    return w >= 32 ? 0xffffffffu : (1u << w) - 1u;
}

uint32_t tk_pack(const tc_fmt_info *fi, uint32_t sign, uint32_t ef, uint32_t mf, uint32_t low)
{
    uint32_t v = (((sign << fi->exp_bits) | ef) << fi->man_bits) | mf;
    return (v << fi->ignore_low) | (low & tk_mask32(fi->ignore_low));
}

uint32_t tk_max_finite_field(const tc_fmt_info *fi)
{
    uint32_t ones = tk_mask32(fi->exp_bits);
    return fi->nan_style == 1 ? ones - 1u : ones;
}

/* S.1111.111 is e4m3's NaN (nan_style 2): a finite draw that lands on it steps down. */
static int is_e4m3_nan(const tc_fmt_info *fi, uint32_t ef, uint32_t mf)
{
    return fi->nan_style == 2 && ef == tk_mask32(fi->exp_bits) && mf == tk_mask32(fi->man_bits);
}

uint32_t tk_finite(tk_rng *r, const tc_fmt_info *fi, int lo, int hi)
{
    int top = (int)tk_max_finite_field(fi);
    lo = lo < 0 ? 0 : lo > top ? top : lo;
    hi = hi < lo ? lo : hi > top ? top : hi;
    uint32_t ef = (uint32_t)lo + tk_below(r, (uint32_t)(hi - lo + 1));
    uint32_t mf = tk_bits(r, fi->man_bits);
    if (is_e4m3_nan(fi, ef, mf))
        mf--;
    return tk_pack(fi, tk_below(r, 2), ef, mf, tk_bits(r, fi->ignore_low));
}

size_t tk_corners(tc_fmt f, uint32_t out[TK_MAX_CORNERS])
{
    const tc_fmt_info *fi = tc_fmt_get(f);
    uint32_t top = tk_max_finite_field(fi), mant = tk_mask32(fi->man_bits);
    uint32_t ones = tk_mask32(fi->exp_bits), maxm = fi->nan_style == 2 ? mant - 1u : mant;
    size_t n = 0;
    for (uint32_t s = 0; s < 2; s++) {
        out[n++] = tk_pack(fi, s, 0, 0, 0);                          /* zero */
        out[n++] = tk_pack(fi, s, 0, 1, 0);                          /* smallest subnormal */
        out[n++] = tk_pack(fi, s, 0, mant, 0);                       /* largest subnormal */
        out[n++] = tk_pack(fi, s, 1, 0, 0);                          /* smallest normal */
        out[n++] = tk_pack(fi, s, (uint32_t)fi->bias, 0, 0);         /* one */
        out[n++] = tk_pack(fi, s, (uint32_t)fi->bias, 1, 0);         /* one plus an ulp */
        out[n++] = tk_pack(fi, s, (uint32_t)fi->bias - 1u, mant, 0); /* just below one */
        out[n++] = tk_pack(fi, s, top, maxm, 0);                     /* largest finite */
        if (fi->has_inf)
            out[n++] = tk_pack(fi, s, ones, 0, 0);
    }
    if (fi->nan_style == 1) {
        out[n++] = tk_pack(fi, 0, ones, 1, 0);
        out[n++] = tk_pack(fi, 1, ones, mant, 0);
        out[n++] = tk_pack(fi, 0, ones, 1u << (fi->man_bits - 1), 0);
    } else if (fi->nan_style == 2) {
        out[n++] = tk_pack(fi, 0, ones, mant, 0);
        out[n++] = tk_pack(fi, 1, ones, mant, 0);
    }
    return n;
}

int tk_scaled(tc_fmt f, uint32_t x, int w, uint32_t *out)
{
    const tc_fmt_info *fi = tc_fmt_get(f);
    int sub = fi->emin - (int)fi->man_bits;
    for (; !(x & 1u); x >>= 1)
        w++; /* trailing zeros carry no precision */
    int top = 31 - __builtin_clz(x), e = top + w;
    if (e > fi->emax || w < sub || top > (int)fi->man_bits)
        return 0;
    uint32_t ef = 0, mf;
    if (e >= fi->emin) {
        ef = (uint32_t)(e + fi->bias);
        mf = (x << (fi->man_bits - (unsigned)top)) & tk_mask32(fi->man_bits);
    } else {
        mf = x << (w - sub); /* a subnormal: x in units of 2^sub, below 2^man_bits */
    }
    if (is_e4m3_nan(fi, ef, mf))
        return 0;
    *out = tk_pack(fi, 0, ef, mf, 0);
    return 1;
}

int tk_power_of_two(tc_fmt f, int e, uint32_t *out)
{
    return tk_scaled(f, 1, e, out);
}

uint32_t tk_negate(tc_fmt f, uint32_t x)
{
    const tc_fmt_info *fi = tc_fmt_get(f);
    return x ^ (1u << (fi->ignore_low + fi->exp_bits + fi->man_bits));
}

uint32_t tk_value_at(tk_rng *r, tc_fmt f, int e)
{
    const tc_fmt_info *fi = tc_fmt_get(f);
    int sub = fi->emin - (int)fi->man_bits; /* exponent of the smallest subnormal */
    if (e < sub || e > fi->emax)
        return 0;
    uint32_t mf = tk_bits(r, fi->man_bits), ef = 0;
    if (e >= fi->emin) {
        ef = (uint32_t)(e + fi->bias);
        if (is_e4m3_nan(fi, ef, mf))
            mf--;
    } else {
        unsigned pos = (unsigned)(e - sub); /* leading one of the subnormal fraction */
        mf = (1u << pos) | (mf & ((1u << pos) - 1u));
    }
    return tk_pack(fi, tk_below(r, 2), ef, mf, tk_bits(r, fi->ignore_low));
}

unsigned tk_value_bits(const tc_fmt_info *f)
{
    return f->width - f->ignore_low;
}

uint32_t tk_draw(tk_rng *r, const tc_fmt_info *f, int mode, int ebase)
{
    unsigned vb = tk_value_bits(f);
    uint32_t mask = tk_mask32(vb);
    uint32_t man = (uint32_t)tk_next(r) & tk_mask32(f->man_bits);
    uint32_t sign = (uint32_t)tk_mod(r, 2) << (vb - 1);
    uint32_t emax_field = tk_mask32(f->exp_bits);
    if (mode == 0)
        return (uint32_t)tk_next(r) & mask;
    if (mode == 1) {
        int e = ebase + (int)tk_mod(r, 5) - 2;
        e = e < 1 ? 1 : e >= (int)emax_field ? (int)emax_field - 1 : e;
        return sign | (uint32_t)e << f->man_bits | man;
    }
    switch (tk_mod(r, 6)) {
    case 0: return sign;                                      /* +-0 */
    case 1: return sign | 1u;                                 /* smallest subnormal */
    case 2: return sign | man;                                /* subnormal */
    case 3: return sign | emax_field << f->man_bits;          /* Inf, NaN or a normal */
    case 4: return sign | emax_field << f->man_bits | man;    /* NaN or a normal */
    default: return sign | (emax_field - 1u) << f->man_bits | tk_mask32(f->man_bits);
    }
}
