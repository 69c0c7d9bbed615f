/* fmt_values.h - values of a format drawn from its row of the format table (tc_fmt_get:
 * widths, bias, Inf and NaN style), for the testbenches and tests that build operands:
 * patterns packed from fields, the corner values of a format, finite values in a
 * binade range or at one exponent, exact powers of two and scaled integers, and the
 * mixed draw (any pattern / normals near a binade / specials) of the baseline and
 * gate-level benches. Every draw uses the caller's splitmix stream, in a fixed order,
 * so that a seed names the same values it always did. The formats are those whose
 * patterns fit a uint32_t: never fp64 (its tests draw 64-bit patterns themselves). */
#ifndef TCSIM_TESTKIT_FMT_VALUES_H
#define TCSIM_TESTKIT_FMT_VALUES_H

#include <stddef.h>
#include <stdint.h>
#include "splitmix.h"
#include "tcsim.h"

/* Room for the corners of any format (tk_corners). */
#define TK_MAX_CORNERS 32

/* w low bits set (w <= 32). */
uint32_t tk_mask32(unsigned w);

/* A pattern of format fi from its fields (low: the ignored bits of tf32). */
uint32_t tk_pack(const tc_fmt_info *fi, uint32_t sign, uint32_t ef, uint32_t mf, uint32_t low);

/* The largest exponent field of a finite value. */
uint32_t tk_max_finite_field(const tc_fmt_info *fi);

/* A finite value with its exponent field in [lo, hi] (clamped to the finite range). */
uint32_t tk_finite(tk_rng *r, const tc_fmt_info *fi, int lo, int hi);

/* The corner values of format f: zeros, subnormal and normal extremes, one and its
 * neighbour, Inf and NaNs where the format has them. Returns the count. */
size_t tk_corners(tc_fmt f, uint32_t out[TK_MAX_CORNERS]);

/* x * 2^w (x > 0) as a positive pattern of format f, if f holds it exactly: 1 and *out,
 * else 0. */
int tk_scaled(tc_fmt f, uint32_t x, int w, uint32_t *out);

/* 2^e in format f, if it is exactly representable (normal or subnormal). */
int tk_power_of_two(tc_fmt f, int e, uint32_t *out);

/* x with its sign flipped. */
uint32_t tk_negate(tc_fmt f, uint32_t x);

/* A value of format f whose exponent (floor of log2) is e, random significand and sign;
 * 0 if f has no such value. */
uint32_t tk_value_at(tk_rng *r, tc_fmt f, int e);

/* The value bits of format f (its width less tf32's ignored low bits). */
unsigned tk_value_bits(const tc_fmt_info *f);

/* A value of format f as its value bits (not yet moved up by ignore_low): mode 0 any
 * pattern (NaN, Inf, subnormals included), 1 a normal in the 5 binades around the
 * biased exponent ebase (cancellation, carries), 2 a special or boundary value. */
uint32_t tk_draw(tk_rng *r, const tc_fmt_info *f, int mode, int ebase);

#endif
