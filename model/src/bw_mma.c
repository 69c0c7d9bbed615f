/* bw_mma.c - Blackwell tcgen05.mma over tensor memory (tcsim_bw.h): where each operand
 * comes from and where D goes. The arithmetic is not here: D is one tc_gemm call in the
 * kind's tcgen05 profile (each element exactly tc_dot / tc_dot_scaled); this file only
 * moves bits between the tensor-memory model, shared-memory rows and that call. */
#include <stdlib.h>
#include <string.h>
#include "tcsim.h"
#include "tmem_ctl.h"

/* ------------------------------------------------------------- kinds */

typedef struct kind_info {
    const char *name;
    unsigned K, W;          /* elements per instruction, container bits */
    uint32_t in_fmts;       /* bit f: tc_fmt f allowed for A and B */
    uint32_t out_fmts;      /* bit f: tc_fmt f allowed for D */
    const char *scaled;     /* block-scaled: the profile's kind name, else NULL */
    int pairs;              /* 1: A and B may each take any of in_fmts (PTX's A and B
                               types); 0: one format for both */
} kind_info;

#define BIT(f) (1u << (f))
#define FP8F6F4 (BIT(TC_FMT_E4M3) | BIT(TC_FMT_E5M2) | BIT(TC_FMT_E3M2) | \
                 BIT(TC_FMT_E2M3) | BIT(TC_FMT_E2M1))

static const kind_info kinds[TC_BW_KIND_COUNT] = {
    [TC_BW_F16] = {"f16", 16, 16, BIT(TC_FMT_FP16) | BIT(TC_FMT_BF16),
                   BIT(TC_FMT_FP32) | BIT(TC_FMT_FP16), NULL, 0},
    [TC_BW_TF32] = {"tf32", 8, 32, BIT(TC_FMT_TF32), BIT(TC_FMT_FP32), NULL, 0},
    [TC_BW_F8F6F4] = {"f8f6f4", 32, 8, FP8F6F4, BIT(TC_FMT_FP32) | BIT(TC_FMT_FP16), NULL, 1},
    [TC_BW_I8] = {"i8", 32, 8, BIT(TC_FMT_INT8) | BIT(TC_FMT_UINT8), BIT(TC_FMT_S32), NULL, 1},
    [TC_BW_MXF8F6F4] = {"mxf8f6f4", 32, 8, FP8F6F4, BIT(TC_FMT_FP32), "mxf8f6f4", 1},
    [TC_BW_MXF4] = {"mxf4", 64, 4, BIT(TC_FMT_E2M1), BIT(TC_FMT_FP32), "mxf4", 0},
    [TC_BW_MXF4NVF4] = {"mxf4nvf4", 64, 4, BIT(TC_FMT_E2M1), BIT(TC_FMT_FP32), "mxf4nvf4", 0},
};

const char *tc_bw_kind_name(tc_bw_kind k)
{
    return (unsigned)k < TC_BW_KIND_COUNT ? kinds[k].name : NULL;
}

tc_status tc_bw_kind_parse(const char *name, tc_bw_kind *out)
{
    for (unsigned k = 0; name && out && k < TC_BW_KIND_COUNT; k++)
        if (!strcmp(name, kinds[k].name)) {
            *out = (tc_bw_kind)k;
            return TC_OK;
        }
    return TC_EINVAL;
}

tc_status tc_bw_kind_dims(tc_bw_kind k, unsigned *K, unsigned *W)
{
    if ((unsigned)k >= TC_BW_KIND_COUNT)
        return TC_EINVAL;
    if (K)
        *K = kinds[k].K;
    if (W)
        *W = kinds[k].W;
    return TC_OK;
}

