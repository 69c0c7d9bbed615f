/* dot_batch.c - tc_dot_batch: n independent dot products, eight cases of one FEDP step
 * (fedp_step.h) side by side in vector lanes; a lane that meets a special value or a
 * bad width is redone by tc_dot. */
#include "tcsim.h"
#include "fmt_table.h"
#include "fedp_step.h"

/* Eight cases of one FEDP step side by side (lane j = case j), so that the compiler can
 * run the unpack, multiply, align and sum of a term for all lanes in vector registers:
 * fedp_step.h's stages, lane by lane; a lane that meets a special value or a bad width
 * is redone by the general path (tc_dot). */
enum { LANES = 8 };

/* NORM/ROUND on the eight cases at once: fedp_step.h's definition on GNU C vectors, in
 * 32-bit lanes (for steps whose sum fits them, fedp_consts.narrow). The vectors cross
 * no call: every function on them is always inlined. */
#pragma GCC diagnostic ignored "-Wpsabi"
typedef uint32_t bv_u32 __attribute__((vector_size(LANES * 4)));
typedef int32_t bv_s32 __attribute__((vector_size(LANES * 4)));
FEDP_DEFINE_LANE_ROUND32(batch, bv_u32, bv_s32)

static inline __attribute__((always_inline)) void
batch8_fmt(const tc_profile *p, tc_fmt in, tc_fmt in_b, tc_fmt out, size_t k,
           const uint32_t *a, const uint32_t *b, const uint32_t *c, uint32_t *d, uint32_t *redo)
{
    fedp_consts K;
    fedp_consts_for_ab(p, in, in_b, out, p->round, p->out_man_bits, p->F, &K);
    uint32_t P[TC_MAX_L][LANES], N[TC_MAX_L][LANES], bad[LANES], mc[LANES], nc[LANES];
    int32_t X[TC_MAX_L][LANES], E[LANES], ec[LANES];
    int64_t sum[LANES];
    for (size_t j = 0; j < LANES; j++) {
        bad[j] = 0;
        mc[j] = fedp_unpack(&K.acc, c[j], 0, 0, &ec[j], &nc[j], &bad[j]);
        E[j] = fedp_c_exp(&K, mc[j], ec[j]);
    }
    for (size_t i = 0; i < k; i++) {
        uint32_t ua[LANES], ub[LANES];
        for (size_t j = 0; j < LANES; j++) { /* transpose: case-major to lane-major */
            ua[j] = a[j * k + i];
            ub[j] = b[j * k + i];
        }
        for (size_t j = 0; j < LANES; j++) {
            int32_t ea, eb;
            uint32_t na, nb;
            uint32_t sa = fedp_unpack(&K.in, ua[j], (unsigned)K.H, K.prod_sh, &ea, &na, &bad[j]);
            uint32_t sb = fedp_unpack(&K.in_b, ub[j], 0, 0, &eb, &nb, &bad[j]);
            P[i][j] = fedp_mul(sa, ea, sb, eb, &X[i][j]);
            N[i][j] = fedp_mul_sign(na, nb);
            E[j] = fedp_emax(E[j], X[i][j]);
        }
    }
    for (size_t j = 0; j < LANES; j++)
        sum[j] = fedp_signed(fedp_align(mc[j] << K.HC, fedp_c_x(&K, ec[j]), E[j]), nc[j]);
    for (size_t i = 0; i < k; i++)
        for (size_t j = 0; j < LANES; j++)
            sum[j] += fedp_signed(fedp_align(P[i][j], X[i][j], E[j]), N[i][j]);
    /* narrow steps round the eight lanes at once, in 32-bit lanes; a lane left to the
     * general path rounds a zero sum at the floor there (its result is dropped; this
     * keeps its shifts in range). Wider sums round lane by lane: the 64-bit vector
     * round (its floor(log2) by halving, two registers a value) measured slower than
     * the scalar one, hopper fp16 k = 16 batch 19-26 M/s against 38 M/s. */
    bv_u32 r;
    if (K.narrow) {
        bv_s32 q, s32;
        for (size_t j = 0; j < LANES; j++) {
            q[j] = (bad[j] ? K.emin_align - K.prod_sh : E[j]) + K.prod_sh - K.F;
            s32[j] = bad[j] ? 0 : (int32_t)sum[j];
        }
        r = batch_round32(&K, s32, q, 0);
    } else {
        for (size_t j = 0; j < LANES; j++)
            r[j] = bad[j] ? 0u : fedp_round(&K, sum[j], E[j] + K.prod_sh - K.F, 0);
    }
    for (size_t j = 0; j < LANES; j++) {
        redo[j] = bad[j];
        if (!bad[j])
            d[j] = r[j];
    }
}

