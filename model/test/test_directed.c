/* test_directed.c - one or more hand-derived cases for every rule of docs/contract.md.
 *
 * Each expected value is worked out from the rules in the comment beside it (not
 * taken from the model's output). Encodings used below:
 *   fp16: 1.0 = 3c00, -1.0 = bc00, 2^-24 = 0001, 2^-10 = 1400, 2^-12 = 0c00,
 *         2^-13 = 0800, 65504 = 7bff; bf16: 2^127 = 7f00, 2.0 = 4000, 2^-70 = 1c80
 *   e4m3: 1.0 = 38, 16 = 58, -16 = d8, 2^-9 = 01, 2^-6 = 08, 1.5*2^-7 = 06, NaN = 7f
 *   e2m1: 1.0 = 2, 6.0 = 7, -6.0 = f;  ue8m0: 2^0 = 7f, 2^3 = 82;  ue4m3: 1.5 = 3c
 */
#include <stdio.h>
#include <string.h>
#include "tcsim.h"

typedef struct dcase {
    const char *rule;
    tc_arch arch;
    tc_instr instr;
    tc_fmt in, out;
    size_t k;
    uint32_t a[32], b[32];
    uint32_t c, expect;
} dcase;

#define V TC_ARCH_VOLTA
#define A TC_ARCH_AMPERE
#define H TC_ARCH_HOPPER
#define B TC_ARCH_BLACKWELL
#define ADA TC_ARCH_ADA
#define MMA TC_INSTR_MMA
#define TCG TC_INSTR_TCGEN05
#define FP16 TC_FMT_FP16
#define FP32 TC_FMT_FP32
#define BF16 TC_FMT_BF16
#define E4M3 TC_FMT_E4M3

