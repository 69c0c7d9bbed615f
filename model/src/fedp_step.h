/* fedp_step.h - the one definition of an FEDP step (docs/contract.md steps 1-7), as
 * stage functions named like the RTL's stages (STYLE.md): UNPACK (fields, special
 * values), MUL (exact integer products, not renormalised), ALIGN (max exponent E,
 * Emin_align floor, truncation to F fraction bits in sign-magnitude), ADD (exact signed
 * sum), NORM/ROUND (once per step).
 *
 * Every kernel of the model is built from these: the single-case step and its general
 * path for special values (fedp_step.c), the batch kernel (dot_batch.c), the
 * block-scaled step (dot_scaled.c) and the GEMM lane kernel (gemm_lanes.h). They differ
 * only in how they unpack (word by word here, whole matrices once in gemm.c) and in how
 * many lanes they carry: one, or GNU C vectors for which NORM/ROUND's text below is
 * instantiated again. Each function is branch-free on data, so that loops over lanes
 * vectorise and a single case does not mispredict.
 *
 * The working domain. A product of two words with m fraction bits each has a significand
 * below 2^(2m+2) (step 2 does not renormalise it; a mixed pair, a and b in two formats,
 * has ma + mb for 2m throughout). It is moved up by H = max(F - 2m, 0)
 * and its exponent kept less prod_sh = 2m + H - F, so that its truncation to F fraction
 * bits relative to 2^E is a right shift by E' - X (E' = E - prod_sh, X its kept
 * exponent), never a left one. A moved-up product is below 2^(F+2) <= 2^27 (F <= 25 for
 * every FEDP and mxf8f6f4 row), so it fits 32 bits; so does the c term moved up by
 * HC = max(F - mc, 0). A step's sum of L <= 32 terms plus c stays below 33 * 2^27 <
 * 2^33. mxf4 keeps F = 35 for its group sums: its terms align in 64 bits
 * (fedp_group_sum), and its sums stay below 2^48.
 */
#ifndef TCSIM_FEDP_STEP_H
#define TCSIM_FEDP_STEP_H

#include <stddef.h>
#include <stdint.h>
#include "tcsim.h"
#include "fmt_table.h"

enum {
    FEDP_ZERO_EXP = -(1 << 24) /* exponent of a zero significand: below every real
                                * exponent and every floor, so that a zero product never
                                * raises E (step 2) and truncates to 0 */
};

/* A format's fields, for the branch-free UNPACK. */
typedef struct fedp_fields {
    unsigned man, emask, ignore, sign_shift;
    int bias;
    uint32_t sign_mask; /* 1 for signed formats, 0 for unsigned ones */
    uint32_t wide;      /* the bits above the format's width */
    uint32_t special;   /* 1: an all-ones exponent field is Inf or NaN (or e4m3's 448
                         * and NaN), which the general path takes */
} fedp_fields;

/* The constants of a profile's step. */
typedef struct fedp_consts {
    int F;          /* fraction bits kept relative to 2^E */
    int H;          /* products are moved up by H */
    int prod_sh;    /* 2m + H - F: a product's exponent is kept less prod_sh */
    int HC;         /* the c term is moved up by HC ... */
    int c_sh;       /* ... and shifted right by E - e_c + c_sh */
    int emin_align;
    fedp_fields in, acc; /* a's format (and b's, but in in_b); the accumulator's (c, d) */
    fedp_fields in_b;    /* b's format: in's but for a mixed-pair row (tc_profile.in_b) */
    /* NORM/ROUND: to r fraction bits (out_man_bits), packed into the output format */
    int r;
    int out_emin, out_emax, out_bias;
    unsigned out_man, out_sign_shift, out_ignore;
    uint32_t out_inf; /* +Inf's pattern */
    int rne;
    int zero_plus;  /* a result rounding to zero is +0 (tc_profile.zero_plus, step 7) */
    int narrow;     /* a step's exact sum is below 2^30: 32-bit lanes hold it */
    /* mxf4 (fedp_group_consts_for): operands unpacked less gdown (their emin); a scaled
     * group sum is moved up by GH and shifted gsh more than a product */
    int gdown, GH, gsh;
} fedp_consts;

