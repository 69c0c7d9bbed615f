/* fedp_step.c - one FEDP step on one case (docs/contract.md steps 1-7), built from
 * fedp_step.h's stage functions: the fast path (every word finite, branch-free,
 * specialised for the hot formats) and the general path (special values, the trace),
 * and tc_fedp_step over them. */
#include <string.h>
#include "tcsim.h"
#include "fmt_table.h"
#include "fedp_step.h"

/* The general path: any words within their widths, special values included; fills
 * tr (if not NULL) with every stage's output. */
static uint32_t fedp_general(const tc_profile *p, size_t n, const uint32_t *a,
                             const uint32_t *b, uint32_t c, int exp_offset, tc_fedp_trace *tr)
{
    const tc_fmt_info *fi = &fmt_table[p->in], *fib = &fmt_table[p->in_b];
    fedp_consts k;
    fedp_consts_for_ab(p, p->in, p->in_b, p->out, p->round, p->out_man_bits, p->F, &k);
    fedp_special sp = {0, 0, 0};
    uint32_t P[TC_MAX_L], N[TC_MAX_L];
    int32_t X[TC_MAX_L];
    int have = 0; /* a non-zero term */

    /* ---- UNPACK + MUL: exact products; zero ones and special values take no part */
    for (size_t i = 0; i < n; i++) {
        int sa, sb, ea, eb;
        uint64_t ma, mb;
        tc_value_kind ka = fmt_unpack(fi, a[i], &sa, &ma, &ea);
        tc_value_kind kb = fmt_unpack(fib, b[i], &sb, &mb, &eb);
        P[i] = 0;
        X[i] = FEDP_ZERO_EXP;
        N[i] = 0;
        if (ka != TC_VAL_FINITE || kb != TC_VAL_FINITE) {
            if (ka == TC_VAL_NAN || kb == TC_VAL_NAN ||
                (ka == TC_VAL_INF && kb == TC_VAL_FINITE && mb == 0) ||
                (kb == TC_VAL_INF && ka == TC_VAL_FINITE && ma == 0))
                sp.nan = 1; /* NaN input or Inf * 0 */
            else
                fedp_special_inf(&sp, sa ^ sb);
            continue;
        }
        if (ma == 0 || mb == 0) {
            if (tr)
                tr->prod_zero[i] = 1;
            continue;
        }
        P[i] = fedp_mul((uint32_t)ma << k.H, ea + exp_offset - k.prod_sh, (uint32_t)mb, eb,
                        &X[i]);
        N[i] = fedp_mul_sign(0u - (uint32_t)sa, 0u - (uint32_t)sb);
        have = 1;
        if (tr) {
            tr->prod_sig[i] = ma * mb;
            tr->prod_exp[i] = ea + eb + exp_offset;
            tr->prod_sign[i] = sa ^ sb;
        }
    }
    uint32_t mc;
    int32_t ec;
    int sc;
    fedp_unpack_c_general(p->out, c, &mc, &ec, &sc, &sp);
    have |= mc != 0;
    if (tr) {
        tr->n_terms = (unsigned)n + 1;
        tr->prod_sig[TC_MAX_L] = mc;
        tr->prod_exp[TC_MAX_L] = ec;
        tr->prod_sign[TC_MAX_L] = sc;
        tr->prod_zero[TC_MAX_L] = mc == 0;
    }

    uint32_t d;
    int code = 0;
    if (fedp_special_result(&sp, p->out, &d, &code)) {
        if (tr) {
            tr->special = code;
            tr->result = d;
        }
        return d;
    }

    /* ---- ALIGN + ADD: E over the non-zero terms, floored; the truncated terms summed */
    int32_t E = fedp_c_exp(&k, mc, ec);
    for (size_t i = 0; i < n; i++)
        E = fedp_emax(E, X[i]);
    int64_t tcv = fedp_signed(fedp_align(mc << k.HC, fedp_c_x(&k, ec), E), 0u - (uint32_t)sc);
    int64_t sum = tcv;
    for (size_t i = 0; i < n; i++) {
        int64_t t = fedp_signed(fedp_align(P[i], X[i], E), N[i]);
        sum += t;
        if (tr)
            tr->align_t[i] = t;
    }

    /* ---- NORM + ROUND: once, to the output format (or e8m13 inside fp32) */
    d = fedp_round(&k, sum, E + k.prod_sh - k.F, 0);
    if (tr) {
        tr->special = 0;
        tr->align_t[TC_MAX_L] = tcv;
        tr->align_e = have ? E + k.prod_sh : 0;
        tr->add_sum = sum;
        tr->result = d;
    }
    return d;
}

