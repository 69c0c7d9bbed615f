/*
 * ref_exact.c - the exact reference of docs/contract.md (see ref_exact.h).
 *
 * Layout, in the order docs/contract.md tells it:
 *   formats        our transcription of the "Formats" section, and the decoder
 *   profiles       our transcription of the parameter table
 *   output         rounding an exact non-zero number once to fp32 / fp16 / e8m13
 *   terms          products, c and group sums as exact terms with an alignment exponent
 *   fused step     steps 3-7 over a list of terms (specials, E, truncation, sum, round)
 *   dot products   chaining (k > L), the fp8 emulation, integers, block-scaled kinds
 */
#include "ref_exact.h"

#include <gmp.h>
#include <stdlib.h>
#include <string.h>

/* ======================================================================= formats */

/* emin = 1 - bias for every float; emax is the exponent of the largest finite binade:
 * IEEE-like formats lose the all-ones exponent to Inf/NaN, e4m3 keeps it (max 448 =
 * 1.75 * 2^8), fp6/fp4 have no specials at all. ue8m0 is 2^(x-127) for x = 0..254. */
static const ref_fmt REF_FMTS[] = {
    /* id            name     class          w  eb  mb bias ign spec            sgn emin emax */
    {TC_FMT_FP32,  "fp32",  REF_CLS_FLOAT, 32, 8, 23, 127, 0,  REF_SPEC_IEEE,  1, -126, 127},
    {TC_FMT_TF32,  "tf32",  REF_CLS_FLOAT, 32, 8, 10, 127, 13, REF_SPEC_IEEE,  1, -126, 127},
    {TC_FMT_FP16,  "fp16",  REF_CLS_FLOAT, 16, 5, 10, 15,  0,  REF_SPEC_IEEE,  1, -14,  15},
    {TC_FMT_BF16,  "bf16",  REF_CLS_FLOAT, 16, 8, 7,  127, 0,  REF_SPEC_IEEE,  1, -126, 127},
    {TC_FMT_E4M3,  "e4m3",  REF_CLS_FLOAT, 8,  4, 3,  7,   0,  REF_SPEC_E4M3,  1, -6,   8},
    {TC_FMT_E5M2,  "e5m2",  REF_CLS_FLOAT, 8,  5, 2,  15,  0,  REF_SPEC_IEEE,  1, -14,  15},
    {TC_FMT_E3M2,  "e3m2",  REF_CLS_FLOAT, 6,  3, 2,  3,   0,  REF_SPEC_NONE,  1, -2,   4},
    {TC_FMT_E2M3,  "e2m3",  REF_CLS_FLOAT, 6,  2, 3,  1,   0,  REF_SPEC_NONE,  1, 0,    2},
    {TC_FMT_E2M1,  "e2m1",  REF_CLS_FLOAT, 4,  2, 1,  1,   0,  REF_SPEC_NONE,  1, 0,    2},
    {TC_FMT_UE8M0, "ue8m0", REF_CLS_SCALE, 8,  8, 0,  127, 0,  REF_SPEC_UE8M0, 0, -127, 127},
    /* ue4m3: e4m3 with the sign bit (bit 7) ignored, so the word is still 8 bits */
    {TC_FMT_UE4M3, "ue4m3", REF_CLS_SCALE, 8,  4, 3,  7,   0,  REF_SPEC_E4M3,  0, -6,   8},
    {TC_FMT_INT8,  "int8",  REF_CLS_INT,   8,  0, 0,  0,   0,  REF_SPEC_NONE,  1, 0,    0},
    {TC_FMT_UINT8, "uint8", REF_CLS_INT,   8,  0, 0,  0,   0,  REF_SPEC_NONE,  0, 0,    0},
    {TC_FMT_INT4,  "int4",  REF_CLS_INT,   4,  0, 0,  0,   0,  REF_SPEC_NONE,  1, 0,    0},
    {TC_FMT_UINT4, "uint4", REF_CLS_INT,   4,  0, 0,  0,   0,  REF_SPEC_NONE,  0, 0,    0},
    {TC_FMT_S32,   "s32",   REF_CLS_INT,   32, 0, 0,  0,   0,  REF_SPEC_NONE,  1, 0,    0},
    /* issue 33: the bit of the b1 forms, one per word */
    {TC_FMT_B1,    "b1",    REF_CLS_INT,   1,  0, 0,  0,   0,  REF_SPEC_NONE,  0, 0,    0},
};

const ref_fmt *ref_fmt_get(tc_fmt f)
{
    for (size_t i = 0; i < sizeof REF_FMTS / sizeof REF_FMTS[0]; i++)
        if (REF_FMTS[i].id == f)
            return &REF_FMTS[i];
    return NULL;
}

static int fits_width(const ref_fmt *d, uint32_t bits)
{
    return d->width >= 32 || (bits >> d->width) == 0;
}

int ref_decode(tc_fmt f, uint32_t bits, ref_num *out)
{
    const ref_fmt *d = ref_fmt_get(f);
    if (!d || d->cls == REF_CLS_INT || !fits_width(d, bits))
        return -1;
    /* tf32: the value is the top 19 bits, an e8m10 word; the low 13 bits are ignored. */
    uint32_t w = bits >> d->ignore_low;
    unsigned nbits = d->width - d->ignore_low;
    uint32_t emask = (1u << d->ebits) - 1u, mmask = (1u << d->mbits) - 1u;
    uint32_t expf = (w >> d->mbits) & emask, man = w & mmask;
    ref_num x = {REF_FIN, 0, 0, 0};
    /* Scales are unsigned: ue8m0 has no sign bit, ue4m3's bit 7 is ignored. */
    if (d->cls == REF_CLS_FLOAT)
        x.neg = (int)((w >> (nbits - 1)) & 1u);

    switch (d->spec) {
    case REF_SPEC_IEEE:
        if (expf == emask) {
            x.cls = man ? REF_NAN : REF_INF;
            *out = x;
            return 0;
        }
        break;
    case REF_SPEC_E4M3:
        if (expf == emask && man == mmask) {
            x.cls = REF_NAN;
            *out = x;
            return 0;
        }
        break;
    case REF_SPEC_UE8M0:
        if (expf == emask)
            x.cls = REF_NAN;
        x.sig = 1; /* 2^(x-127): no zero, no subnormal, x = 0 is 2^-127 */
        x.q = (int)expf - d->bias;
        *out = x;
        return 0;
    case REF_SPEC_NONE:
        break;
    }
    if (expf == 0) { /* zero or subnormal: 0.man * 2^emin */
        x.sig = man;
        x.q = d->emin - (int)d->mbits;
    } else {         /* normal: 1.man * 2^(expf - bias) */
        x.sig = (1u << d->mbits) | man;
        x.q = (int)expf - d->bias - (int)d->mbits;
    }
    *out = x;
    return 0;
}

