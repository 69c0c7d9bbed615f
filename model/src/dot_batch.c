/* dot_batch.c - tc_dot_batch: n independent dot products, eight cases of one FEDP step
 * side by side in vector lanes (split out of fedp.c, whose step it repeats lane by lane;
 * a lane that meets a special value or a bad width is redone by tc_dot). */
#include "tcsim.h"
#include "fmt_table.h"
#include "round.h"

/* Eight cases of one FEDP step side by side (lane j = case j), so that the compiler can
 * run the unpack, multiply, align and sum of a term for all lanes in vector registers.
 * The arithmetic is fedp_fast_fmt's, lane by lane; a lane that meets a special value
 * or a bad width is redone by the general path. Products stay below 2^22 (at most 11
 * significand bits a side), so 32-bit lanes hold them. */
enum { LANES = 8 };

static inline __attribute__((always_inline)) void
batch8_fmt(const tc_profile *p, const tc_fmt_info *fi, const tc_fmt_info *fo, size_t k,
           const uint32_t *a, const uint32_t *b, const uint32_t *c, uint32_t *d,
           uint32_t *redo)
{
    enum { EMPTY = -1000000 };
    const unsigned MB = fi->man_bits, EM = (1u << fi->exp_bits) - 1u, IGN = fi->ignore_low;
    const unsigned MC = fo->man_bits, EMC = (1u << fo->exp_bits) - 1u;
    const int F = (int)p->F, pfb = 2 * (int)MB, H = F > pfb ? F - pfb : 0;
    const int HC = F > (int)MC ? F - (int)MC : 0;
    const uint32_t wide = fi->width >= 32 ? 0u : ~((1u << fi->width) - 1u);
    const uint32_t cwide = fo->width >= 32 ? 0u : ~((1u << fo->width) - 1u);
    uint32_t P[TC_MAX_L][LANES], S[TC_MAX_L][LANES];
    int32_t X[TC_MAX_L][LANES], E[LANES];
    uint32_t bad[LANES];
    int64_t sum[LANES];
    for (size_t j = 0; j < LANES; j++) {
        E[j] = EMPTY;
        bad[j] = 0;
        sum[j] = 0;
    }
    for (size_t i = 0; i < k; i++) {
        uint32_t ua[LANES], ub[LANES];
        for (size_t j = 0; j < LANES; j++) { /* transpose: case-major to lane-major */
            ua[j] = a[j * k + i];
            ub[j] = b[j * k + i];
        }
        for (size_t j = 0; j < LANES; j++) {
            uint32_t va = ua[j] >> IGN, vb = ub[j] >> IGN;
            uint32_t efa = (va >> MB) & EM, efb = (vb >> MB) & EM;
            bad[j] |= ((ua[j] | ub[j]) & wide) |
                      (uint32_t)(fi->nan_style != TC_NAN_NONE && (efa == EM || efb == EM));
            uint32_t ma = (va & ((1u << MB) - 1u)) | ((uint32_t)(efa != 0) << MB);
            uint32_t mb = (vb & ((1u << MB) - 1u)) | ((uint32_t)(efb != 0) << MB);
            int32_t e = (int32_t)(efa + efb + (efa == 0) + (efb == 0)) - 2 * fi->bias;
            P[i][j] = ma * mb;
            X[i][j] = e;
            S[i][j] = ((va ^ vb) >> (fi->exp_bits + MB)) & (uint32_t)fi->is_signed;
            E[j] = (P[i][j] != 0 && e > E[j]) ? e : E[j];
        }
    }
    uint64_t mc[LANES];
    int32_t ec[LANES];
    uint32_t sc[LANES];
    for (size_t j = 0; j < LANES; j++) {
        uint32_t efc = (c[j] >> MC) & EMC;
        bad[j] |= (c[j] & cwide) | (uint32_t)(efc == EMC);
        mc[j] = (c[j] & ((1u << MC) - 1u)) | ((uint32_t)(efc != 0) << MC);
        ec[j] = (int32_t)(efc + (efc == 0)) - fo->bias;
        sc[j] = (c[j] >> (fo->exp_bits + MC)) & 1u;
        E[j] = (mc[j] != 0 && ec[j] > E[j]) ? ec[j] : E[j];
        E[j] = E[j] < p->emin_align ? p->emin_align : E[j];
    }
    for (size_t i = 0; i < k; i++) {
        for (size_t j = 0; j < LANES; j++) {
            int32_t sh = (E[j] - X[i][j]) + pfb + H - F;
            sh = sh < 0 ? 0 : sh > 63 ? 63 : sh; /* as in align_trunc */
            int64_t t = (int64_t)(((uint64_t)P[i][j] << H) >> sh);
            sum[j] += S[i][j] ? -t : t;
        }
    }
    round_target rt = {p->out, p->out_man_bits, p->round, p->zero_plus};
    for (size_t j = 0; j < LANES; j++) {
        int32_t sh = (E[j] - ec[j]) + (int)MC + HC - F;
        sh = sh < 0 ? 0 : sh > 63 ? 63 : sh;
        int64_t t = (int64_t)((mc[j] << HC) >> sh);
        int64_t s = sum[j] + (sc[j] ? -t : t);
        redo[j] = bad[j];
        if (bad[j])
            continue;
        /* E == EMPTY floored: every term zero, s == 0: +0 as in step 7 */
        d[j] = s == 0 ? fmt_zero(p->out, 0)
                      : round_pack(&rt, s < 0, s < 0 ? (uint64_t)-s : (uint64_t)s, E[j] - F,
                                   NULL);
    }
}

#define BATCH_CASE(IN, OUT)           \
    if (p->in == IN && p->out == OUT) \
        return batch8_fmt(p, &fmt_table[IN], &fmt_table[OUT], k, a, b, c, d, redo);

#define BATCH_DISPATCH                         \
    BATCH_CASE(TC_FMT_FP16, TC_FMT_FP32)       \
    BATCH_CASE(TC_FMT_FP16, TC_FMT_FP16)       \
    BATCH_CASE(TC_FMT_BF16, TC_FMT_FP32)       \
    BATCH_CASE(TC_FMT_TF32, TC_FMT_FP32)       \
    batch8_fmt(p, &fmt_table[p->in], &fmt_table[p->out], k, a, b, c, d, redo);

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

/* Formats whose products fit the kernel's 32-bit lanes (<= 11 significand bits). */
static int batch8_fits(const tc_profile *p)
{
    return p->kind == TC_KIND_FEDP && tc_fmt_get(p->in)->man_bits <= 10;
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