static const dcase cases[] = {
    /* step 4: terms are truncated at 2^(E-F). Volta F=23, E=0 (c = 1.0): 2^-23 is
     * exactly one unit (kept), 2^-24 is half a unit (dropped). */
    {"truncation boundary: 2^(E-F) kept", V, MMA, FP16, FP32, 1, {0x0002}, {0x3c00},
     0x3f800000, 0x3f800001},
    {"truncation boundary: below 2^(E-F) dropped", V, MMA, FP16, FP32, 1, {0x0001}, {0x3c00},
     0x3f800000, 0x3f800000},
    /* F=24 on Ampere: two 2^-24 terms survive and add up to 2^-23. */
    {"truncation boundary: F=24 keeps 2^-24", A, MMA, FP16, FP32, 2, {0x0001, 0x0001},
     {0x3c00, 0x3c00}, 0x3f800000, 0x3f800001},
    /* sign-magnitude truncation: -2^-24 truncates to 0 (not to -2^-23): 1.0 stays 1.0 */
    {"truncation toward zero of a negative term", V, MMA, FP16, FP32, 1, {0x8001}, {0x3c00},
     0x3f800000, 0x3f800000},
    /* step 7: 1*1 + 1*(-1) + 0 is an exact zero: +0 */
    {"+0 from exact cancellation", V, MMA, FP16, FP32, 2, {0x3c00, 0x3c00}, {0x3c00, 0xbc00},
     0x00000000, 0x00000000},
    {"+0 from exact cancellation, c = -0", A, MMA, FP16, FP16, 2, {0x3c00, 0x3c00},
     {0x3c00, 0xbc00}, 0x8000, 0x0000},
    {"+0 when every term is zero, c = -0", A, MMA, FP16, FP32, 1, {0x8000}, {0x3c00},
     0x80000000, 0x00000000},
    /* step 7: -2^-26 in fp16 (RNE) is below half of 2^-24: rounds to -0 (keeps sign).
     * Volta fp16: E = max(-26, -19) = -19, t = 2^-26 * 2^42 = 2^16 exactly. */
    {"non-zero sum rounding to zero keeps its sign", V, MMA, FP16, FP16, 1, {0x0800}, {0x8800},
     0x0000, 0x8000},
    /* a zero product whose exponent is above every non-zero term's (0 * 2^15 beside
     * 2^-24 * 1): it must not raise E, and 2^-24 survives exactly: 0x33800000 */
    {"a zero product takes no part in E", V, MMA, FP16, FP32, 2, {0x0000, 0x0001},
     {0x7800, 0x3c00}, 0x00000000, 0x33800000},
    {"all terms zero with no Emin_align (volta)", V, MMA, FP16, FP32, 2, {0x0000, 0x8000},
     {0x7800, 0x3c00}, 0x00000000, 0x00000000},
    /* subnormal outputs */
    {"fp32 subnormal output from c = 2^-149", A, MMA, FP16, FP32, 1, {0x0000}, {0x0000},
     0x00000001, 0x00000001},
    /* bf16 2^-70 * 2^-70 = 2^-140 = 2^9 * 2^-149; E floored to -132, t = 2^16 exactly */
    {"fp32 subnormal output from a product", A, MMA, BF16, FP32, 1, {0x1c80}, {0x1c80},
     0x00000000, 0x00000200},
    /* 2^-10 * 2^-10 = 2^-20 = 16 * 2^-24: fp16 subnormal 0x0010 */
    {"fp16 subnormal output", V, MMA, FP16, FP16, 1, {0x1400}, {0x1400}, 0x0000, 0x0010},
    /* overflow: bf16 2^127 * 2 = 2^128 >= 2^(emax+1): Inf even though fp32 rounds RZ */
    {"overflow to Inf under RZ (fp32)", A, MMA, BF16, FP32, 1, {0x7f00}, {0x4000},
     0x00000000, 0x7f800000},
    /* 65504 + 65504 = 131008 >= 2^16: Inf in fp16 */
    {"overflow to Inf (fp16)", A, MMA, FP16, FP16, 2, {0x7bff, 0x7bff}, {0x3c00, 0x3c00},
     0x0000, 0x7c00},
    /* special values */
    {"NaN input gives the canonical NaN", A, MMA, FP16, FP32, 2, {0x3c00, 0x7e01},
     {0x3c00, 0x3c00}, 0x3f800000, 0x7fffffff},
    {"NaN c gives the canonical NaN (fp16)", A, MMA, FP16, FP16, 1, {0x3c00}, {0x3c00}, 0xfe00,
     0x7fff},
    {"Inf * 0 is NaN", A, MMA, FP16, FP32, 1, {0x7c00}, {0x0000}, 0x00000000, 0x7fffffff},
    {"Inf + -Inf products is NaN", A, MMA, FP16, FP32, 2, {0x7c00, 0xfc00}, {0x3c00, 0x3c00},
     0x00000000, 0x7fffffff},
    {"Inf product + -Inf c is NaN", A, MMA, FP16, FP32, 1, {0x7c00}, {0x3c00}, 0xff800000,
     0x7fffffff},
    {"Inf product gives Inf of its sign", A, MMA, FP16, FP32, 2, {0x7c00, 0x3c00},
     {0xbc00, 0x3c00}, 0x3f800000, 0xff800000},
    {"Inf c with finite products gives Inf", V, MMA, FP16, FP16, 1, {0x3c00}, {0x3c00}, 0x7c00,
     0x7c00},
    {"e4m3 NaN (S.1111.111) gives NaN", ADA, MMA, E4M3, FP32, 1, {0x7f}, {0x38}, 0x00000000,
     0x7fffffff},
    {"e4m3 0x7e is 448, not NaN", ADA, MMA, E4M3, FP32, 1, {0x7e}, {0x38}, 0x00000000,
     0x43e00000},
    /* The two below go the general way: an e4m3 word with exponent field 1111 (0x78 =
     * 256, e = 8) is finite but makes the step leave the fast path. Ada F = 13.
     * 256 * 0 is a zero product of exponent 8 + (-6) = 2, above the other product
     * 2^-6 * 2^-8 (0x08 * 0x02: e = -6 + -6 = -12, m = 1 * 0.25, value 2^-14). E = -12,
     * t = trunc(0.25 * 2^13) = 2^11, d = 2^-14 = 0x38800000; had the zero product set
     * E = 2, 2^-14 would be below 2^(2-13) and truncated to +0. */
    {"a zero product takes no part in E (general path)", ADA, MMA, E4M3, FP32, 2,
     {0x78, 0x08}, {0x00, 0x02}, 0x00000000, 0x38800000},
    /* c alone is non-zero (256 * 0 is dropped): E = e_c = -30, t = 2^13, d = c exactly
     * (2^-30 fits e8m13). Without c setting E the step would return +0 or cut c. */
    {"c alone sets E (general path)", ADA, MMA, E4M3, FP32, 1, {0x78}, {0x00}, 0x30800000,
     0x30800000},
    /* Emin_align in fp16 mode (Volta -19, F = 23): with E = -19 the 2^-48 product is
     * truncated away, leaving exactly 2^-25, a tie between 0 and 2^-24: RNE gives +0.
     * (Without the floor E would be -25 and 2^-48 would survive: 0x0001.) */
    {"Emin_align floors E in fp16 mode (volta)", V, MMA, FP16, FP16, 2, {0x0c00, 0x0001},
     {0x0800, 0x0001}, 0x0000, 0x0000},
    {"Emin_align floors E in fp16 mode (ampere)", A, MMA, FP16, FP16, 2, {0x0c00, 0x0001},
     {0x0800, 0x0001}, 0x0000, 0x0000},
    /* e8m13: Ada fp8 -> fp32 keeps 13 fraction bits: 1 + 1 + 2^-13 = 2 + 2^-13 needs 14
     * bits after normalisation and is cut to 2.0; Blackwell tcgen05 (F=25, no cut) keeps
     * 2 + 2^-13 = 0x40000200. */
    {"fp8 e8m13 result truncation (ada)", ADA, MMA, E4M3, FP32, 2, {0x38, 0x38}, {0x38, 0x38},
     0x39000000, 0x40000000},
    {"no e8m13 truncation on tcgen05 f8f6f4", B, TCG, E4M3, FP32, 2, {0x38, 0x38},
     {0x38, 0x38}, 0x39000000, 0x40000200},
    /* F = 13 on Ada drops 2^-14 against E = 0; F = 25 keeps it (1 + 2^-14 = 0x3f800200). */
    {"F=13 alignment on ada fp8", ADA, MMA, E4M3, FP32, 1, {0x38}, {0x38}, 0x38800000,
     0x3f800000},
    {"F=25 alignment on tcgen05 fp8", B, TCG, E4M3, FP32, 1, {0x38}, {0x38}, 0x38800000,
     0x3f800200},
    /* k > L chaining order (Volta L = 4): block 0 = four 2^-24 products, exact sum
     * 2^-22 (E = -24); block 1 = 1*1 with c = 2^-22 -> 1 + 2^-22 = 0x3f800002. The
     * blocks reversed would give 1.0 (each 2^-24 truncated against E = 0). */
    {"k > L chains consecutive blocks in order", V, MMA, FP16, FP32, 8,
     {0x0001, 0x0001, 0x0001, 0x0001, 0x3c00}, {0x3c00, 0x3c00, 0x3c00, 0x3c00, 0x3c00},
     0x00000000, 0x3f800002},
    /* fp8 emulation, c added last with one RNE addition: d2 = 2^-6 * 1.5*2^-7 = 1.5*2^-13
     * exactly; 1024 + 1.5 ulp(1024) rounds to nearest: 1024 + 2^-12 = 0x44800002. (Adding
     * c inside the RZ step would give 0x44800001.) */
    {"fp8 emulation: c added last, RNE", H, MMA, E4M3, FP32, 1, {0x08}, {0x06}, 0x44800000,
     0x44800002},
    /* fp8 emulation, k mod 4 split: half 1 = {k=16: 16*16, k=17: 16*-16} (k mod 4 = 0,1)
     * sums to +0; half 2 = {k=2: 2^-9*2^-9} with c = +0 gives 2^-18 = 0x36800000. Cutting
     * at k = 16 instead, or swapping the halves, loses 2^-18 against E = 8: +0. */
    {"fp8 emulation: k mod 4 split, halves in order", H, MMA, E4M3, FP32, 18,
     {0, 0, 0x01, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0x58, 0x58},
     {0, 0, 0x01, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0x58, 0xd8}, 0x00000000, 0x36800000},
    {"fp8 emulation on blackwell, fp16 output", B, MMA, E4M3, FP16, 1, {0x38}, {0x38}, 0x3c00,
     0x4000},
    /* integer kind: 127*127 + (-128)*(-128) = 32513 = 0x7f01; 0x7fffffff + 0x7f01 wraps */
    {"int8 exact s32 accumulate with wrap-around", A, MMA, TC_FMT_INT8, TC_FMT_S32, 2,
     {0x7f, 0x80}, {0x7f, 0x80}, 0x7fffffff, 0x80007f00},
    {"uint4 products", A, MMA, TC_FMT_UINT4, TC_FMT_S32, 2, {0xf, 0x1}, {0xf, 0x2}, 0x00000001,
     0x000000e4},
};