tc_status tc_bw_profile_ab(tc_bw_kind k, tc_fmt in_a, tc_fmt in_b, tc_fmt out, tc_fmt scale,
                           const tc_profile **out_profile)
{
    if ((unsigned)k >= TC_BW_KIND_COUNT || !out_profile)
        return TC_EINVAL;
    const kind_info *ki = &kinds[k];
    if ((unsigned)in_a >= TC_FMT_COUNT || (unsigned)in_b >= TC_FMT_COUNT ||
        (unsigned)out >= TC_FMT_COUNT || !(ki->in_fmts & BIT(in_a)) ||
        !(ki->in_fmts & BIT(in_b)) || (in_a != in_b && !ki->pairs) ||
        !(ki->out_fmts & BIT(out)))
        return TC_EUNSUPPORTED;
    if (!ki->scaled)
        return tc_profile_find_ab(TC_ARCH_BLACKWELL, TC_INSTR_TCGEN05, in_a, in_b, out,
                                  out_profile);
    /* mxf8f6f4 and mxf4 scale with ue8m0 only; mxf4nvf4 with ue8m0 or ue4m3 (per 16) */
    if (scale != TC_FMT_UE8M0 && !(k == TC_BW_MXF4NVF4 && scale == TC_FMT_UE4M3))
        return TC_EUNSUPPORTED;
    return tc_profile_find_scaled_ab(TC_ARCH_BLACKWELL, TC_INSTR_TCGEN05, ki->scaled, in_a,
                                     in_b, scale, 0, out_profile);
}

tc_status tc_bw_profile(tc_bw_kind k, tc_fmt in, tc_fmt out, tc_fmt scale,
                        const tc_profile **out_profile)
{
    return tc_bw_profile_ab(k, in, in, out, scale, out_profile);
}

tc_fmt tc_bw_mma_in_b(const tc_bw_mma_desc *d)
{
    return d->in_b == TC_FMT_FP32 ? d->in : d->in_b; /* 0: "as A" (tcsim_bw.h) */
}

/* ------------------------------------------------------------- rows and lanes */

uint32_t tc_bw_row_get(const uint32_t row[TC_BW_ROW_WORDS], unsigned W, unsigned e)
{
    unsigned bit = e * W;
    uint32_t mask = W >= 32 ? 0xffffffffu : (1u << W) - 1u;
    return (row[bit / 32] >> (bit % 32)) & mask;
}

void tc_bw_row_set(uint32_t row[TC_BW_ROW_WORDS], unsigned W, unsigned e, uint32_t v)
{
    unsigned bit = e * W;
    uint32_t mask = W >= 32 ? 0xffffffffu : (1u << W) - 1u;
    row[bit / 32] = (row[bit / 32] & ~(mask << (bit % 32))) | ((v & mask) << (bit % 32));
}

unsigned tc_bw_lane_of_row(unsigned M, unsigned i)
{
    if (M == 128 && i < 128)
        return i;
    if (M == 64 && i < 64) /* 16 rows in each 32-lane group: every sub-core array busy */
        return i / 16 * TC_TMEM_GROUP_LANES + i % 16;
    return TC_TMEM_LANES;
}

/* ------------------------------------------------------------- the instruction */

#define WIDE TC_TMEM_WIDE_WORDS
#define COLS TC_TMEM_COLS

static int shape_ok(unsigned M, unsigned N)
{
    return (M == 64 || M == 128) && N >= 8 && N <= TC_BW_MAX_N && N % 8 == 0;
}

/* Element bit patterns of one 256-bit row, after checking the container holds nothing
 * above the format's width (fp6 and fp4 in 8-bit containers). */
static tc_status unpack_row(const uint32_t *row, unsigned W, unsigned K, unsigned width,
                            uint32_t *el)
{
    for (unsigned e = 0; e < K; e++) {
        el[e] = tc_bw_row_get(row, W, e);
        if (width < 32 && (el[e] >> width))
            return TC_EFORMAT;
    }
    return TC_OK;
}

/* Word `lane` of column `col` through the A-read port: one request for the window of
 * 8 columns at col, whose slot 0 is col. */
static tc_status read_window(tc_tmem *t, unsigned col, uint32_t *wide, uint64_t *tmem_cycles)
{
    unsigned cyc = 0;
    tc_status st = tc_tmem_mma_a(t, col % COLS, wide, &cyc);
    *tmem_cycles += cyc;
    return st;
}

