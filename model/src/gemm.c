/* gemm.c - D = A*B + C for whole matrices (tcsim_gemm.h): operands checked, then rows of
 * D spread over worker threads, each element one dot product in k order. */
#include <pthread.h>
#include <stdlib.h>
#include <unistd.h>
#include "tcsim.h"
#include "fmt_table.h"

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

typedef struct gemm_job {
    const tc_profile *p;
    size_t M, N, K, ns; /* ns: scales per row of A (block-scaled kinds) */
    tc_matrix A, B, C, SA, SB;
    int has_c, scaled;
    tc_matrix_out D;
    size_t next_row;    /* the next row of D to compute, under `lock` */
    pthread_mutex_t lock;
    tc_status status;   /* the first error a worker met (none expected: inputs checked) */
} gemm_job;

/* Row i of D: gathers row i of A and, per column, column j of B (and their scales). */
static tc_status gemm_row(gemm_job *g, size_t i, uint32_t *a, uint32_t *b, uint32_t *sa,
                          uint32_t *sb)
{
    for (size_t k = 0; k < g->K; k++)
        a[k] = g->A.data[at(g->A.layout, g->A.ld, i, k)];
    for (size_t s = 0; s < g->ns; s++)
        sa[s] = g->SA.data[at(g->SA.layout, g->SA.ld, i, s)];
    for (size_t j = 0; j < g->N; j++) {
        for (size_t k = 0; k < g->K; k++)
            b[k] = g->B.data[at(g->B.layout, g->B.ld, k, j)];
        for (size_t s = 0; s < g->ns; s++)
            sb[s] = g->SB.data[at(g->SB.layout, g->SB.ld, s, j)];
        uint32_t c = g->has_c ? g->C.data[at(g->C.layout, g->C.ld, i, j)] : 0, d;
        tc_status st = g->scaled ? tc_dot_scaled(g->p, g->K, a, b, sa, sb, c, &d)
                                 : tc_dot(g->p, g->K, a, b, c, &d);
        if (st != TC_OK)
            return st;
        g->D.data[at(g->D.layout, g->D.ld, i, j)] = d;
    }
    return TC_OK;
}

static void *gemm_worker(void *arg)
{
    gemm_job *g = arg;
    uint32_t *buf = malloc((2 * g->K + 2 * g->ns) * sizeof *buf);
    for (;;) {
        pthread_mutex_lock(&g->lock);
        size_t i = g->next_row;
        if (!buf && g->status == TC_OK)
            g->status = TC_ENOMEM;
        if (g->status == TC_OK && i < g->M)
            g->next_row++;
        else
            i = g->M;
        pthread_mutex_unlock(&g->lock);
        if (i >= g->M)
            break;
        tc_status st = gemm_row(g, i, buf, buf + g->K, buf + 2 * g->K, buf + 2 * g->K + g->ns);
        if (st != TC_OK) {
            pthread_mutex_lock(&g->lock);
            if (g->status == TC_OK)
                g->status = st;
            pthread_mutex_unlock(&g->lock);
        }
    }
    free(buf);
    return NULL;
}

static unsigned worker_count(unsigned asked, size_t rows)
{
    long n = asked;
    if (!n) {
        n = sysconf(_SC_NPROCESSORS_ONLN);
        if (n < 1)
            n = 1;
    }
    return (unsigned)((size_t)n < rows ? (size_t)n : rows);
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
    gemm_job g = {.p = p, .M = M, .N = N, .K = K, .has_c = C != NULL,
                  .scaled = p->kind == TC_KIND_MX || p->kind == TC_KIND_MXF4};
    tc_status st;
    if ((st = operand(A, p->in, M, K, &g.A)) != TC_OK || (st = operand(B, p->in, K, N, &g.B)) != TC_OK)
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
    unsigned nt = worker_count(opts ? opts->threads : 0, M);
    if (pthread_mutex_init(&g.lock, NULL))
        return TC_ENOMEM;
    pthread_t *tid = malloc(nt * sizeof *tid);
    unsigned started = 0;
    if (tid)
        while (started + 1 < nt && !pthread_create(&tid[started], NULL, gemm_worker, &g))
            started++;
    gemm_worker(&g); /* the calling thread works too */
    for (unsigned t = 0; t < started; t++)
        pthread_join(tid[t], NULL);
    free(tid);
    pthread_mutex_destroy(&g.lock);
    return g.status;
}