typedef struct scase {
    const char *rule, *kind;
    tc_fmt in, scale;
    unsigned block;
    size_t k;
    uint32_t a0, b0, a_at, b_at; /* a0/b0 at index 0, a_at/b_at at index `at` */
    size_t at;
    uint32_t sa[4], sb[4];
    uint32_t c, expect;
} scase;

static const scase scaled[] = {
    /* mxf8f6f4: product exponent + e(scale_a) + e(scale_b): 1 * 1 * 2^3 = 8.0 */
    {"mxf8f6f4: scale exponents shift the product", "mxf8f6f4", E4M3, TC_FMT_UE8M0, 32, 32,
     0x38, 0x38, 0, 0, 1, {0x82}, {0x7f}, 0, 0x41000000},
    {"mxf8f6f4: NaN scale gives NaN", "mxf8f6f4", E4M3, TC_FMT_UE8M0, 32, 32, 0x38, 0x38, 0, 0,
     1, {0xff}, {0x7f}, 0, 0x7fffffff},
    /* mxf4: 1.0 * 1.0, scales 2^0 = 1.0 */
    {"mxf4: one product", "mxf4", TC_FMT_E2M1, TC_FMT_UE8M0, 32, 64, 0x2, 0x2, 0, 0, 1,
     {0x7f, 0x7f}, {0x7f, 0x7f}, 0, 0x3f800000},
    /* mxf4: group 0 = 6*6 = 36, group 1 = 6*-6 = -36, both with alignment exponent 0
     * (scales alone, though |36| > 2); c = 2^-36 is below 2^(0-35): truncated: +0. */
    {"mxf4: group alignment exponent from the scales, F = 35", "mxf4", TC_FMT_E2M1,
     TC_FMT_UE8M0, 32, 64, 0x7, 0x7, 0x7, 0xf, 16, {0x7f, 0x7f}, {0x7f, 0x7f}, 0x2d800000,
     0x00000000},
    /* nvf4 with ue4m3 scales (sign bit ignored): 1 * 1 * 1.5 * 1.0 */
    {"mxf4nvf4: ue4m3 scale significand, sign ignored", "mxf4nvf4", TC_FMT_E2M1, TC_FMT_UE4M3,
     16, 16, 0x2, 0x2, 0, 0, 1, {0xbc}, {0x38}, 0, 0x3fc00000},
};