static inline __attribute__((always_inline)) void fedp_fields_of(const tc_fmt_info *f,
                                                                 fedp_fields *u)
{
    u->man = f->man_bits;
    u->emask = (1u << f->exp_bits) - 1u;
    u->ignore = f->ignore_low;
    u->sign_shift = f->exp_bits + f->man_bits;
    u->bias = f->bias;
    u->sign_mask = (uint32_t)f->is_signed;
    u->wide = f->width >= 32 ? 0u : ~((1u << f->width) - 1u);
    u->special = f->nan_style != TC_NAN_NONE;
}

/* The step constants of FEDP (or mxf8f6f4) profile p, with its formats (a in ina, b in
 * inb), rounding mode, rounding width and F passed apart: the single-case kernels pass
 * constants, so that every mask and shift below folds. A product has the fraction bits
 * of both operands: ma + mb (2m where a and b share a format). */
static inline __attribute__((always_inline)) void
fedp_consts_for_ab(const tc_profile *p, tc_fmt ina, tc_fmt inb, tc_fmt out, tc_round mode,
                   unsigned rman, unsigned fbits, fedp_consts *k)
{
    const tc_fmt_info *fi = &fmt_table[ina], *fb = &fmt_table[inb], *fo = &fmt_table[out];
    const int F = (int)fbits, pfb = (int)fi->man_bits + (int)fb->man_bits;
    const int MC = (int)fo->man_bits;
    k->F = F;
    k->H = F > pfb ? F - pfb : 0;
    k->prod_sh = pfb + k->H - F;
    k->HC = F > MC ? F - MC : 0;
    k->c_sh = MC + k->HC - F;
    k->emin_align = p->emin_align;
    fedp_fields_of(fi, &k->in);
    fedp_fields_of(fb, &k->in_b);
    fedp_fields_of(fo, &k->acc);
    k->r = (int)rman;
    k->out_emin = fo->emin;
    k->out_emax = fo->emax;
    k->out_bias = fo->bias;
    k->out_man = fo->man_bits;
    k->out_sign_shift = fmt_sign_shift(fo);
    k->out_ignore = fo->ignore_low;
    k->out_inf = fmt_inf(out, 0);
    k->rne = mode == TC_RNE;
    k->zero_plus = p->zero_plus;
    /* |sum| < L * 2^(F+2) + 2^(F+1) (products below 4, c below 2, relative to 2^E) */
    k->narrow = F <= 27 && ((uint64_t)p->L * 4 + 2) << F < (UINT64_C(1) << 30);
    k->gdown = k->GH = k->gsh = 0;
}

/* The group constants of an mxf4 profile p, after fedp_consts_for: group sums are
 * integers in units of 2^(2 emin - 2m) of the input format (the products of operands
 * unpacked less emin); scaled by two scale significands of ms bits each, a group has gfb
 * fraction bits. */
static inline void fedp_group_consts_for(const tc_profile *p, fedp_consts *k)
{
    const tc_fmt_info *fi = &fmt_table[p->in], *fs = &fmt_table[p->scale];
    const int gfb = 2 * (int)fi->man_bits - 2 * fi->emin + 2 * (int)fs->man_bits;
    k->gdown = fi->emin;
    k->GH = k->F > gfb ? k->F - gfb : 0;
    k->gsh = gfb + k->GH - k->F;
}

/* The same for a and b in one format `in` (every row but the mixed pairs). */
static inline __attribute__((always_inline)) void
fedp_consts_for(const tc_profile *p, tc_fmt in, tc_fmt out, tc_round mode, unsigned rman,
                unsigned fbits, fedp_consts *k)
{
    fedp_consts_for_ab(p, in, in, out, mode, rman, fbits, k);
}

