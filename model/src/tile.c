/* tile.c - an M x N x K tile D = A*B + C (tcsim_tc.h), row-major and packed: one tc_gemm
 * on the calling thread (gemm_lanes.h's kernel for the FEDP kinds, every element the
 * dot product of its row and column in k order). */
#include "tcsim.h"

tc_status tc_mma_tile(const tc_profile *p, size_t M, size_t N, size_t K,
                      const uint32_t *A, const uint32_t *B, const uint32_t *C, uint32_t *D)
{
    if (!p || !A || !B || !C || !D || !M || !N || !K)
        return TC_EINVAL;
    if (p->kind == TC_KIND_MX || p->kind == TC_KIND_MXF4)
        return TC_EUNSUPPORTED; /* block-scaled tiles need scales: not in this call */
    /* tc_gemm checks every word before it writes D (a failed call changes nothing) */
    tc_matrix a = {A, TC_LAYOUT_ROW, 0}, b = {B, TC_LAYOUT_ROW, 0}, c = {C, TC_LAYOUT_ROW, 0};
    tc_matrix_out d = {D, TC_LAYOUT_ROW, 0};
    tc_gemm_opts o = {.threads = 1}; /* a simulator calls this per instruction */
    return tc_gemm(p, M, N, K, &a, &b, &c, &d, &o);
}
