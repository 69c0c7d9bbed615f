/* tile.c - an M x N x K tile D = A*B + C: every element one dot product in k order. */
#include <stdlib.h>
#include "tcsim.h"
#include "fmt_table.h"

/* A plain FEDP profile chains steps of L terms, each step's result the next one's c
 * (tc_dot_engine). The elements of a column are independent, so each step runs for the
 * whole column at once through tc_dot_batch: the same arithmetic, several cases a call. */
static tc_status column_steps(const tc_profile *p, size_t M, size_t N, size_t K, size_t j,
                              const uint32_t *A, const uint32_t *B, const uint32_t *C,
                              uint32_t *D, uint32_t *ab)
{
    uint32_t *a = ab, *b = a + M * p->L, *acc = b + M * p->L, *next = acc + M;
    for (size_t i = 0; i < M; i++)
        acc[i] = C[i * N + j];
    for (size_t base = 0; base < K; base += p->L) {
        size_t n = K - base < p->L ? K - base : p->L;
        for (size_t i = 0; i < M; i++)
            for (size_t t = 0; t < n; t++) {
                a[i * n + t] = A[i * K + base + t];
                b[i * n + t] = B[(base + t) * N + j];
            }
        tc_status st = tc_dot_batch(p, M, n, a, b, acc, next, NULL);
        if (st != TC_OK)
            return st;
        uint32_t *t = acc;
        acc = next;
        next = t;
    }
    for (size_t i = 0; i < M; i++)
        D[i * N + j] = acc[i];
    return TC_OK;
}

tc_status tc_mma_tile(const tc_profile *p, size_t M, size_t N, size_t K,
                      const uint32_t *A, const uint32_t *B, const uint32_t *C, uint32_t *D)
{
    if (!p || !A || !B || !C || !D || !M || !N || !K)
        return TC_EINVAL;
    if (p->kind == TC_KIND_MX || p->kind == TC_KIND_MXF4)
        return TC_EUNSUPPORTED; /* block-scaled tiles need scales: not in this call */
    /* Every word before any arithmetic: D is written column by column, and a bad word
     * found in a late column would leave the earlier ones written (a failed call
     * changes nothing, tcsim.h). */
    if (!fmt_all_fit(p->in, M * K, A) || !fmt_all_fit(p->in, K * N, B) ||
        !fmt_all_fit(p->out, M * N, C))
        return TC_EFORMAT;
    if (p->kind == TC_KIND_FEDP) {
        /* a, b of one step for a column, then its accumulators in and out */
        uint32_t *ab = malloc((2 * p->L + 2) * M * sizeof *ab);
        if (!ab)
            return TC_ENOMEM;
        tc_status st = TC_OK;
        for (size_t j = 0; j < N && st == TC_OK; j++)
            st = column_steps(p, M, N, K, j, A, B, C, D, ab);
        free(ab);
        return st;
    }
    uint32_t *col = malloc(K * sizeof *col); /* one column of B, contiguous */
    if (!col)
        return TC_ENOMEM;
    tc_status st = TC_OK;
    for (size_t j = 0; j < N && st == TC_OK; j++) {
        for (size_t k = 0; k < K; k++)
            col[k] = B[k * N + j];
        for (size_t i = 0; i < M && st == TC_OK; i++)
            st = tc_dot(p, K, A + i * K, col, C[i * N + j], &D[i * N + j]);
    }
    free(col);
    return st;
}