typedef struct mma_work {
    uint32_t a[TC_TMEM_LANES][TC_BW_MAX_K];   /* A elements by row */
    uint32_t b[TC_BW_MAX_N][TC_BW_MAX_K];     /* B elements by column */
    uint32_t sa[TC_TMEM_LANES][4], sb[TC_BW_MAX_N][4]; /* scale factors per K-block */
    uint32_t d[TC_TMEM_LANES][TC_BW_MAX_N];   /* C in, D out */
    uint32_t wide[WIDE];
    tmem_ctl saved;                           /* the tensor memory's, at the start */
} mma_work;

static int lane_disabled(const uint32_t dis[TC_TMEM_LANES / 32], unsigned lane)
{
    return (dis[lane / 32] >> (lane % 32)) & 1u;
}

static tc_status mma_run(tc_tmem *t, const tc_bw_mma_desc *d, const tc_profile *p,
                         mma_work *w, tc_bw_cost *cost)
{
    const kind_info *ki = &kinds[d->kind];
    const unsigned K = ki->K, W = ki->W, M = d->M, N = d->N;
    /* each operand's own width: a pair's narrower side has fewer bits in its container */
    const unsigned a_w = tc_fmt_get(p->in)->width, b_w = tc_fmt_get(p->in_b)->width;
    const uint32_t out_mask = tc_fmt_get(d->out)->width >= 32
                                  ? 0xffffffffu : (1u << tc_fmt_get(d->out)->width) - 1u;
    uint64_t tmem_cycles = 0, smem_rows = 0;
    tc_status st;

    /* A: one read of the 8-column window, or M rows of shared memory */
    if (d->a_tmem && (st = read_window(t, d->a_col, w->wide, &tmem_cycles)) != TC_OK)
        return st;
    for (unsigned i = 0; i < M; i++) {
        uint32_t row[TC_BW_ROW_WORDS];
        unsigned lane = tc_bw_lane_of_row(M, i);
        for (unsigned k = 0; k < TC_BW_ROW_WORDS; k++)
            row[k] = d->a_tmem ? w->wide[k * TC_TMEM_LANES + lane]
                               : d->a_smem.words[i * d->a_smem.row_stride + k];
        if (!lane_disabled(d->disable, lane) &&
            (st = unpack_row(row, W, K, a_w, w->a[i])) != TC_OK)
            return st;
    }
    if (!d->a_tmem)
        smem_rows += M;
    /* B: N rows of shared memory */
    for (unsigned j = 0; j < N; j++)
        if ((st = unpack_row(d->b_smem.words + j * d->b_smem.row_stride, W, K, b_w,
                             w->b[j])) != TC_OK)
            return st;
    smem_rows += N;
    /* scale factors: byte g is K-block g's (tcsim_bw.h) */
    unsigned nblk = 0;
    if (ki->scaled) {
        nblk = K / p->scale_block;
        if ((st = read_window(t, d->sfa_col, w->wide, &tmem_cycles)) != TC_OK)
            return st;
        for (unsigned i = 0; i < M; i++)
            for (unsigned g = 0; g < nblk; g++)
                w->sa[i][g] = (w->wide[tc_bw_lane_of_row(M, i)] >> (8 * g)) & 0xffu;
        if ((st = read_window(t, d->sfb_col, w->wide, &tmem_cycles)) != TC_OK)
            return st;
        for (unsigned j = 0; j < N; j++)
            for (unsigned g = 0; g < nblk; g++)
                /* slot j / 128, lane j % 128: word [slot * 128 + lane] = [j] */
                w->sb[j][g] = (w->wide[j] >> (8 * g)) & 0xffu;
    }
    /* C: the D columns, 8 at a time, when the instruction accumulates */
    for (unsigned j0 = 0; j0 < N; j0 += TC_TMEM_SLICE) {
        if (d->enable_input_d && (st = read_window(t, d->d_col + j0, w->wide,
                                                   &tmem_cycles)) != TC_OK)
            return st;
        for (unsigned i = 0; i < M; i++)
            for (unsigned k = 0; k < TC_TMEM_SLICE; k++)
                w->d[i][j0 + k] = d->enable_input_d
                    ? w->wide[k * TC_TMEM_LANES + tc_bw_lane_of_row(M, i)] & out_mask : 0;
    }
    /* the arithmetic: tc_gemm on the unpacked operands (one dot product per element of
     * D, in k order); a disabled lane's row is computed on zeros and not written back */
    for (unsigned i = 0; i < M; i++)
        if (lane_disabled(d->disable, tc_bw_lane_of_row(M, i)))
            memset(w->a[i], 0, sizeof w->a[i]);
    tc_matrix A = {&w->a[0][0], TC_LAYOUT_ROW, TC_BW_MAX_K};
    tc_matrix B = {&w->b[0][0], TC_LAYOUT_COL, TC_BW_MAX_K}; /* K x N: column j is b[j] */
    tc_matrix C = {&w->d[0][0], TC_LAYOUT_ROW, TC_BW_MAX_N};
    tc_matrix_out D = {&w->d[0][0], TC_LAYOUT_ROW, TC_BW_MAX_N}; /* in place: tc_gemm reads
                                                                 * each c before its d */
    tc_gemm_opts go = {.threads = 1};
    if (ki->scaled) {
        go.scale_a = (tc_matrix){&w->sa[0][0], TC_LAYOUT_ROW, 4};
        go.scale_b = (tc_matrix){&w->sb[0][0], TC_LAYOUT_COL, 4};
    }
    if ((st = tc_gemm(p, M, N, K, &A, &B, &C, &D, &go)) != TC_OK)
        return st;
    /* D: 8 columns a request, disabled lanes and lanes outside the M rows kept */
    uint32_t dis[TC_TMEM_LANES / 32];
    for (unsigned l = 0; l < TC_TMEM_LANES / 32; l++)
        dis[l] = 0xffffffffu;
    for (unsigned i = 0; i < M; i++) {
        unsigned lane = tc_bw_lane_of_row(M, i);
        if (!lane_disabled(d->disable, lane))
            dis[lane / 32] &= ~(1u << (lane % 32));
    }
    memset(w->wide, 0, sizeof w->wide);
    for (unsigned j0 = 0; j0 < N; j0 += TC_TMEM_SLICE) {
        for (unsigned i = 0; i < M; i++)
            for (unsigned k = 0; k < TC_TMEM_SLICE; k++)
                w->wide[k * TC_TMEM_LANES + tc_bw_lane_of_row(M, i)] = w->d[i][j0 + k];
        unsigned cyc = 0;
        if ((st = tc_tmem_mma_d(t, (d->d_col + j0) % COLS, w->wide, dis, &cyc)) != TC_OK)
            return st;
        tmem_cycles += cyc;
    }
    return cost ? tc_bw_mma_cost(M, N, smem_rows, tmem_cycles, cost) : TC_OK;
}

