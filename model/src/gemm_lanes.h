/* gemm_lanes.h - one FEDP step (docs/contract.md steps 1-7) for GEMM_LANES columns of D
 * at once: fedp_step.h's stage functions (UNPACK, MUL, ALIGN, ADD, NORM/ROUND)
 * instantiated on GNU C vectors, on operands unpacked once per matrix instead of once
 * per element.
 *
 * Internal to the model. The body is written once, as always-inline functions over
 * plain arrays, and compiled three times by gemm_simd.c (x86-64 baseline, AVX2,
 * AVX-512) so that the compiler vectorises it for each; the three are the same C and
 * give the same bits.
 *
 * Widths (fedp_step.h's working domain): a moved-up product or c term is below 2^27, so
 * one aligned term fits a 32-bit lane and eight of them plus c (< 9 * 2^27 < 2^31) a
 * signed 32-bit partial sum; partial sums of eight terms are added in 64 bits, unless
 * the whole step's sum fits 32 bits (fedp_consts.narrow).
 */
#ifndef TCSIM_GEMM_LANES_H
#define TCSIM_GEMM_LANES_H

#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include "tcsim.h"
#include "fmt_table.h"
#include "fedp_step.h"

enum {
    GEMM_LANES = 16, /* columns of D per kernel call */
    GEMM_CHUNK = 8   /* terms per 32-bit partial sum (see above) */
};

/* An operand element unpacked (UNPACK): significand, exponent (FEDP_ZERO_EXP for a zero
 * significand, the scale exponents of mxf8f6f4 already added) and sign as a mask
 * (0 or all ones). */
typedef struct gemm_ops {
    uint32_t *sig;
    int32_t *exp;
    uint32_t *neg;
} gemm_ops;

/* A panel call: rows of D against one panel of GEMM_LANES columns, k-steps of L terms.
 * The caller's fallback redoes a step of one element through the general path (special
 * values): it gets the element and step and the incoming accumulator. */
typedef uint32_t (*gemm_fallback_fn)(void *ctx, size_t i, size_t j, size_t step, uint32_t c);

typedef struct gemm_panel_job {
    const fedp_consts *k;
    size_t K, L, nsteps;
    const uint32_t *asig, *aneg;   /* the rows, K per row, from row i0 */
    const int32_t *aexp;
    const uint8_t *abad;           /* per row and step: a special value in A */
    const uint32_t *bsig, *bneg;   /* the panel: K x GEMM_LANES, k-major */
    const int32_t *bexp;
    const uint32_t *bbad;          /* per step and lane: a special value in B (0 or 1) */
    size_t rows, lanes;            /* rows of the call; valid lanes (<= GEMM_LANES) */
    uint32_t *acc;                 /* rows x GEMM_LANES: C in, D out */
    gemm_fallback_fn fallback;
    void *ctx;
    size_t i0, j0;                 /* the call's first row and column of D */
} gemm_panel_job;

typedef void (*gemm_panel_fn)(const gemm_panel_job *job);

/* The lanes as GNU C vectors (GCC and Clang): plain C operators on GEMM_LANES values at
 * once, which each target lowers to its widest registers (one zmm per 32-bit vector
 * under AVX-512, two ymm under AVX2, SSE2 or scalar code otherwise). */
/* The helpers below take and return vectors: they are always inlined, so no call crosses
 * the ABI whose change for wide vectors GCC warns about. */
#pragma GCC diagnostic ignored "-Wpsabi"
typedef uint32_t gv_u32 __attribute__((vector_size(GEMM_LANES * 4)));
typedef int32_t gv_s32 __attribute__((vector_size(GEMM_LANES * 4)));
typedef uint64_t gv_u64 __attribute__((vector_size(GEMM_LANES * 8)));
typedef int64_t gv_s64 __attribute__((vector_size(GEMM_LANES * 8)));

static inline __attribute__((always_inline)) gv_u32 gv_load(const void *p)
{
    gv_u32 v;
    memcpy(&v, p, sizeof v);
    return v;
}

/* The stages on the lanes (fedp_step.h), NORM/ROUND's floor(log2 x) included. */
FEDP_DEFINE_STAGES(_v, gv_u32, gv_s32, FEDP_MASK_V)
FEDP_DEFINE_LANE_ROUND32(lane, gv_u32, gv_s32)
FEDP_DEFINE_LANE_ROUND64(lane, gv_u32, gv_u64, gv_s64)

/* One k-step of n terms for one row of D against the panel: c in, the step's result
 * out (the chain of docs/contract.md: each step's rounded result is the next one's c).
 * narrow: the step's sum fits 32-bit lanes (fedp_consts.narrow); n is a constant in
 * the hot calls, so that the term loops unroll and P, X stay in registers. A's
 * significands are stored moved up by H and its exponents less prod_sh (unpack_elem
 * in gemm.c), as fedp_mul takes them. */