/* The fast path: the same stages on words that are all finite, without a branch on
 * data, the step's terms side by side in TERM_LANES vector lanes (one AVX2 register a
 * chunk: unpack, multiply, align and sum of eight terms at once, then one max and one
 * sum across the lanes and the scalar round); 1 (no result) when a word is too wide
 * or has an all-ones exponent field (Inf, NaN or, for e4m3, large finite values): the
 * general path takes that step. A term is below 2^27 (fedp_step.h), so a lane sums
 * the TC_MAX_L / TERM_LANES <= 8 terms of its chunks in 32 bits. */
enum { TERM_LANES = 8 };
#pragma GCC diagnostic ignored "-Wpsabi" /* the vectors cross no call: always inlined */
typedef uint32_t tv_u32 __attribute__((vector_size(TERM_LANES * 4)));
typedef int32_t tv_s32 __attribute__((vector_size(TERM_LANES * 4)));
FEDP_DEFINE_STAGES(_t, tv_u32, tv_s32, FEDP_MASK_V)

/* Across the lanes, by halving: each of three rounds combines every lane with its
 * partner in the other half of its group, so that the result lands in every lane
 * (ALIGN then needs no broadcast) in three dependent steps, not a chain of eight. */
_Static_assert(TERM_LANES == 8, "the butterflies below are written for eight lanes");
#define TV_SWAP4(v) __builtin_shufflevector(v, v, 4, 5, 6, 7, 0, 1, 2, 3)
#define TV_SWAP2(v) __builtin_shufflevector(v, v, 2, 3, 0, 1, 6, 7, 4, 5)
#define TV_SWAP1(v) __builtin_shufflevector(v, v, 1, 0, 3, 2, 5, 4, 7, 6)
static inline __attribute__((always_inline)) tv_s32 tv_emax_all(tv_s32 v)
{
    v = fedp_emax_t(v, TV_SWAP4(v));
    v = fedp_emax_t(v, TV_SWAP2(v));
    return fedp_emax_t(v, TV_SWAP1(v));
}
static inline __attribute__((always_inline)) uint32_t tv_any(tv_u32 v)
{
    v |= TV_SWAP4(v);
    v |= TV_SWAP2(v);
    return (v | TV_SWAP1(v))[0];
}