/* The stages below are written once over a lane type VU/VS (unsigned and signed 32-bit:
 * scalars here, GNU C vectors in gemm_lanes.h) and instantiated for each by
 * FEDP_DEFINE_STAGES, names suffixed by SFX (none for scalars). MASK turns a
 * comparison into all ones or zero for either (a vector comparison gives -1/0, a scalar
 * one 1/0; the instantiation names which, MASK); FEDP_SEL(MASK, m, a, b) is m ? a : b lane
 * by lane.
 *
 * ---- UNPACK (fedp_unpack): a word of a format with fields u: the significand with its
 * hidden bit, moved up by `up`; *exp its exponent less `down` (FEDP_ZERO_EXP for a zero
 * significand); *neg its sign as a mask. *bad gets non-zero for a word the step leaves
 * to the general path: wider than its format, or an all-ones exponent field where that
 * means a special value.
 * ---- MUL (fedp_mul): the exact product of two unpacked operands (A moved up by H and
 * its exponent kept less prod_sh, B plain): significand and kept exponent; its sign
 * mask apart (fedp_mul_sign), since the lane kernels form it only where ADD needs it
 * and keep the registers for the products until then.
 * ---- ALIGN: E' (fedp_emax) is the largest kept exponent of the non-zero terms (zero
 * ones sit at FEDP_ZERO_EXP), floored at Emin_align - prod_sh: the first E' is that
 * floor, or the c term's exponent when c is not zero (fedp_c_exp). A term is truncated
 * to F fraction bits relative to 2^E by a right shift of E' - x clamped at the lane's
 * width (fedp_align: a zero term's shift is huge); the c term, moved up by HC, aligns
 * as a product of kept exponent fedp_c_x (its right shift is E - e_c + c_sh).
 * ---- ADD (fedp_signed): a truncated magnitude with its sign mask, as a signed term. */
#define FEDP_SEL(MASK, m, a, b) MASK##_SEL(m, a, b)
#define FEDP_MASK_S(VU, c) ((VU){0} - (VU)(c)) /* a scalar comparison: 1 or 0 */
#define FEDP_MASK_V(VU, c) ((VU)(c))             /* a vector one: -1 or 0 already */
/* a scalar select is a conditional move; vector lanes blend by the mask's bits */
#define FEDP_MASK_S_SEL(m, a, b) ((m) ? (a) : (b))
#define FEDP_MASK_V_SEL(m, a, b) (((a) & (m)) | ((b) & ~(m)))
#define FEDP_DEFINE_ALIGN(NAME, T, VU, VS, MAXSH, MASK)                                       \
    static inline __attribute__((always_inline)) T NAME(T sig, VS x, VS e)                    \
    {                                                                                         \
        VU sh = (VU)(e - x);                                                                  \
        return sig >> FEDP_SEL(MASK, MASK(VU, sh > MAXSH), (VU){0} + MAXSH, sh);              \
    }
