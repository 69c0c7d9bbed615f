/* probe_cases.c - the probe's cases: the tests' generator families (testkit's seeded
 * SplitMix64 stream and value generators over the format table), one stream per case
 * so that case i is the same whatever else is drawn. */
#include "probe.h"
#include "fmt_values.h"

/* An fp32 word that is exactly a pattern of `in`: the files hold inputs as fp32. Low
 * bits a format ignores (tf32's 13) are cleared. */
static uint32_t clean(const tc_fmt_info *fi, uint32_t bits)
{
    return bits & ~tk_mask32(fi->ignore_low);
}

/* A finite value of moderate size: exponent within 3 binades of 1. */
static uint32_t moderate(tk_rng *r, const tc_fmt_info *fi)
{
    return tk_finite(r, fi, fi->bias - 3, fi->bias + 3);
}

/* 2^x as a pattern of in, or 0 where in has no such value. */
static uint32_t pow2(tc_fmt in, int x)
{
    uint32_t bits = x >= -126 ? (uint32_t)(x + 127) << 23 : x >= -149 ? 1u << (x + 149) : 0, p;
    if (x > 127 || !bits || tc_convert_exact(TC_FMT_FP32, bits, in, &p) != TC_OK)
        return 0;
    return p;
}

/* Term j of a case as the product 2^x (sign s): the two exponents split so that both
 * factors are values of in where it has them (zero where it has not). */
static void term(tc_fmt in, uint32_t *a, uint32_t *b, unsigned j, int x, int s)
{
    int xa = x / 2, xb = x - xa;
    a[j] = pow2(in, xa);
    b[j] = pow2(in, xb);
    if (!a[j] || !b[j])
        a[j] = b[j] = 0;
    else if (s)
        a[j] = tk_negate(in, a[j]);
}

/* The integer formats' case: the families keep their place, with what tests the
 * integer datapath instead of the float one: extremes of the format, an exact
 * cancellation, and sums that pass the s32 range (does it wrap, as the model's kind
 * says, or saturate?). c is an s32 pattern. */
static void int_case(const tc_fmt_info *fi, unsigned k, tk_rng *r, size_t family, uint32_t *a,
                     uint32_t *b, uint32_t *c)
{
    uint32_t top = (1u << fi->width) - 1u;                            /* all ones */
    uint32_t lo = fi->is_signed ? 1u << (fi->width - 1) : 0, hi = fi->is_signed ? lo - 1 : top;
    const uint32_t ends[] = {lo, hi, 0, 1, top}; /* min, max, 0, 1, -1 (or the max) */
    const uint32_t cends[] = {0x7fffffffu, 0x80000000u, 0, 0xffffffffu, 0x7fff0000u};
    for (unsigned j = 0; j < k; j++) {
        a[j] = tk_bits(r, fi->width);
        b[j] = tk_bits(r, fi->width);
    }
    *c = tk_bits(r, 32);
    switch (family) {
    case PROBE_SPECIALS:
        for (unsigned j = 0; j < k; j++) {
            if (tk_mod(r, 2))
                a[j] = ends[tk_mod(r, 5)];
            if (tk_mod(r, 2))
                b[j] = ends[tk_mod(r, 5)];
        }
        *c = cends[tk_mod(r, 5)];
        break;
    case PROBE_CANCEL: /* a[0]b[0] + a[1]b[1] = 0 (signed) */
        if (k >= 2 && fi->is_signed) {
            a[0] &= top >> 1;
            a[1] = (0u - a[0]) & top;
            b[1] = b[0];
        }
        break;
    case PROBE_SUBNORMAL: { /* the largest products toward an end c is near: the sum
                               leaves s32 (upward; downward too where products can be
                               negative) */
        int up = (int)tk_mod(r, 2);
        for (unsigned j = 0; j < k; j++) {
            a[j] = fi->is_signed ? lo : hi;
            b[j] = fi->is_signed && !up ? hi : a[j];
        }
        *c = up ? 0x7fffffffu - tk_bits(r, 8) : 0x80000000u + tk_bits(r, 8);
        break;
    }
    case PROBE_C_ZERO:
        *c = 0;
        break;
    default:
        break;
    }
}