#define BATCH_CASE(IN, OUT)                                  \
    if (p->in == IN && p->in_b == IN && p->out == OUT)       \
        return batch8_fmt(p, IN, IN, OUT, k, a, b, c, d, redo);

#define BATCH_DISPATCH                         \
    BATCH_CASE(TC_FMT_FP16, TC_FMT_FP32)       \
    BATCH_CASE(TC_FMT_FP16, TC_FMT_FP16)       \
    BATCH_CASE(TC_FMT_BF16, TC_FMT_FP32)       \
    BATCH_CASE(TC_FMT_TF32, TC_FMT_FP32)       \
    batch8_fmt(p, p->in, p->in_b, p->out, k, a, b, c, d, redo);

/* The same kernel compiled twice: for AVX2 (variable per-lane shifts) and for the
 * x86-64 baseline; chosen once per batch call from the CPU's features. */
#if defined(__x86_64__) && (defined(__GNUC__) || defined(__clang__))
__attribute__((target("avx2"))) static void batch8_avx2(const tc_profile *p, size_t k,
    const uint32_t *a, const uint32_t *b, const uint32_t *c, uint32_t *d, uint32_t *redo)
{
    BATCH_DISPATCH
}
#define HAVE_BATCH8_AVX2 1
#endif

static void batch8_base(const tc_profile *p, size_t k, const uint32_t *a, const uint32_t *b,
                        const uint32_t *c, uint32_t *d, uint32_t *redo)
{
    BATCH_DISPATCH
}

/* Every FEDP row's terms fit the kernel's 32-bit lanes (fedp_step.h). */
static int batch8_fits(const tc_profile *p)
{
    return p->kind == TC_KIND_FEDP;
}

tc_status tc_dot_batch(const tc_profile *p, size_t n, size_t k, const uint32_t *a,
                       const uint32_t *b, const uint32_t *c, uint32_t *d, size_t *n_done)
{
    if (n_done)
        *n_done = 0;
    if (!p || !a || !b || !c || !d || k == 0)
        return TC_EINVAL;
    size_t j = 0;
    if (k <= p->L && batch8_fits(p)) {
        void (*kernel)(const tc_profile *, size_t, const uint32_t *, const uint32_t *,
                       const uint32_t *, uint32_t *, uint32_t *) = batch8_base;
#ifdef HAVE_BATCH8_AVX2
        if (__builtin_cpu_supports("avx2"))
            kernel = batch8_avx2;
#endif
        for (; j + LANES <= n; j += LANES) {
            uint32_t redo[LANES];
            kernel(p, k, a + j * k, b + j * k, c + j, d + j, redo);
            for (size_t l = 0; l < LANES; l++) {
                if (!redo[l])
                    continue;
                tc_status st = tc_dot(p, k, a + (j + l) * k, b + (j + l) * k, c[j + l],
                                      &d[j + l]);
                if (st != TC_OK) {
                    if (n_done)
                        *n_done = j + l;
                    return st;
                }
            }
            if (n_done)
                *n_done = j + LANES;
        }
    }
    for (; j < n; j++) {
        tc_status st = tc_dot(p, k, a + j * k, b + j * k, c[j], &d[j]);
        if (st != TC_OK)
            return st;
        if (n_done)
            *n_done = j + 1;
    }
    return TC_OK;
}
