/* gemm.c - D = A*B + C for whole matrices (tcsim_gemm.h): operands checked, then for the
 * FEDP kinds and the block-scaled ones (mxf8f6f4, mxf4) A and B unpacked once and tiles
 * of D (ROW_BLOCK rows by one panel of GEMM_LANES columns) spread over worker threads
 * through gemm_lanes.h's kernel; the integer kinds and the fp8 emulation row by row over
 * operands unpacked (arranged) once. A is read in p->in and B in p->in_b (the mixed
 * pairs: each operand decoded by its own format, and the kernels after the unpacking see
 * only values). Every element is computed alone, the same way whichever thread takes it:
 * the thread count changes no bit. */
#define _DEFAULT_SOURCE /* madvise */
#include <pthread.h>
#include <stdlib.h>
#include <sys/mman.h>
#include <unistd.h>
#include "tcsim.h"
#include "fmt_table.h"
#include "gemm_lanes.h"
#include "fedp_step.h"

static size_t packed_ld(tc_layout l, size_t rows, size_t cols)
{
    return l == TC_LAYOUT_ROW ? cols : rows;
}

static size_t at(tc_layout l, size_t ld, size_t r, size_t c)
{
    return l == TC_LAYOUT_ROW ? r * ld + c : c * ld + r;
}

/* The leading dimension a matrix of rows x cols is read with, 0 when it is invalid:
 * an unknown layout, an ld below the packed one, or an extent that overflows size_t. */
static size_t checked_ld(tc_layout l, size_t ld, size_t rows, size_t cols)
{
    if (l != TC_LAYOUT_ROW && l != TC_LAYOUT_COL)
        return 0;
    size_t packed = packed_ld(l, rows, cols), outer = l == TC_LAYOUT_ROW ? rows : cols;
    if (!ld)
        ld = packed;
    if (ld < packed || ld > SIZE_MAX / outer)
        return 0;
    return ld;
}

/* Every element of a rows x cols matrix fits format f. */
static int matrix_fits(tc_fmt f, const uint32_t *m, tc_layout l, size_t ld, size_t rows,
                       size_t cols)
{
    size_t outer = l == TC_LAYOUT_ROW ? rows : cols, inner = l == TC_LAYOUT_ROW ? cols : rows;
    for (size_t o = 0; o < outer; o++)
        if (!fmt_all_fit(f, inner, m + o * ld))
            return 0;
    return 1;
}

enum { ROW_BLOCK = 32 }; /* rows of D per panel task */

typedef struct gemm_job {
    const tc_profile *p;
    size_t M, N, K, ns; /* ns: scales per row of A (block-scaled kinds) */
    tc_matrix A, B, C, SA, SB;
    int has_c, scaled, grouped; /* grouped: mxf4 (scales per group of a step) */
    tc_matrix_out D;
    /* the panel kernel (FEDP, mxf8f6f4 and mxf4), NULL for the other kinds */
    gemm_panel_fn kernel;
    fedp_consts k;
    size_t nsteps, npanels, nblocks;
    gemm_ops a, b;      /* A unpacked: M x K row-major; B: per panel K x GEMM_LANES */
    uint8_t *abad;      /* M x nsteps */
    uint32_t *bbad;     /* per panel nsteps x GEMM_LANES */
    uint32_t *assig, *bssig; /* mxf4: scales unpacked, A's M x ns, B's per panel */
    int32_t *asexp, *bsexp;  /* ns x GEMM_LANES (gemm_panel_job says how) */
    int32_t fixed[256];      /* mxf4: group_table's */
    void *arena;        /* the memory of a, b, abad, bbad and the scales */
    uint32_t *bt;       /* integer kinds: B's values transposed, N x K */
    uint32_t *ea, *eb;  /* fp8 emulation: rows of A, columns of B arranged (ek each) */
    size_t ek;          /* K rounded up to the emulation's block */
    const tc_profile *sp; /* the emulation's fp16 step */
    size_t next;        /* the next task of the running phase, under `lock` */
    pthread_mutex_t lock;
    tc_status status;   /* the first error a worker met */
} gemm_job;

