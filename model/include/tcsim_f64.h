/*
 * tcsim_f64.h - the fp64 form (DMMA: mma.m8n8k4.f64 from sm_80, m16n8k4/k8/k16 .f64
 * from sm_90): dot products, tiles and GEMMs of IEEE binary64 bit patterns.
 *
 * Included by tcsim.h. An fp64 pattern is 64 bits wide, so it cannot travel in the
 * uint32_t words of the rest of the API: every uint32_t function refuses TC_FMT_FP64
 * and the TC_KIND_FP64 profiles with TC_EFORMAT (tc_decode, tc_convert_*, tc_dot,
 * tc_dot_batch, tc_mma_tile, tc_gemm, ...), and these functions take uint64_t instead.
 *
 * The arithmetic (docs/contract.md, "Forms beyond one input format"): d = c, then for
 * k = 0, 1, ... in order d = fma(a_k, b_k, d), each one IEEE 754 binary64 fused
 * multiply-add rounded to nearest even, with IEEE's special values; a NaN result is
 * 0x7fffffffffffffff whatever the NaNs that made it. A k beyond the instruction's 4, 8
 * or 16 goes on chaining. Every uint64_t is a valid binary64 pattern: no TC_EFORMAT.
 */
/* A part of tcsim.h: included on its own, it brings in tcsim.h, which includes it
 * back in its place (its declarations need tcsim.h's types). */
#ifndef TCSIM_H
#include "tcsim.h"
#else
#ifndef TCSIM_F64_H
#define TCSIM_F64_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* The canonical NaN of an fp64 result. */
#define TC_F64_NAN UINT64_C(0x7fffffffffffffff)

/* d = fma chain of c and the k products a[i]*b[i], i = 0..k-1 in order. TC_EINVAL for
 * a NULL pointer or k = 0; TC_EUNSUPPORTED for a profile that is not TC_KIND_FP64. */
tc_status tc_dot_f64(const tc_profile *p, size_t k, const uint64_t *a, const uint64_t *b,
                     uint64_t c, uint64_t *d);

/* D = A*B + C for an M x N x K tile, every element a tc_dot_f64 in k order 0..K-1.
 * A is M x K row-major, B is K x N row-major, C and D are M x N row-major (as
 * tc_mma_tile). */
tc_status tc_mma_tile_f64(const tc_profile *p, size_t M, size_t N, size_t K,
                          const uint64_t *A, const uint64_t *B, const uint64_t *C,
                          uint64_t *D);

/* A matrix of fp64 patterns, laid out as tc_matrix: element (r, c) at data[r * ld + c]
 * for TC_LAYOUT_ROW, data[c * ld + r] for TC_LAYOUT_COL; ld 0 means packed. */
typedef struct tc_matrix64 {
    const uint64_t *data;
    tc_layout layout;
    size_t ld;
} tc_matrix64;

typedef struct tc_matrix64_out {
    uint64_t *data;
    tc_layout layout;
    size_t ld;
} tc_matrix64_out;

/* D (M x N) = A (M x K) * B (K x N) + C (M x N), every element exactly tc_dot_f64 of
 * row i of A and column j of B with c[i][j]. C may be NULL (every c is +0). Of opts
 * (may be NULL) only threads is read (0: one per online core): fp64 has no scales and
 * one compiled form. The result does not depend on the thread count, the layouts or
 * the leading dimensions. TC_EINVAL for a NULL matrix, a zero dimension, a bad layout,
 * an ld smaller than the packed one or sizes whose product overflows; TC_EUNSUPPORTED
 * for a profile that is not TC_KIND_FP64; TC_ENOMEM when memory cannot be had. On
 * failure D is untouched. */
tc_status tc_gemm_f64(const tc_profile *p, size_t M, size_t N, size_t K,
                      const tc_matrix64 *A, const tc_matrix64 *B, const tc_matrix64 *C,
                      const tc_matrix64_out *D, const tc_gemm_opts *opts);

#ifdef __cplusplus
}
#endif
#endif /* TCSIM_F64_H */
#endif /* TCSIM_H */
