/* tile.c - an M x N x K tile D = A*B + C: every element one dot product in k order. */
#include <stdlib.h>
#include "internal.h"

tc_status tc_mma_tile(const tc_profile *p, size_t M, size_t N, size_t K,
                      const uint32_t *A, const uint32_t *B, const uint32_t *C, uint32_t *D)
{
    if (!p || !A || !B || !C || !D || !M || !N || !K)
        return TC_EINVAL;
    if (p->kind == TC_KIND_MX || p->kind == TC_KIND_MXF4)
        return TC_EUNSUPPORTED; /* block-scaled tiles need scales: not in this call */
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