/* Takes the next of `count` tasks, or returns count when none is left (or an error
 * stopped the work). */
static size_t next_task(gemm_job *g, size_t count)
{
    pthread_mutex_lock(&g->lock);
    size_t t = g->status == TC_OK && g->next < count ? g->next++ : count;
    pthread_mutex_unlock(&g->lock);
    return t;
}

static void fail(gemm_job *g, tc_status st)
{
    pthread_mutex_lock(&g->lock);
    if (g->status == TC_OK)
        g->status = st;
    pthread_mutex_unlock(&g->lock);
}

/* ------------------------------------------------------------ integer kinds */

/* The integer kinds accumulate in s32 with wrap-around (dot_int.c): sums modulo 2^32,
 * whose order changes no bit. So a row of A, unpacked once, meets every column of B
 * (unpacked once, transposed, by tc_gemm) in a plain loop the compiler vectorises,
 * instead of one tc_dot per element. */
static void *int_worker(void *arg)
{
    gemm_job *g = arg;
    const tc_fmt_info *fi = &fmt_table[g->p->in];
    uint32_t *a = malloc(g->K * sizeof *a);
    if (!a)
        fail(g, TC_ENOMEM);
    for (size_t i; a && (i = next_task(g, g->M)) < g->M;) {
        for (size_t k = 0; k < g->K; k++)
            a[k] = (uint32_t)fmt_int_value(fi, g->A.data[at(g->A.layout, g->A.ld, i, k)]);
        for (size_t j = 0; j < g->N; j++) {
            const uint32_t *b = g->bt + j * g->K;
            uint32_t acc = g->has_c ? g->C.data[at(g->C.layout, g->C.ld, i, j)] : 0;
            if (g->p->kind == TC_KIND_POPC_XOR) /* b1: popcount(a XOR b), dot_int.c */
                for (size_t k = 0; k < g->K; k++)
                    acc += a[k] ^ b[k];
            else
                for (size_t k = 0; k < g->K; k++)
                    acc += a[k] * b[k];
            g->D.data[at(g->D.layout, g->D.ld, i, j)] = acc;
        }
    }
    free(a);
    return NULL;
}

/* B's values, transposed (N x K), for int_worker; TC_ENOMEM when there is no room. */
static tc_status int_unpack_b(gemm_job *g)
{
    const tc_fmt_info *fi = &fmt_table[g->p->in_b];
    if (g->N > SIZE_MAX / sizeof *g->bt / g->K || !(g->bt = malloc(g->N * g->K * sizeof *g->bt)))
        return TC_ENOMEM;
    for (size_t k = 0; k < g->K; k++)
        for (size_t j = 0; j < g->N; j++)
            g->bt[j * g->K + k] =
                (uint32_t)fmt_int_value(fi, g->B.data[at(g->B.layout, g->B.ld, k, j)]);
    return TC_OK;
}

/* ------------------------------------------------------------ fp8 emulation */

/* Every row of A and column of B arranged for the emulation's blocks once (converted to
 * fp16 from its own format, A's p->in and B's p->in_b, and reordered:
 * tc_fp8_emu_arrange_fmt), instead of once per element of D; TC_ENOMEM when there is
 * no room. */
static tc_status emu_arrange(gemm_job *g)
{
    g->ek = (g->K + TC_FP8_EMU_BLOCK - 1) / TC_FP8_EMU_BLOCK * TC_FP8_EMU_BLOCK;
    if (g->M > SIZE_MAX / 4 / g->ek || g->N > SIZE_MAX / 4 / g->ek)
        return TC_ENOMEM;
    uint32_t *w = malloc(g->K * sizeof *w);
    g->ea = malloc(g->M * g->ek * sizeof *g->ea);
    g->eb = malloc(g->N * g->ek * sizeof *g->eb);
    tc_status st = w && g->ea && g->eb ? tc_profile_step_of(g->p, &g->sp) : TC_ENOMEM;
    for (size_t i = 0; st == TC_OK && i < g->M; i++) {
        for (size_t k = 0; k < g->K; k++)
            w[k] = g->A.data[at(g->A.layout, g->A.ld, i, k)];
        st = tc_fp8_emu_arrange_fmt(g->p->in, g->K, w, g->ea + i * g->ek);
    }
    for (size_t j = 0; st == TC_OK && j < g->N; j++) {
        for (size_t k = 0; k < g->K; k++)
            w[k] = g->B.data[at(g->B.layout, g->B.ld, k, j)];
        st = tc_fp8_emu_arrange_fmt(g->p->in_b, g->K, w, g->eb + j * g->ek);
    }
    free(w);
    return st;
}

