/*
 * test_vs_ref.c - the golden model against the exact reference (ref_exact.c).
 *
 *   test_vs_ref [--seed N] [--cases N] [--profile NAME] [--case I] [--max-print N]
 *               [--dump N] [--selftest] [--table]
 *
 * Three parts:
 *   selftest  the reference against hand-computed cases written from NUMERICS.md, so
 *             that the reference is not only ever checked against the model;
 *   table     the model's profile table (tc_profile_table) against our own
 *             transcription of the NUMERICS.md table, row for row, both ways;
 *   random    a seeded random comparison over every row of the model's table, bit
 *             for bit, with inputs drawn to hit the hard cases (see `scenario`).
 * --selftest and --table run only those parts; with neither, all three run.
 * --profile NAME restricts the random part to one model row (all --cases go to it),
 * --case I to one case of it (every case's inputs depend only on seed, row, I);
 * --dump N prints the first N cases of every row with both results.
 * Prints PASSED or FAILED; the exit status is non-zero on any failure.
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "ref_exact.h"
#include "tcsim.h"

/* ======================================================================= rng */

/* xoshiro256** seeded through splitmix64: small, fast, reproducible everywhere. */
typedef struct rng {
    uint64_t s[4];
} rng;

static uint64_t splitmix64(uint64_t *x)
{
    uint64_t z = (*x += 0x9e3779b97f4a7c15ull);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
    return z ^ (z >> 31);
}

static void rng_seed(rng *r, uint64_t seed)
{
    for (int i = 0; i < 4; i++)
        r->s[i] = splitmix64(&seed);
}

static uint64_t rotl(uint64_t x, int k)
{
    return (x << k) | (x >> (64 - k));
}

static uint64_t rnext(rng *r)
{
    uint64_t *s = r->s, res = rotl(s[1] * 5, 7) * 9, t = s[1] << 17;
    s[2] ^= s[0];
    s[3] ^= s[1];
    s[1] ^= s[2];
    s[0] ^= s[3];
    s[2] ^= t;
    s[3] = rotl(s[3], 45);
    return res;
}

/* uniform in [0, n), n > 0 (the modulo bias is irrelevant for a test) */
static uint32_t rbelow(rng *r, uint32_t n)
{
    return (uint32_t)((rnext(r) >> 32) % n);
}

/* uniform in [lo, hi] */
static int rrange(rng *r, int lo, int hi)
{
    return hi <= lo ? lo : lo + (int)rbelow(r, (uint32_t)(hi - lo + 1));
}

static int rpct(rng *r, unsigned pct)
{
    return rbelow(r, 100) < pct;
}

static int clampi(int v, int lo, int hi)
{
    return v < lo ? lo : v > hi ? hi : v;
}

/* ======================================================================= self-test */

static int selftest_failures;

static void expect_u32(const char *what, int rc, uint32_t got, uint32_t want)
{
    if (rc != 0 || got != want) {
        printf("selftest FAIL: %s: ref gives 0x%08" PRIx32 " (rc %d), expected 0x%08" PRIx32 "\n",
               what, got, rc, want);
        selftest_failures++;
    }
}

/* Decoder checks: the value as odd significand * 2^q (or zero / Inf / NaN). */
typedef struct dec_case {
    tc_fmt f;
    uint32_t bits;
    ref_cls cls;
    int neg;
    uint64_t sig; /* odd, or 0 */
    int q;
} dec_case;

static void selftest_decode(void)
{
    static const dec_case cases[] = {
        {TC_FMT_E4M3, 0x7e, REF_FIN, 0, 7, 6},      /* 448, the largest e4m3 */
        {TC_FMT_E4M3, 0x7f, REF_NAN, 0, 0, 0},      /* S.1111.111 */
        {TC_FMT_E4M3, 0xff, REF_NAN, 1, 0, 0},
        {TC_FMT_E4M3, 0x78, REF_FIN, 0, 1, 8},      /* 256: no Inf in e4m3 */
        {TC_FMT_E4M3, 0x80, REF_FIN, 1, 0, 0},      /* -0 */
        {TC_FMT_E4M3, 0x01, REF_FIN, 0, 1, -9},     /* smallest subnormal */
        {TC_FMT_E5M2, 0x7b, REF_FIN, 0, 7, 13},     /* 57344 */
        {TC_FMT_E5M2, 0x7c, REF_INF, 0, 0, 0},
        {TC_FMT_E5M2, 0xfc, REF_INF, 1, 0, 0},
        {TC_FMT_E5M2, 0x7d, REF_NAN, 0, 0, 0},
        {TC_FMT_E5M2, 0x01, REF_FIN, 0, 1, -16},
        {TC_FMT_E3M2, 0x1f, REF_FIN, 0, 7, 2},      /* 28 */
        {TC_FMT_E3M2, 0x01, REF_FIN, 0, 1, -4},     /* 0.01b * 2^-2 */
        {TC_FMT_E3M2, 0x3f, REF_FIN, 1, 7, 2},      /* -28: no NaN */
        {TC_FMT_E2M3, 0x1f, REF_FIN, 0, 15, -1},    /* 7.5 */
        {TC_FMT_E2M3, 0x01, REF_FIN, 0, 1, -3},
        {TC_FMT_E2M1, 0x7, REF_FIN, 0, 3, 1},       /* 6 */
        {TC_FMT_E2M1, 0x1, REF_FIN, 0, 1, -1},      /* 0.5 */
        {TC_FMT_E2M1, 0xa, REF_FIN, 1, 1, 0},       /* -1 */
        {TC_FMT_UE8M0, 0x00, REF_FIN, 0, 1, -127},
        {TC_FMT_UE8M0, 0xfe, REF_FIN, 0, 1, 127},
        {TC_FMT_UE8M0, 0xff, REF_NAN, 0, 0, 0},
        {TC_FMT_UE4M3, 0xb8, REF_FIN, 0, 1, 0},     /* sign bit ignored: 1.0 */
        {TC_FMT_UE4M3, 0x80, REF_FIN, 0, 0, 0},
        {TC_FMT_UE4M3, 0xff, REF_NAN, 0, 0, 0},
        {TC_FMT_FP16, 0x0001, REF_FIN, 0, 1, -24},
        {TC_FMT_FP16, 0x7bff, REF_FIN, 0, 2047, 5}, /* 65504 */
        {TC_FMT_BF16, 0x0001, REF_FIN, 0, 1, -133},
        {TC_FMT_FP32, 0x00000001, REF_FIN, 0, 1, -149},
        {TC_FMT_TF32, 0x7f801fff, REF_INF, 0, 0, 0}, /* low 13 bits ignored */
        {TC_FMT_TF32, 0x00002000, REF_FIN, 0, 1, -136},
        {TC_FMT_TF32, 0x80001fff, REF_FIN, 1, 0, 0},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        const dec_case *t = &cases[i];
        ref_num x;
        int rc = ref_decode(t->f, t->bits, &x);
        if (rc == 0 && x.cls == REF_FIN)
            while (x.sig && !(x.sig & 1u)) {
                x.sig >>= 1;
                x.q++;
            }
        int ok = rc == 0 && x.cls == t->cls && x.neg == t->neg &&
                 (t->cls != REF_FIN || (x.sig == t->sig && (x.sig == 0 || x.q == t->q)));
        if (!ok) {
            printf("selftest FAIL: decode %s 0x%" PRIx32 "\n", ref_fmt_get(t->f)->name, t->bits);
            selftest_failures++;
        }
    }
    ref_num x;
    if (ref_decode(TC_FMT_E2M1, 0x10, &x) == 0 || ref_decode(TC_FMT_FP16, 0x10000, &x) == 0) {
        printf("selftest FAIL: a pattern wider than its format was accepted\n");
        selftest_failures++;
    }
}

/* Hand-computed dot products. Each expectation was worked out on paper from the
 * NUMERICS.md steps; the comment says what the case pins down. */
typedef struct hand_case {
    const char *what;
    tc_arch arch;
    tc_instr instr;
    tc_fmt in, out;
    tc_kind kind;
    size_t k;
    uint32_t a[8], b[8];
    uint32_t c, expect;
} hand_case;

