/* gemm_lanes.h - one FEDP step (docs/contract.md steps 1-7) for GEMM_LANES columns of D
 * at once: the same stages as fedp.c's step (UNPACK, MUL, ALIGN, ADD, NORM/ROUND), on
 * operands unpacked once per matrix instead of once per element.
 *
 * Internal to the model. The body is written once, as always-inline functions over
 * plain arrays, and compiled three times by gemm_simd.c (x86-64 baseline, AVX2,
 * AVX-512) so that the compiler vectorises it for each; the three are the same C and
 * give the same bits.
 *
 * Widths: a finite product of two formats with m fraction bits is below 2^(2m+2); it
 * is moved up by H = max(F - 2m, 0) and so stays below 2^(F+2) <= 2^27 (F <= 25 for
 * every FEDP row, the c term likewise), so one aligned term fits a 32-bit lane and
 * eight of them plus c (< 9 * 2^27 < 2^31) a signed 32-bit partial sum; partial sums of
 * eight terms are added in 64 bits.
 */
#ifndef TCSIM_GEMM_LANES_H
#define TCSIM_GEMM_LANES_H

#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include "tcsim.h"
#include "fmt_table.h"

enum {
    GEMM_LANES = 16,      /* columns of D per kernel call */
    GEMM_CHUNK = 8,       /* terms per 32-bit partial sum (see above) */
    GEMM_ZERO_EXP = -(1 << 24) /* exponent of a zero significand: below every real
                                 * exponent and every floor, so that a zero product
                                 * never raises E (step 2) and truncates to 0 */
};

/* An operand element unpacked (UNPACK): significand, exponent (GEMM_ZERO_EXP for a zero
 * significand, the scale exponents of mxf8f6f4 already added) and sign as a mask
 * (0 or all ones). */
typedef struct gemm_ops {
    uint32_t *sig;
    int32_t *exp;
    uint32_t *neg;
} gemm_ops;

/* The constants of a profile's step (tc_gemm_step_consts_of). */
typedef struct gemm_step_consts {
    int F;          /* fraction bits kept relative to 2^E */
    int prod_sh;    /* 2m + H - F: a product's right shift is E - e + prod_sh */
    int H;          /* products are moved up by H before the shift */
    int c_sh;       /* the c term's: E - e_c + c_sh, after moving up by HC */
    int HC;
    int emin_align;
    /* the accumulator's format (c in, d out) */
    unsigned c_man, c_emask, c_sign_shift;
    int c_bias, c_emin;
    /* rounding (round.h's round_pack, lane by lane) */
    int r;          /* fraction bits rounded to (out_man_bits) */
    int out_emin, out_emax, out_bias;
    unsigned out_man, out_sign_shift, out_ignore;
    uint32_t out_inf; /* +Inf's pattern */
    int rne;
    int zero_plus;  /* a result rounding to zero is +0 (tc_profile.zero_plus) */
    int narrow;     /* a step's exact sum is below 2^30: 32-bit lanes hold it */
} gemm_step_consts;

/* A panel call: rows of D against one panel of GEMM_LANES columns, k-steps of L terms.
 * The caller's fallback redoes a step of one element through the general path (special
 * values): it gets the element and step and the incoming accumulator. */
typedef uint32_t (*gemm_fallback_fn)(void *ctx, size_t i, size_t j, size_t step, uint32_t c);

