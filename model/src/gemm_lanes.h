/* gemm_lanes.h - one FEDP step (docs/contract.md steps 1-7) for GEMM_LANES columns of D
 * at once: fedp_step.h's stage functions (UNPACK, MUL, ALIGN, ADD, NORM/ROUND, and the
 * mxf4 group stages) instantiated on GNU C vectors, on operands unpacked once per matrix
 * instead of once per element.
 *
 * Internal to the model. The body is written once, as always-inline functions over
 * plain arrays, and compiled three times by gemm_simd.c (x86-64 baseline, AVX2,
 * AVX-512) so that the compiler vectorises it for each; the three are the same C and
 * give the same bits.
 *
 * Widths (fedp_step.h's working domain): a moved-up product or c term is below 2^27, so
 * one aligned term fits a 32-bit lane and eight of them plus c (< 9 * 2^27 < 2^31) a
 * signed 32-bit partial sum; partial sums of eight terms are added in 64 bits, unless
 * the whole step's sum fits 32 bits (fedp_consts.narrow). mxf4's group sums are exact
 * 32-bit integers, its scaled groups and their sum 64-bit lanes (fedp_step.h).
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
    /* mxf4 (grouped): the scales unpacked, significand (0 for NaN: the step is bad) and
     * exponent; per row of A ns of them, from row i0; the panel's ns x GEMM_LANES */
    int grouped;
    size_t ns, scale_block;
    const uint32_t *assig, *bssig;
    const int32_t *asexp, *bsexp;
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
FEDP_DEFINE_GROUP_STAGES(_v, gv_u32, gv_s32, gv_u64, gv_s64, FEDP_MASK_V, FEDP_WIDEN_V)

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

/* One mxf4 k-step of n terms (a multiple of TC_MXF4_GROUP) for one row of D against the
 * panel, as panel_step: fedp_step.h's group stages on the lanes. A's and B's elements
 * are unpacked once to fedp_group_fixed's integers (their bits in ..sig); as_/ae_ the
 * row's scales of the step, bs_/be_ the panel's (GEMM_LANES each), one pair per
 * scale_block terms. */
static inline __attribute__((always_inline)) gv_u32
mxf4_panel_step(const fedp_consts *k, size_t n, size_t scale_block, gv_u32 c,
                const uint32_t *as, const uint32_t *bs, const uint32_t *as_, const int32_t *ae_,
                const uint32_t *bs_, const int32_t *be_, gv_u32 *bad, int lz)
{
    enum { GROUP = TC_MXF4_GROUP, MAX_GROUPS = TC_MAX_L / TC_MXF4_GROUP };
    const gv_s32 zero = {0};
    /* ---- UNPACK c */
    gv_s32 ec;
    gv_u32 cneg, mc = fedp_unpack_v(&k->acc, c, 0, 0, &ec, &cneg, bad);
    gv_s32 E = fedp_c_exp_v(k, mc, ec), gexp[MAX_GROUPS];
    gv_u64 gsig[MAX_GROUPS], gneg[MAX_GROUPS];
    /* ---- MUL: each group's products summed exactly, then scaled; ALIGN's E over them */
    const size_t ng = n / GROUP;
    for (size_t g = 0; g < ng; g++) {
        gv_s32 gsum = zero, orp = zero; /* orp: the products or'ed, non-zero if one is */
        for (size_t t = g * GROUP; t < (g + 1) * GROUP; t++) {
            gv_s32 p = fedp_group_prod_v((int32_t)as[t] + zero,
                                         (gv_s32)gv_load(bs + t * GEMM_LANES));
            gsum += p;
            orp |= p;
        }
        gv_u32 any = FEDP_MASK_V(gv_u32, orp != zero);
        const size_t si = g * GROUP / scale_block;
        gv_u32 ms = as_[si] * gv_load(bs_ + si * GEMM_LANES);
        gv_s32 es = ae_[si] + (gv_s32)gv_load(be_ + si * GEMM_LANES);
        gsig[g] = fedp_group_scale_v(k, gsum, any, ms, es, &gexp[g], &gneg[g]);
        E = fedp_emax_v(gexp[g], E);
    }
    /* ---- ALIGN + ADD in 64 bits, NORM + ROUND once; a zero sum is +0 (step 7) */
    gv_s64 sum = fedp_group_sum_v(k, mc, ec, cneg, ng, gsig, gexp, gneg, E);
    return lane_round64(k, sum, __builtin_convertvector(E + (k->prod_sh - k->F), gv_s64), lz);
}

/* One row of D against the panel, every k-step in order; L_const: the step width as a
 * constant (0: take it from the job); grouped: the mxf4 step (mxf4_panel_step). */
static inline __attribute__((always_inline)) void
panel_row(const gemm_panel_job *g, size_t r, size_t L_const, int narrow, int lz, int grouped)
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
        if (grouped) {
            const size_t s0 = base / g->scale_block; /* the step's first scale */
            const uint32_t *ss = g->assig + r * g->ns + s0, *bs = g->bssig + s0 * GEMM_LANES;
            const int32_t *se = g->asexp + r * g->ns + s0, *be = g->bsexp + s0 * GEMM_LANES;
            if (n == L)
                c = mxf4_panel_step(k, L, g->scale_block, c, as + base, g->bsig + o, ss, se,
                                    bs, be, &bad, lz);
            else
                c = mxf4_panel_step(k, n, g->scale_block, c, as + base, g->bsig + o, ss, se,
                                    bs, be, &bad, lz);
        } else if (n == L) /* a full step: n constant when L is */
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
        if (g->grouped) {
            if (g->L == TC_MAX_L) /* mxf4's L = 64 */
                panel_row(g, r, TC_MAX_L, 0, lz, 1);
            else
                panel_row(g, r, 0, 0, lz, 1);
        } else if (g->k->narrow) {
            switch (g->L) {
            case 4: panel_row(g, r, 4, 1, lz, 0); break;
            case 8: panel_row(g, r, 8, 1, lz, 0); break;
            case 16: panel_row(g, r, 16, 1, lz, 0); break;
            case 32: panel_row(g, r, 32, 1, lz, 0); break;
            default: panel_row(g, r, 0, 1, lz, 0); break;
            }
        } else {
            switch (g->L) {
            case 8: panel_row(g, r, 8, 0, lz, 0); break;
            case 16: panel_row(g, r, 16, 0, lz, 0); break;
            case 32: panel_row(g, r, 32, 0, lz, 0); break;
            default: panel_row(g, r, 0, 0, lz, 0); break;
            }
        }
    }
}

/* The kernels of gemm_simd.c; simd is tc_gemm_opts' (0: the best this CPU runs).
 * NULL when the CPU lacks the one asked for. */
gemm_panel_fn tc_gemm_panel_kernel(unsigned simd);

#endif