static inline __attribute__((always_inline)) int
fedp_fast_step(const fedp_consts *k, size_t n, const uint32_t *a, const uint32_t *b,
               uint32_t c, int exp_offset, uint32_t *d)
{
    enum { MAX_CHUNKS = TC_MAX_L / TERM_LANES };
    const size_t nch = (n + TERM_LANES - 1) / TERM_LANES;
    uint32_t bad = 0, nc;
    int32_t ec;
    uint32_t mc = fedp_unpack(&k->acc, c, 0, 0, &ec, &nc, &bad);
    tv_u32 P[MAX_CHUNKS], N[MAX_CHUNKS], vbad = {0};
    tv_s32 X[MAX_CHUNKS], Ev = (tv_s32){0} + fedp_c_exp(k, mc, ec);
    for (size_t ch = 0; ch < nch; ch++) {
        tv_u32 wa = {0}, wb = {0}; /* a short step's missing terms: +0 * +0 */
        if ((ch + 1) * TERM_LANES <= n) {
            memcpy(&wa, a + ch * TERM_LANES, sizeof wa);
            memcpy(&wb, b + ch * TERM_LANES, sizeof wb);
        } else {
            for (size_t l = 0; ch * TERM_LANES + l < n; l++) {
                wa[l] = a[ch * TERM_LANES + l];
                wb[l] = b[ch * TERM_LANES + l];
            }
        }
        tv_s32 ea, eb;
        tv_u32 na, nb;
        tv_u32 sa = fedp_unpack_t(&k->in, wa, (unsigned)k->H, k->prod_sh - exp_offset, &ea,
                                  &na, &vbad);
        tv_u32 sb = fedp_unpack_t(&k->in_b, wb, 0, 0, &eb, &nb, &vbad);
        P[ch] = fedp_mul_t(sa, ea, sb, eb, &X[ch]);
        N[ch] = fedp_mul_sign_t(na, nb);
        Ev = fedp_emax_t(Ev, X[ch]);
    }
    if (bad | tv_any(vbad))
        return 1;
    Ev = tv_emax_all(Ev);
    const int32_t E = Ev[0];
    tv_s32 sv = {0};
    for (size_t ch = 0; ch < nch; ch++)
        sv += fedp_signed_t(fedp_align_t(P[ch], X[ch], Ev), N[ch]);
    int64_t sum = fedp_signed(fedp_align(mc << k->HC, fedp_c_x(k, ec), E), nc);
    for (size_t l = 0; l < TERM_LANES; l++)
        sum += sv[l];
    *d = fedp_round(k, sum, E + k->prod_sh - k->F, 0);
    return 0;
}

static inline __attribute__((always_inline)) int
fedp_fast_fmt(const tc_profile *p, tc_fmt in, tc_fmt in_b, tc_fmt out, tc_round mode,
              unsigned rman, unsigned fbits, size_t n, const uint32_t *a, const uint32_t *b,
              uint32_t c, int exp_offset, uint32_t *d)
{
    fedp_consts k;
    fedp_consts_for_ab(p, in, in_b, out, mode, rman, fbits, &k);
    return fedp_fast_step(&k, n, a, b, c, exp_offset, d);
}

/* The fast path specialised for the step shapes of the profile table's rows (formats,
 * rounding to the output's own width, n = L and F, profile.c): with all of them
 * constant the compiler folds every mask and shift of the unpacking, the alignment
 * and the packing, and unrolls the chunk loops; a single case then runs no code that
 * only reads its profile. A short step (k < L), another rounding width or exp_offset's
 * callers take the instance of their format pair with n, F and the rounding read at
 * run time, and other pairs the generic one. */
#define FAST_SHAPE(IN, OUT, MODE, N, FB)                                                 \
    if (n == (N) && p->F == (FB) && p->round == (MODE) &&                                \
        p->out_man_bits == fmt_table[OUT].man_bits)                                      \
        return fedp_fast_fmt(p, IN, IN, OUT, MODE, fmt_table[OUT].man_bits, FB, N, a, b, \
                             c, exp_offset, d);
/* a format pair (a and b in IN), its rows' rounding and three (n, F) shapes (one may
 * repeat); the mixed pairs take the generic instance */
#define FAST_PAIR(IN, OUT, MODE, N1, F1, N2, F2, N3, F3)                                 \
    if (p->in == (IN) && p->in_b == (IN) && p->out == (OUT)) {                           \
        FAST_SHAPE(IN, OUT, MODE, N1, F1)                                                \
        FAST_SHAPE(IN, OUT, MODE, N2, F2)                                                \
        FAST_SHAPE(IN, OUT, MODE, N3, F3)                                                \
        return fedp_fast_fmt(p, IN, IN, OUT, p->round, p->out_man_bits, p->F, n, a, b, c,\
                             exp_offset, d);                                             \
    }