#define AMP TC_ARCH_AMPERE, TC_INSTR_MMA
static const hand_case HAND[] = {
    /* c = 1, p = -2^-12 * 2^-13 = -2^-25: E = 0, F = 24, t = trunc(2^-1) = 0: the
     * product vanishes, d = 1 (an exact sum rounded RZ would give 0x3f7fffff). */
    {"truncation below 2^(E-F)", AMP, TC_FMT_FP16, TC_FMT_FP32, TC_KIND_FEDP, 1,
     {0x8c00}, {0x0800}, 0x3f800000, 0x3f800000},
    /* p = -2^-24: t = -1, d = 1 - 2^-24, exactly an fp32 */
    {"truncation keeps 2^(E-F)", AMP, TC_FMT_FP16, TC_FMT_FP32, TC_KIND_FEDP, 1,
     {0x8c00}, {0x0c00}, 0x3f800000, 0x3f7fffff},
    /* volta F = 23: the same 2^-24 is lost */
    {"volta F=23", TC_ARCH_VOLTA, TC_INSTR_MMA, TC_FMT_FP16, TC_FMT_FP32, TC_KIND_FEDP, 1,
     {0x8c00}, {0x0c00}, 0x3f800000, 0x3f800000},
    /* 1*2 - 1*2 + (-0): exact sum 0 gives +0 */
    {"+0 from cancelling products", AMP, TC_FMT_FP16, TC_FMT_FP32, TC_KIND_FEDP, 2,
     {0x3c00, 0xbc00}, {0x4000, 0x4000}, 0x80000000, 0x00000000},
    {"+0 when c cancels", AMP, TC_FMT_FP16, TC_FMT_FP32, TC_KIND_FEDP, 1,
     {0x3c00}, {0x3c00}, 0xbf800000, 0x00000000},
    /* all products zero and c = -0: nothing is non-zero, the sum is 0 -> +0 */
    {"+0 from zeros and c = -0", AMP, TC_FMT_FP16, TC_FMT_FP32, TC_KIND_FEDP, 2,
     {0x8000, 0x3c00}, {0x3c00, 0x8000}, 0x80000000, 0x00000000},
    /* -2^-26: E = max(-26, -20), t = -2^18 != 0; RNE to fp16 underflows -> -0 */
    {"tiny negative sum rounds to -0", AMP, TC_FMT_FP16, TC_FMT_FP16, TC_KIND_FEDP, 1,
     {0x8800}, {0x0800}, 0x0000, 0x8000},
    /* 1 + 2^-11: a tie between 0x3c00 and 0x3c01 -> even */
    {"fp16 tie to even (down)", AMP, TC_FMT_FP16, TC_FMT_FP16, TC_KIND_FEDP, 1,
     {0x2800}, {0x2400}, 0x3c00, 0x3c00},
    {"fp16 tie to even (up)", AMP, TC_FMT_FP16, TC_FMT_FP16, TC_KIND_FEDP, 1,
     {0x2800}, {0x2400}, 0x3c01, 0x3c02},
    /* tie plus 2^-30 (2^-15 * 2^-15, subnormal operands): truncated away, still a tie */
    {"truncated bits do not break a tie", AMP, TC_FMT_FP16, TC_FMT_FP16, TC_KIND_FEDP, 2,
     {0x2800, 0x0200}, {0x2400, 0x0200}, 0x3c00, 0x3c00},
    /* tie plus 2^-24 = 2^(E-F): kept, rounds up */
    {"kept bit breaks a tie", AMP, TC_FMT_FP16, TC_FMT_FP16, TC_KIND_FEDP, 2,
     {0x2800, 0x0c00}, {0x2400, 0x0c00}, 0x3c00, 0x3c01},
    /* 65504 + 16 = 65520: tie, even is 65536 -> Inf */
    {"fp16 overflow by rounding", AMP, TC_FMT_FP16, TC_FMT_FP16, TC_KIND_FEDP, 1,
     {0x4c00}, {0x3c00}, 0x7bff, 0x7c00},
    {"fp16 just below overflow", AMP, TC_FMT_FP16, TC_FMT_FP16, TC_KIND_FEDP, 1,
     {0x4800}, {0x3c00}, 0x7bff, 0x7bff},
    /* max fp32 + 2^104 = 2^128 exactly: Inf even under RZ */
    {"fp32 RZ reaches 2^128 -> Inf", AMP, TC_FMT_BF16, TC_FMT_FP32, TC_KIND_FEDP, 1,
     {0x5980}, {0x5980}, 0x7f7fffff, 0x7f800000},
    {"fp32 RZ below 2^128 stays finite", AMP, TC_FMT_BF16, TC_FMT_FP32, TC_KIND_FEDP, 1,
     {0x5980}, {0x5900}, 0x7f7fffff, 0x7f7fffff},
    /* 2^-140 - 2^-160, c = 0: E = max(-140, -132) = -132, the 2^-160 product is
     * below 2^(E-F) = 2^-156 and vanishes; without the floor RZ would give 0x1ff */
    {"Emin_align floor truncates", AMP, TC_FMT_BF16, TC_FMT_FP32, TC_KIND_FEDP, 2,
     {0x1c80, 0x9780}, {0x1c80, 0x1780}, 0x00000000, 0x00000200},
    {"Inf * 0 is NaN", AMP, TC_FMT_FP16, TC_FMT_FP32, TC_KIND_FEDP, 1,
     {0x7c00}, {0x0000}, 0x00000000, 0x7fffffff},
    {"Inf - Inf is NaN", AMP, TC_FMT_FP16, TC_FMT_FP32, TC_KIND_FEDP, 2,
     {0x7c00, 0xfc00}, {0x3c00, 0x3c00}, 0x00000000, 0x7fffffff},
    {"-Inf product", AMP, TC_FMT_FP16, TC_FMT_FP32, TC_KIND_FEDP, 1,
     {0xfc00}, {0x3c00}, 0x3f800000, 0xff800000},
    {"Inf product + -Inf c is NaN", AMP, TC_FMT_FP16, TC_FMT_FP32, TC_KIND_FEDP, 1,
     {0x7c00}, {0x3c00}, 0xff800000, 0x7fffffff},
    {"NaN times zero is NaN", AMP, TC_FMT_FP16, TC_FMT_FP32, TC_KIND_FEDP, 1,
     {0x7e00}, {0x0000}, 0x00000000, 0x7fffffff},
    {"fp16 canonical NaN", AMP, TC_FMT_FP16, TC_FMT_FP16, TC_KIND_FEDP, 1,
     {0xfc01}, {0x3c00}, 0x0000, 0x7fff},
    {"tf32 ignores the low 13 bits", AMP, TC_FMT_TF32, TC_FMT_FP32, TC_KIND_FEDP, 1,
     {0x3f801fff}, {0x3f800000}, 0x00000000, 0x3f800000},
    {"tf32 low bits do not make a NaN", AMP, TC_FMT_TF32, TC_FMT_FP32, TC_KIND_FEDP, 1,
     {0x7f801fff}, {0x3f800000}, 0x00000000, 0x7f800000},
    /* volta L = 4: 2048 + 1 -> 2048 (tie, even), then + 1 -> 2048 again */
    {"k > L rounds each step", TC_ARCH_VOLTA, TC_INSTR_MMA, TC_FMT_FP16, TC_FMT_FP16,
     TC_KIND_FEDP, 5, {0x3c00, 0, 0, 0, 0x3c00}, {0x3c00, 0, 0, 0, 0x3c00}, 0x6800, 0x6800},
    /* one step: 2048 + 2 = 2050, exact */
    {"k <= L is one step", TC_ARCH_VOLTA, TC_INSTR_MMA, TC_FMT_FP16, TC_FMT_FP16,
     TC_KIND_FEDP, 2, {0x3c00, 0x3c00}, {0x3c00, 0x3c00}, 0x6800, 0x6801},
    /* e8m13: 1 + 1*1 + 2^-6*2^-7: E = 0, F = 13, t = 2^13+2^13+1, sum 2 + 2^-13;
     * RZ to 13 fraction bits in binade 1 drops it: 2.0 (fp32 would keep 0x40000100) */
    {"e8m13 RZ to 13 bits", TC_ARCH_ADA, TC_INSTR_MMA, TC_FMT_E4M3, TC_FMT_FP32, TC_KIND_FEDP,
     2, {0x38, 0x08}, {0x38, 0x04}, 0x3f800000, 0x40000000},
    {"e8m13 keeps 13 bits", TC_ARCH_ADA, TC_INSTR_MMA, TC_FMT_E4M3, TC_FMT_FP32, TC_KIND_FEDP,
     2, {0x08, 0x04}, {0x04, 0x04}, 0x3f800000, 0x3f800400},
    /* fp8 emulation: d1 = 2^-20 (k=0), d2 = 1 + 2^-20 (k=2, c = d1), d = d2 - 1024
     * = -1023 + 2^-20, RNE in binade 9 -> -1023 (a fused RZ would give -1023+2^-14) */
    {"fp8 emulation: RNE final add", TC_ARCH_HOPPER, TC_INSTR_MMA, TC_FMT_E5M2, TC_FMT_FP32,
     TC_KIND_FP8_EMU, 3, {0x14, 0, 0x3c}, {0x14, 0, 0x3c}, 0xc4800000, 0xc47fc000},
    /* d2 = -2^-32 rounds to -0 in fp16; -0 + -0 = -0 (IEEE), -0 + +0 = +0 */
    {"fp8 emulation: -0 + -0", TC_ARCH_HOPPER, TC_INSTR_MMA, TC_FMT_E5M2, TC_FMT_FP16,
     TC_KIND_FP8_EMU, 3, {0, 0, 0x81}, {0, 0, 0x01}, 0x8000, 0x8000},
    {"fp8 emulation: -0 + +0", TC_ARCH_HOPPER, TC_INSTR_MMA, TC_FMT_E5M2, TC_FMT_FP16,
     TC_KIND_FP8_EMU, 3, {0, 0, 0x81}, {0, 0, 0x01}, 0x0000, 0x0000},
    /* the same product in the first half: d1 = -0, but d2 (c = -0, no products)
     * has an exact zero sum -> +0, and +0 + -0 = +0 */
    {"fp8 emulation: -0 lost in d2", TC_ARCH_HOPPER, TC_INSTR_MMA, TC_FMT_E5M2, TC_FMT_FP16,
     TC_KIND_FP8_EMU, 1, {0x81}, {0x01}, 0x8000, 0x0000},
    {"int8 wrap-around", AMP, TC_FMT_INT8, TC_FMT_S32, TC_KIND_INT, 1,
     {0x7f}, {0x7f}, 0x7fffffff, 0x80003f00},
    {"int8 negative", AMP, TC_FMT_INT8, TC_FMT_S32, TC_KIND_INT, 1,
     {0x80}, {0x7f}, 0x00000000, 0xffffc080},
    {"int4 -8 * -8", AMP, TC_FMT_INT4, TC_FMT_S32, TC_KIND_INT, 1,
     {0x8}, {0x8}, 0x00000000, 0x00000040},
    {"uint4 15 * 15", AMP, TC_FMT_UINT4, TC_FMT_S32, TC_KIND_INT, 1,
     {0xf}, {0xf}, 0x00000000, 0x000000e1},
};
#undef AMP