static void *emu_worker(void *arg)
{
    gemm_job *g = arg;
    for (size_t i; (i = next_task(g, g->M)) < g->M;) {
        for (size_t j = 0; j < g->N; j++) {
            uint32_t c = g->has_c ? g->C.data[at(g->C.layout, g->C.ld, i, j)] : 0, d;
            tc_status st = tc_fp8_emu_blocks(g->p, g->sp, g->ek / TC_FP8_EMU_BLOCK,
                                             g->ea + i * g->ek, g->eb + j * g->ek, c, &d,
                                             NULL, NULL);
            if (st != TC_OK) {
                fail(g, st);
                break;
            }
            g->D.data[at(g->D.layout, g->D.ld, i, j)] = d;
        }
    }
    return NULL;
}

/* ------------------------------------------------------------ panel kernel */

/* UNPACK of one operand element of format fi (fmt_unpack: the model's one decoder; A's
 * format is p->in, B's p->in_b, which differ in the mixed pairs) plus the scale
 * exponents of its step (and, for A, less the kernel's prod_sh), its significand moved
 * up by `up` (A: the kernel's H, as panel_step takes it); returns 1 for a special value
 * (Inf, NaN, a NaN scale), which the general path takes. mxf4's group stages take
 * fedp_group_fixed's integer alone, in *sig, from group_table (e2m1 has no special
 * value; its scales are apart). */
static int unpack_elem(const gemm_job *g, const tc_fmt_info *fi, uint32_t w, int scale_exp,
                       int scale_nan, unsigned up, uint32_t *sig, int32_t *exp, uint32_t *neg)
{
    if (g->grouped) {
        *sig = (uint32_t)g->fixed[w];
        return scale_nan;
    }
    int s, e;
    uint64_t m;
    tc_value_kind kd = fmt_unpack(fi, w, &s, &m, &e);
    int ok = kd == TC_VAL_FINITE && !scale_nan;
    *sig = ok ? (uint32_t)m << up : 0u;
    *exp = ok && m ? e + scale_exp : FEDP_ZERO_EXP;
    *neg = 0u - (uint32_t)s;
    return !ok;
}

/* mxf4: fedp_group_fixed's integer of every word of the input format (e2m1: 16 words,
 * all finite), exponents less emin; 0, or TC_EUNSUPPORTED for a format too wide. */
static tc_status group_table(gemm_job *g)
{
    const tc_fmt_info *fi = &fmt_table[g->p->in];
    if (fi->width > 8 || fi->nan_style != TC_NAN_NONE)
        return TC_EUNSUPPORTED;
    for (uint32_t w = 0; w < 1u << fi->width; w++) {
        int s, e;
        uint64_t m;
        fmt_unpack(fi, w, &s, &m, &e);
        g->fixed[w] = fedp_group_fixed((uint32_t)m, m ? e - g->k.gdown : FEDP_ZERO_EXP,
                                       0u - (uint32_t)s);
    }
    return TC_OK;
}

/* The exponent of a scale word and whether it is NaN (mxf8f6f4: one pair per step);
 * its significand in *sig if not NULL (0 for NaN). */