typedef struct gemm_panel_job {
    const gemm_step_consts *k;
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

/* m ? a : b lane by lane, m all ones or zero (C has no vector ?:) */
#define GV_SEL(m, a, b) (((a) & (m)) | ((b) & ~(m)))
#define GV_MAX(a, b) GV_SEL((a) > (b), a, b)

/* ROUND: round_pack (round.h) on the lanes, with selects in place of its branches; the
 * cases are the same (see the comments there). s * 2^q is the exact step result; s = 0
 * gives +0 (step 7). Defined twice from this one text: on 64-bit lanes for any step, on
 * 32-bit lanes (twice as many per register) for the steps whose sum fits them.
 *
 * floor(log2 |s|) comes from a leading-zero count where the target has a vector one
 * (lz: AVX-512CD), else from halving the range (compares and shifts exist everywhere). |s| < (L + 1) * 2^27 <= 33 * 2^27
 * < 2^33 (see the top): a right shift of 40 (30 on 32-bit lanes, where |s| < 2^30)
 * already leaves sig = 0 with the round and sticky bits zero, as any larger one does. */
#define GV_HALVE(H) { w = (st_)((x >> (H)) != 0) & (H); msb += w; x >>= (ut_)w; }
#define GEMM_DEFINE_LANE_ROUND(NAME, VU, VS, BITS, MAXSH)                                  \
    static inline __attribute__((always_inline)) gv_u32 NAME(const gemm_step_consts *k,    \
                                                             VS s, VS q, int lz)           \
    {                                                                                      \
        typedef VU ut_;                                                                    \
        typedef VS st_;                                                                    \
        const VS zero = {0}, r = zero + k->r;                                              \
        VU neg = (VU)(s >> (BITS - 1));                                                    \
        VU mag = ((VU)s ^ neg) - neg, x = mag;                                             \
        VS msb = zero, w;                                                                  \
        if (lz) { /* a vector leading-zero count (AVX-512CD) */                            \
            for (int l = 0; l < GEMM_LANES; l++)                                           \
                msb[l] = BITS - 1 - (BITS == 64 ? __builtin_clzll((uint64_t)x[l] | 1u)     \
                                                : __builtin_clz((unsigned)x[l] | 1u));     \
        } else {                                                                           \
            if (BITS == 64)                                                                \
                GV_HALVE(BITS / 2)                                                         \
            GV_HALVE(16) GV_HALVE(8) GV_HALVE(4) GV_HALVE(2) GV_HALVE(1)                   \
        }                                                                                  \
        VS e = msb + q;                                                                    \
        VS e_res = GV_MAX(e, zero + k->out_emin);                                          \
        VS shift = e_res - r - q;                                                          \
        VS ls = GV_SEL(shift < 0, -shift, zero);              /* exact: mag moves up */    \
        VS rs = GV_SEL(shift < 0, zero, GV_SEL(shift > MAXSH, zero + MAXSH, shift));       \
        VU rx = (mag << 1) >> (VU)rs;                         /* sig, the round bit */     \
        VU sticky = (VU)(((mag << 1) - (rx << (VU)rs)) != 0) & 1u;                         \
        VU sig = (mag << (VU)ls) >> (VU)rs;                                                \
        /* RNE: up when above half an ulp (round bit and sticky), or at the tie if odd */  \
        sig += ((VU)(zero + k->rne)) & rx & (sticky | sig) & 1u;                          \
        VU carry = sig >> (VU)(r + 1); /* rounding carried into a new binade */           \
        sig >>= carry;                                                                     \
        e_res += (VS)carry;                                                                \
        VU hidden = sig >> (VU)r;      /* 1 for normal results, 0 for subnormal */        \
        VU biased = (VU)(e_res + k->out_bias) & (0u - hidden);                             \
        VU frac = (sig & (((VU)(zero + 1) << (VU)r) - 1u)) << (k->out_man - (unsigned)k->r); \
        VU fin = ((biased << k->out_man) | frac) << k->out_ignore;                         \
        VU over = (VU)(e_res > k->out_emax);                                               \
        VU body = GV_SEL(over, (VU)(zero + k->out_inf), fin);                              \
        /* the sign, but none on a zero with zero_plus (docs/contract.md step 7) */       \
        VU sgn = (neg & 1u) & (((VU)(body != 0) & 1u) | (VU)(zero + !k->zero_plus));     \
        VU d = (sgn << k->out_sign_shift) | body;                                          \
        return __builtin_convertvector(d & (VU)(s != 0), gv_u32);                          \
    }
GEMM_DEFINE_LANE_ROUND(lane_round64, gv_u64, gv_s64, 64, 40)
GEMM_DEFINE_LANE_ROUND(lane_round32, gv_u32, gv_s32, 32, 30)
#undef GV_HALVE
#undef GEMM_DEFINE_LANE_ROUND

/* One k-step of n terms for one row of D against the panel: c in, the step's result
 * out (the chain of docs/contract.md: each step's rounded result is the next one's c).
 * narrow: the step's sum fits 32-bit lanes (gemm_step_consts.narrow); n is a constant
 * in the hot calls, so that the term loops unroll and P, X stay in registers.
 *
 * Exponents are kept less prod_sh (unpack_elem in gemm.c stores them so), which makes a
 * product's right shift E' - X' with E' = E - prod_sh; products are already moved up by
 * H (A's significands are stored so). A non-zero product has X' <= E', so its shift is
 * >= 0; a zero product's is huge and only needs the clamp at 31. */
static inline __attribute__((always_inline)) gv_u32
panel_step(const gemm_step_consts *k, size_t n, int narrow, gv_u32 c, const uint32_t *as,
           const int32_t *ae, const uint32_t *an, const uint32_t *bs, const int32_t *be,
           const uint32_t *bn, gv_u32 *bad, int lz)
{
    const gv_s32 zero = {0};
    /* ---- UNPACK c (the accumulator in the output format) */
    gv_u32 ef = (c >> k->c_man) & k->c_emask;
    gv_u32 efz = (gv_u32)(ef == 0);
    gv_u32 mc = (c & ((1u << k->c_man) - 1u)) | (~efz & (1u << k->c_man));
    gv_s32 ec = (gv_s32)(ef - efz) - k->c_bias; /* a subnormal's exponent is emin */
    gv_u32 cneg = 0u - ((c >> k->c_sign_shift) & 1u);
    *bad |= (gv_u32)(ef == k->c_emask);
    gv_s32 E = GV_MAX(GV_SEL((gv_s32)(mc != 0), ec - k->prod_sh, zero + GEMM_ZERO_EXP),
                      zero + (k->emin_align - k->prod_sh));
    /* ---- MUL: exact products; ALIGN's E over them */
    gv_u32 P[TC_MAX_L];
    gv_s32 X[TC_MAX_L];
    for (size_t t = 0; t < n; t++) {
        P[t] = as[t] * gv_load(bs + t * GEMM_LANES);
        X[t] = ae[t] + (gv_s32)gv_load(be + t * GEMM_LANES);
        E = GV_MAX(X[t], E);
    }
    /* ---- ALIGN + ADD: truncated terms in sign-magnitude, summed exactly: in 32 bits
     * when narrow, else in 32-bit partial sums of GEMM_CHUNK terms added in 64 */
    gv_s32 shc = E - ec + (k->c_sh + k->prod_sh);
    shc = GV_SEL(shc < 0, zero, GV_SEL(shc > 31, zero + 31, shc)); /* < 0: c = 0 */
    gv_u32 m = (mc << k->HC) >> (gv_u32)shc;
    gv_s32 sum32 = (gv_s32)((m ^ cneg) - cneg);
    gv_s64 sum = {0};
    for (size_t t = 0; t < n; t++) {
        gv_u32 sh = (gv_u32)(E - X[t]);
        sh = GV_SEL((gv_u32)(sh > 31u), (gv_u32)(zero + 31), sh);
        gv_u32 mt = P[t] >> sh;
        gv_u32 ng = an[t] ^ gv_load(bn + t * GEMM_LANES);
        sum32 += (gv_s32)((mt ^ ng) - ng);
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
    const gemm_step_consts *k = g->k;
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

/* The step constants of FEDP profile p. */
void tc_gemm_step_consts_of(const tc_profile *p, gemm_step_consts *k);

#endif
