/* fmt_table.h - the format table and the inline helpers over it (internal to the model,
 * not installed): bit patterns of Inf and zero, width checks, unpacking. fmt.c serves
 * tc_fmt_get() from it; round.h and the FEDP loops read it directly. */
#ifndef TCSIM_FMT_TABLE_H
#define TCSIM_FMT_TABLE_H

#include <stddef.h>
#include <stdint.h>
#include "tcsim.h"

/* The format table: one row per tc_fmt, the only place encodings are written down.
 * It lives in this header (static const) so that the compiler can fold a format's
 * constants into the specialised FEDP loops; tc_fmt_get() returns rows of it.
 * Encodings are facts from docs/contract.md "Formats" and the OCP 8-bit/MX specs:
 *   name   width exp man bias  specials
 *   fp32     32   8  23  127   IEEE Inf/NaN
 *   tf32     32   8  10  127   IEEE; value in the top 19 bits, low 13 ignored
 *   fp16     16   5  10   15   IEEE
 *   bf16     16   8   7  127   IEEE
 *   e4m3      8   4   3    7   no Inf; S.1111.111 is NaN; max 448
 *   e5m2      8   5   2   15   IEEE
 *   e3m2      6   3   2    3   none (max 28)
 *   e2m3      6   2   3    1   none (max 7.5)
 *   e2m1      4   2   1    1   none (max 6)
 *   ue8m0     8   8   0  127   2^(x-127); 0xff NaN; no zero
 *   ue4m3     8   4   3    7   e4m3 with the sign bit ignored
 *   fp64     64  11  52 1023   IEEE binary64 (DMMA); wider than a uint32_t word, so
 *                              no helper below may see it (tcsim_f64.h's API only)
 *   b1        1   unsigned integer, the bit of the .b1 mma forms (0 or 1)
 */
/*                    name     cls             w   eb mb  bias emin  emax ign inf nan          sgn */
__attribute__((unused)) static const tc_fmt_info fmt_table[TC_FMT_COUNT] = {
    [TC_FMT_FP32]  = {"fp32",  TC_CLASS_FLOAT, 32, 8, 23, 127, -126, 127, 0,  1, TC_NAN_IEEE, 1},
    [TC_FMT_TF32]  = {"tf32",  TC_CLASS_FLOAT, 32, 8, 10, 127, -126, 127, 13, 1, TC_NAN_IEEE, 1},
    [TC_FMT_FP16]  = {"fp16",  TC_CLASS_FLOAT, 16, 5, 10, 15,  -14,  15,  0,  1, TC_NAN_IEEE, 1},
    [TC_FMT_BF16]  = {"bf16",  TC_CLASS_FLOAT, 16, 8, 7,  127, -126, 127, 0,  1, TC_NAN_IEEE, 1},
    [TC_FMT_E4M3]  = {"e4m3",  TC_CLASS_FLOAT, 8,  4, 3,  7,   -6,   8,   0,  0, TC_NAN_ALL_ONES, 1},
    [TC_FMT_E5M2]  = {"e5m2",  TC_CLASS_FLOAT, 8,  5, 2,  15,  -14,  15,  0,  1, TC_NAN_IEEE, 1},
    [TC_FMT_E3M2]  = {"e3m2",  TC_CLASS_FLOAT, 6,  3, 2,  3,   -2,   4,   0,  0, TC_NAN_NONE, 1},
    [TC_FMT_E2M3]  = {"e2m3",  TC_CLASS_FLOAT, 6,  2, 3,  1,   0,    2,   0,  0, TC_NAN_NONE, 1},
    [TC_FMT_E2M1]  = {"e2m1",  TC_CLASS_FLOAT, 4,  2, 1,  1,   0,    2,   0,  0, TC_NAN_NONE, 1},
    [TC_FMT_UE8M0] = {"ue8m0", TC_CLASS_SCALE, 8,  8, 0,  127, -127, 127, 0,  0, TC_NAN_WORD, 0},
    [TC_FMT_UE4M3] = {"ue4m3", TC_CLASS_SCALE, 8,  4, 3,  7,   -6,   8,   0,  0, TC_NAN_ALL_ONES, 0},
    [TC_FMT_INT8]  = {"int8",  TC_CLASS_INT,   8,  0, 0,  0,   0,    0,   0,  0, TC_NAN_NONE, 1},
    [TC_FMT_UINT8] = {"uint8", TC_CLASS_INT,   8,  0, 0,  0,   0,    0,   0,  0, TC_NAN_NONE, 0},
    [TC_FMT_INT4]  = {"int4",  TC_CLASS_INT,   4,  0, 0,  0,   0,    0,   0,  0, TC_NAN_NONE, 1},
    [TC_FMT_UINT4] = {"uint4", TC_CLASS_INT,   4,  0, 0,  0,   0,    0,   0,  0, TC_NAN_NONE, 0},
    [TC_FMT_S32]   = {"s32",   TC_CLASS_INT,   32, 0, 0,  0,   0,    0,   0,  0, TC_NAN_NONE, 1},
    [TC_FMT_FP64]  = {"fp64",  TC_CLASS_FLOAT, 64, 11, 52, 1023, -1022, 1023, 0, 1, TC_NAN_IEEE, 1},
    [TC_FMT_B1]    = {"b1",    TC_CLASS_INT,   1,  0, 0,  0,   0,    0,   0,  0, TC_NAN_NONE, 0},
};