#define FEDP_DEFINE_STAGES(SFX, VU, VS, MASK)                                                 \
    static inline __attribute__((always_inline)) VU fedp_unpack##SFX(                         \
        const fedp_fields *u, VU w, unsigned up, int down, VS *exp, VU *neg, VU *bad)         \
    {                                                                                         \
        const VU zero = {0};                                                                  \
        VU v = w >> u->ignore, ef = (v >> u->man) & u->emask;                                 \
        VU efz = MASK(VU, ef == zero);                                                        \
        *bad |= MASK(VU, (w & u->wide) != zero) |                                             \
                (MASK(VU, ef == zero + u->emask) & (zero - u->special));                      \
        VU sig = (v & ((1u << u->man) - 1u)) | (~efz & (1u << u->man));                       \
        VS e = (VS)(ef - efz) - u->bias - down; /* a subnormal's exponent is emin */          \
        *exp = FEDP_SEL(MASK, MASK(VS, sig != zero), e, (VS)zero + FEDP_ZERO_EXP);            \
        *neg = zero - ((v >> u->sign_shift) & u->sign_mask);                                  \
        return sig << up;                                                                     \
    }                                                                                         \
    static inline __attribute__((always_inline)) VU fedp_mul##SFX(VU sa, VS ea, VU sb,        \
                                                                  VS eb, VS *x)               \
    {                                                                                         \
        *x = ea + eb;                                                                         \
        return sa * sb;                                                                       \
    }                                                                                         \
    static inline __attribute__((always_inline)) VU fedp_mul_sign##SFX(VU na, VU nb)          \
    {                                                                                         \
        return na ^ nb;                                                                       \
    }                                                                                         \
    static inline __attribute__((always_inline)) VS fedp_emax##SFX(VS e, VS x)                \
    {                                                                                         \
        return FEDP_SEL(MASK, MASK(VS, x > e), x, e);                                         \
    }                                                                                         \
    static inline __attribute__((always_inline)) VS fedp_c_exp##SFX(const fedp_consts *k,     \
                                                                    VU mc, VS ec)             \
    {                                                                                         \
        const VS zero = {0};                                                                  \
        VS x = FEDP_SEL(MASK, MASK(VS, mc != (VU){0}), ec - k->prod_sh,                       \
                        zero + FEDP_ZERO_EXP);                                                \
        return fedp_emax##SFX(x, zero + (k->emin_align - k->prod_sh));                        \
    }                                                                                         \
    static inline __attribute__((always_inline)) VS fedp_c_x##SFX(const fedp_consts *k,       \
                                                                  VS ec)                      \
    {                                                                                         \
        return ec - k->prod_sh - k->c_sh;                                                     \
    }                                                                                         \
    FEDP_DEFINE_ALIGN(fedp_align##SFX, VU, VU, VS, 31u, MASK)                                 \
    FEDP_DEFINE_SIGNED(fedp_signed##SFX, VU, VS)
#define FEDP_DEFINE_SIGNED(NAME, VU, VS)                                                      \
    static inline __attribute__((always_inline)) VS NAME(VU t, VU neg)                        \
    {                                                                                         \
        return (VS)((t ^ neg) - neg);                                                         \
    }
FEDP_DEFINE_STAGES(, uint32_t, int32_t, FEDP_MASK_S)

/* The mxf4 / mxf4nvf4 step (TC_KIND_MXF4): groups of TC_MXF4_GROUP products, each summed
 * exactly and scaled by its pair of scales, then aligned (F = 35) and summed with c as
 * the terms of every step; written once over 32-bit lanes VU/VS and 64-bit ones
 * VU64/VS64 (the scaled groups and their sum, up to 2^48: see the top), instantiated
 * after FEDP_DEFINE_STAGES of the same SFX. WIDEN(x, T) converts a value lane by lane.
 * ---- UNPACK for the groups (fedp_group_fixed): an operand unpacked less emin (its
 * exponent >= 0 if it is not zero) as a signed integer in units of 2^(emin - m), its
 * significand moved up by its exponent: e2m1's values are the integers 0..12 (times
 * 1/2), so the lane kernel unpacks every element once to this form.
 * ---- MUL (fedp_group_prod): the exact product of two such integers, in units of
 * 2^(2 emin - 2m); a group sum of 16 (below 16 * 144 for e2m1) is exact in 32 bits.
 * ---- MUL, scaled (fedp_group_scale): a group sum times its scale significands' product
 * ms (below 2^8) at their exponents' sum es; the magnitude moved up by GH in 64 bits,
 * *gexp its kept exponent, FEDP_ZERO_EXP for a group that drops out: one whose products
 * are all zero (`any` a mask: a non-zero one, even if they cancel, raises E) or with a
 * zero scale.
 * ---- ALIGN + ADD (fedp_group_sum): c and the ng groups truncated relative to E and
 * summed in 64 bits. */
#define FEDP_WIDEN_S(x, T) ((T)(x))
#define FEDP_WIDEN_V(x, T) __builtin_convertvector(x, T)
#define FEDP_DEFINE_GROUP_STAGES(SFX, VU, VS, VU64, VS64, MASK, WIDEN)                        \
    static inline __attribute__((always_inline)) VS fedp_group_fixed##SFX(VU sig, VS exp,     \
                                                                          VU neg)             \
    {                                                                                         \
        const VS zero = {0};                                                                  \
        VU sh = (VU)FEDP_SEL(MASK, MASK(VS, exp < zero), zero, exp); /* 0: FEDP_ZERO_EXP */   \
        return fedp_signed##SFX(sig << sh, neg);                                              \
    }                                                                                         \
    static inline __attribute__((always_inline)) VS fedp_group_prod##SFX(VS a, VS b)          \
    {                                                                                         \
        return a * b;                                                                         \
    }                                                                                         \
    static inline __attribute__((always_inline)) VU64 fedp_group_scale##SFX(                  \
        const fedp_consts *k, VS gsum, VU any, VU ms, VS es, VS *gexp, VU64 *gneg)            \
    {                                                                                         \
        VU neg = (VU)(gsum >> 31);                                                            \
        VU mag = ((VU)gsum ^ neg) - neg;                                                      \
        VS in = (VS)(any & MASK(VU, ms != (VU){0}));                                          \
        *gexp = FEDP_SEL(MASK, in, es - k->prod_sh, (VS){0} + FEDP_ZERO_EXP);                 \
        *gneg = (VU64)WIDEN((VS)neg, VS64);                                                   \
        return WIDEN(mag * ms, VU64) << k->GH;                                                \
    }                                                                                         \
    FEDP_DEFINE_ALIGN(fedp_align64##SFX, VU64, VU64, VS64, 63u, MASK)                         \
    FEDP_DEFINE_SIGNED(fedp_signed64##SFX, VU64, VS64)                                        \
    static inline __attribute__((always_inline)) VS64 fedp_group_sum##SFX(                    \
        const fedp_consts *k, VU mc, VS ec, VU cneg, size_t ng, const VU64 *gsig,             \
        const VS *gexp, const VU64 *gneg, VS E)                                               \
    {                                                                                         \
        const VS64 E64 = WIDEN(E, VS64);                                                      \
        VS64 sum = fedp_signed64##SFX(                                                        \
            fedp_align64##SFX(WIDEN(mc, VU64) << k->HC, WIDEN(fedp_c_x##SFX(k, ec), VS64),    \
                              E64),                                                           \
            (VU64)WIDEN((VS)cneg, VS64));                                                     \
        for (size_t g = 0; g < ng; g++)                                                       \
            sum += fedp_signed64##SFX(                                                        \
                fedp_align64##SFX(gsig[g], WIDEN(gexp[g] - k->gsh, VS64), E64), gneg[g]);     \
        return sum;                                                                           \
    }