static void selftest_hand(ref_ctx *w)
{
    for (size_t i = 0; i < sizeof HAND / sizeof HAND[0]; i++) {
        const hand_case *h = &HAND[i];
        ref_profile introw = {0};
        const ref_profile *p;
        if (h->kind == TC_KIND_INT) { /* integer rows are not in our table */
            introw.kind = TC_KIND_INT;
            introw.in = h->in;
            introw.out = h->out;
            p = &introw;
        } else {
            p = ref_profile_lookup(h->arch, h->instr, h->in, h->out, h->kind, TC_FMT_COUNT, 0);
        }
        uint32_t d = 0;
        int rc = p ? ref_dot(w, p, h->k, h->a, h->b, h->c, &d) : -1;
        expect_u32(h->what, rc, d, h->expect);
    }
}

static void selftest_scaled(ref_ctx *w)
{
    uint32_t a[64] = {0}, b[64] = {0}, sa[4] = {0}, sb[4] = {0}, d = 0;
    const ref_profile *mx = ref_profile_lookup(TC_ARCH_BLACKWELL, TC_INSTR_TCGEN05, TC_FMT_E4M3,
                                               TC_FMT_FP32, TC_KIND_MX, TC_FMT_UE8M0, 32);
    /* 1 * 1 * 2^3 * 2^-1 = 4 */
    a[0] = b[0] = 0x38;
    sa[0] = 127 + 3;
    sb[0] = 127 - 1;
    int rc = mx ? ref_dot_scaled(w, mx, 32, a, b, sa, sb, 0, &d) : -1;
    expect_u32("mxf8f6f4 scales", rc, d, 0x40800000);
    sa[0] = 0xff;
    rc = mx ? ref_dot_scaled(w, mx, 32, a, b, sa, sb, 0, &d) : -1;
    expect_u32("mxf8f6f4 NaN scale", rc, d, 0x7fffffff);

    /* mxf4: group 0 = 16 * 6 * 6 = 576 at scale 2^0; group 2 = -0.5*0.5 at scales
     * 2^-40 * 2^-40. E = 0, F = 35: the -2^-82 term truncates to 0, d = 576 (the exact
     * sum rounded RZ would be 0x440fffff). The floor is irrelevant here (E = 0). */
    const ref_profile *f4 = ref_profile_lookup(TC_ARCH_BLACKWELL, TC_INSTR_TCGEN05, TC_FMT_E2M1,
                                               TC_FMT_FP32, TC_KIND_MXF4, TC_FMT_UE8M0, 32);
    ref_profile f4row;
    memset(a, 0, sizeof a);
    memset(b, 0, sizeof b);
    for (int i = 0; i < 16; i++)
        a[i] = b[i] = 0x7;
    a[32] = 0x9;
    b[32] = 0x1;
    sa[0] = sb[0] = 127;
    sa[1] = sb[1] = 127 - 40;
    rc = -1;
    if (f4) {
        f4row = *f4;
        f4row.emin_align = REF_EMIN_NONE;
        rc = ref_dot_scaled(w, &f4row, 64, a, b, sa, sb, 0, &d);
    }
    expect_u32("mxf4 group truncation", rc, d, 0x44100000);

    /* nvf4 with ue4m3 scales 1.5 (0x3c) and 1.5 with an ignored sign bit (0xbc):
     * 1 * 1 * 2.25 */
    const ref_profile *nv = ref_profile_lookup(TC_ARCH_BLACKWELL, TC_INSTR_TCGEN05, TC_FMT_E2M1,
                                               TC_FMT_FP32, TC_KIND_MXF4, TC_FMT_UE4M3, 16);
    ref_profile nvrow;
    memset(a, 0, sizeof a);
    memset(b, 0, sizeof b);
    a[0] = b[0] = 0x2;
    sa[0] = 0x3c;
    sb[0] = 0xbc;
    rc = -1;
    if (nv) {
        nvrow = *nv;
        nvrow.emin_align = REF_EMIN_NONE;
        rc = ref_dot_scaled(w, &nvrow, 16, a, b, sa, sb, 0, &d);
    }
    expect_u32("nvf4 ue4m3 significands", rc, d, 0x40100000);
    /* a zero ue4m3 scale drops its group: d = c */
    a[0] = b[0] = 0x7;
    sa[0] = 0x00;
    rc = nv ? ref_dot_scaled(w, &nvrow, 16, a, b, sa, sb, 0xbf800000, &d) : -1;
    expect_u32("nvf4 zero scale drops the group", rc, d, 0xbf800000);
}

static void check_add(ref_ctx *w, const char *what, tc_fmt f, uint32_t x, uint32_t y,
                      uint32_t want)
{
    uint32_t d = 0;
    int rc = ref_add_rne(w, f, x, y, &d);
    expect_u32(what, rc, d, want);
}

static void selftest_add(ref_ctx *w)
{
    check_add(w, "add -0 + -0", TC_FMT_FP32, 0x80000000, 0x80000000, 0x80000000);
    check_add(w, "add -0 + +0", TC_FMT_FP32, 0x80000000, 0x00000000, 0x00000000);
    check_add(w, "add x - x", TC_FMT_FP16, 0x3c00, 0xbc00, 0x0000);
    /* 1 + 2^-24 in fp32: a tie, even -> 1; 1 + 3*2^-24 -> 1 + 2^-22 */
    check_add(w, "add fp32 tie", TC_FMT_FP32, 0x3f800000, 0x33800000, 0x3f800000);
    check_add(w, "add fp32 above tie", TC_FMT_FP32, 0x3f800000, 0x34400000, 0x3f800002);
    check_add(w, "add fp16 overflow", TC_FMT_FP16, 0x7bff, 0x4c00, 0x7c00);
    check_add(w, "add Inf - Inf", TC_FMT_FP16, 0x7c00, 0xfc00, 0x7fff);
}

static int run_selftest(void)
{
    ref_ctx *w = ref_ctx_new();
    if (!w) {
        printf("selftest FAIL: out of memory\n");
        return 1;
    }
    selftest_failures = 0;
    selftest_decode();
    selftest_hand(w);
    selftest_scaled(w);
    selftest_add(w);
    ref_ctx_free(w);
    printf("selftest: %s (%d failure%s)\n", selftest_failures ? "FAILED" : "ok",
           selftest_failures, selftest_failures == 1 ? "" : "s");
    return selftest_failures != 0;
}

/* ======================================================================= table check */

static int emin_equal(int mine, int model)
{
    if (mine == REF_EMIN_NONE)
        return model == TC_EMIN_ALIGN_NONE;
    return mine == model;
}