/* Conversions to fp16, each with its rule (tc_convert_rne, or tc_convert_exact where
 * exact is set), worked by hand from the formats' encodings. */
typedef struct ccase {
    const char *rule;
    int exact;
    tc_fmt from;
    uint32_t bits, expect;
} ccase;

static const ccase conversions[] = {
    /* 65520 is the fp16 overflow threshold under RNE; 2^-25 ties to 0 */
    {"convert: 65520 -> fp16 Inf", 0, FP32, 0x477ff000, 0x7c00},
    {"convert: just below 65520 -> 65504", 0, FP32, 0x477fefff, 0x7bff},
    {"convert: -2^-25 -> -0", 0, FP32, 0xb3000000, 0x8000},
    {"convert: e4m3 2^-9 -> fp16 exactly", 1, E4M3, 0x01, 0x1800},
    /* tcsim.h: NaN becomes the canonical NaN (not a NaN with the payload or quiet bit
     * copied): fp32 quiet NaN 7fc00000 and e5m2 NaN 7d both give fp16 7fff */
    {"convert: fp32 NaN -> fp16 canonical NaN", 0, FP32, 0x7fc00000, 0x7fff},
    {"convert: e5m2 NaN -> fp16 canonical NaN", 0, TC_FMT_E5M2, 0x7d, 0x7fff},
    /* IEEE conversion keeps the sign of zero (the fp8 emulation converts -0 too) */
    {"convert: fp32 -0 -> fp16 -0", 0, FP32, 0x80000000, 0x8000},
    {"convert: e4m3 -0 -> fp16 -0", 1, E4M3, 0x80, 0x8000},
    /* 2^-65 is far below half the smallest fp16 subnormal (2^-25): +0 / -0. Chosen so
     * that exactly 64 bits lie between fp16's last subnormal bit and the last bit of
     * the fp32 significand (2^-24 / 2^-88 = 2^64): a 64-bit shift must still give 0. */
    {"convert: 2^-65 -> fp16 +0", 0, FP32, 0x1f000000, 0x0000},
    {"convert: -2^-65 -> fp16 -0", 0, FP32, 0x9f000000, 0x8000},
};