FEDP_DEFINE_GROUP_STAGES(, uint32_t, int32_t, uint64_t, int64_t, FEDP_MASK_S, FEDP_WIDEN_S)

/* ---- NORM + ROUND: the exact step result s * 2^q rounded to r fraction bits (RZ, or
 * RNE when k->rne) with gradual underflow at the output's emin and Inf past its emax
 * (docs/contract.md step 6), packed; s = 0 gives +0 (step 7). round.h's round_pack
 * rounds the same way with branches (for the conversions and the IEEE addition); this
 * is its branch-free form for FEDP steps, written once over a lane type VU/VS of BITS
 * bits: scalars here (fedp_round), GNU C vectors in gemm_lanes.h. MSB(x, lz) is
 * floor(log2 x) per lane for x != 0.
 * |s| < 2^(BITS-2) (see the top; 32-bit lanes only for narrow steps), so mag << 1
 * does not overflow, and a right shift clamped at BITS - 1 leaves sig = 0 and a zero
 * round bit wherever a larger one would. */
#define FEDP_DEFINE_ROUND(NAME, VU, VS, RU, BITS, MASK, MSB, CVT)                             \
    static inline __attribute__((always_inline)) RU NAME(const fedp_consts *k, VS s, VS q,    \
                                                         int lz)                              \
    {                                                                                         \
        const VS zero = {0}, r = zero + k->r;                                                 \
        const VU one = (VU){0} + 1u;                                                          \
        VU neg = (VU)(s >> (BITS - 1));                                                       \
        VU mag = ((VU)s ^ neg) - neg;                                                         \
        VS e = MSB(mag, lz) + q;                                                              \
        VS e_res = FEDP_SEL(MASK, MASK(VS, e > zero + k->out_emin), e,                        \
                            zero + k->out_emin);         /* subnormals keep emin */           \
        VS shift = e_res - r - q;                        /* bits of mag below the lsb */      \
        VS left = MASK(VS, shift < zero);                                                     \
        VS ls = FEDP_SEL(MASK, left, -shift, zero);      /* exact: mag moves up */            \
        VS rs = FEDP_SEL(MASK, left, zero,                                                    \
                         FEDP_SEL(MASK, MASK(VS, shift > zero + (BITS - 1)),                  \
                                  zero + (BITS - 1), shift));                                 \
        VU rx = (mag << 1) >> (VU)rs;                    /* sig, then the round bit */        \
        VU sticky = MASK(VU, ((mag << 1) - (rx << (VU)rs)) != (VU){0}) & one;                 \
        VU sig = (mag << (VU)ls) >> (VU)rs;                                                   \
        /* RNE: up when above half an ulp (round bit and sticky), or at the tie if odd */     \
        sig += MASK(VU, zero + k->rne != zero) & rx & (sticky | sig) & one;                   \
        VU carry = sig >> (VU)(r + 1);                   /* into a new binade */              \
        sig >>= carry;                                                                        \
        e_res += (VS)carry;                                                                   \
        VU hidden = sig >> (VU)r;                        /* 1 normal, 0 subnormal */          \
        VU biased = (VU)(e_res + k->out_bias) & ((VU){0} - hidden);                           \
        VU frac = (sig & ((one << (VU)r) - one)) << (k->out_man - (unsigned)k->r);            \
        VU fin = ((biased << k->out_man) | frac) << k->out_ignore;                            \
        VU over = MASK(VU, e_res > zero + k->out_emax);                                       \
        VU body = FEDP_SEL(MASK, over, (VU){0} + k->out_inf, fin);                            \
        /* the sign, but none on a zero with zero_plus (docs/contract.md step 7) */          \
        VU keep = MASK(VU, body != (VU){0}) | ((VU){0} + (k->zero_plus ? 0u : ~0u));          \
        VU d = ((neg & one & keep) << k->out_sign_shift) | body;                              \
        return CVT(d & MASK(VU, s != zero));                                                  \
    }