static const char *emin_str(int v, char *buf, size_t n)
{
    if (v == REF_EMIN_NONE || v == TC_EMIN_ALIGN_NONE)
        snprintf(buf, n, "none");
    else
        snprintf(buf, n, "%d", v);
    return buf;
}

/* The numeric fields of a model row against ours; prints and counts each difference. */
static int compare_params(const char *name, const tc_profile *r, const ref_profile *m)
{
    int bad = 0;
    char b1[16], b2[16];
    if (!(m->unspecified & REF_UNSPEC_L) && r->L != m->L) {
        printf("table: %s: L %u, NUMERICS.md %u\n", name, r->L, m->L);
        bad++;
    }
    if (!(m->unspecified & REF_UNSPEC_F) && r->F != m->F) {
        printf("table: %s: F %u, NUMERICS.md %u\n", name, r->F, m->F);
        bad++;
    }
    if (!(m->unspecified & REF_UNSPEC_ROUND) && r->round != m->round) {
        printf("table: %s: rounding %s, NUMERICS.md %s\n", name, r->round == TC_RNE ? "RNE" : "RZ",
               m->round == TC_RNE ? "RNE" : "RZ");
        bad++;
    }
    if (!(m->unspecified & REF_UNSPEC_EMIN) && !emin_equal(m->emin_align, r->emin_align)) {
        printf("table: %s: Emin_align %s, NUMERICS.md %s\n", name,
               emin_str(r->emin_align, b1, sizeof b1), emin_str(m->emin_align, b2, sizeof b2));
        bad++;
    }
    if (!(m->unspecified & REF_UNSPEC_MAN) && r->out_man_bits != m->out_man_bits) {
        printf("table: %s: out_man_bits %u, NUMERICS.md %u\n", name, r->out_man_bits,
               m->out_man_bits);
        bad++;
    }
    return bad;
}

static int is_int_fmt(tc_fmt f)
{
    const ref_fmt *d = ref_fmt_get(f);
    return d && d->cls == REF_CLS_INT && f != TC_FMT_S32;
}

static int is_scaled_kind(tc_kind k)
{
    return k == TC_KIND_MX || k == TC_KIND_MXF4;
}

/* Our row for a model row (NULL if none); integer rows have none. */
static const ref_profile *my_row_for(const tc_profile *r)
{
    int sc = is_scaled_kind(r->kind);
    return ref_profile_lookup(r->arch, r->instr, r->in, r->out, r->kind,
                              sc ? r->scale : TC_FMT_COUNT, sc ? r->scale_block : 0);
}

static int check_emulation_row(const tc_profile *r)
{
    const tc_profile *sp = NULL;
    tc_status st = tc_profile_step_of(r, &sp);
    const ref_profile *m16 = ref_profile_lookup(r->arch, TC_INSTR_MMA, TC_FMT_FP16, r->out,
                                                TC_KIND_FEDP, TC_FMT_COUNT, 0);
    if (st != TC_OK || !sp || !m16) {
        printf("table: %s: tc_profile_step_of gives %s, expected the %s row\n", r->name,
               tc_strerror(st), m16 ? m16->what : "(none)");
        return 1;
    }
    if (sp->arch != r->arch || sp->in != TC_FMT_FP16 || sp->out != r->out ||
        sp->kind != TC_KIND_FEDP) {
        printf("table: %s: its step profile is %s, expected the arch's fp16 -> %s row\n",
               r->name, sp->name, ref_fmt_get(r->out)->name);
        return 1;
    }
    return compare_params(sp->name, sp, m16);
}

/* Every model row against ours, every one of ours present in the model, and the
 * find functions agreeing with the table. */
static int run_table(void)
{
    const tc_profile *rows;
    const ref_profile *mine;
    size_t n = tc_profile_table(&rows), nm = ref_profile_table(&mine);
    unsigned *seen = calloc(nm, sizeof *seen);
    int bad = 0;
    size_t n_int = 0;
    if (!seen)
        return 1;
    for (size_t i = 0; i < n; i++) {
        const tc_profile *r = &rows[i];
        if (r->kind == TC_KIND_INT) { /* not in NUMERICS.md's table: shape only */
            n_int++;
            if (!is_int_fmt(r->in) || r->out != TC_FMT_S32) {
                printf("table: %s: an integer row must be int8/uint8/int4/uint4 -> s32\n", r->name);
                bad++;
            }
            continue;
        }
        const ref_profile *m = my_row_for(r);
        if (!m) {
            printf("table: model row %s has no row in NUMERICS.md\n", r->name);
            bad++;
            continue;
        }
        if (seen[m - mine]++)
            printf("table: NOTE %s: a second model row for NUMERICS.md's %s\n", r->name, m->what);
        bad += compare_params(r->name, r, m);
        if (r->kind == TC_KIND_FP8_EMU)
            bad += check_emulation_row(r);
        if (m->unspecified & REF_UNSPEC_EMIN && r->kind != TC_KIND_FP8_EMU) {
            char b[16];
            printf("table: NOTE %s: NUMERICS.md gives no Emin_align; the model uses %s and the "
                   "reference follows it\n", r->name, emin_str(r->emin_align, b, sizeof b));
        }
    }
    for (size_t j = 0; j < nm; j++) {
        const ref_profile *m = &mine[j];
        if (!seen[j]) {
            printf("table: NUMERICS.md row '%s' is missing from the model's table\n", m->what);
            bad++;
        }
        /* the lookup functions must land on a row that matches too */
        const tc_profile *f = NULL;
        tc_status st;
        if (m->scaled_kind)
            st = tc_profile_find_scaled(m->arch, m->instr, m->scaled_kind, m->in, m->scale,
                                        m->scale_block, &f);
        else
            st = tc_profile_find(m->arch, m->instr, m->in, m->out, &f);
        if (st != TC_OK || !f || my_row_for(f) != m) {
            printf("table: finding '%s' gives %s (%s)\n", m->what, tc_strerror(st),
                   f ? f->name : "no row");
            bad++;
        }
    }
    free(seen);
    printf("table: %zu model rows (%zu integer), %zu NUMERICS.md rows: %s\n", n, n_int, nm,
           bad ? "FAILED" : "ok");
    return bad != 0;
}

/* ======================================================================= generators */

#define MAXK 192 /* 3 steps of the longest L (mxf4: 64) */

typedef enum scenario {
    SC_RANDOM,    /* raw random patterns (specials mostly re-drawn) */
    SC_TAME,      /* exponents near 0 */
    SC_SPREAD,    /* every exponent anywhere in its range: huge spreads, subnormals */
    SC_CANCEL,    /* a*b and -a*b pairs, c = -(sum): zero and tiny results */
    SC_CARRY,     /* all-ones significands of one sign: carries into new binades */
    SC_OVERFLOW,  /* results near the output's largest binade */
    SC_UNDERFLOW, /* results near and below the output's smallest normal */
    SC_TIE,       /* c plus half an ulp plus a tiny term: ties and truncation edges */
    SC_SPECIAL,   /* Inf, NaN, Inf*0, Inf-Inf, NaN scales */
    SC_ZEROS,     /* mostly zeros of both signs */
    SC_COUNT
} scenario;

static const char *const SC_NAMES[SC_COUNT] = {
    "random", "tame", "spread", "cancel", "carry", "overflow", "underflow", "tie",
    "special", "zeros"};
static const unsigned SC_WEIGHT[SC_COUNT] = {10, 14, 14, 15, 8, 8, 10, 12, 4, 5};

typedef enum frac_style { FR_RANDOM, FR_ZERO, FR_ONES, FR_FEW } frac_style;

/* One row of the model's table, paired with our parameters for it. */
typedef struct row_ctx {
    const tc_profile *mp;
    ref_profile rp;          /* ours (integer rows: kind/in/out only) */
    const ref_fmt *fin, *fout;
    unsigned block;          /* terms per step as far as k goes: L, 32 for emulation */
    unsigned out_p;          /* fraction bits of the result (13 for e8m13) */
    int scaled;
} row_ctx;

typedef struct test_case {
    scenario sc;
    size_t k;
    uint32_t a[MAXK], b[MAXK], sa[MAXK / 16], sb[MAXK / 16], c;
} test_case;

static int fmt_lo(const ref_fmt *f) /* lowest binade: the smallest subnormal's */
{
    return f->emin - (int)f->mbits;
}

static uint32_t fmt_sign_bit(const ref_fmt *f)
{
    return (uint32_t)1u << (f->width - 1);
}

/* A finite pattern of f in binade e (clamped to the format's binades; below emin it
 * is a subnormal), sign neg, fraction drawn in style fs. */
