/* gemm_f64.c - GEMMs and tiles of the fp64 form (tcsim_f64.h): every element of D the
 * FMA chain of its row of A and column of B, in k order, so that the result cannot
 * depend on how rows are spread over threads. Blocks of ROWS rows of D are the tasks;
 * each worker copies a column of B to a packed buffer once per block and column. */
#include <stdatomic.h>
#include <stdlib.h>
#include <pthread.h>
#include <unistd.h>
#include "tcsim.h"
#include "fma_f64.h"

enum { ROWS = 16 };  /* rows of D per task: a column of B is gathered once per ROWS dots */

typedef struct job {
    size_t M, N, K;
    tc_matrix64 A, B, C;   /* ld resolved; C.data NULL for c = +0 */
    int has_c;
    tc_matrix64_out D;
    atomic_size_t next;    /* the next block of rows to take */
    uint64_t *cols;        /* one K-element column buffer per worker */
    atomic_uint worker_id;
} job;

/* The packed leading dimension when ld is 0; 0 when ld is too small or sizes overflow. */
static size_t resolve_ld(unsigned layout, size_t ld, size_t rows, size_t cols)
{
    if (layout >= TC_LAYOUT_COUNT)
        return 0;
    size_t inner = layout == TC_LAYOUT_ROW ? cols : rows, outer = layout == TC_LAYOUT_ROW ? rows : cols;
    if (!ld)
        ld = inner;
    if (ld < inner || (outer > 1 && ld > (SIZE_MAX / sizeof(uint64_t) - inner) / (outer - 1)))
        return 0;
    return ld;
}

static size_t at(unsigned layout, size_t ld, size_t r, size_t c)
{
    return layout == TC_LAYOUT_ROW ? r * ld + c : c * ld + r;
}

static void *worker(void *arg)
{
    job *g = arg;
    uint64_t *col = g->cols + atomic_fetch_add(&g->worker_id, 1) * g->K;
    size_t nblocks = (g->M + ROWS - 1) / ROWS, blk;
    while ((blk = atomic_fetch_add(&g->next, 1)) < nblocks) {
        size_t i0 = blk * ROWS, i1 = i0 + ROWS < g->M ? i0 + ROWS : g->M;
        for (size_t j = 0; j < g->N; j++) {
            for (size_t k = 0; k < g->K; k++)
                col[k] = g->B.data[at(g->B.layout, g->B.ld, k, j)];
            for (size_t i = i0; i < i1; i++) {
                uint64_t acc = g->has_c ? g->C.data[at(g->C.layout, g->C.ld, i, j)] : 0;
                for (size_t k = 0; k < g->K; k++)
                    acc = tc_fma_f64(g->A.data[at(g->A.layout, g->A.ld, i, k)], col[k], acc);
                g->D.data[at(g->D.layout, g->D.ld, i, j)] = acc;
            }
        }
    }
    return NULL;
}

/* An input matrix with its ld resolved; 0 when it is missing or its shape is bad. */
static int operand(const tc_matrix64 *m, size_t rows, size_t cols, tc_matrix64 *out)
{
    if (!m || !m->data)
        return 0;
    size_t ld = resolve_ld(m->layout, m->ld, rows, cols);
    *out = (tc_matrix64){m->data, m->layout, ld};
    return ld != 0;
}

tc_status tc_gemm_f64(const tc_profile *p, size_t M, size_t N, size_t K,
                      const tc_matrix64 *A, const tc_matrix64 *B, const tc_matrix64 *C,
                      const tc_matrix64_out *D, const tc_gemm_opts *opts)
{
    if (!p || !D || !D->data || !M || !N || !K)
        return TC_EINVAL;
    if (p->kind != TC_KIND_FP64)
        return TC_EUNSUPPORTED;
    job g = {.M = M, .N = N, .K = K, .has_c = C != NULL};
    if (!operand(A, M, K, &g.A) || !operand(B, K, N, &g.B) || (C && !operand(C, M, N, &g.C)))
        return TC_EINVAL;
    size_t ldd = resolve_ld(D->layout, D->ld, M, N);
    if (!ldd)
        return TC_EINVAL;
    g.D = (tc_matrix64_out){D->data, D->layout, ldd};
    size_t nblocks = (M + ROWS - 1) / ROWS;
    long nt = opts && opts->threads ? (long)opts->threads : sysconf(_SC_NPROCESSORS_ONLN);
    if (nt < 1)
        nt = 1;
    if ((size_t)nt > nblocks)
        nt = (long)nblocks;
    if (K > SIZE_MAX / sizeof(uint64_t) / (size_t)nt)
        return TC_EINVAL;
    g.cols = malloc((size_t)nt * K * sizeof *g.cols);
    pthread_t *tid = nt > 1 ? malloc((size_t)(nt - 1) * sizeof *tid) : NULL;
    if (!g.cols || (nt > 1 && !tid)) {
        free(g.cols);
        free(tid);
        return TC_ENOMEM;
    }
    atomic_init(&g.next, 0);
    atomic_init(&g.worker_id, 0);
    /* a thread that cannot be started only costs time: the others take its blocks */
    long started = 0;
    while (started < nt - 1 && !pthread_create(&tid[started], NULL, worker, &g))
        started++;
    worker(&g);
    for (long t = 0; t < started; t++)
        pthread_join(tid[t], NULL);
    free(tid);
    free(g.cols);
    return TC_OK;
}

tc_status tc_mma_tile_f64(const tc_profile *p, size_t M, size_t N, size_t K,
                          const uint64_t *A, const uint64_t *B, const uint64_t *C,
                          uint64_t *D)
{
    if (!p || !A || !B || !C || !D || !M || !N || !K)
        return TC_EINVAL;
    tc_matrix64 a = {A, TC_LAYOUT_ROW, 0}, b = {B, TC_LAYOUT_ROW, 0}, c = {C, TC_LAYOUT_ROW, 0};
    tc_matrix64_out d = {D, TC_LAYOUT_ROW, 0};
    tc_gemm_opts o = {.threads = 1}; /* a simulator calls this per instruction */
    return tc_gemm_f64(p, M, N, K, &a, &b, &c, &d, &o);
}