static int check(const char *rule, tc_status st, uint32_t got, uint32_t expect)
{
    if (st != TC_OK || got != expect) {
        printf("FAIL %-55s got %08x (%s), expected %08x\n", rule, got, tc_strerror(st),
               expect);
        return 1;
    }
    return 0;
}

static int run_cases(void)
{
    int fails = 0;
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        const dcase *t = &cases[i];
        const tc_profile *p;
        uint32_t d = 0;
        tc_status st = tc_profile_find(t->arch, t->instr, t->in, t->out, &p);
        if (st == TC_OK)
            st = tc_dot(p, t->k, t->a, t->b, t->c, &d);
        fails += check(t->rule, st, d, t->expect);
    }
    for (size_t i = 0; i < sizeof scaled / sizeof scaled[0]; i++) {
        const scase *t = &scaled[i];
        const tc_profile *p;
        uint32_t a[64] = {0}, b[64] = {0}, d = 0;
        a[0] = t->a0;
        b[0] = t->b0;
        if (t->at) {
            a[t->at] = t->a_at;
            b[t->at] = t->b_at;
        }
        tc_status st = tc_profile_find_scaled(TC_ARCH_BLACKWELL, TC_INSTR_TCGEN05, t->kind, t->in,
                                              t->scale, t->block, &p);
        if (st == TC_OK)
            st = tc_dot_scaled(p, t->k, a, b, t->sa, t->sb, t->c, &d);
        fails += check(t->rule, st, d, t->expect);
    }
    return fails;
}

/* Format decoding: special values and encodings of every format. */
static int run_decode(void)
{
    static const struct {
        tc_fmt f;
        uint32_t bits;
        tc_value_kind kind;
        int sign;
        uint64_t sig;
        int exp;
    } d[] = {
        {TC_FMT_FP32, 0x00000001, TC_VAL_FINITE, 0, 1, -126},       /* 2^-149 */
        {TC_FMT_TF32, 0x3f801fff, TC_VAL_FINITE, 0, 1024, 0},       /* low 13 bits ignored */
        {TC_FMT_FP16, 0xfc00, TC_VAL_INF, 1, 0, 0},
        {TC_FMT_BF16, 0x7fc1, TC_VAL_NAN, 0, 0, 0},
        {TC_FMT_E4M3, 0x7e, TC_VAL_FINITE, 0, 14, 8},               /* 448 = 1.75 * 2^8 */
        {TC_FMT_E4M3, 0xff, TC_VAL_NAN, 1, 0, 0},
        {TC_FMT_E4M3, 0x78, TC_VAL_FINITE, 0, 8, 8},                /* no Inf: 256 */
        {TC_FMT_E5M2, 0x7c, TC_VAL_INF, 0, 0, 0},
        {TC_FMT_E5M2, 0x01, TC_VAL_FINITE, 0, 1, -14},              /* 2^-16 */
        {TC_FMT_E3M2, 0x1f, TC_VAL_FINITE, 0, 7, 4},                /* 28 = 1.75 * 2^4 */
        {TC_FMT_E2M3, 0x1f, TC_VAL_FINITE, 0, 15, 2},               /* 7.5 */
        /* fp6 subnormals: exponent field 0 decodes at emin = 1 - bias (e2m3 0, e3m2 -2):
         * 0.001b * 2^0 = 2^-3 and 0.01b * 2^-2 = 2^-4 */
        {TC_FMT_E2M3, 0x01, TC_VAL_FINITE, 0, 1, 0},
        {TC_FMT_E3M2, 0x01, TC_VAL_FINITE, 0, 1, -2},
        {TC_FMT_E2M1, 0xf, TC_VAL_FINITE, 1, 3, 2},                 /* -6 */
        {TC_FMT_E2M1, 0x1, TC_VAL_FINITE, 0, 1, 0},                 /* 0.5, subnormal */
        {TC_FMT_UE8M0, 0x00, TC_VAL_FINITE, 0, 1, -127},            /* 2^-127, not zero */
        {TC_FMT_UE8M0, 0xff, TC_VAL_NAN, 0, 0, 0},
        {TC_FMT_UE4M3, 0xb8, TC_VAL_FINITE, 0, 8, 0},               /* sign ignored: 1.0 */
        {TC_FMT_UE4M3, 0x7f, TC_VAL_NAN, 0, 0, 0},
    };
    int fails = 0;
    for (size_t i = 0; i < sizeof d / sizeof d[0]; i++) {
        tc_value v;
        tc_status st = tc_decode(d[i].f, d[i].bits, &v);
        int ok = st == TC_OK && v.kind == d[i].kind && v.sign == d[i].sign &&
                 (v.kind != TC_VAL_FINITE || (v.sig == d[i].sig && v.exp == d[i].exp));
        if (!ok) {
            printf("FAIL decode %s %x: kind %d sign %d sig %llu exp %d\n",
                   tc_fmt_get(d[i].f)->name, d[i].bits, v.kind, v.sign,
                   (unsigned long long)v.sig, v.exp);
            fails++;
        }
    }
    tc_value v;
    if (tc_decode(TC_FMT_FP16, 0x10000, &v) != TC_EFORMAT ||
        tc_decode(TC_FMT_E2M1, 0x10, &v) != TC_EFORMAT) {
        printf("FAIL decode: a word wider than its format is not rejected\n");
        fails++;
    }
    return fails;
}