void probe_case(tc_fmt in, unsigned k, uint64_t seed, size_t i, uint32_t *a, uint32_t *b,
                uint32_t *c)
{
    const tc_fmt_info *fi = tc_fmt_get(in), *f32 = tc_fmt_get(TC_FMT_FP32);
    /* case i's stream starts at a scrambled state: seed ^ i*gamma alone would start
     * case i + 2 two draws into case i's stream (SplitMix64 steps by that gamma), so
     * cases would repeat each other's values shifted (seen in the integer sets) */
    tk_rng start = {seed ^ (UINT64_C(0x9e3779b97f4a7c15) * (i + 1))};
    tk_rng r = {tk_next(&start)};
    if (fi->cls == TC_CLASS_INT) {
        int_case(fi, k, &r, i % PROBE_FAMILIES, a, b, c);
        return;
    }
    uint32_t corners[TK_MAX_CORNERS], c32[TK_MAX_CORNERS];
    size_t nc = tk_corners(in, corners), nc32 = tk_corners(TC_FMT_FP32, c32);
    switch (i % PROBE_FAMILIES) {
    case PROBE_RANDOM:
        for (unsigned j = 0; j < k; j++) {
            a[j] = clean(fi, tk_bits(&r, fi->width));
            b[j] = clean(fi, tk_bits(&r, fi->width));
        }
        *c = tk_bits(&r, 32);
        break;
    case PROBE_SPECIALS:
        for (unsigned j = 0; j < k; j++) {
            a[j] = tk_mod(&r, 4) ? moderate(&r, fi) : corners[tk_mod(&r, (unsigned)nc)];
            b[j] = tk_mod(&r, 4) ? moderate(&r, fi) : corners[tk_mod(&r, (unsigned)nc)];
        }
        *c = tk_mod(&r, 4) ? moderate(&r, f32) : c32[tk_mod(&r, (unsigned)nc32)];
        break;
    case PROBE_CANCEL:
        /* a[0]b[0] + a[1]b[1] = 0 exactly; what is left is the small rest and c */
        for (unsigned j = 0; j < k; j++) {
            a[j] = j < 2 ? moderate(&r, fi) : tk_finite(&r, fi, fi->bias - 8, fi->bias - 5);
            b[j] = j < 2 ? moderate(&r, fi) : tk_finite(&r, fi, fi->bias - 8, fi->bias - 5);
        }
        if (k >= 2) {
            a[1] = tk_negate(in, a[0]);
            b[1] = b[0];
        }
        *c = tk_finite(&r, f32, f32->bias - 12, f32->bias - 6);
        break;
    case PROBE_SUBNORMAL:
        /* both factors at the bottom of the format (subnormal or the first binades):
         * products far below the accumulator's normal range for 8- and 16-bit inputs */
        for (unsigned j = 0; j < k; j++) {
            a[j] = tk_finite(&r, fi, 0, 2);
            b[j] = tk_finite(&r, fi, 0, 2);
        }
        *c = tk_mod(&r, 2) ? 0 : tk_finite(&r, f32, 0, 2);
        break;
    case PROBE_FLOOR: {
        /* c = 0 and three products: 2^e, half an fp16 unit in the last place of 2^e (a
         * tie of the fp16 rounding), and a tiny 2^t of either sign that breaks the tie
         * only if the alignment keeps it, as it does when its bit lies at or above the
         * floor's 2^(max(e, Emin_align) - F): e below and above the tables' fp16 floors
         * and t around 2^(floor - F) tell the floors apart (docs/contract.md). */
        int e = -24 + (int)tk_mod(&r, 9), t = -48 + (int)tk_mod(&r, 8), s = (int)tk_mod(&r, 2);
        for (unsigned j = 0; j < k; j++)
            a[j] = b[j] = 0;
        if (k >= 3) {
            term(in, a, b, 0, e, s);
            term(in, a, b, 1, e < -14 ? -25 : e - 11, s);
            term(in, a, b, 2, t, (int)tk_mod(&r, 2));
        }
        *c = tk_mod(&r, 2) ? 0x80000000u : 0;
        break;
    }
    default: /* PROBE_C_ZERO */
        for (unsigned j = 0; j < k; j++) {
            a[j] = tk_finite(&r, fi, 1, fi->bias + 4);
            b[j] = tk_finite(&r, fi, 1, fi->bias + 4);
        }
        *c = 0;
        break;
    }
}

void probe_scales(tc_fmt fmt, uint64_t seed, size_t i, int which, unsigned n, uint32_t *out)
{
    /* a stream of its own, apart from the case's (probe_case's scrambling, another
     * constant) */
    tk_rng start = {seed ^ (UINT64_C(0xd1b54a32d192ed03) * (2 * i + (size_t)which + 1))};
    tk_rng r = {tk_next(&start)};
    /* ue8m0: 2^(x - 127), 0xff NaN; ue4m3: e4m3's positive patterns, 0x7f NaN, 0x38 = 1 */
    const uint32_t one = fmt == TC_FMT_UE8M0 ? 127 : 0x38, step = fmt == TC_FMT_UE8M0 ? 1 : 8;
    const uint32_t ends[] = {0, fmt == TC_FMT_UE8M0 ? 254u : 0x7eu,
                             fmt == TC_FMT_UE8M0 ? 255u : 0x7fu, 1};
    for (unsigned j = 0; j < n; j++) {
        uint32_t x = (uint32_t)tk_bits(&r, 32);
        if (i % 8 == 7 && x % 2)
            out[j] = ends[x / 2 % 4];
        else /* 2^-4 .. 2^4, and for ue4m3 any fraction of those binades */
            out[j] = one - 4 * step + x % (8 * step + 1);
    }
}