static int scale_exp_of(const gemm_job *g, const tc_matrix *m, size_t r, size_t c, int *nan,
                        uint32_t *sig)
{
    int s, e;
    uint64_t ms;
    *nan = fmt_unpack(&fmt_table[g->p->scale], m->data[at(m->layout, m->ld, r, c)], &s, &ms,
                      &e) == TC_VAL_NAN;
    if (sig)
        *sig = *nan ? 0u : (uint32_t)ms;
    return e;
}

/* mxf4: scales [t0, t1) of row i of A unpacked; 1 if one is NaN. */
static int unpack_a_scales(gemm_job *g, size_t i, size_t t0, size_t t1)
{
    int bad = 0, nan;
    for (size_t t = t0; t < t1; t++) {
        g->asexp[i * g->ns + t] = scale_exp_of(g, &g->SA, i, t, &nan, &g->assig[i * g->ns + t]);
        bad |= nan;
    }
    return bad;
}

static void unpack_a_row(gemm_job *g, size_t i)
{
    for (size_t s = 0; s < g->nsteps; s++) {
        size_t k0 = s * g->p->L, k1 = k0 + g->p->L < g->K ? k0 + g->p->L : g->K;
        int nan = 0, se = 0, bad = 0;
        if (g->grouped)
            bad = unpack_a_scales(g, i, k0 / g->p->scale_block, k1 / g->p->scale_block);
        else if (g->scaled)
            se = scale_exp_of(g, &g->SA, i, s, &nan, NULL);
        for (size_t k = k0; k < k1; k++)
            bad |= unpack_elem(g, &fmt_table[g->p->in],
                               g->A.data[at(g->A.layout, g->A.ld, i, k)], se - g->k.prod_sh,
                               nan, (unsigned)g->k.H, &g->a.sig[i * g->K + k],
                               &g->a.exp[i * g->K + k], &g->a.neg[i * g->K + k]);
        g->abad[i * g->nsteps + s] = (uint8_t)bad;
    }
}

/* Panel q of B: columns q * GEMM_LANES.., k-major; lanes past N hold zeros. k outer,
 * so that row-major B is read and the panel written in order. */
static void unpack_b_panel(gemm_job *g, size_t q)
{
    const size_t off = q * g->K * GEMM_LANES, j0 = q * GEMM_LANES, L = g->p->L;
    uint32_t *bad = g->bbad + q * g->nsteps * GEMM_LANES;
    int se[GEMM_LANES] = {0}, nan[GEMM_LANES] = {0};
    for (size_t i = 0; i < g->nsteps * GEMM_LANES; i++)
        bad[i] = 0;
    for (size_t k = 0; k < g->K; k++) {
        size_t s = k / L;
        /* the scales: mxf8f6f4's pair of each step; mxf4's of each scale block, kept
         * apart (lanes past N: zero), a NaN one marking the step */
        int step_scale = g->scaled && !g->grouped && k % L == 0;
        int group_scale = g->grouped && k % g->p->scale_block == 0;
        size_t y = group_scale ? (q * g->ns + k / g->p->scale_block) * GEMM_LANES : 0;
        for (size_t l = 0; l < GEMM_LANES; l++) {
            size_t j = j0 + l, x = off + k * GEMM_LANES + l;
            if (group_scale) {
                g->bssig[y + l] = 0;
                g->bsexp[y + l] = 0;
                if (j < g->N)
                    g->bsexp[y + l] = scale_exp_of(g, &g->SB, k / g->p->scale_block, j,
                                                   &nan[l], &g->bssig[y + l]);
                bad[s * GEMM_LANES + l] |= (uint32_t)nan[l];
                nan[l] = 0;
            } else if (step_scale && j < g->N) {
                se[l] = scale_exp_of(g, &g->SB, s, j, &nan[l], NULL);
            }
            uint32_t w = j < g->N ? g->B.data[at(g->B.layout, g->B.ld, k, j)] : 0u;
            bad[s * GEMM_LANES + l] |=
                (uint32_t)unpack_elem(g, &fmt_table[g->p->in_b], w, se[l], nan[l], 0,
                                      &g->b.sig[x], &g->b.exp[x], &g->b.neg[x]);
        }
    }
}

