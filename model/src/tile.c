/* tile.c - an M x N x K tile D = A*B + C (tcsim_tc.h), row-major and packed: one tc_gemm
 * on the calling thread (gemm_lanes.h's kernel for the FEDP kinds, every element the
 * dot product of its row and column in k order). A mixed-pair profile (a and b in two
 * formats) goes element by element through tc_dot: tc_gemm reads both operands in p->in
 * (issue 33 leaves the pairs in GEMM to come). */
#include <stdlib.h>
#include "tcsim.h"
#include "fmt_table.h"

/* The mixed pairs: every word checked first (a failed call changes nothing), then each
 * element the dot product of its row of A and column of B. */
static tc_status tile_by_dots(const tc_profile *p, size_t M, size_t N, size_t K,
                              const uint32_t *A, const uint32_t *B, const uint32_t *C,
                              uint32_t *D)
{
    if (!fmt_all_fit(p->in, M * K, A) || !fmt_all_fit(p->in_b, K * N, B) ||
        !fmt_all_fit(p->out, M * N, C))
        return TC_EFORMAT;
    uint32_t *col = malloc(K * sizeof *col);
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

tc_status tc_mma_tile(const tc_profile *p, size_t M, size_t N, size_t K,
                      const uint32_t *A, const uint32_t *B, const uint32_t *C, uint32_t *D)
{
    if (!p || !A || !B || !C || !D || !M || !N || !K)
        return TC_EINVAL;
    if (p->kind == TC_KIND_MX || p->kind == TC_KIND_MXF4)
        return TC_EUNSUPPORTED; /* block-scaled tiles need scales: not in this call */
    if (p->in_b != p->in)
        return tile_by_dots(p, M, N, K, A, B, C, D);
    /* tc_gemm checks every word before it writes D (a failed call changes nothing) */
    tc_matrix a = {A, TC_LAYOUT_ROW, 0}, b = {B, TC_LAYOUT_ROW, 0}, c = {C, TC_LAYOUT_ROW, 0};
    tc_matrix_out d = {D, TC_LAYOUT_ROW, 0};
    tc_gemm_opts o = {.threads = 1}; /* a simulator calls this per instruction */
    return tc_gemm(p, M, N, K, &a, &b, &c, &d, &o);
}