static uint32_t mk_float(rng *r, const ref_fmt *f, int neg, int e, frac_style fs)
{
    unsigned mb = f->mbits;
    uint32_t mask = (1u << mb) - 1u, frac = 0;
    e = clampi(e, fmt_lo(f), f->emax);
    switch (fs) {
    case FR_RANDOM: frac = (uint32_t)rnext(r) & mask; break;
    case FR_ZERO: frac = 0; break;
    case FR_ONES: frac = mask; break;
    case FR_FEW:
        if (mb)
            frac = (1u << rbelow(r, mb)) | (rpct(r, 50) ? 1u << rbelow(r, mb) : 0u);
        break;
    }
    uint32_t w;
    if (e >= f->emin) {
        uint32_t expf = (uint32_t)(e + f->bias);
        if (f->spec == REF_SPEC_E4M3 && expf == (1u << f->ebits) - 1u && frac == mask)
            frac = mask - 1u; /* S.1111.111 is NaN: 448 is the top */
        w = (expf << mb) | frac;
    } else {
        unsigned pos = mb - (unsigned)(f->emin - e); /* the leading 1 of the subnormal */
        w = (1u << pos) | (frac & ((1u << pos) - 1u));
    }
    if (neg)
        w |= (uint32_t)1u << (f->width - f->ignore_low - 1);
    w <<= f->ignore_low;
    if (f->ignore_low && rpct(r, 50)) /* tf32: junk in the ignored bits */
        w |= (uint32_t)rnext(r) & ((1u << f->ignore_low) - 1u);
    return w;
}

static uint32_t mk_zero(const ref_fmt *f, int neg)
{
    return neg ? fmt_sign_bit(f) : 0u;
}

static int has_inf(const ref_fmt *f)
{
    return f->spec == REF_SPEC_IEEE;
}

static int has_nan(const ref_fmt *f)
{
    return f->spec == REF_SPEC_IEEE || f->spec == REF_SPEC_E4M3;
}

static uint32_t mk_inf(const ref_fmt *f, int neg)
{
    uint32_t w = ((1u << f->ebits) - 1u) << f->mbits;
    return (w << f->ignore_low) | (neg ? fmt_sign_bit(f) : 0u);
}

static uint32_t mk_nan(rng *r, const ref_fmt *f)
{
    uint32_t w = ((1u << f->ebits) - 1u) << f->mbits;
    uint32_t mask = (1u << f->mbits) - 1u;
    w |= f->spec == REF_SPEC_E4M3 ? mask : (((uint32_t)rnext(r) & mask) | 1u);
    return (w << f->ignore_low) | (rpct(r, 50) ? fmt_sign_bit(f) : 0u);
}

static int random_sign(rng *r)
{
    return rpct(r, 50);
}

/* A random pattern of f that is finite (specials re-drawn, except rarely). */
static uint32_t mk_random_bits(rng *r, const ref_fmt *f)
{
    uint32_t mask = f->width >= 32 ? 0xffffffffu : (1u << f->width) - 1u;
    for (;;) {
        uint32_t w = (uint32_t)rnext(r) & mask;
        ref_num x;
        if (ref_decode(f->id, w, &x) == 0 && (x.cls == REF_FIN || rpct(r, 3)))
            return w;
    }
}

/* a*b with binade(a) + binade(b) near target t (each factor's binade kept inside
 * its format), random signs, fraction style fs. */
static void mk_product(rng *r, const ref_fmt *f, int t, frac_style fs, uint32_t *a, uint32_t *b)
{
    int lo = fmt_lo(f), hi = f->emax;
    int ea_lo = t - hi > lo ? t - hi : lo, ea_hi = t - lo < hi ? t - lo : hi;
    int ea = ea_lo <= ea_hi ? rrange(r, ea_lo, ea_hi) : (t > 0 ? hi : lo);
    int eb = clampi(t - ea, lo, hi);
    *a = mk_float(r, f, random_sign(r), ea, fs);
    *b = mk_float(r, f, random_sign(r), eb, fs);
}

static int prod_lo(const ref_fmt *f)
{
    return 2 * fmt_lo(f);
}

static int prod_hi(const ref_fmt *f)
{
    return 2 * f->emax + 1;
}

static frac_style random_style(rng *r)
{
    static const frac_style s[] = {FR_RANDOM, FR_RANDOM, FR_RANDOM, FR_ZERO, FR_ONES, FR_FEW};
    return s[rbelow(r, sizeof s / sizeof s[0])];
}

/* ------------------------------------------------------------- scales */

static uint32_t mk_scale(rng *r, const row_ctx *rc, scenario sc)
{
    if (rc->rp.scale == TC_FMT_UE8M0) {
        if (sc == SC_SPECIAL && rpct(r, 15))
            return 0xff;
        switch (sc) {
        case SC_TAME: return (uint32_t)rrange(r, 123, 131);
        case SC_SPREAD: return (uint32_t)rrange(r, 0, 254);
        case SC_OVERFLOW: return (uint32_t)rrange(r, 160, 254);
        case SC_UNDERFLOW: return (uint32_t)rrange(r, 0, 70);
        default: return (uint32_t)rrange(r, 112, 142);
        }
    }
    /* ue4m3: an e4m3 magnitude; bit 7 is ignored, so set it at random */
    const ref_fmt *e4 = ref_fmt_get(TC_FMT_E4M3);
    uint32_t w;
    if (sc == SC_SPECIAL && rpct(r, 15))
        w = 0x7f;
    else if (rpct(r, 4))
        w = 0x00;
    else if (sc == SC_SPREAD || sc == SC_UNDERFLOW || sc == SC_OVERFLOW)
        w = mk_float(r, e4, 0, sc == SC_UNDERFLOW ? rrange(r, -9, -3)
                               : sc == SC_OVERFLOW ? rrange(r, 5, 8) : rrange(r, -9, 8),
                     random_style(r));
    else
        w = mk_float(r, e4, 0, rrange(r, -2, 2), random_style(r));
    return w | (rpct(r, 50) ? 0x80u : 0u);
}

/* ------------------------------------------------------------- k */

static size_t pick_k(rng *r, const row_ctx *rc)
{
    if (rc->scaled) {
        unsigned sb = rc->rp.scale_block, steps = 3 * rc->block / sb;
        return (size_t)sb * (size_t)rrange(r, 1, (int)steps);
    }
    unsigned L = rc->block;
    switch (rbelow(r, 10)) {
    case 0: case 1: case 2: return (size_t)rrange(r, 1, (int)L);
    case 3: case 4: case 5: return (size_t)L * (size_t)rrange(r, 1, 3);
    default: return (size_t)rrange(r, 1, 3 * (int)L);
    }
}

/* ------------------------------------------------------------- c */

/* c in the output format, with binade near e (or zero now and then). */
static uint32_t mk_c(rng *r, const row_ctx *rc, int e, unsigned zero_pct)
{
    if (rpct(r, zero_pct))
        return mk_zero(rc->fout, random_sign(r));
    return mk_float(r, rc->fout, random_sign(r), e, random_style(r));
}

/* ------------------------------------------------------------- scenarios */

static void fill_products(rng *r, const row_ctx *rc, test_case *t, int tlo, int thi,
                          unsigned zero_pct)
{
    for (size_t i = 0; i < t->k; i++) {
        if (rpct(r, zero_pct)) {
            t->a[i] = mk_zero(rc->fin, random_sign(r));
            t->b[i] = mk_float(r, rc->fin, random_sign(r), rrange(r, -2, 2), FR_RANDOM);
            if (rpct(r, 50)) {
                uint32_t x = t->a[i];
                t->a[i] = t->b[i];
                t->b[i] = x;
            }
            continue;
        }
        mk_product(r, rc->fin, rrange(r, tlo, thi), random_style(r), &t->a[i], &t->b[i]);
    }
}

/* Shuffle the products inside each block of `blk` (pairs stay in one step). */
static void shuffle_blocks(rng *r, test_case *t, size_t blk)
{
    for (size_t s = 0; s < t->k; s += blk) {
        size_t n = t->k - s < blk ? t->k - s : blk;
        for (size_t i = n; i > 1; i--) {
            size_t j = rbelow(r, (uint32_t)i);
            uint32_t x = t->a[s + i - 1], y = t->b[s + i - 1];
            t->a[s + i - 1] = t->a[s + j];
            t->b[s + i - 1] = t->b[s + j];
            t->a[s + j] = x;
            t->b[s + j] = y;
        }
    }
}

static int ref_run(ref_ctx *w, const row_ctx *rc, const test_case *t, uint32_t *d)
{
    if (rc->scaled)
        return ref_dot_scaled(w, &rc->rp, t->k, t->a, t->b, t->sa, t->sb, t->c, d);
    return ref_dot(w, &rc->rp, t->k, t->a, t->b, t->c, d);
}