static void *unpack_worker(void *arg)
{
    gemm_job *g = arg;
    for (size_t t; (t = next_task(g, g->M + g->npanels)) < g->M + g->npanels;) {
        if (t < g->M)
            unpack_a_row(g, t);
        else
            unpack_b_panel(g, t - g->M);
    }
    return NULL;
}

/* The general path for one step of one element (a special value met): the step as
 * tc_dot (tc_dot_scaled) computes it on the words themselves. */
static uint32_t step_general(void *ctx, size_t i, size_t j, size_t s, uint32_t c)
{
    gemm_job *g = ctx;
    const tc_profile *p = g->p;
    uint32_t a[TC_MAX_L], b[TC_MAX_L], sa[TC_MAX_L / TC_MXF4_GROUP],
        sb[TC_MAX_L / TC_MXF4_GROUP], d = 0;
    size_t base = s * p->L, n = g->K - base < p->L ? g->K - base : p->L;
    for (size_t t = 0; t < n; t++) {
        a[t] = g->A.data[at(g->A.layout, g->A.ld, i, base + t)];
        b[t] = g->B.data[at(g->B.layout, g->B.ld, base + t, j)];
    }
    tc_status st;
    if (g->scaled) {
        /* the step's scales: one (mxf8f6f4, L = scale_block) or one per scale block
         * of the step (mxf4); n is a multiple of scale_block (K is) */
        size_t t0 = base / p->scale_block;
        for (size_t t = 0; t < n / p->scale_block; t++) {
            sa[t] = g->SA.data[at(g->SA.layout, g->SA.ld, i, t0 + t)];
            sb[t] = g->SB.data[at(g->SB.layout, g->SB.ld, t0 + t, j)];
        }
        st = tc_dot_scaled(p, n, a, b, sa, sb, c, &d);
    } else {
        st = tc_dot(p, n, a, b, c, &d);
    }
    if (st != TC_OK)
        fail(g, st); /* cannot happen: every word was checked */
    return d;
}

static void *panel_worker(void *arg)
{
    gemm_job *g = arg;
    uint32_t acc[ROW_BLOCK * GEMM_LANES];
    size_t count = g->nblocks * g->npanels;
    for (size_t t; (t = next_task(g, count)) < count;) {
        size_t q = t % g->npanels, i0 = t / g->npanels * ROW_BLOCK, j0 = q * GEMM_LANES;
        size_t rows = g->M - i0 < ROW_BLOCK ? g->M - i0 : ROW_BLOCK;
        size_t lanes = g->N - j0 < GEMM_LANES ? g->N - j0 : GEMM_LANES;
        for (size_t r = 0; r < rows; r++)
            for (size_t l = 0; l < GEMM_LANES; l++)
                acc[r * GEMM_LANES + l] = g->has_c && l < lanes
                    ? g->C.data[at(g->C.layout, g->C.ld, i0 + r, j0 + l)] : 0u;
        size_t boff = q * g->K * GEMM_LANES;
        gemm_panel_job job = {
            .k = &g->k, .K = g->K, .L = g->p->L, .nsteps = g->nsteps,
            .asig = g->a.sig + i0 * g->K, .aneg = g->a.neg + i0 * g->K,
            .aexp = g->a.exp + i0 * g->K, .abad = g->abad + i0 * g->nsteps,
            .bsig = g->b.sig + boff, .bneg = g->b.neg + boff, .bexp = g->b.exp + boff,
            .bbad = g->bbad + q * g->nsteps * GEMM_LANES,
            .grouped = g->grouped, .ns = g->ns, .scale_block = g->p->scale_block,
            .assig = g->assig + i0 * g->ns, .asexp = g->asexp + i0 * g->ns,
            .bssig = g->bssig + q * g->ns * GEMM_LANES,
            .bsexp = g->bsexp + q * g->ns * GEMM_LANES,
            .rows = rows, .lanes = lanes, .acc = acc,
            .fallback = step_general, .ctx = g, .i0 = i0, .j0 = j0};
        g->kernel(&job);
        for (size_t r = 0; r < rows; r++)
            for (size_t l = 0; l < lanes; l++)
                g->D.data[at(g->D.layout, g->D.ld, i0 + r, j0 + l)] = acc[r * GEMM_LANES + l];
    }
    return NULL;
}