/* floor(log2 x) on the lanes of a vector type VU/VS of BITS-bit lanes, for NORM: from a
 * leading-zero count lane by lane where the target has a vector one (lz: AVX-512CD),
 * else by halving the range (compares and shifts exist everywhere); x = 0 gives 0. */
#define FEDP_HALVE(H)                                                                         \
    {                                                                                         \
        st_ w = (st_)FEDP_MASK_V(ut_, (x >> (H)) != (ut_){0}) & (H);                          \
        msb += w;                                                                             \
        x >>= (ut_)w;                                                                         \
    }
#define FEDP_DEFINE_MSB(NAME, VU, VS, BITS)                                                   \
    static inline __attribute__((always_inline)) VS NAME(VU x, int lz)                        \
    {                                                                                         \
        typedef VU ut_; /* for FEDP_HALVE */                                                  \
        typedef VS st_;                                                                       \
        st_ msb = {0};                                                                        \
        if (lz) {                                                                             \
            for (size_t l = 0; l < sizeof(VU) / (BITS / 8); l++)                              \
                msb[l] = BITS - 1 - (BITS == 64 ? __builtin_clzll((uint64_t)x[l] | 1u)        \
                                                : __builtin_clz((unsigned)x[l] | 1u));        \
        } else {                                                                              \
            if (BITS == 64)                                                                   \
                FEDP_HALVE(BITS / 2)                                                          \
            FEDP_HALVE(16) FEDP_HALVE(8) FEDP_HALVE(4) FEDP_HALVE(2) FEDP_HALVE(1)            \
        }                                                                                     \
        return msb;                                                                           \
    }
/* NORM/ROUND on vectors: PFX##_round32 on 32-bit lanes (VU32/VS32) for narrow steps,
 * PFX##_round64 on as many 64-bit ones (VU64/VS64) for the others, both returning
 * 32-bit lanes; each instantiated apart, where it is used. */