static int out_is_finite(const row_ctx *rc, uint32_t bits)
{
    ref_num x;
    return ref_decode(rc->fout->id, bits, &x) == 0 && x.cls == REF_FIN;
}

/* c = -(the products' own result, c = 0): the exact sum is then zero or a small
 * residue (from the rounding of that result, or from chaining) - the place where
 * truncation, the +0 rule and the alignment exponent of a small c all show. */
static void c_cancels_products(ref_ctx *w, const row_ctx *rc, test_case *t)
{
    uint32_t d = 0;
    t->c = 0;
    if (ref_run(w, rc, t, &d) == 0 && out_is_finite(rc, d))
        t->c = d ^ fmt_sign_bit(rc->fout);
}

static void gen_cancel(rng *r, ref_ctx *w, const row_ctx *rc, test_case *t)
{
    int tl = prod_lo(rc->fin), th = prod_hi(rc->fin);
    int centre = rpct(r, 50) ? rrange(r, -4, 4) : rrange(r, tl, th);
    fill_products(r, rc, t, centre - 6, centre + 6, 5);
    /* every odd position cancels the even one before it */
    for (size_t i = 1; i < t->k; i += 2) {
        t->a[i] = t->a[i - 1] ^ fmt_sign_bit(rc->fin);
        t->b[i] = t->b[i - 1];
    }
    /* now and then, nudge one product by an ulp so a tiny residue remains */
    if (t->k > 1 && rpct(r, 40)) {
        size_t i = rbelow(r, (uint32_t)t->k);
        uint32_t lsb = (uint32_t)1u << rc->fin->ignore_low;
        uint32_t x = t->a[i] ^ lsb;
        ref_num v;
        if (ref_decode(rc->fin->id, x, &v) == 0 && v.cls == REF_FIN)
            t->a[i] = x;
    }
    size_t blk = rc->scaled && rc->rp.kind == TC_KIND_MXF4 ? 16 : rc->block;
    shuffle_blocks(r, t, blk);
    unsigned how = rbelow(r, 10);
    if (how < 4) {
        c_cancels_products(w, rc, t);
    } else if (how < 7) {
        t->c = mk_zero(rc->fout, random_sign(r));
    } else {
        t->c = mk_c(r, rc, centre + rrange(r, -3, 3), 0);
    }
}

static void gen_carry(rng *r, const row_ctx *rc, test_case *t)
{
    int neg = random_sign(r);
    int tl = prod_lo(rc->fin), th = prod_hi(rc->fin);
    int tgt = rpct(r, 60) ? rrange(r, -3, 3) : rrange(r, tl, th - 1);
    for (size_t i = 0; i < t->k; i++) {
        mk_product(r, rc->fin, tgt - rrange(r, 0, 2), FR_ONES, &t->a[i], &t->b[i]);
        /* both factors positive, then the sign on a: every product has sign neg */
        t->a[i] &= ~fmt_sign_bit(rc->fin);
        t->b[i] &= ~fmt_sign_bit(rc->fin);
        if (neg)
            t->a[i] |= fmt_sign_bit(rc->fin);
    }
    if (rpct(r, 70)) {
        t->c = mk_float(r, rc->fout, neg, tgt + rrange(r, 0, 4), FR_ONES);
    } else {
        t->c = mk_zero(rc->fout, random_sign(r));
    }
}

static void gen_overflow(rng *r, const row_ctx *rc, test_case *t)
{
    int oe = rc->fout->emax;
    int tgt = clampi(oe - rrange(r, 0, 3), prod_lo(rc->fin), prod_hi(rc->fin));
    int neg = random_sign(r);
    fill_products(r, rc, t, tgt - 3, tgt, 10);
    for (size_t i = 0; i < t->k; i++) { /* mostly one sign, so the sum grows */
        if (rpct(r, 85)) {
            t->a[i] &= ~fmt_sign_bit(rc->fin);
            t->b[i] &= ~fmt_sign_bit(rc->fin);
            if (neg)
                t->a[i] |= fmt_sign_bit(rc->fin);
        }
    }
    t->c = mk_float(r, rc->fout, rpct(r, 80) ? neg : !neg, oe - rrange(r, 0, 2),
                    rpct(r, 50) ? FR_ONES : FR_RANDOM);
}

static void gen_underflow(rng *r, ref_ctx *w, const row_ctx *rc, test_case *t)
{
    /* target the output's subnormal binades and just above */
    int olo = rc->fout->emin - (int)rc->out_p;
    int tgt = clampi(rrange(r, olo - 4, rc->fout->emin + 1), prod_lo(rc->fin), prod_hi(rc->fin));
    fill_products(r, rc, t, tgt - 4, tgt + 1, 15);
    unsigned how = rbelow(r, 4);
    if (how == 0)
        t->c = mk_zero(rc->fout, random_sign(r));
    else if (how == 1)
        c_cancels_products(w, rc, t);
    else
        t->c = mk_c(r, rc, rrange(r, olo, rc->fout->emin + 1), 0);
}

static void gen_tie(rng *r, const row_ctx *rc, test_case *t)
{
    /* c in a binade ec whose half ulp 2^(ec - p - 1) a product can reach */
    int p = (int)rc->out_p;
    int plo = prod_lo(rc->fin), phi = prod_hi(rc->fin);
    int ec_lo = clampi(plo + p + 1, fmt_lo(rc->fout), rc->fout->emax);
    int ec_hi = clampi(phi + p + 1, fmt_lo(rc->fout), rc->fout->emax);
    int ec = rrange(r, ec_lo, ec_hi);
    if (rpct(r, 30) && ec_lo <= 2 && ec_hi >= -2)
        ec = rrange(r, clampi(-2, ec_lo, ec_hi), clampi(2, ec_lo, ec_hi));
    else if (rpct(r, 20)) /* a subnormal or smallest-normal c */
        ec = rrange(r, clampi(fmt_lo(rc->fout), ec_lo, ec_hi),
                    clampi(rc->fout->emin, ec_lo, ec_hi));
    for (size_t i = 0; i < t->k; i++) {
        t->a[i] = mk_zero(rc->fin, random_sign(r));
        t->b[i] = mk_zero(rc->fin, random_sign(r));
    }
    t->c = mk_float(r, rc->fout, random_sign(r), ec, rpct(r, 30) ? FR_ZERO : FR_RANDOM);
    /* the half-ulp product (an exact power of two), the tiny one after it */
    int half = (ec < rc->fout->emin ? rc->fout->emin : ec) - p - 1; /* half an ulp of c */
    size_t i1 = rbelow(r, (uint32_t)t->k);
    mk_product(r, rc->fin, half, FR_ZERO, &t->a[i1], &t->b[i1]);
    if (t->k > 1) {
        size_t i2 = rbelow(r, (uint32_t)t->k);
        if (i2 == i1)
            i2 = (i1 + 1) % t->k;
        mk_product(r, rc->fin, half - rrange(r, 1, 32), rpct(r, 50) ? FR_ZERO : FR_RANDOM,
                   &t->a[i2], &t->b[i2]);
    }
    if (t->k > 2 && rpct(r, 30)) { /* a third term that moves the tie by an ulp */
        size_t i3 = rbelow(r, (uint32_t)t->k);
        mk_product(r, rc->fin, half + 1, FR_ZERO, &t->a[i3], &t->b[i3]);
    }
}

static void gen_special(rng *r, const row_ctx *rc, test_case *t)
{
    fill_products(r, rc, t, -4, 4, 15);
    t->c = mk_c(r, rc, rrange(r, -4, 4), 20);
    if (rc->scaled && rpct(r, 30)) { /* a NaN scale over products that are all zero */
        size_t sb = rc->rp.scale_block, g = rbelow(r, (uint32_t)(t->k / sb));
        for (size_t i = g * sb; i < (g + 1) * sb; i++)
            t->a[i] = mk_zero(rc->fin, random_sign(r));
        *(rpct(r, 50) ? &t->sa[g] : &t->sb[g]) = rc->rp.scale == TC_FMT_UE8M0 ? 0xffu : 0x7fu;
        return;
    }
    int n = rrange(r, 1, 3);
    for (int j = 0; j < n; j++) {
        size_t i = rbelow(r, (uint32_t)t->k);
        switch (rbelow(r, 6)) {
        case 0: /* an Inf operand */
            if (has_inf(rc->fin))
                t->a[i] = mk_inf(rc->fin, random_sign(r));
            break;
        case 1: /* Inf * 0 */
            if (has_inf(rc->fin)) {
                t->a[i] = mk_inf(rc->fin, random_sign(r));
                t->b[i] = mk_zero(rc->fin, random_sign(r));
            }
            break;
        case 2: /* a NaN operand */
            if (has_nan(rc->fin))
                *(rpct(r, 50) ? &t->a[i] : &t->b[i]) = mk_nan(r, rc->fin);
            break;
        case 3: /* an Inf c */
            t->c = mk_inf(rc->fout, random_sign(r));
            break;
        case 4: /* a NaN c */
            t->c = mk_nan(r, rc->fout);
            break;
        default: /* two Infs (maybe opposite signs) */
            if (has_inf(rc->fin)) {
                size_t i2 = rbelow(r, (uint32_t)t->k);
                t->a[i] = mk_inf(rc->fin, random_sign(r));
                t->a[i2] = mk_inf(rc->fin, random_sign(r));
            }
            break;
        }
    }
}