/* ------------------------------------------------------------ threads */

static unsigned worker_count(unsigned asked, size_t tasks)
{
    long n = asked;
    if (!n) {
        n = sysconf(_SC_NPROCESSORS_ONLN);
        if (n < 1)
            n = 1;
    }
    return (unsigned)((size_t)n < tasks ? (size_t)n : tasks);
}

/* Runs fn on nt threads (the calling one included) until its tasks are done. Fewer
 * threads than asked only cost time: every task is taken by someone. */
static void run_phase(gemm_job *g, unsigned nt, void *(*fn)(void *))
{
    g->next = 0;
    pthread_t *tid = nt > 1 ? malloc(nt * sizeof *tid) : NULL;
    unsigned started = 0;
    if (tid)
        while (started + 1 < nt && !pthread_create(&tid[started], NULL, fn, g))
            started++;
    fn(g);
    for (unsigned t = 0; t < started; t++)
        pthread_join(tid[t], NULL);
    free(tid);
}

/* The panel kernel's buffers; 0, or TC_ENOMEM. */
static tc_status panel_alloc(gemm_job *g)
{
    size_t L = g->p->L;
    g->nsteps = (g->K + L - 1) / L;
    g->npanels = (g->N + GEMM_LANES - 1) / GEMM_LANES;
    g->nblocks = (g->M + ROW_BLOCK - 1) / ROW_BLOCK;
    size_t na = g->M * g->K, nb = g->npanels * GEMM_LANES * g->K;
    size_t gs = g->grouped ? g->ns : 0; /* ns <= K: the checks below bound it */
    size_t nsa = g->M * gs, nsb = g->npanels * GEMM_LANES * gs;
    if (g->M > SIZE_MAX / 64 / g->K || g->npanels * GEMM_LANES > SIZE_MAX / 64 / g->K)
        return TC_ENOMEM;
    /* one arena, 64-byte aligned parts; large ones asked for in huge pages: the arrays
     * are written once, and first-touch page faults were a tenth of a 512^3 GEMM's time */
    enum { PARTS = 12 };
    size_t part[PARTS] = {na * 4, na * 4, na * 4, nb * 4, nb * 4, nb * 4, g->M * g->nsteps,
                          g->npanels * g->nsteps * GEMM_LANES * 4, nsa * 4, nsa * 4,
                          nsb * 4, nsb * 4}, total = 0;
    for (int i = 0; i < PARTS; i++)
        total += (part[i] + 63) / 64 * 64;
    enum { HUGE = 2u << 20 };
    size_t align = total >= HUGE ? HUGE : 64;
    g->arena = aligned_alloc(align, (total + align - 1) / align * align);
    if (!g->arena)
        return TC_ENOMEM;
#ifdef MADV_HUGEPAGE
    if (align == HUGE)
        madvise(g->arena, (total + align - 1) / align * align, MADV_HUGEPAGE); /* a hint */
#endif
    void *at_[PARTS];
    char *q = g->arena;
    for (int i = 0; i < PARTS; i++) {
        at_[i] = q;
        q += (part[i] + 63) / 64 * 64;
    }
    g->a.sig = at_[0], g->a.exp = at_[1], g->a.neg = at_[2];
    g->b.sig = at_[3], g->b.exp = at_[4], g->b.neg = at_[5];
    g->abad = at_[6], g->bbad = at_[7];
    g->assig = at_[8], g->asexp = at_[9], g->bssig = at_[10], g->bsexp = at_[11];
    return TC_OK;
}

static void panel_free(gemm_job *g)
{
    free(g->arena);
}

int tc_gemm_simd_available(unsigned s)
{
    return tc_gemm_panel_kernel(s) != NULL;
}