/* IEEE additions (tc_add), each with its rule, worked by hand from the encodings. */
typedef struct acase {
    const char *rule;
    tc_fmt fmt;
    uint32_t x, y;
    tc_round rnd;
    uint32_t expect;
} acase;

static const acase additions[] = {
    {"add: -0 + -0 = -0", FP32, 0x80000000, 0x80000000, TC_RNE, 0x80000000},
    {"add: 1 + -1 = +0", FP32, 0x3f800000, 0xbf800000, TC_RNE, 0x00000000},
    {"add: Inf + -Inf = NaN", FP32, 0x7f800000, 0xff800000, TC_RNE, 0x7fffffff},
    /* (1 + 2^-23) + 2^-24: a tie, to the even neighbour 1 + 2^-22 */
    {"add: tie to even (up)", FP32, 0x3f800001, 0x33800000, TC_RNE, 0x3f800002},
    {"add: tie to even (down)", FP32, 0x3f800000, 0x33800000, TC_RNE, 0x3f800000},
    /* 1 - 2^-60: far below half an ulp, nearest is 1.0; RZ gives the next value down */
    {"add: tiny subtrahend, RNE", FP32, 0x3f800000, 0xa1800000, TC_RNE, 0x3f800000},
    {"add: tiny subtrahend, RZ", FP32, 0x3f800000, 0xa1800000, TC_RZ, 0x3f7fffff},
    {"add: fp16 overflow", FP16, 0x7bff, 0x7bff, TC_RNE, 0x7c00},
};

/* The IEEE addition that ends the fp8 emulation, and the conversions. */
static int run_add(void)
{
    int fails = 0;
    uint32_t r = 0;
    tc_status st;
    for (size_t i = 0; i < sizeof additions / sizeof additions[0]; i++) {
        const acase *c = &additions[i];
        st = tc_add(c->fmt, c->x, c->y, c->rnd, &r);
        fails += check(c->rule, st, r, c->expect);
    }
    /* a rounding mode that is neither: refused (it ran as RZ), the result untouched */
    r = 0x1234;
    st = tc_add(FP32, 0x3f800000, 0xa1800000, (tc_round)7, &r);
    if (st != TC_EINVAL || r != 0x1234) {
        printf("FAIL add: rounding mode 7 gave %s, r %08x\n", tc_strerror(st), r);
        fails++;
    }
    for (size_t i = 0; i < sizeof conversions / sizeof conversions[0]; i++) {
        const ccase *c = &conversions[i];
        st = (c->exact ? tc_convert_exact : tc_convert_rne)(c->from, c->bits, FP16, &r);
        fails += check(c->rule, st, r, c->expect);
    }
    if (tc_convert_exact(FP32, 0x3f800001, FP16, &r) != TC_EINVAL) {
        printf("FAIL convert: an inexact conversion is not rejected\n");
        fails++;
    }
    return fails;
}