/* Bit pattern of +-Inf and +-0 of a float format. */
static inline unsigned fmt_sign_shift(const tc_fmt_info *fi)
{
    return fi->ignore_low + fi->exp_bits + fi->man_bits;
}
static inline uint32_t fmt_inf(tc_fmt f, int sign)
{
    const tc_fmt_info *fi = &fmt_table[f];
    uint32_t e = ((1u << fi->exp_bits) - 1u) << (fi->man_bits + fi->ignore_low);
    return ((uint32_t)sign << fmt_sign_shift(fi)) | e;
}
static inline uint32_t fmt_zero(tc_fmt f, int sign)
{
    return (uint32_t)sign << fmt_sign_shift(&fmt_table[f]);
}

/* 1 for a format whose patterns do not fit a uint32_t word (fp64): the uint32_t API
 * refuses it with TC_EFORMAT before any helper below unpacks it. */
static inline int fmt_is_wide(tc_fmt f)
{
    return (unsigned)f < TC_FMT_COUNT && fmt_table[f].width > 32;
}

/* fmt.c - checks that a word fits the format (no bits above its width). */
static inline int fmt_fits(const tc_fmt_info *fi, uint32_t bits)
{
    /* a word never holds a wider format (fp64): 0, which callers report as TC_EFORMAT */
    return fi->width == 32 || (fi->width < 32 && (bits >> fi->width) == 0);
}

/* 1 if each of the n words fits format f (never for a format wider than a word). */
static inline int fmt_all_fit(tc_fmt f, size_t n, const uint32_t *w)
{
    const tc_fmt_info *fi = tc_fmt_get(f);
    if (fi->width > 32)
        return 0;
    if (fi->width == 32)
        return 1;
    for (size_t i = 0; i < n; i++)
        if (w[i] >> fi->width)
            return 0;
    return 1;
}

/* Unpack a float or scale pattern without checking its width. Returns the value kind;
 * fills sign, sig (fi->man_bits fraction bits) and exp (sig 0, exp emin for Inf/NaN). */
static inline tc_value_kind fmt_unpack(const tc_fmt_info *fi, uint32_t bits, int *sign,
                                       uint64_t *sig, int *exp)
{
    uint32_t v = bits >> fi->ignore_low;
    uint32_t mf = v & ((1u << fi->man_bits) - 1u);
    uint32_t ef = (v >> fi->man_bits) & ((1u << fi->exp_bits) - 1u);
    uint32_t emask = (1u << fi->exp_bits) - 1u;
    *sign = fi->is_signed ? (int)((v >> (fi->exp_bits + fi->man_bits)) & 1u) : 0;
    *sig = 0; /* Inf and NaN carry no significand */
    *exp = fi->emin;
    if (ef == emask) {
        switch (fi->nan_style) {
        case TC_NAN_IEEE: /* all-ones exponent is Inf or NaN */
            return (mf == 0 && fi->has_inf) ? TC_VAL_INF : TC_VAL_NAN;
        case TC_NAN_ALL_ONES: /* e4m3: only all-ones exponent and fraction */
            if (mf == (1u << fi->man_bits) - 1u)
                return TC_VAL_NAN;
            break;
        case TC_NAN_WORD: /* ue8m0: the whole word all-ones */
            return TC_VAL_NAN;
        default:
            break;
        }
    }
    if (fi->cls == TC_CLASS_SCALE && fi->man_bits == 0) {
        /* ue8m0 has no zero and no subnormals: every code is a power of two */
        *sig = 1;
        *exp = (int)ef - fi->bias;
    } else if (ef) {
        *sig = (1u << fi->man_bits) | mf;
        *exp = (int)ef - fi->bias;
    } else {
        *sig = mf;
        *exp = fi->emin;
    }
    return TC_VAL_FINITE;
}

/* Sign-extended value of an integer-format word. */
static inline int32_t fmt_int_value(const tc_fmt_info *fi, uint32_t bits)
{
    if (fi->width >= 32)
        return (int32_t)bits;
    if (fi->is_signed && (bits >> (fi->width - 1)) & 1u)
        return (int32_t)(bits | ~((1u << fi->width) - 1u));
    return (int32_t)bits;
}

#endif