static void gen_zeros(rng *r, const row_ctx *rc, test_case *t)
{
    fill_products(r, rc, t, -4, 4, 90);
    if (rpct(r, 50)) { /* one product below half the smallest subnormal of the output */
        size_t i = rbelow(r, (uint32_t)t->k);
        int tiny = fmt_lo(rc->fout) - rrange(r, 2, 8);
        mk_product(r, rc->fin, clampi(tiny, prod_lo(rc->fin), prod_hi(rc->fin)), random_style(r),
                   &t->a[i], &t->b[i]);
    }
    unsigned how = rbelow(r, 3);
    t->c = how < 2 ? mk_zero(rc->fout, random_sign(r)) : mk_c(r, rc, rrange(r, -10, 10), 0);
}

static void gen_int(rng *r, const row_ctx *rc, test_case *t)
{
    uint32_t mask = (1u << rc->fin->width) - 1u;
    uint32_t top = rc->fin->is_signed ? 1u << (rc->fin->width - 1) : mask; /* min / max */
    for (size_t i = 0; i < t->k; i++) {
        switch (rbelow(r, 4)) {
        case 0: t->a[i] = top; t->b[i] = top; break;
        case 1: t->a[i] = top; t->b[i] = (uint32_t)rnext(r) & mask; break;
        default:
            t->a[i] = (uint32_t)rnext(r) & mask;
            t->b[i] = (uint32_t)rnext(r) & mask;
        }
    }
    switch (rbelow(r, 4)) {
    case 0: t->c = 0x7fffffffu - rbelow(r, 1u << 20); break;
    case 1: t->c = 0x80000000u + rbelow(r, 1u << 20); break;
    default: t->c = (uint32_t)rnext(r);
    }
}

static scenario pick_scenario(rng *r)
{
    unsigned total = 0;
    for (int i = 0; i < SC_COUNT; i++)
        total += SC_WEIGHT[i];
    unsigned x = rbelow(r, total);
    for (int i = 0; i < SC_COUNT; i++) {
        if (x < SC_WEIGHT[i])
            return (scenario)i;
        x -= SC_WEIGHT[i];
    }
    return SC_RANDOM;
}

static void gen_case(rng *r, ref_ctx *w, const row_ctx *rc, test_case *t)
{
    t->k = pick_k(r, rc);
    if (rc->rp.kind == TC_KIND_INT) {
        t->sc = SC_RANDOM;
        gen_int(r, rc, t);
        return;
    }
    t->sc = pick_scenario(r);
    if (rc->scaled) /* scales first: the cancel scenario runs the reference */
        for (size_t g = 0; g < t->k / rc->rp.scale_block; g++) {
            t->sa[g] = mk_scale(r, rc, t->sc);
            t->sb[g] = mk_scale(r, rc, t->sc);
        }
    switch (t->sc) {
    case SC_RANDOM:
        for (size_t i = 0; i < t->k; i++) {
            t->a[i] = mk_random_bits(r, rc->fin);
            t->b[i] = mk_random_bits(r, rc->fin);
        }
        t->c = mk_random_bits(r, rc->fout);
        break;
    case SC_TAME:
        fill_products(r, rc, t, -3, 3, 10);
        t->c = mk_c(r, rc, rrange(r, -3, 5), 10);
        break;
    case SC_SPREAD:
        fill_products(r, rc, t, prod_lo(rc->fin), prod_hi(rc->fin), 10);
        t->c = mk_c(r, rc, rrange(r, fmt_lo(rc->fout), rc->fout->emax), 15);
        break;
    case SC_CANCEL: gen_cancel(r, w, rc, t); break;
    case SC_CARRY: gen_carry(r, rc, t); break;
    case SC_OVERFLOW: gen_overflow(r, rc, t); break;
    case SC_UNDERFLOW: gen_underflow(r, w, rc, t); break;
    case SC_TIE: gen_tie(r, rc, t); break;
    case SC_SPECIAL: gen_special(r, rc, t); break;
    default: gen_zeros(r, rc, t); break;
    }
}

/* ======================================================================= random run */

typedef enum result_class { RES_NAN, RES_INF, RES_ZERO, RES_SUB, RES_NORMAL, RES_INT,
                            RES_ERROR, RES_COUNT } result_class;
static const char *const RES_NAMES[RES_COUNT] = {"nan", "inf", "zero", "subnormal", "normal",
                                                 "int", "model-error"};

static result_class classify(const row_ctx *rc, uint32_t bits)
{
    if (rc->rp.kind == TC_KIND_INT)
        return RES_INT;
    ref_num x;
    if (ref_decode(rc->fout->id, bits, &x) != 0)
        return RES_ERROR;
    if (x.cls == REF_NAN)
        return RES_NAN;
    if (x.cls == REF_INF)
        return RES_INF;
    if (x.sig == 0)
        return RES_ZERO;
    return (x.sig >> rc->fout->mbits) ? RES_NORMAL : RES_SUB;
}

typedef struct run_opts {
    uint64_t seed;
    uint64_t cases;
    const char *profile;
    long long only_case;
    unsigned max_print;
    unsigned dump;       /* print the first `dump` cases of every row, matching or not */
} run_opts;

typedef struct run_stats {
    uint64_t done, mismatches, printed;
    uint64_t bucket[SC_COUNT][RES_COUNT];
} run_stats;

static void print_words(const char *label, const uint32_t *v, size_t n, unsigned width)
{
    printf("  %s:", label);
    for (size_t i = 0; i < n; i++)
        printf("%s%0*" PRIx32, i % 16 == 0 && i ? "\n     " : " ", (int)(width + 3) / 4, v[i]);
    printf("\n");
}

static void report_mismatch(const run_opts *o, size_t row, uint64_t ci, const row_ctx *rc,
                            const test_case *t, tc_status st, uint32_t md, int rrc, uint32_t rd)
{
    printf("MISMATCH %s (row %zu) case %" PRIu64 " seed %" PRIu64 " scenario %s k %zu\n",
           rc->mp->name, row, ci, o->seed, SC_NAMES[t->sc], t->k);
    print_words("a", t->a, t->k, rc->fin->width);
    print_words("b", t->b, t->k, rc->fin->width);
    if (rc->scaled) {
        print_words("scale_a", t->sa, t->k / rc->rp.scale_block, 8);
        print_words("scale_b", t->sb, t->k / rc->rp.scale_block, 8);
    }
    printf("  c: %0*" PRIx32 "\n", (int)(rc->fout->width + 3) / 4, t->c);
    printf("  model: 0x%0*" PRIx32 " (%s)   ref: 0x%0*" PRIx32 "%s\n",
           (int)(rc->fout->width + 3) / 4, md, tc_strerror(st), (int)(rc->fout->width + 3) / 4,
           rd, rrc ? " (ref error)" : "");
    printf("  rerun: --seed %" PRIu64 " --profile %s --case %" PRIu64 "\n", o->seed,
           rc->mp->name, ci);
}

/* Our parameters for a model row; 0 if we have none (counted as a failure). */
static int make_row_ctx(const tc_profile *mp, row_ctx *rc)
{
    memset(rc, 0, sizeof *rc);
    rc->mp = mp;
    if (mp->kind == TC_KIND_INT) {
        rc->rp.kind = TC_KIND_INT;
        rc->rp.in = mp->in;
        rc->rp.out = mp->out;
        rc->rp.L = mp->L ? mp->L : 16;
    } else {
        const ref_profile *m = my_row_for(mp);
        if (!m)
            return 0;
        rc->rp = *m;
        if (m->emin_align == REF_EMIN_UNSPECIFIED) /* NUMERICS.md is silent: the model's */
            rc->rp.emin_align = mp->emin_align == TC_EMIN_ALIGN_NONE ? REF_EMIN_NONE
                                                                     : mp->emin_align;
    }
    rc->fin = ref_fmt_get(rc->rp.in);
    rc->fout = ref_fmt_get(rc->rp.out);
    rc->scaled = is_scaled_kind(rc->rp.kind);
    rc->block = rc->rp.kind == TC_KIND_FP8_EMU ? 32 : rc->rp.L;
    rc->out_p = rc->rp.out == TC_FMT_FP16 ? 10 : rc->rp.out_man_bits == 13 ? 13 : 23;
    if (!rc->fin || !rc->fout || rc->block == 0 || 3 * rc->block > MAXK)
        return 0;
    return 1;
}