/* The API's error paths: clear codes, no crash. */
static int run_errors(void)
{
    const tc_profile *p;
    uint32_t a[40] = {0}, d;
    int fails = 0;
    tc_profile_find(A, MMA, FP16, FP32, &p);
#define EXPECT(expr, code)                                                         \
    do {                                                                           \
        tc_status s_ = (expr);                                                     \
        if (s_ != (code)) {                                                        \
            printf("FAIL %s: %s, expected %s\n", #expr, tc_strerror(s_),           \
                   tc_strerror(code));                                             \
            fails++;                                                               \
        }                                                                          \
    } while (0)
    EXPECT(tc_dot(NULL, 1, a, a, 0, &d), TC_EINVAL);
    EXPECT(tc_dot(p, 0, a, a, 0, &d), TC_EINVAL);
    EXPECT(tc_dot(p, 1, NULL, a, 0, &d), TC_EINVAL);
    a[0] = 0x10000;
    EXPECT(tc_dot(p, 1, a, a, 0, &d), TC_EFORMAT);
    a[0] = 0;
    EXPECT(tc_fedp_step(p, 9, a, a, 0, &d, NULL), TC_ESHAPE);
    EXPECT(tc_profile_find(V, MMA, BF16, FP32, &p), TC_EUNSUPPORTED);
    EXPECT(tc_profile_find(A, TC_INSTR_TCGEN05, FP16, FP32, &p), TC_EUNSUPPORTED);
    EXPECT(tc_profile_find_scaled(B, TCG, "mxf4", TC_FMT_E2M1, TC_FMT_UE8M0, 0, &p), TC_OK);
    EXPECT(tc_dot_scaled(p, 48, a, a, a, a, 0, &d), TC_ESHAPE);
    EXPECT(tc_dot(p, 64, a, a, 0, &d), TC_EUNSUPPORTED);
    if (strcmp(tc_strerror(TC_EFORMAT), tc_strerror(TC_EINVAL)) == 0) {
        printf("FAIL tc_strerror does not tell the codes apart\n");
        fails++;
    }
    return fails;
}

/* A 2 x 2 x 5 tile on Volta (L = 4): element (i, j) is the k-ordered dot product of
 * row i of A and column j of B. A = [[1,1,1,1,1],[2,2,2,2,2]], B column 0 = all 1,
 * column 1 = [1,0,0,0,-1]; C = [[0, 1], [0.5, 0]]: D = [[5, 1], [10.5, 0]] (in fp32:
 * 5 = 40a00000, 1 = 3f800000, 10.5 = 41280000, +0 = 0 from the exact cancellation). */
static int run_tile(void)
{
    const uint32_t A[10] = {0x3c00, 0x3c00, 0x3c00, 0x3c00, 0x3c00,
                            0x4000, 0x4000, 0x4000, 0x4000, 0x4000};
    const uint32_t Bm[10] = {0x3c00, 0x3c00, 0x3c00, 0x0000, 0x3c00, 0x0000,
                             0x3c00, 0x0000, 0x3c00, 0xbc00};
    const uint32_t C[4] = {0x00000000, 0x3f800000, 0x3f000000, 0x00000000};
    const uint32_t expect[4] = {0x40a00000, 0x3f800000, 0x41280000, 0x00000000};
    uint32_t D[4] = {0};
    const tc_profile *p;
    int fails = 0;
    tc_status st = tc_profile_find(V, MMA, FP16, FP32, &p);
    if (st == TC_OK)
        st = tc_mma_tile(p, 2, 2, 5, A, Bm, C, D);
    for (int i = 0; i < 4; i++)
        fails += check("tile: 2x2x5 element", st, D[i], expect[i]);
    return fails;
}

int main(void)
{
    int fails = run_cases() + run_decode() + run_add() + run_errors() + run_tile();
    printf("%s (%d failures)\n", fails ? "FAILED" : "PASSED", fails);
    return fails ? 1 : 0;
}