/* Number of significant bits of v (0 for 0). */
static int bit_length(uint64_t v)
{
    int n = 0;
    while (v) {
        n++;
        v >>= 1;
    }
    return n;
}

long ref_align_exp(const ref_num *x, int emin)
{
    long h = (long)bit_length(x->sig) - 1 + x->q; /* floor(log2|x|), exact */
    return h < emin ? emin : h;
}

/* Value of an integer pattern of f (two's complement when signed). */
static int64_t int_value(const ref_fmt *d, uint32_t bits)
{
    if (d->width >= 32)
        return d->is_signed ? (int64_t)(int32_t)bits : (int64_t)bits;
    int64_t v = (int64_t)bits;
    if (d->is_signed && (bits >> (d->width - 1)) & 1u)
        v -= (int64_t)1 << d->width;
    return v;
}

/* ======================================================================= profiles */

/* FEDP rows: fp32 output rounds RZ, fp16 output RNE (step 6); from Hopper on, an fp16
 * result that rounds to zero is +0 (step 7). */
#define FEDP_AB(w, ar, ins, i, ib, o, l, f, emin, man)                              \
    {w, TC_ARCH_##ar, TC_INSTR_##ins, TC_FMT_##i, TC_FMT_##o, TC_KIND_FEDP, l, f,    \
     (TC_FMT_##o == TC_FMT_FP16) ? TC_RNE : TC_RZ, emin, man, TC_FMT_COUNT, 0, NULL, 0, \
     TC_FMT_##o == TC_FMT_FP16 && TC_ARCH_##ar >= TC_ARCH_HOPPER, TC_FMT_##ib}
#define FEDP(w, ar, ins, i, o, l, f, emin, man) FEDP_AB(w, ar, ins, i, i, o, l, f, emin, man)
/* fp8 through mma on hopper/blackwell: the step parameters are those of the arch's
 * fp16 row; docs/contract.md gives no L/F/rounding/floor for the emulation row itself
 * (we note the block of 32). */
#define EMU_AB(w, ar, i, ib, o)                                                       \
    {w, TC_ARCH_##ar, TC_INSTR_MMA, TC_FMT_##i, TC_FMT_##o, TC_KIND_FP8_EMU, 32, 0, TC_RNE, \
     0, 0, TC_FMT_COUNT, 0, NULL,                                                     \
     REF_UNSPEC_L | REF_UNSPEC_F | REF_UNSPEC_ROUND | REF_UNSPEC_EMIN | REF_UNSPEC_MAN, 0, \
     TC_FMT_##ib}
#define EMU(w, ar, i, o) EMU_AB(w, ar, i, i, o)
/* The 16-bit rows of Hopper and Blackwell (every instruction): L = 16 (8 for tf32),
 * F = 25, the fp16 and fp32 floors; w names the arch and instruction. */
#define HALF16(w, ar, ins)                                                            \
    FEDP(w " fp16->fp32", ar, ins, FP16, FP32, 16, 25, -133, 23),                     \
    FEDP(w " fp16->fp16", ar, ins, FP16, FP16, 16, 25, -21, 10),                      \
    FEDP(w " bf16->fp32", ar, ins, BF16, FP32, 16, 25, -133, 23),                     \
    FEDP(w " tf32->fp32", ar, ins, TF32, FP32, 8, 25, -133, 23)
/* The four fp16-emulated fp8 rows of an arch's mma (w: the arch's name). */
#define EMU4(w, ar)                                                                   \
    EMU(w " mma e4m3->fp32 (fp16 emulation)", ar, E4M3, FP32),                        \
    EMU(w " mma e5m2->fp32 (fp16 emulation)", ar, E5M2, FP32),                        \
    EMU(w " mma e4m3->fp16 (fp16 emulation)", ar, E4M3, FP16),                        \
    EMU(w " mma e5m2->fp16 (fp16 emulation)", ar, E5M2, FP16)
/* mxf8f6f4: one 32-term step of the tcgen05 f8f6f4 row, fp32 out, RZ. */
#define MX_AB(w, i, j)                                                                \
    {w, TC_ARCH_BLACKWELL, TC_INSTR_TCGEN05, TC_FMT_##i, TC_FMT_FP32, TC_KIND_MX, 32, 25, \
     TC_RZ, -133, 23, TC_FMT_UE8M0, 32, "mxf8f6f4", 0, 0, TC_FMT_##j}
#define MX(w, i) MX_AB(w, i, i)
/* mxf4 / nvf4: 64 products per step, F = 35, RZ fp32. docs/contract.md names no
 * Emin_align for these kinds, so that field is left to the model (and reported). */
#define MXF4(w, kindname, sc, blk)                                                    \
    {w, TC_ARCH_BLACKWELL, TC_INSTR_TCGEN05, TC_FMT_E2M1, TC_FMT_FP32, TC_KIND_MXF4, 64, 35, \
     TC_RZ, REF_EMIN_UNSPECIFIED, 23, TC_FMT_##sc, blk, kindname, REF_UNSPEC_EMIN, 0,     \
     TC_FMT_E2M1}

/* "Mixed A and B formats": a pair is its kind's row, each operand decoded in its own
 * format. Ada mma and Hopper wgmma (native fp8, both outputs), Hopper mma (emulation):
 * e4m3 x e5m2 both ways; x names the row (arch instr), the macros spell the pair. */
#define FP8_PAIRS(x, ar, ins, l, f, emin)                                             \
    FEDP_AB(x " e4m3 x e5m2->fp32", ar, ins, E4M3, E5M2, FP32, l, f, emin, 13),       \
    FEDP_AB(x " e5m2 x e4m3->fp32", ar, ins, E5M2, E4M3, FP32, l, f, emin, 13),       \
    FEDP_AB(x " e4m3 x e5m2->fp16", ar, ins, E4M3, E5M2, FP16, l, f, emin, 10),       \
    FEDP_AB(x " e5m2 x e4m3->fp16", ar, ins, E5M2, E4M3, FP16, l, f, emin, 10)
#define EMU_PAIRS(x, ar)                                                              \
    EMU_AB(x " mma e4m3 x e5m2->fp32 (fp16 emulation)", ar, E4M3, E5M2, FP32),        \
    EMU_AB(x " mma e5m2 x e4m3->fp32 (fp16 emulation)", ar, E5M2, E4M3, FP32),        \
    EMU_AB(x " mma e4m3 x e5m2->fp16 (fp16 emulation)", ar, E4M3, E5M2, FP16),        \
    EMU_AB(x " mma e5m2 x e4m3->fp16 (fp16 emulation)", ar, E5M2, E4M3, FP16)
/* tcgen05 kind::f8f6f4: A in a, B in b (a != b), both outputs of the f8f6f4 row */
#define F8F6F4_PAIR(a, b)                                                             \
    FEDP_AB("blackwell tcgen05 " #a " x " #b "->fp32", BLACKWELL, TCGEN05, a, b, FP32, 32, \
            25, -133, 23),                                                            \
    FEDP_AB("blackwell tcgen05 " #a " x " #b "->fp16", BLACKWELL, TCGEN05, a, b, FP16, 32, \
            25, -133, 10)
#define F8F6F4_PAIRS(a, b1, b2, b3, b4)                                               \
    F8F6F4_PAIR(a, b1), F8F6F4_PAIR(a, b2), F8F6F4_PAIR(a, b3), F8F6F4_PAIR(a, b4)
/* mxf8f6f4: A in a, B in b (a != b), its one fp32 row */
#define MX_PAIR(a, b) MX_AB("blackwell tcgen05 mxf8f6f4 " #a " x " #b, a, b)
#define MX_PAIRS(a, b1, b2, b3, b4) MX_PAIR(a, b1), MX_PAIR(a, b2), MX_PAIR(a, b3), MX_PAIR(a, b4)

#define NONE REF_EMIN_NONE
static const ref_profile REF_PROFILES[] = {
    FEDP("volta fp16->fp32", VOLTA, MMA, FP16, FP32, 4, 23, NONE, 23),
    FEDP("volta fp16->fp16", VOLTA, MMA, FP16, FP16, 4, 23, -19, 10),
    /* Turing: the table's own row (fp16 only; Ampere's parameters). */
    FEDP("turing fp16->fp32", TURING, MMA, FP16, FP32, 8, 24, -132, 23),
    FEDP("turing fp16->fp16", TURING, MMA, FP16, FP16, 8, 24, -20, 10),
    FEDP("ampere fp16->fp32", AMPERE, MMA, FP16, FP32, 8, 24, -132, 23),
    FEDP("ampere fp16->fp16", AMPERE, MMA, FP16, FP16, 8, 24, -20, 10),
    FEDP("ampere bf16->fp32", AMPERE, MMA, BF16, FP32, 8, 24, -132, 23),
    FEDP("ampere tf32->fp32", AMPERE, MMA, TF32, FP32, 4, 24, -132, 23),
    FEDP("ada fp16->fp32", ADA, MMA, FP16, FP32, 8, 24, -132, 23),
    FEDP("ada fp16->fp16", ADA, MMA, FP16, FP16, 8, 24, -20, 10),
    FEDP("ada bf16->fp32", ADA, MMA, BF16, FP32, 8, 24, -132, 23),
    FEDP("ada tf32->fp32", ADA, MMA, TF32, FP32, 4, 24, -132, 23),
    /* native fp8 on Ada: F = 13, and fp32 output is e8m13 (RZ to 13 fraction bits) */
    FEDP("ada e4m3->fp32", ADA, MMA, E4M3, FP32, 16, 13, -132, 13),
    FEDP("ada e5m2->fp32", ADA, MMA, E5M2, FP32, 16, 13, -132, 13),
    FEDP("ada e4m3->fp16", ADA, MMA, E4M3, FP16, 16, 13, -132, 10),
    FEDP("ada e5m2->fp16", ADA, MMA, E5M2, FP16, 16, 13, -132, 10),
    HALF16("hopper mma", HOPPER, MMA),
    HALF16("hopper wgmma", HOPPER, WGMMA),
    FEDP("hopper wgmma e4m3->fp32", HOPPER, WGMMA, E4M3, FP32, 32, 13, -133, 13),
    FEDP("hopper wgmma e5m2->fp32", HOPPER, WGMMA, E5M2, FP32, 32, 13, -133, 13),
    FEDP("hopper wgmma e4m3->fp16", HOPPER, WGMMA, E4M3, FP16, 32, 13, -133, 10),
    FEDP("hopper wgmma e5m2->fp16", HOPPER, WGMMA, E5M2, FP16, 32, 13, -133, 10),
    EMU4("hopper", HOPPER),
    HALF16("blackwell mma", BLACKWELL, MMA),
    HALF16("blackwell tcgen05", BLACKWELL, TCGEN05),
    EMU4("blackwell", BLACKWELL),
    /* tcgen05 f8f6f4: F = 25 (not 13), so fp32 output is plain fp32 */
    FEDP("blackwell tcgen05 e4m3->fp32", BLACKWELL, TCGEN05, E4M3, FP32, 32, 25, -133, 23),
    FEDP("blackwell tcgen05 e5m2->fp32", BLACKWELL, TCGEN05, E5M2, FP32, 32, 25, -133, 23),
    FEDP("blackwell tcgen05 e3m2->fp32", BLACKWELL, TCGEN05, E3M2, FP32, 32, 25, -133, 23),
    FEDP("blackwell tcgen05 e2m3->fp32", BLACKWELL, TCGEN05, E2M3, FP32, 32, 25, -133, 23),
    FEDP("blackwell tcgen05 e2m1->fp32", BLACKWELL, TCGEN05, E2M1, FP32, 32, 25, -133, 23),
    FEDP("blackwell tcgen05 e4m3->fp16", BLACKWELL, TCGEN05, E4M3, FP16, 32, 25, -133, 10),
    FEDP("blackwell tcgen05 e5m2->fp16", BLACKWELL, TCGEN05, E5M2, FP16, 32, 25, -133, 10),
    FEDP("blackwell tcgen05 e3m2->fp16", BLACKWELL, TCGEN05, E3M2, FP16, 32, 25, -133, 10),
    FEDP("blackwell tcgen05 e2m3->fp16", BLACKWELL, TCGEN05, E2M3, FP16, 32, 25, -133, 10),
    FEDP("blackwell tcgen05 e2m1->fp16", BLACKWELL, TCGEN05, E2M1, FP16, 32, 25, -133, 10),
    FP8_PAIRS("ada mma", ADA, MMA, 16, 13, -132),
    FP8_PAIRS("hopper wgmma", HOPPER, WGMMA, 32, 13, -133),
    EMU_PAIRS("hopper", HOPPER),
    EMU_PAIRS("blackwell", BLACKWELL), /* issue 33: sm_100 keeps sm_89's mma pairs */
    F8F6F4_PAIRS(E4M3, E5M2, E3M2, E2M3, E2M1),
    F8F6F4_PAIRS(E5M2, E4M3, E3M2, E2M3, E2M1),
    F8F6F4_PAIRS(E3M2, E4M3, E5M2, E2M3, E2M1),
    F8F6F4_PAIRS(E2M3, E4M3, E5M2, E3M2, E2M1),
    F8F6F4_PAIRS(E2M1, E4M3, E5M2, E3M2, E2M3),
    MX("blackwell tcgen05 mxf8f6f4 e4m3", E4M3),
    MX("blackwell tcgen05 mxf8f6f4 e5m2", E5M2),
    MX("blackwell tcgen05 mxf8f6f4 e3m2", E3M2),
    MX("blackwell tcgen05 mxf8f6f4 e2m3", E2M3),
    MX("blackwell tcgen05 mxf8f6f4 e2m1", E2M1),
    MXF4("blackwell tcgen05 mxf4 (ue8m0/32)", "mxf4", UE8M0, 32),
    MXF4("blackwell tcgen05 mxf4nvf4 (ue8m0/16)", "mxf4nvf4", UE8M0, 16),
    MXF4("blackwell tcgen05 mxf4nvf4 (ue4m3/16)", "mxf4nvf4", UE4M3, 16),
    MX_PAIRS(E4M3, E5M2, E3M2, E2M3, E2M1),
    MX_PAIRS(E5M2, E4M3, E3M2, E2M3, E2M1),
    MX_PAIRS(E3M2, E4M3, E5M2, E2M3, E2M1),
    MX_PAIRS(E2M3, E4M3, E5M2, E3M2, E2M1),
    MX_PAIRS(E2M1, E4M3, E5M2, E3M2, E2M3),
};
#undef NONE

size_t ref_profile_table(const ref_profile **rows)
{
    *rows = REF_PROFILES;
    return sizeof REF_PROFILES / sizeof REF_PROFILES[0];
}

const ref_profile *ref_profile_lookup(tc_arch arch, tc_instr instr, tc_fmt in, tc_fmt out,
                                      tc_kind kind, tc_fmt scale, unsigned scale_block)
{
    return ref_profile_lookup_ab(arch, instr, in, in, out, kind, scale, scale_block);
}

const ref_profile *ref_profile_lookup_ab(tc_arch arch, tc_instr instr, tc_fmt in, tc_fmt in_b,
                                         tc_fmt out, tc_kind kind, tc_fmt scale,
                                         unsigned scale_block)
{
    for (size_t i = 0; i < sizeof REF_PROFILES / sizeof REF_PROFILES[0]; i++) {
        const ref_profile *p = &REF_PROFILES[i];
        if (p->arch == arch && p->instr == instr && p->in == in && p->in_b == in_b &&
            p->out == out &&
            p->kind == kind && p->scale == scale && p->scale_block == scale_block)
            return p;
    }
    return NULL;
}

/* ======================================================================= output */

/* A result format: p fraction bits, exponent range, and where the bits go. e8m13 is
 * fp32's exponent range with 13 fraction bits, stored as fp32 (fraction << 10). */
typedef struct ref_out {
    unsigned p;
    int emin, emax, bias;
    unsigned ebits;
    unsigned frac_shift;
    unsigned width;
} ref_out;

static const ref_out OUT_FP32 = {23, -126, 127, 127, 8, 0, 32};
static const ref_out OUT_FP16 = {10, -14, 15, 15, 5, 0, 16};
static const ref_out OUT_E8M13 = {13, -126, 127, 127, 8, 10, 32};

static uint32_t out_sign(const ref_out *o, int neg)
{
    return neg ? (uint32_t)1u << (o->width - 1) : 0u;
}

/* Canonical NaN: every bit but the sign (fp32 0x7fffffff, fp16 0x7fff). */
static uint32_t out_nan(const ref_out *o)
{
    return (uint32_t)((1ull << (o->width - 1)) - 1u);
}

static uint32_t out_inf(const ref_out *o, int neg)
{
    return out_sign(o, neg) | (((1u << o->ebits) - 1u) << (o->p + o->frac_shift));
}

/* Round the exact non-zero number (-1)^neg * mag * 2^q once to o (step 6/7):
 * gradual underflow, Inf when the rounded magnitude reaches 2^(emax+1), a result
 * that rounds to zero keeps the sign unless zero_plus (then +0). */
static uint32_t round_pack(int neg, const mpz_t mag, long q, const ref_out *o, tc_round rnd,
                           int zero_plus)
{
    long h = (long)mpz_sizeinbase(mag, 2) - 1 + q; /* floor(log2 |x|) */
    long e = h < o->emin ? o->emin : h;            /* binade of the result */
    long shift = q - (e - (long)o->p);             /* |x| = mag * 2^shift ulps */
    uint64_t M;                                    /* |x| in ulps of 2^(e - p), rounded */
    if (shift >= 0) {
        /* exact: mag < 2^(p+1-shift) since h <= e, so this fits */
        M = (uint64_t)mpz_get_ui(mag) << shift;
    } else {
        unsigned long r = (unsigned long)(-shift);
        mpz_t quo;
        mpz_init(quo);
        mpz_fdiv_q_2exp(quo, mag, r);
        M = (uint64_t)mpz_get_ui(quo);
        mpz_clear(quo);
        if (rnd == TC_RNE) {
            /* above half, or exactly half and M odd: round up */
            int half = mpz_tstbit(mag, r - 1);
            int below = mpz_scan1(mag, 0) < r - 1;
            if (half && (below || (M & 1u)))
                M++;
        }
    }
    if (M >> (o->p + 1)) { /* rounding carried into the next binade */
        M >>= 1;
        e++;
    }
    if (M == 0)
        return out_sign(o, neg && !zero_plus);
    if (M >> o->p) { /* normal */
        if (e > o->emax)
            return out_inf(o, neg);
        uint32_t biased = (uint32_t)(e + o->bias);
        uint32_t frac = (uint32_t)(M - ((uint64_t)1 << o->p));
        return out_sign(o, neg) | (biased << (o->p + o->frac_shift)) | (frac << o->frac_shift);
    }
    return out_sign(o, neg) | ((uint32_t)M << o->frac_shift); /* subnormal, e == emin */
}

/* ======================================================================= terms */

/* Products, c and group sums, as the terms of one fused step. The value of a finite
 * term is (-1)^neg * mag * 2^q; `live` says it takes part in the choice of E (a zero
 * product, a zero c, an all-zero group are dropped from step 3), `e` is then its
 * alignment exponent. */
typedef struct ref_term {
    ref_cls cls;
    int neg;
    mpz_t mag;
    long q;
    long e;
    int live;
} ref_term;

/* Enough for any step: 64 products (or 4 groups) plus c. */
#define REF_MAX_TERMS 72

struct ref_ctx {
    ref_term term[REF_MAX_TERMS];
    mpz_t t, sum, acc;
};

ref_ctx *ref_ctx_new(void)
{
    ref_ctx *w = malloc(sizeof *w);
    if (!w)
        return NULL;
    for (size_t i = 0; i < REF_MAX_TERMS; i++)
        mpz_init(w->term[i].mag);
    mpz_init(w->t);
    mpz_init(w->sum);
    mpz_init(w->acc);
    return w;
}

void ref_ctx_free(ref_ctx *w)
{
    if (!w)
        return;
    for (size_t i = 0; i < REF_MAX_TERMS; i++)
        mpz_clear(w->term[i].mag);
    mpz_clear(w->t);
    mpz_clear(w->sum);
    mpz_clear(w->acc);
    free(w);
}

static int is_zero(const ref_num *x)
{
    return x->cls == REF_FIN && x->sig == 0;
}

static void term_set_special(ref_term *t, ref_cls cls, int neg)
{
    t->cls = cls;
    t->neg = neg;
    t->live = 0;
    mpz_set_ui(t->mag, 0);
    t->q = 0;
    t->e = 0;
}

/* The exact product a*b (step 2) with alignment exponent e_a + e_b, where each e is
 * max(floor(log2|x|), emin_in); NaN for a NaN operand or Inf*0. */
static void term_product(ref_term *t, const ref_num *a, const ref_num *b, int emin_a,
                         int emin_b)
{
    if (a->cls == REF_NAN || b->cls == REF_NAN) {
        term_set_special(t, REF_NAN, 0);
        return;
    }
    if (a->cls == REF_INF || b->cls == REF_INF) {
        if (is_zero(a) || is_zero(b))
            term_set_special(t, REF_NAN, 0);
        else
            term_set_special(t, REF_INF, a->neg ^ b->neg);
        return;
    }
    t->cls = REF_FIN;
    t->neg = a->neg ^ b->neg;
    mpz_set_ui(t->mag, (unsigned long)a->sig);
    mpz_mul_ui(t->mag, t->mag, (unsigned long)b->sig);
    t->q = (long)a->q + b->q;
    t->live = a->sig != 0 && b->sig != 0;
    t->e = t->live ? ref_align_exp(a, emin_a) + ref_align_exp(b, emin_b) : 0;
}

/* Multiply a product term by the scales sa*sb and raise its exponent by
 * e(sa) + e(sb) (mxf8f6f4). A NaN scale gives NaN. */
static void term_scale(ref_term *t, const ref_num *sa, const ref_num *sb, int emin_s)
{
    if (sa->cls == REF_NAN || sb->cls == REF_NAN) {
        term_set_special(t, REF_NAN, 0);
        return;
    }
    int scale_zero = sa->sig == 0 || sb->sig == 0; /* only ue4m3 has a zero */
    if (t->cls == REF_INF) {
        if (scale_zero)
            term_set_special(t, REF_NAN, 0);
        return;
    }
    if (t->cls != REF_FIN)
        return;
    mpz_mul_ui(t->mag, t->mag, (unsigned long)sa->sig);
    mpz_mul_ui(t->mag, t->mag, (unsigned long)sb->sig);
    t->q += (long)sa->q + sb->q;
    if (scale_zero)
        t->live = 0;
    if (t->live)
        t->e += ref_align_exp(sa, emin_s) + ref_align_exp(sb, emin_s);
}

/* The accumulator c, decoded in its own format (fp32, or fp16 in fp16-output mode),
 * with e_c = max(floor(log2|c|), emin of that format). */
static int term_c(ref_term *t, tc_fmt cf, uint32_t c)
{
    ref_num x;
    if (ref_decode(cf, c, &x) != 0)
        return -1;
    if (x.cls != REF_FIN) {
        term_set_special(t, x.cls, x.neg);
        return 0;
    }
    t->cls = REF_FIN;
    t->neg = x.neg;
    mpz_set_ui(t->mag, (unsigned long)x.sig);
    t->q = x.q;
    t->live = x.sig != 0;
    t->e = t->live ? ref_align_exp(&x, ref_fmt_get(cf)->emin) : 0;
    return 0;
}

/* ======================================================================= fused step */

typedef struct step_params {
    unsigned F;
    int emin_align;      /* REF_EMIN_NONE for no floor */
    const ref_out *out;
    tc_round rnd;
    int zero_plus;
} step_params;

/* Steps 3-7 of docs/contract.md over terms[0..n). Specials first: any NaN, or Inf of both
 * signs, is the canonical NaN; otherwise an Inf term gives Inf of its sign. */
static uint32_t fused_step(ref_ctx *w, size_t n, const step_params *sp)
{
    ref_term *tm = w->term;
    int nan = 0, pinf = 0, ninf = 0;
    for (size_t i = 0; i < n; i++) {
        if (tm[i].cls == REF_NAN)
            nan = 1;
        else if (tm[i].cls == REF_INF)
            *(tm[i].neg ? &ninf : &pinf) = 1;
    }
    if (nan || (pinf && ninf))
        return out_nan(sp->out);
    if (pinf || ninf)
        return out_inf(sp->out, ninf);

    /* Step 3: E over the live terms, then the Emin_align floor. */
    int have = 0;
    long E = 0;
    for (size_t i = 0; i < n; i++)
        if (tm[i].live && (!have || tm[i].e > E)) {
            E = tm[i].e;
            have = 1;
        }
    if (!have)
        return 0; /* nothing but zeros: the exact sum is 0, which gives +0 */
    if (sp->emin_align != REF_EMIN_NONE && E < sp->emin_align)
        E = sp->emin_align;

    /* Steps 4-5: t = trunc(|term| * 2^(F-E)) in sign-magnitude, summed exactly. */
    mpz_set_ui(w->sum, 0);
    for (size_t i = 0; i < n; i++) {
        if (!tm[i].live)
            continue;
        long sh = tm[i].q + (long)sp->F - E;
        if (sh >= 0)
            mpz_mul_2exp(w->t, tm[i].mag, (mp_bitcnt_t)sh);
        else
            mpz_tdiv_q_2exp(w->t, tm[i].mag, (mp_bitcnt_t)(-sh));
        if (tm[i].neg)
            mpz_sub(w->sum, w->sum, w->t);
        else
            mpz_add(w->sum, w->sum, w->t);
    }

    /* Steps 6-7: a zero sum is +0; otherwise round once. */
    int sgn = mpz_sgn(w->sum);
    if (sgn == 0)
        return 0;
    mpz_abs(w->sum, w->sum);
    return round_pack(sgn < 0, w->sum, E - (long)sp->F, sp->out, sp->rnd, sp->zero_plus);
}

/* ======================================================================= dot products */

static const ref_out *profile_out(const ref_profile *p)
{
    if (p->out == TC_FMT_FP16)
        return &OUT_FP16;
    return p->out_man_bits == 13 ? &OUT_E8M13 : &OUT_FP32;
}

static step_params profile_step(const ref_profile *p)
{
    step_params sp = {p->F, p->emin_align, profile_out(p), p->round, p->zero_plus};
    return sp;
}

/* One FEDP step over a[0..n) (decoded in ina, its exponents floored at emin_a),
 * b[0..n) (inb, emin_b) and the accumulator c in format p->out. A mixed pair is the
 * same step with each operand read in its own format (docs/contract.md). */
static int fedp_step(ref_ctx *w, const ref_profile *p, tc_fmt ina, int emin_a, tc_fmt inb,
                     int emin_b, const uint32_t *a, const uint32_t *b, size_t n, uint32_t c,
                     uint32_t *d)
{
    for (size_t i = 0; i < n; i++) {
        ref_num x, y;
        if (ref_decode(ina, a[i], &x) || ref_decode(inb, b[i], &y))
            return -1;
        term_product(&w->term[i], &x, &y, emin_a, emin_b);
    }
    if (term_c(&w->term[n], p->out, c))
        return -1;
    step_params sp = profile_step(p);
    *d = fused_step(w, n + 1, &sp);
    return 0;
}

/* k > L: consecutive blocks of L, each step's result the next step's c. */
static int dot_fedp(ref_ctx *w, const ref_profile *p, size_t k, const uint32_t *a,
                    const uint32_t *b, uint32_t c, uint32_t *d)
{
    const ref_fmt *fin = ref_fmt_get(p->in), *finb = ref_fmt_get(p->in_b);
    if (!fin || !finb || p->L == 0 || p->L + 1 > REF_MAX_TERMS)
        return -1;
    uint32_t acc = c;
    for (size_t s = 0; s < k; s += p->L) {
        size_t n = k - s < p->L ? k - s : p->L;
        if (fedp_step(w, p, p->in, fin->emin, p->in_b, finb->emin, a + s, b + s, n, acc,
                      &acc))
            return -1;
    }
    *d = acc;
    return 0;
}

int ref_add_rne(ref_ctx *w, tc_fmt f, uint32_t x, uint32_t y, uint32_t *out)
{
    const ref_out *o = f == TC_FMT_FP32 ? &OUT_FP32 : f == TC_FMT_FP16 ? &OUT_FP16 : NULL;
    ref_num u, v;
    if (!o || ref_decode(f, x, &u) || ref_decode(f, y, &v))
        return -1;
    if (u.cls == REF_NAN || v.cls == REF_NAN ||
        (u.cls == REF_INF && v.cls == REF_INF && u.neg != v.neg)) {
        *out = out_nan(o);
        return 0;
    }
    if (u.cls == REF_INF || v.cls == REF_INF) {
        *out = out_inf(o, u.cls == REF_INF ? u.neg : v.neg);
        return 0;
    }
    /* exact sum on the common exponent min(q_u, q_v) */
    long qm = u.q < v.q ? u.q : v.q;
    mpz_set_ui(w->t, (unsigned long)u.sig);
    mpz_mul_2exp(w->t, w->t, (mp_bitcnt_t)(u.q - qm));
    if (u.neg)
        mpz_neg(w->t, w->t);
    mpz_set_ui(w->sum, (unsigned long)v.sig);
    mpz_mul_2exp(w->sum, w->sum, (mp_bitcnt_t)(v.q - qm));
    if (v.neg)
        mpz_neg(w->sum, w->sum);
    mpz_add(w->sum, w->sum, w->t);
    int sgn = mpz_sgn(w->sum);
    if (sgn == 0) {
        /* IEEE 754 6.3: x + x keeps the sign of zero; an exact zero sum of operands of
         * opposite signs is +0 in round-to-nearest. */
        int both_neg_zero = u.sig == 0 && v.sig == 0 && u.neg && v.neg;
        *out = out_sign(o, both_neg_zero);
        return 0;
    }
    mpz_abs(w->sum, w->sum);
    *out = round_pack(sgn < 0, w->sum, qm, o, TC_RNE, 0); /* IEEE */
    return 0;
}

/* fp8 through mma on hopper/blackwell: blocks of 32 k; d1 = fp16-path step over the
 * k mod 4 in {0,1} products with c = +0, d2 = step over k mod 4 in {2,3} with c = d1,
 * then d = d2 + c_in (one IEEE RNE addition). The fp8 values convert exactly to fp16,
 * so the products' exponents are those of fp16 operands (emin -14). */
static int dot_fp8_emu(ref_ctx *w, const ref_profile *p, size_t k, const uint32_t *a,
                       const uint32_t *b, uint32_t c, uint32_t *d)
{
    const ref_profile *sp = ref_profile_lookup(p->arch, TC_INSTR_MMA, TC_FMT_FP16, p->out,
                                               TC_KIND_FEDP, TC_FMT_COUNT, 0);
    const ref_fmt *fp16 = ref_fmt_get(TC_FMT_FP16);
    if (!sp)
        return -1;
    uint32_t acc = c;
    for (size_t s = 0; s < k; s += 32) {
        uint32_t ha[2][16], hb[2][16];
        size_t nh[2] = {0, 0};
        for (size_t j = s; j < k && j < s + 32; j++) {
            int half = (j % 4) >= 2;
            ha[half][nh[half]] = a[j];
            hb[half][nh[half]] = b[j];
            nh[half]++;
        }
        uint32_t d1, d2;
        if (fedp_step(w, sp, p->in, fp16->emin, p->in_b, fp16->emin, ha[0], hb[0], nh[0], 0u,
                      &d1) ||
            fedp_step(w, sp, p->in, fp16->emin, p->in_b, fp16->emin, ha[1], hb[1], nh[1], d1,
                      &d2) ||
            ref_add_rne(w, p->out, d2, acc, &acc))
            return -1;
    }
    *d = acc;
    return 0;
}

/* Integer kinds: exact products accumulated modulo 2^32 (s32 wrap-around). */
static int dot_int(const ref_profile *p, size_t k, const uint32_t *a, const uint32_t *b,
                   uint32_t c, uint32_t *d)
{
    const ref_fmt *fi = ref_fmt_get(p->in), *fb = ref_fmt_get(p->in_b);
    if (!fi || !fb || fi->cls != REF_CLS_INT || fb->cls != REF_CLS_INT || p->out != TC_FMT_S32)
        return -1;
    uint32_t acc = c; /* unsigned arithmetic wraps modulo 2^32 by definition */
    for (size_t i = 0; i < k; i++) {
        if (!fits_width(fi, a[i]) || !fits_width(fb, b[i]))
            return -1;
        int64_t prod = int_value(fi, a[i]) * int_value(fb, b[i]);
        acc += (uint32_t)(uint64_t)prod;
    }
    *d = acc;
    return 0;
}

/* The b1 forms (issue 33): d = c + popcount(a AND b), or of (a XOR b), over the k bits,
 * one bit a word; the count taken bit by bit as the PTX ISA defines it, modulo 2^32. */
static int dot_popc(const ref_profile *p, size_t k, const uint32_t *a, const uint32_t *b,
                    uint32_t c, uint32_t *d)
{
    if (p->in != TC_FMT_B1 || p->in_b != TC_FMT_B1 || p->out != TC_FMT_S32)
        return -1;
    uint32_t acc = c;
    for (size_t i = 0; i < k; i++) {
        if (a[i] > 1 || b[i] > 1)
            return -1;
        int one = p->kind == TC_KIND_POPC_AND ? (a[i] == 1 && b[i] == 1) : (a[i] != b[i]);
        acc += one ? 1u : 0u;
    }
    *d = acc;
    return 0;
}

int ref_dot(ref_ctx *w, const ref_profile *p, size_t k, const uint32_t *a,
            const uint32_t *b, uint32_t c, uint32_t *d)
{
    if (!w || !p || !a || !b || !d || k == 0)
        return -1;
    switch (p->kind) {
    case TC_KIND_FEDP:
        return dot_fedp(w, p, k, a, b, c, d);
    case TC_KIND_FP8_EMU:
        return dot_fp8_emu(w, p, k, a, b, c, d);
    case TC_KIND_INT:
        return dot_int(p, k, a, b, c, d);
    case TC_KIND_POPC_AND:
    case TC_KIND_POPC_XOR:
        return dot_popc(p, k, a, b, c, d);
    default:
        return -1;
    }
}

/* mxf8f6f4: per block of L, one FEDP step of the f8f6f4 row whose products are
 * scaled by their block's scales (product exponent + e(sa) + e(sb)); a in p->in, b in
 * p->in_b. */
static int dot_mx(ref_ctx *w, const ref_profile *p, size_t k, const uint32_t *a,
                  const uint32_t *b, const uint32_t *sa, const uint32_t *sb, uint32_t c,
                  uint32_t *d)
{
    const ref_fmt *fin = ref_fmt_get(p->in), *finb = ref_fmt_get(p->in_b),
                  *fs = ref_fmt_get(p->scale);
    if (!fin || !finb || !fs || p->L + 1 > REF_MAX_TERMS)
        return -1;
    step_params sp = profile_step(p);
    uint32_t acc = c;
    for (size_t s = 0; s < k; s += p->L) {
        size_t n = k - s < p->L ? k - s : p->L;
        for (size_t i = 0; i < n; i++) {
            ref_num x, y, u, v;
            size_t g = (s + i) / p->scale_block;
            if (ref_decode(p->in, a[s + i], &x) || ref_decode(p->in_b, b[s + i], &y) ||
                ref_decode(p->scale, sa[g], &u) || ref_decode(p->scale, sb[g], &v))
                return -1;
            term_product(&w->term[i], &x, &y, fin->emin, finb->emin);
            term_scale(&w->term[i], &u, &v, fs->emin);
        }
        if (term_c(&w->term[n], p->out, acc))
            return -1;
        acc = fused_step(w, n + 1, &sp);
    }
    *d = acc;
    return 0;
}

/* One mxf4/nvf4 group of 16 (or fewer) products: their exact sum times the scales'
 * significands, aligned at e(sa) + e(sb) alone. Live unless every product is zero
 * or the scale product is zero. */
static int term_group(ref_ctx *w, ref_term *t, const ref_profile *p, const uint32_t *a,
                      const uint32_t *b, size_t n, uint32_t sa_bits, uint32_t sb_bits)
{
    const ref_fmt *fin = ref_fmt_get(p->in), *fs = ref_fmt_get(p->scale);
    ref_num sa, sb;
    if (!fin || !fs || ref_decode(p->scale, sa_bits, &sa) || ref_decode(p->scale, sb_bits, &sb))
        return -1;
    /* every product of two values of `in` is an integer multiple of 2^q0 */
    long q0 = 2L * (fin->emin - (int)fin->mbits);
    int any_nonzero = 0, nan = 0, pinf = 0, ninf = 0;
    mpz_set_ui(w->acc, 0);
    for (size_t i = 0; i < n; i++) {
        ref_num x, y;
        if (ref_decode(p->in, a[i], &x) || ref_decode(p->in, b[i], &y))
            return -1;
        term_product(t, &x, &y, fin->emin, fin->emin); /* t as scratch for one product */
        if (t->cls == REF_NAN)
            nan = 1;
        else if (t->cls == REF_INF)
            *(t->neg ? &ninf : &pinf) = 1;
        else if (t->live) {
            any_nonzero = 1;
            mpz_mul_2exp(w->t, t->mag, (mp_bitcnt_t)(t->q - q0));
            if (t->neg)
                mpz_sub(w->acc, w->acc, w->t);
            else
                mpz_add(w->acc, w->acc, w->t);
        }
    }
    if (sa.cls == REF_NAN || sb.cls == REF_NAN || nan || (pinf && ninf)) {
        term_set_special(t, REF_NAN, 0);
        return 0;
    }
    int scale_zero = sa.sig == 0 || sb.sig == 0;
    if (pinf || ninf) {
        term_set_special(t, scale_zero ? REF_NAN : REF_INF, ninf);
        return 0;
    }
    t->cls = REF_FIN;
    t->neg = mpz_sgn(w->acc) < 0;
    mpz_abs(t->mag, w->acc);
    mpz_mul_ui(t->mag, t->mag, (unsigned long)sa.sig);
    mpz_mul_ui(t->mag, t->mag, (unsigned long)sb.sig);
    t->q = q0 + sa.q + sb.q;
    t->live = any_nonzero && !scale_zero;
    t->e = t->live ? ref_align_exp(&sa, fs->emin) + ref_align_exp(&sb, fs->emin) : 0;
    return 0;
}

/* mxf4 / nvf4: per block of L (64) products, groups of 16 become terms, c is added,
 * one fused step with F = 35 and RZ to fp32. */
static int dot_mxf4(ref_ctx *w, const ref_profile *p, size_t k, const uint32_t *a,
                    const uint32_t *b, const uint32_t *sa, const uint32_t *sb, uint32_t c,
                    uint32_t *d)
{
    if (p->emin_align == REF_EMIN_UNSPECIFIED || p->L == 0 || p->L % 16 ||
        p->scale_block % 16)
        return -1; /* the caller must fill in the floor docs/contract.md leaves open */
    step_params sp = profile_step(p);
    uint32_t acc = c;
    for (size_t s = 0; s < k; s += p->L) {
        size_t n = k - s < p->L ? k - s : p->L, ng = 0;
        for (size_t g = 0; g < n; g += 16, ng++) {
            size_t m = n - g < 16 ? n - g : 16;
            size_t si = (s + g) / p->scale_block;
            if (term_group(w, &w->term[ng], p, a + s + g, b + s + g, m, sa[si], sb[si]))
                return -1;
        }
        if (term_c(&w->term[ng], p->out, acc))
            return -1;
        acc = fused_step(w, ng + 1, &sp);
    }
    *d = acc;
    return 0;
}

int ref_dot_scaled(ref_ctx *w, const ref_profile *p, size_t k, const uint32_t *a,
                   const uint32_t *b, const uint32_t *scale_a, const uint32_t *scale_b,
                   uint32_t c, uint32_t *d)
{
    if (!w || !p || !a || !b || !scale_a || !scale_b || !d || k == 0 ||
        p->scale_block == 0 || k % p->scale_block)
        return -1;
    switch (p->kind) {
    case TC_KIND_MX:
        return dot_mx(w, p, k, a, b, scale_a, scale_b, c, d);
    case TC_KIND_MXF4:
        return dot_mxf4(w, p, k, a, b, scale_a, scale_b, c, d);
    default:
        return -1;
    }
}