static double now_s(void)
{
    struct timespec ts;
    timespec_get(&ts, TIME_UTC);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

/* Share of the cases per row: the kinds with more rules to get wrong get more. */
static uint64_t row_weight(const tc_profile *p)
{
    switch (p->kind) {
    case TC_KIND_INT: return 1;
    case TC_KIND_FEDP: return 4;
    case TC_KIND_FP8_EMU: return 6;
    case TC_KIND_MX: return 6;
    default: return 12; /* MXF4 */
    }
}

/* Cases for one row (rounded up, so the total is at least `cases`). */
static uint64_t row_cases(uint64_t cases, const tc_profile *p, uint64_t wsum)
{
    return (cases * row_weight(p) + wsum - 1) / wsum;
}

static int run_random(const run_opts *o)
{
    const tc_profile *rows;
    size_t n = tc_profile_table(&rows), nsel = 0;
    for (size_t i = 0; i < n; i++)
        if (!o->profile || strcmp(o->profile, rows[i].name) == 0)
            nsel++;
    if (nsel == 0) {
        printf("random: no profile named %s\n", o->profile ? o->profile : "(any)");
        return 1;
    }
    ref_ctx *w = ref_ctx_new();
    run_stats *s = calloc(1, sizeof *s);
    test_case *t = malloc(sizeof *t);
    uint64_t *row_bad = calloc(n, sizeof *row_bad);
    if (!w || !s || !t || !row_bad)
        return 1;
    uint64_t wsum = 0, total = 0;
    for (size_t i = 0; i < n; i++)
        if (!o->profile || strcmp(o->profile, rows[i].name) == 0)
            wsum += row_weight(&rows[i]);
    for (size_t i = 0; i < n; i++)
        if (!o->profile || strcmp(o->profile, rows[i].name) == 0)
            total += o->only_case >= 0 ? 1 : row_cases(o->cases, &rows[i], wsum);
    uint64_t next_report = total / 10;
    int unpaired = 0;
    double t0 = now_s();
    fprintf(stderr, "random: %" PRIu64 " cases over %zu profiles, seed %" PRIu64 "\n", total,
            nsel, o->seed);
    for (size_t ri = 0; ri < n; ri++) {
        const tc_profile *mp = &rows[ri];
        if (o->profile && strcmp(o->profile, mp->name) != 0)
            continue;
        row_ctx rc;
        if (!make_row_ctx(mp, &rc)) {
            printf("random: %s: no reference parameters for this row\n", mp->name);
            unpaired++;
            continue;
        }
        uint64_t first = o->only_case >= 0 ? (uint64_t)o->only_case : 0;
        uint64_t last = o->only_case >= 0 ? first + 1 : row_cases(o->cases, mp, wsum);
        for (uint64_t ci = first; ci < last; ci++) {
            rng r;
            rng_seed(&r, o->seed * 0x9e3779b97f4a7c15ull + (ri + 1) * 0xd1b54a32d192ed03ull + ci);
            gen_case(&r, w, &rc, t);
            uint32_t md = 0, rd = 0;
            tc_status st = rc.scaled ? tc_dot_scaled(mp, t->k, t->a, t->b, t->sa, t->sb, t->c, &md)
                                     : tc_dot(mp, t->k, t->a, t->b, t->c, &md);
            /* A one-step case goes again through tc_fedp_step with a trace, which always
             * takes the general step: tc_dot's fast path serves every case without an
             * Inf, a NaN or an e4m3 word of exponent field 1111, so the general step's
             * own arithmetic would otherwise meet the reference only on those. */
            uint32_t td = md;
            if (st == TC_OK && mp->kind == TC_KIND_FEDP && t->k <= mp->L) {
                static tc_fedp_trace tr;
                st = tc_fedp_step(mp, t->k, t->a, t->b, t->c, &td, &tr);
            }
            int rrc = ref_run(w, &rc, t, &rd);
            if (ci < o->dump) {
                printf("case %" PRIu64 " of %s (%s, k %zu): c %08" PRIx32 " model %08" PRIx32
                       " ref %08" PRIx32 "\n", ci, mp->name, SC_NAMES[t->sc], t->k, t->c, md, rd);
                print_words("a", t->a, t->k, rc.fin->width);
                print_words("b", t->b, t->k, rc.fin->width);
            }
            if (st != TC_OK || rrc != 0 || md != rd || td != rd) {
                s->mismatches++;
                row_bad[ri]++;
                s->bucket[t->sc][st != TC_OK ? RES_ERROR : classify(&rc, rd)]++;
                if (s->printed < o->max_print || o->only_case >= 0) {
                    s->printed++;
                    report_mismatch(o, ri, ci, &rc, t, st, md, rrc, rd);
                    if (td != md)
                        printf("  traced step (general path): 0x%0*" PRIx32 "\n",
                               (int)(rc.fout->width + 3) / 4, td);
                }
            }
            if (++s->done >= next_report && next_report) {
                fprintf(stderr, "random: %3.0f%% (%" PRIu64 "/%" PRIu64 " cases, %" PRIu64
                        " mismatches, %.1f s)\n", 100.0 * (double)s->done / (double)total,
                        s->done, total, s->mismatches, now_s() - t0);
                next_report += total / 10 ? total / 10 : 1;
            }
        }
    }
    if (s->mismatches) {
        printf("random: mismatches by profile:\n");
        for (size_t ri = 0; ri < n; ri++)
            if (row_bad[ri])
                printf("  %-40s %" PRIu64 "\n", rows[ri].name, row_bad[ri]);
        printf("random: mismatches by scenario x reference result:\n");
        for (int i = 0; i < SC_COUNT; i++)
            for (int j = 0; j < RES_COUNT; j++)
                if (s->bucket[i][j])
                    printf("  %-10s %-12s %" PRIu64 "\n", SC_NAMES[i], RES_NAMES[j], s->bucket[i][j]);
    }
    printf("random: %" PRIu64 " cases, %" PRIu64 " mismatches, %.1f s\n", s->done, s->mismatches,
           now_s() - t0);
    int bad = s->mismatches != 0 || unpaired != 0;
    free(row_bad);
    free(t);
    free(s);
    ref_ctx_free(w);
    return bad;
}

/* ======================================================================= main */

static int parse_u64(const char *s, uint64_t *out)
{
    char *end;
    if (!s || !*s)
        return -1;
    unsigned long long v = strtoull(s, &end, 0);
    if (*end)
        return -1;
    *out = v;
    return 0;
}

static void usage(void)
{
    fprintf(stderr, "usage: test_vs_ref [--seed N] [--cases N] [--profile NAME] [--case I]\n"
                    "                   [--max-print N] [--dump N] [--selftest] [--table]\n");
}

int main(int argc, char **argv)
{
    run_opts o = {1, 1000000, NULL, -1, 20, 0};
    int only_self = 0, only_table = 0;
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        uint64_t v = 0;
        const char *val = i + 1 < argc ? argv[i + 1] : NULL;
        if (strcmp(a, "--selftest") == 0) {
            only_self = 1;
        } else if (strcmp(a, "--table") == 0) {
            only_table = 1;
        } else if (strcmp(a, "--profile") == 0 && val) {
            o.profile = val;
            i++;
        } else if ((strcmp(a, "--seed") == 0 || strcmp(a, "--cases") == 0 ||
                    strcmp(a, "--case") == 0 || strcmp(a, "--max-print") == 0 ||
                    strcmp(a, "--dump") == 0) &&
                   parse_u64(val, &v) == 0) {
            if (strcmp(a, "--seed") == 0)
                o.seed = v;
            else if (strcmp(a, "--cases") == 0)
                o.cases = v;
            else if (strcmp(a, "--case") == 0)
                o.only_case = (long long)v;
            else if (strcmp(a, "--dump") == 0)
                o.dump = (unsigned)v;
            else
                o.max_print = (unsigned)v;
            i++;
        } else {
            usage();
            return 2;
        }
    }
    int bad = 0;
    int all = !only_self && !only_table;
    if (all || only_self)
        bad |= run_selftest();
    if (all || only_table)
        bad |= run_table();
    if (all && o.cases)
        bad |= run_random(&o);
    printf("%s\n", bad ? "FAILED" : "PASSED");
    return bad ? 1 : 0;
}