static inline __attribute__((always_inline)) int
fedp_fast_body(const tc_profile *p, size_t n, const uint32_t *a, const uint32_t *b, uint32_t c,
               int exp_offset, uint32_t *d)
{
    /* shapes: turing, ampere and ada (8, 24); hopper and blackwell (16, 25); volta (4, 23);
     * tf32 steps are half as long; fp8 wgmma (32, 13), tcgen05 (32, 25) */
    FAST_PAIR(TC_FMT_FP16, TC_FMT_FP32, TC_RZ, 8, 24, 16, 25, 4, 23)
    FAST_PAIR(TC_FMT_FP16, TC_FMT_FP16, TC_RNE, 8, 24, 16, 25, 4, 23)
    FAST_PAIR(TC_FMT_BF16, TC_FMT_FP32, TC_RZ, 8, 24, 16, 25, 16, 25)
    FAST_PAIR(TC_FMT_TF32, TC_FMT_FP32, TC_RZ, 4, 24, 8, 25, 8, 25)
    FAST_PAIR(TC_FMT_E4M3, TC_FMT_FP32, TC_RZ, 16, 13, 32, 13, 32, 25)
    FAST_PAIR(TC_FMT_E5M2, TC_FMT_FP32, TC_RZ, 16, 13, 32, 13, 32, 13)
    return fedp_fast_fmt(p, p->in, p->in_b, p->out, p->round, p->out_man_bits, p->F, n, a,
                         b, c, exp_offset, d);
}

/* fedp_fast_body compiled for the x86-64 baseline (and any other CPU) and for AVX2
 * (variable shifts and 32-bit multiplies on eight lanes), chosen per call from the
 * CPU's features (a load and a test); the two are the same C and give the same bits. */
static int fedp_fast_base(const tc_profile *p, size_t n, const uint32_t *a, const uint32_t *b,
                          uint32_t c, int exp_offset, uint32_t *d)
{
    return fedp_fast_body(p, n, a, b, c, exp_offset, d);
}

#if defined(__x86_64__) && (defined(__GNUC__) || defined(__clang__))
__attribute__((target("avx2,bmi2"))) static int
fedp_fast_avx2(const tc_profile *p, size_t n, const uint32_t *a, const uint32_t *b, uint32_t c,
               int exp_offset, uint32_t *d)
{
    return fedp_fast_body(p, n, a, b, c, exp_offset, d);
}
#define HAVE_FAST_AVX2 1
#endif

static int fedp_fast(const tc_profile *p, size_t n, const uint32_t *a, const uint32_t *b,
                     uint32_t c, int exp_offset, uint32_t *d)
{
#ifdef HAVE_FAST_AVX2
    if (__builtin_cpu_supports("avx2") && __builtin_cpu_supports("bmi2"))
        return fedp_fast_avx2(p, n, a, b, c, exp_offset, d);
#endif
    return fedp_fast_base(p, n, a, b, c, exp_offset, d);
}

int tc_fedp_fast(const tc_profile *p, size_t n, const uint32_t *a, const uint32_t *b,
                 uint32_t c, uint32_t *d)
{
    return fedp_fast(p, n, a, b, c, 0, d);
}

uint32_t tc_fedp_run(const tc_profile *p, size_t n, const uint32_t *a, const uint32_t *b,
                     uint32_t c, int exp_offset)
{
    uint32_t d;
    if (fedp_fast(p, n, a, b, c, exp_offset, &d) == 0)
        return d;
    return fedp_general(p, n, a, b, c, exp_offset, NULL);
}

tc_status tc_fedp_step(const tc_profile *p, size_t n, const uint32_t *a, const uint32_t *b,
                       uint32_t c, uint32_t *d, tc_fedp_trace *trace)
{
    if (!p || !d || (n && (!a || !b)))
        return TC_EINVAL;
    if (p->kind != TC_KIND_FEDP)
        return TC_EUNSUPPORTED;
    if (n > p->L)
        return TC_ESHAPE;
    if (!fmt_all_fit(p->in, n, a) || !fmt_all_fit(p->in_b, n, b) ||
        !fmt_all_fit(p->out, 1, &c))
        return TC_EFORMAT;
    if (trace)
        memset(trace, 0, sizeof *trace);
    *d = trace ? fedp_general(p, n, a, b, c, 0, trace) : tc_fedp_run(p, n, a, b, c, 0);
    return TC_OK;
}