#define FEDP_DEFINE_LANE_ROUND32(PFX, VU32, VS32)                                             \
    static inline __attribute__((always_inline)) VU32 PFX##_cvt32(VU32 x)                     \
    {                                                                                         \
        return x;                                                                             \
    }                                                                                         \
    FEDP_DEFINE_MSB(PFX##_msb32, VU32, VS32, 32)                                              \
    FEDP_DEFINE_ROUND(PFX##_round32, VU32, VS32, VU32, 32, FEDP_MASK_V, PFX##_msb32,          \
                      PFX##_cvt32)
#define FEDP_DEFINE_LANE_ROUND64(PFX, VU32, VU64, VS64)                                       \
    static inline __attribute__((always_inline)) VU32 PFX##_cvt64(VU64 x)                     \
    {                                                                                         \
        return __builtin_convertvector(x, VU32);                                              \
    }                                                                                         \
    FEDP_DEFINE_MSB(PFX##_msb64, VU64, VS64, 64)                                              \
    FEDP_DEFINE_ROUND(PFX##_round64, VU64, VS64, VU32, 64, FEDP_MASK_V, PFX##_msb64,          \
                      PFX##_cvt64)
#define FEDP_MSB64(x, lz) ((void)(lz), 63 - __builtin_clzll((x) | 1u))
#define FEDP_CVT_U32(x) ((uint32_t)(x))
FEDP_DEFINE_ROUND(fedp_round, uint64_t, int64_t, uint32_t, 64, FEDP_MASK_S, FEDP_MSB64,
                  FEDP_CVT_U32)
#undef FEDP_MSB64
#undef FEDP_CVT_U32

/* ---- special values (UNPACK's classes, met anywhere in a step): the general path
 * folds them in here and selects the special result at the end (step 1). */
typedef struct fedp_special {
    int nan;   /* a NaN input or Inf * 0 */
    int pinf;  /* an Inf term of sign + */
    int ninf;  /* an Inf term of sign - */
} fedp_special;

static inline void fedp_special_inf(fedp_special *s, int sign)
{
    if (sign)
        s->ninf = 1;
    else
        s->pinf = 1;
}

/* The step's special result, if any: canonical NaN for NaN, Inf*0 or Inf-Inf, else
 * Inf of the Inf terms' sign. Returns 1 and sets *d and *code (the trace's) then. */
static inline int fedp_special_result(const fedp_special *s, tc_fmt out, uint32_t *d,
                                      int *code)
{
    if (s->nan || (s->pinf && s->ninf)) {
        *d = tc_canonical_nan(out);
        *code = 1;
        return 1;
    }
    if (s->pinf || s->ninf) {
        *d = fmt_inf(out, s->ninf);
        *code = s->ninf ? 3 : 2;
        return 1;
    }
    return 0;
}

/* The accumulator c of a general step: unpacked with fmt_unpack (the model's full
 * decoder), its specials folded into s (*mc = 0 for them); *ec as fmt_unpack gives it. */
static inline void fedp_unpack_c_general(tc_fmt out, uint32_t c, uint32_t *mc, int32_t *ec,
                                         int *sign, fedp_special *s)
{
    int e;
    uint64_t m;
    tc_value_kind kd = fmt_unpack(&fmt_table[out], c, sign, &m, &e);
    if (kd == TC_VAL_NAN)
        s->nan = 1;
    else if (kd == TC_VAL_INF)
        fedp_special_inf(s, *sign);
    *mc = kd == TC_VAL_FINITE ? (uint32_t)m : 0u;
    *ec = e;
}

/* ------------------------------------------------------------ the steps (fedp_step.c) */

/* One FEDP step over n <= L products of words already checked against their widths,
 * exp_offset added to every product's exponent (mxf8f6f4's scale exponents; 0
 * otherwise): the fast path, or the general one when a special value is present. */
uint32_t tc_fedp_run(const tc_profile *p, size_t n, const uint32_t *a, const uint32_t *b,
                     uint32_t c, int exp_offset);

/* The fast path alone, on words not checked: 0 and *d, or 1 (no result) when the step
 * needs the general path (a special value, a word too wide). */
int tc_fedp_fast(const tc_profile *p, size_t n, const uint32_t *a, const uint32_t *b,
                 uint32_t c, uint32_t *d);

/* The fp16 emulation of fp8 (dot_chain.c), in blocks of TC_FP8_EMU_BLOCK k: the k words
 * w arranged for the blocks (converted to fp16, each block's two halves in order, a short
 * block padded with +0) into out (k rounded up to a block); then nblocks blocks of
 * arranged operands chained from c, each step through `step` (NULL: the model's). */
enum { TC_FP8_EMU_BLOCK = 32 };
tc_status tc_fp8_emu_arrange(const tc_profile *p, size_t k, const uint32_t *w, uint32_t *out);
/* The same for words of format in (a's p->in, b's p->in_b: the mixed pairs). */
tc_status tc_fp8_emu_arrange_fmt(tc_fmt in, size_t k, const uint32_t *w, uint32_t *out);
tc_status tc_fp8_emu_blocks(const tc_profile *p, const tc_profile *sp, size_t nblocks,
                            const uint32_t *ha, const uint32_t *hb, uint32_t c, uint32_t *d,
                            tc_step_fn step, void *ctx);

/* Integer kinds (dot_int.c): exact products, s32 accumulation with wrap-around; the
 * 1-bit popc kinds too. */
uint32_t tc_dot_int_run(const tc_profile *p, size_t k, const uint32_t *a, const uint32_t *b,
                        uint32_t c);

#endif