/* A checked operand: ld resolved, every word within `f`. */
static tc_status operand(const tc_matrix *m, tc_fmt f, size_t rows, size_t cols, tc_matrix *out)
{
    if (!m || !m->data)
        return TC_EINVAL;
    size_t ld = checked_ld(m->layout, m->ld, rows, cols);
    if (!ld)
        return TC_EINVAL;
    if (!matrix_fits(f, m->data, m->layout, ld, rows, cols))
        return TC_EFORMAT;
    *out = (tc_matrix){m->data, m->layout, ld};
    return TC_OK;
}

tc_status tc_gemm(const tc_profile *p, size_t M, size_t N, size_t K, const tc_matrix *A,
                  const tc_matrix *B, const tc_matrix *C, const tc_matrix_out *D,
                  const tc_gemm_opts *opts)
{
    if (!p || !D || !D->data || !M || !N || !K)
        return TC_EINVAL;
    /* the exact integer kinds, b1 popcounts among them, share one path */
    int ints = p->kind == TC_KIND_INT || p->kind == TC_KIND_POPC_AND ||
               p->kind == TC_KIND_POPC_XOR;
    gemm_job g = {.p = p, .M = M, .N = N, .K = K, .has_c = C != NULL,
                  .scaled = p->kind == TC_KIND_MX || p->kind == TC_KIND_MXF4,
                  .grouped = p->kind == TC_KIND_MXF4};
    tc_status st;
    if ((st = operand(A, p->in, M, K, &g.A)) != TC_OK ||
        (st = operand(B, p->in_b, K, N, &g.B)) != TC_OK)
        return st;
    if (C && (st = operand(C, p->out, M, N, &g.C)) != TC_OK)
        return st;
    if (g.scaled) {
        if (!opts)
            return TC_EINVAL;
        if (K % p->scale_block)
            return TC_ESHAPE;
        g.ns = K / p->scale_block;
        if ((st = operand(&opts->scale_a, p->scale, M, g.ns, &g.SA)) != TC_OK ||
            (st = operand(&opts->scale_b, p->scale, g.ns, N, &g.SB)) != TC_OK)
            return st;
    }
    size_t ldd = checked_ld(D->layout, D->ld, M, N);
    if (!ldd || K > SIZE_MAX / 4 - g.ns)
        return TC_EINVAL;
    g.D = (tc_matrix_out){D->data, D->layout, ldd};
    unsigned simd = opts ? opts->simd : TC_SIMD_AUTO;
    gemm_panel_fn kernel = tc_gemm_panel_kernel(simd);
    if (!kernel)
        return TC_EUNSUPPORTED;
    if (pthread_mutex_init(&g.lock, NULL))
        return TC_ENOMEM;
    unsigned asked = opts ? opts->threads : 0;
    if (p->kind == TC_KIND_FEDP || p->kind == TC_KIND_MX || p->kind == TC_KIND_MXF4) {
        g.kernel = kernel;
        fedp_consts_for_ab(p, p->in, p->in_b, p->out, p->round, p->out_man_bits, p->F, &g.k);
        if (g.grouped) {
            fedp_group_consts_for(p, &g.k);
            g.status = group_table(&g);
        }
        if (g.status == TC_OK)
            g.status = panel_alloc(&g);
        if (g.status == TC_OK)
            run_phase(&g, worker_count(asked, M + g.npanels), unpack_worker);
        if (g.status == TC_OK)
            run_phase(&g, worker_count(asked, g.nblocks * g.npanels), panel_worker);
        panel_free(&g);
    } else if (p->kind == TC_KIND_FP8_EMU) {
        g.status = emu_arrange(&g);
        if (g.status == TC_OK)
            run_phase(&g, worker_count(asked, M), emu_worker);
        free(g.ea);
        free(g.eb);
    } else if (ints) {
        g.status = int_unpack_b(&g);
        if (g.status == TC_OK)
            run_phase(&g, worker_count(asked, M), int_worker);
        free(g.bt);
    } else {
        g.status = TC_EUNSUPPORTED; /* a kind this file does not know */
    }
    pthread_mutex_destroy(&g.lock);
    return g.status;
}
