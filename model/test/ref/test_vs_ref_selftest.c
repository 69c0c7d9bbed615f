/* test_vs_ref_selftest.c - the exact reference against hand-computed cases written from
 * docs/contract.md, so that the reference is not only ever checked against the model. */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "vs_ref.h"

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
 * docs/contract.md steps; the comment says what the case pins down. */
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
    /* step 7: -2^-14 * 2^-14 = -2^-28 rounds to zero in fp16: -0 by IEEE's rule on
     * Ampere, +0 on Hopper and Blackwell (measured on an H200) */
    {"fp16 underflow keeps its sign", AMP, TC_FMT_FP16, TC_FMT_FP16, TC_KIND_FEDP, 1,
     {0x8400}, {0x0400}, 0x8000, 0x8000},
    {"fp16 underflow is +0 on hopper", TC_ARCH_HOPPER, TC_INSTR_MMA, TC_FMT_FP16, TC_FMT_FP16,
     TC_KIND_FEDP, 1, {0x8400}, {0x0400}, 0x8000, 0x0000},
    {"fp16 underflow is +0 on hopper wgmma", TC_ARCH_HOPPER, TC_INSTR_WGMMA, TC_FMT_E5M2,
     TC_FMT_FP16, TC_KIND_FEDP, 1, {0x81}, {0x01}, 0x8000, 0x0000},
    /* d2 = -2^-32 rounds to zero in fp16, which is +0 on Hopper whatever the sign
     * (docs/contract.md step 7, measured on an H200); then +0 + -0 = +0 (IEEE) */
    {"fp8 emulation: -2^-32 + -0", TC_ARCH_HOPPER, TC_INSTR_MMA, TC_FMT_E5M2, TC_FMT_FP16,
     TC_KIND_FP8_EMU, 3, {0, 0, 0x81}, {0, 0, 0x01}, 0x8000, 0x0000},
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
    /* issue 33, b1: a = 1,1,0,1,0,1,1,0  b = 1,0,0,1,1,1,0,1: AND has 3 ones, XOR 4 */
    {"b1 and.popc", AMP, TC_FMT_B1, TC_FMT_S32, TC_KIND_POPC_AND, 8,
     {1, 1, 0, 1, 0, 1, 1, 0}, {1, 0, 0, 1, 1, 1, 0, 1}, 0x00000010, 0x00000013},
    {"b1 xor.popc", AMP, TC_FMT_B1, TC_FMT_S32, TC_KIND_POPC_XOR, 8,
     {1, 1, 0, 1, 0, 1, 1, 0}, {1, 0, 0, 1, 1, 1, 0, 1}, 0x00000010, 0x00000014},
    /* all ones: AND counts every bit, XOR none; s32 wraps past 2^31 - 1 */
    {"b1 and.popc wrap-around", AMP, TC_FMT_B1, TC_FMT_S32, TC_KIND_POPC_AND, 8,
     {1, 1, 1, 1, 1, 1, 1, 1}, {1, 1, 1, 1, 1, 1, 1, 1}, 0x7ffffffd, 0x80000005},
    {"b1 xor.popc all ones", AMP, TC_FMT_B1, TC_FMT_S32, TC_KIND_POPC_XOR, 8,
     {1, 1, 1, 1, 1, 1, 1, 1}, {1, 1, 1, 1, 1, 1, 1, 1}, 0xffffffff, 0xffffffff},
};

/* issue 33, the mixed-signedness pairs, a and b each in its own format (hand-worked) */
typedef struct pair_case {
    const char *what;
    tc_fmt in, in_b;
    size_t k;
    uint32_t a[2], b[2];
    uint32_t c, expect;
} pair_case;
static const pair_case PAIRS[] = {
    /* -1 * 255 + 127 * 1 = -128 */
    {"int8 x uint8", TC_FMT_INT8, TC_FMT_UINT8, 2, {0xff, 0x7f}, {0xff, 0x01}, 0, 0xffffff80},
    /* 128 * -128 = -16384, + 0x7fffffff wraps nowhere: 0x7fffbfff */
    {"uint8 x int8", TC_FMT_UINT8, TC_FMT_INT8, 1, {0x80}, {0x80}, 0x7fffffff, 0x7fffbfff},
    /* -8 * 15 + 7 * 0 = -120 */
    {"int4 x uint4", TC_FMT_INT4, TC_FMT_UINT4, 2, {0x8, 0x7}, {0xf, 0x0}, 0, 0xffffff88},
    /* 15 * 7 = 105 past 2^31 - 1: wraps to -2^31 + 104 */
    {"uint4 x int4 wrap-around", TC_FMT_UINT4, TC_FMT_INT4, 1, {0xf}, {0x7}, 0x7fffffff,
     0x80000068},
};
#undef AMP

static void selftest_hand(ref_ctx *w)
{
    for (size_t i = 0; i < sizeof HAND / sizeof HAND[0]; i++) {
        const hand_case *h = &HAND[i];
        ref_profile introw = {0};
        const ref_profile *p;
        if (h->kind == TC_KIND_INT || h->kind == TC_KIND_POPC_AND ||
            h->kind == TC_KIND_POPC_XOR) { /* integer rows are not in our table */
            introw.kind = h->kind;
            introw.in = h->in;
            introw.in_b = h->in;
            introw.out = h->out;
            p = &introw;
        } else {
            p = ref_profile_lookup(h->arch, h->instr, h->in, h->out, h->kind, TC_FMT_COUNT, 0);
        }
        uint32_t d = 0;
        int rc = p ? ref_dot(w, p, h->k, h->a, h->b, h->c, &d) : -1;
        expect_u32(h->what, rc, d, h->expect);
    }
    for (size_t i = 0; i < sizeof PAIRS / sizeof PAIRS[0]; i++) {
        const pair_case *h = &PAIRS[i];
        ref_profile row = {0};
        row.kind = TC_KIND_INT;
        row.in = h->in;
        row.in_b = h->in_b;
        row.out = TC_FMT_S32;
        uint32_t d = 0;
        int rc = ref_dot(w, &row, h->k, h->a, h->b, h->c, &d);
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

int run_selftest(void)
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