/* ---- fp64 (DMMA): 64-bit patterns (the format table's 32-bit helpers cannot hold
 * them), drawn from the same per-case stream */

#define F64_SIGN UINT64_C(0x8000000000000000)
#define F64_FRAC UINT64_C(0x000fffffffffffff)

/* A binary64 of random sign and fraction with unbiased exponent in [lo, hi] (normal). */
static uint64_t f64_normal(tk_rng *r, int lo, int hi)
{
    uint64_t e = (uint64_t)(lo + 1023 + (int)tk_mod(r, (unsigned)(hi - lo + 1)));
    return (tk_next(r) & (F64_SIGN | F64_FRAC)) | e << 52;
}

/* One element of the specials family: a normal near 1 three times in four, else a
 * corner: zeros, the smallest and largest subnormal, the smallest normal, 1, the largest
 * finite, Inf, a quiet and a signalling NaN (each sign by the draw). */
static uint64_t f64_special(tk_rng *r)
{
    static const uint64_t corners[] = {
        0, 1, F64_FRAC, UINT64_C(0x0010000000000000), UINT64_C(0x3ff0000000000000),
        UINT64_C(0x7fefffffffffffff), UINT64_C(0x7ff0000000000000),
        UINT64_C(0x7ff8000000000000), UINT64_C(0x7ff0000000000001)};
    const unsigned ncorners = sizeof corners / sizeof corners[0];
    if (tk_mod(r, 4))
        return f64_normal(r, -3, 3);
    uint64_t corner = corners[tk_mod(r, ncorners)];
    return corner | (tk_next(r) & F64_SIGN);
}

void probe_case_f64(unsigned k, uint64_t seed, size_t i, uint64_t *a, uint64_t *b, uint64_t *c)
{
    tk_rng start = {seed ^ (UINT64_C(0x9e3779b97f4a7c15) * (i + 1))}; /* as probe_case */
    tk_rng r = {tk_next(&start)};
    switch (i % PROBE_FAMILIES) {
    case PROBE_RANDOM:
        for (unsigned j = 0; j < k; j++) {
            a[j] = tk_next(&r);
            b[j] = tk_next(&r);
        }
        *c = tk_next(&r);
        break;
    case PROBE_SPECIALS:
        for (unsigned j = 0; j < k; j++) {
            a[j] = f64_special(&r);
            b[j] = f64_special(&r);
        }
        *c = f64_special(&r);
        break;
    case PROBE_CANCEL: /* a[0]b[0] + a[1]b[1] = 0 exactly, the rest small */
        for (unsigned j = 0; j < k; j++) {
            a[j] = j < 2 ? f64_normal(&r, -3, 3) : f64_normal(&r, -30, -20);
            b[j] = j < 2 ? f64_normal(&r, -3, 3) : f64_normal(&r, -30, -20);
        }
        if (k >= 2) {
            a[1] = a[0] ^ F64_SIGN;
            b[1] = b[0];
        }
        *c = f64_normal(&r, -60, -40);
        break;
    case PROBE_SUBNORMAL: /* exponents summing to -1080..-1020: binary64's subnormal
                             products, rounded (or not) by each FMA */
        for (unsigned j = 0; j < k; j++) {
            int ea = -540 + (int)tk_mod(&r, 41), eb = -1080 + (int)tk_mod(&r, 61) - ea;
            a[j] = f64_normal(&r, ea, ea);
            b[j] = f64_normal(&r, eb, eb);
        }
        *c = tk_mod(&r, 2) ? 0 : tk_next(&r) & (F64_SIGN | F64_FRAC); /* 0 or subnormal */
        break;
    case PROBE_FLOOR: /* c = +-0 and products cancelling in pairs: the zero's sign */
        for (unsigned j = 0; j < k; j++) {
            a[j] = j % 2 ? a[j - 1] ^ F64_SIGN : f64_normal(&r, -10, 10);
            b[j] = j % 2 ? b[j - 1] : f64_normal(&r, -10, 10);
        }
        if (k % 2)
            a[k - 1] = b[k - 1] = 0;
        *c = tk_mod(&r, 2) ? F64_SIGN : 0;
        break;
    default: /* PROBE_C_ZERO */
        for (unsigned j = 0; j < k; j++) {
            a[j] = f64_normal(&r, -20, 20);
            b[j] = f64_normal(&r, -20, 20);
        }
        *c = 0;
        break;
    }
}
