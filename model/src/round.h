/* round.h - the rounding routine of the model's conversions and IEEE addition (as
 * SoftFloat's roundPack). FEDP steps round with its branch-free form, fedp_step.h's
 * FEDP_DEFINE_ROUND, which gives the same bits (model_vs_ref_random holds both to the
 * exact reference).
 *
 * Input: sign, an exact integer magnitude and a binary scale (value = mag * 2^q).
 * Output: the bit pattern of the nearest-even (TC_RNE) or truncated (TC_RZ) value
 * with `man_bits` fraction bits, gradual underflow at the format's emin, and Inf
 * once the rounded exponent passes emax (docs/contract.md step 6); a value that rounds
 * to zero keeps its sign, as IEEE's conversions and additions do (the FEDP's own +0 rule,
 * step 7, lives in fedp_step.h).
 */
#ifndef TCSIM_ROUND_H
#define TCSIM_ROUND_H

#include <stdint.h>
#include "tcsim.h"
#include "fmt_table.h"

/* Inline, because every FEDP step ends here. */

/* Value = sig * 2^(exp - fb): the common shape of every exact term in the model. */

/* Where round_pack rounds to, and how it packs the result.
 * The rounding is to `man_bits` fraction bits with `emin`..`emax`; the result is
 * then written into `fmt` (whose own fraction may be wider: e8m13 inside fp32). */
typedef struct round_target {
    tc_fmt fmt;
    unsigned man_bits;
    tc_round mode;
} round_target;

static inline int msb_index(uint64_t x) /* x != 0 */
{
    return 63 - __builtin_clzll(x);
}

/* Rounds sign * mag * 2^q to the target and packs it. mag may be 0 (signed zero).
 * *inexact (if not NULL) is set to 1 when the result differs from the value. */
static inline uint32_t round_pack(const round_target *t, int sign, uint64_t mag, int q,
                                  int *inexact)
{
    const tc_fmt_info *fi = &fmt_table[t->fmt];
    const int r = (int)t->man_bits;
    if (inexact)
        *inexact = 0;
    if (mag == 0)
        return fmt_zero(t->fmt, sign);

    int e = msb_index(mag) + q;              /* floor(log2(value)) */
    int e_res = e < fi->emin ? fi->emin : e; /* subnormals keep emin's quantum */
    int shift = (e_res - r) - q;             /* bits of mag below the result's lsb */
    uint64_t sig;
    if (shift <= 0) {
        sig = mag << -shift; /* exact: fewer than r+1 significant bits */
    } else {
        uint64_t rem;
        if (shift >= 64) {
            sig = 0;
            rem = mag;
        } else {
            sig = mag >> shift;
            rem = mag & ((UINT64_C(1) << shift) - 1u);
        }
        if (rem) {
            if (inexact)
                *inexact = 1;
            if (t->mode == TC_RNE) {
                /* compare rem with half an ulp, 2^(shift-1); beyond 64 bits rem is below it */
                int above = 0, tie = 0;
                if (shift <= 64) {
                    uint64_t half = UINT64_C(1) << (shift - 1);
                    above = rem > half;
                    tie = rem == half;
                }
                if (above || (tie && (sig & 1u)))
                    sig++;
            }
        }
        if (sig >> (r + 1)) { /* rounding carried into a new binade */
            sig >>= 1;
            e_res++;
        }
    }
    if (e_res > fi->emax) {
        if (inexact)
            *inexact = 1;
        return fmt_inf(t->fmt, sign);
    }
    uint32_t hidden = (uint32_t)(sig >> r); /* 1 for normal results, 0 for subnormal */
    uint32_t biased = hidden ? (uint32_t)(e_res + fi->bias) : 0u;
    uint32_t frac = (uint32_t)(sig & ((UINT64_C(1) << r) - 1u)) << (fi->man_bits - t->man_bits);
    return ((uint32_t)sign << (fi->ignore_low + fi->exp_bits + fi->man_bits)) |
           (((biased << fi->man_bits) | frac) << fi->ignore_low);
}

#endif