tc_status tc_bw_mma(tc_tmem *t, const tc_bw_mma_desc *d, tc_bw_cost *cost)
{
    if (!t || !d || (unsigned)d->kind >= TC_BW_KIND_COUNT)
        return TC_EINVAL;
    if (!shape_ok(d->M, d->N))
        return TC_ESHAPE;
    if (d->d_col >= COLS || d->a_col >= COLS || d->sfa_col >= COLS || d->sfb_col >= COLS ||
        !d->b_smem.words || d->b_smem.row_stride < TC_BW_ROW_WORDS ||
        (!d->a_tmem && (!d->a_smem.words || d->a_smem.row_stride < TC_BW_ROW_WORDS)))
        return TC_EINVAL;
    const tc_profile *p;
    tc_status st = tc_bw_profile_ab(d->kind, d->in, tc_bw_mma_in_b(d), d->out, d->scale, &p);
    if (st != TC_OK)
        return st;
    mma_work *w = malloc(sizeof *w);
    if (!w)
        return TC_ENOMEM;
    /* The operand reads run the tensor memory's clock before a bad word can be met:
     * a failed instruction puts its control registers back (a failed call changes
     * nothing). */
    tc_tmem_ctl_get(t, &w->saved);
    st = mma_run(t, d, p, w, cost);
    if (st != TC_OK)
        tc_tmem_ctl_set(t, &w->saved);
    free(w);
    return st;
}
