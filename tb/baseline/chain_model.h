/* chain_model.h - the arithmetic of the synthesis baseline (rtl/baseline/): a dot product
 * as a chain of fused multiply-adds, each rounded once to the output format.
 *
 * This is NOT docs/contract.md (the tensor cores' fused dot product): it exists to check the
 * baseline RTL. Values are decoded with the model's format table (tc_decode), and every
 * sum is exact (GMP integers) before its one rounding, so no argument about sticky bits
 * is needed here; the test holds this model against the host's fmaf and _Float16.
 */
#ifndef CHAIN_MODEL_H
#define CHAIN_MODEL_H

#include <stdint.h>
#include "tcsim.h"

/* How a result is rounded: to fp32 or fp16, with man_bits fraction bits (13 for an
 * e8m13 result widened to fp32), to nearest even or toward zero. A magnitude that is
 * past the format's largest binade after rounding gives Inf in both modes (the FEDP's
 * rounder does so; IEEE's toward-zero would give the largest finite value). */
typedef struct chain_round {
    tc_fmt fmt;
    unsigned man_bits;
    int rne;
} chain_round;

/* The rounding of the baseline for output format `out`: fp32 toward zero with
 * fp32_man_bits fraction bits, fp16 to nearest even (the profiles' rounding). */
chain_round chain_round_of(tc_fmt out, unsigned fp32_man_bits);

/* d = a*b + c rounded once by r; a, b are words of format in (tf32: the 32-bit word),
 * c and the result are patterns of r->fmt. IEEE 754 special cases: any NaN, Inf*0 and
 * Inf-Inf give the canonical NaN, an Inf operand otherwise wins; an exact zero is -0 only
 * when both a*b and c are -0. */
uint32_t chain_fma(tc_fmt in, uint32_t a, uint32_t b, uint32_t c, const chain_round *r);

/* acc = c; acc = chain_fma(a[j], b[j], acc) for j < n; returns acc. */
uint32_t chain_dot(tc_fmt in, unsigned n, const uint32_t *a, const uint32_t *b, uint32_t c,
                   const chain_round *r);

#endif