static inline __attribute__((always_inline)) gv_u32
panel_step(const fedp_consts *k, size_t n, int narrow, gv_u32 c, const uint32_t *as,
           const int32_t *ae, const uint32_t *an, const uint32_t *bs, const int32_t *be,
           const uint32_t *bn, gv_u32 *bad, int lz)
{
    const gv_s32 zero = {0};
    /* ---- UNPACK c (the accumulator in the output format) */
    gv_s32 ec;
    gv_u32 cneg, mc = fedp_unpack_v(&k->acc, c, 0, 0, &ec, &cneg, bad);
    gv_s32 E = fedp_c_exp_v(k, mc, ec);
    /* ---- MUL: exact products; ALIGN's E over them */
    gv_u32 P[TC_MAX_L];
    gv_s32 X[TC_MAX_L];
    for (size_t t = 0; t < n; t++) {
        P[t] = fedp_mul_v(as[t] + (gv_u32){0}, ae[t] + zero, gv_load(bs + t * GEMM_LANES),
                          (gv_s32)gv_load(be + t * GEMM_LANES), &X[t]);
        E = fedp_emax_v(X[t], E);
    }
    /* ---- ALIGN + ADD: truncated terms in sign-magnitude, summed exactly: in 32 bits
     * when narrow, else in 32-bit partial sums of GEMM_CHUNK terms added in 64 */
    gv_s32 sum32 = fedp_signed_v(fedp_align_v(mc << k->HC, fedp_c_x_v(k, ec), E), cneg);
    gv_s64 sum = {0};
    for (size_t t = 0; t < n; t++) {
        gv_u32 ng = fedp_mul_sign_v(an[t] + (gv_u32){0}, gv_load(bn + t * GEMM_LANES));
        sum32 += fedp_signed_v(fedp_align_v(P[t], X[t], E), ng);
        if (!narrow && (t % GEMM_CHUNK == GEMM_CHUNK - 1 || t + 1 == n)) {
            sum += __builtin_convertvector(sum32, gv_s64);
            sum32 = zero;
        }
    }
    /* ---- NORM + ROUND: once per step; a zero sum is +0 (step 7) */
    const int32_t q_off = k->prod_sh - k->F;
    if (narrow)
        return lane_round32(k, sum32, E + q_off, lz);
    return lane_round64(k, sum, __builtin_convertvector(E + q_off, gv_s64), lz);
}

/* One row of D against the panel, every k-step in order; L_const: the step width as a
 * constant (0: take it from the job). */
static inline __attribute__((always_inline)) void
panel_row(const gemm_panel_job *g, size_t r, size_t L_const, int narrow, int lz)
{
    const fedp_consts *k = g->k;
    const size_t K = g->K, L = L_const ? L_const : g->L;
    uint32_t *acc = g->acc + r * GEMM_LANES;
    const uint32_t *as = g->asig + r * K, *an = g->aneg + r * K;
    const int32_t *ae = g->aexp + r * K;
    gv_u32 c = gv_load(acc);
    for (size_t s = 0, base = 0; s < g->nsteps; s++, base += L) {
        const size_t n = K - base < L ? K - base : L;
        const size_t o = base * GEMM_LANES;
        gv_u32 bad = gv_load(g->bbad + s * GEMM_LANES), cin = c;
        if (n == L) /* a full step: n constant when L is */
            c = panel_step(k, L, narrow, c, as + base, ae + base, an + base, g->bsig + o,
                           g->bexp + o, g->bneg + o, &bad, lz);
        else
            c = panel_step(k, n, narrow, c, as + base, ae + base, an + base, g->bsig + o,
                           g->bexp + o, g->bneg + o, &bad, lz);
        /* ---- special values: the lanes that met one are redone by the general path */
        uint32_t abad = g->abad[r * g->nsteps + s], any = abad;
        for (size_t l = 0; l < GEMM_LANES; l++)
            any |= bad[l];
        if (any)
            for (size_t l = 0; l < g->lanes; l++)
                if (bad[l] | abad)
                    c[l] = g->fallback(g->ctx, g->i0 + r, g->j0 + l, s, cin[l]);
    }
    memcpy(acc, &c, sizeof c);
}

/* The panel call, with the hot step widths as constants; lz: the target has a vector
 * leading-zero count. */
static inline __attribute__((always_inline)) void gemm_panel_body(const gemm_panel_job *g,
                                                                   int lz)
{
    for (size_t r = 0; r < g->rows; r++) {
        if (g->k->narrow) {
            switch (g->L) {
            case 4: panel_row(g, r, 4, 1, lz); break;
            case 8: panel_row(g, r, 8, 1, lz); break;
            case 16: panel_row(g, r, 16, 1, lz); break;
            case 32: panel_row(g, r, 32, 1, lz); break;
            default: panel_row(g, r, 0, 1, lz); break;
            }
        } else {
            switch (g->L) {
            case 8: panel_row(g, r, 8, 0, lz); break;
            case 16: panel_row(g, r, 16, 0, lz); break;
            case 32: panel_row(g, r, 32, 0, lz); break;
            default: panel_row(g, r, 0, 0, lz); break;
            }
        }
    }
}

/* The kernels of gemm_simd.c; simd is tc_gemm_opts' (0: the best this CPU runs).
 * NULL when the CPU lacks the one asked for. */
gemm_panel_fn tc_gemm_panel_kernel(unsigned simd);

#endif
