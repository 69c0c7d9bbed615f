/*
 * tcsim_gemm.h - D = A*B + C for whole matrices, in the GPU's order of operations.
 *
 * Included by tcsim.h. Every element d[i][j] is exactly tc_dot (or tc_dot_scaled) of
 * row i of A and column j of B with c[i][j]: K in the profile's L-term steps, chained
 * in k order 0..K-1 (for the fp8 emulation, its blocks of 32). The result does not
 * depend on the thread count, the layouts or the leading dimensions.
 */
/* A part of tcsim.h: included on its own, it brings in tcsim.h, which includes it
 * back in its place (its declarations need tcsim.h's types). */
#ifndef TCSIM_H
#include "tcsim.h"
#else
#ifndef TCSIM_GEMM_H
#define TCSIM_GEMM_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* A matrix of bit patterns, one uint32_t per element (the low bits, as wide as the
 * format). layout is tcsim_tc.h's tc_layout: element (r, c) is at data[r * ld + c] for
 * TC_LAYOUT_ROW, data[c * ld + r] for TC_LAYOUT_COL. ld is the leading dimension in
 * elements; 0 means packed (the column count for row-major, the row count for
 * column-major). */
typedef struct tc_matrix {
    const uint32_t *data;
    tc_layout layout;
    size_t ld;
} tc_matrix;

/* The same for the result, which is written. */
typedef struct tc_matrix_out {
    uint32_t *data;
    tc_layout layout;
    size_t ld;
} tc_matrix_out;

/* Which compiled form of the arithmetic runs (tc_gemm_opts.simd). All give the same
 * bits; the choice only exists to test that and to measure them side by side. */
typedef enum tc_simd {
    TC_SIMD_AUTO = 0,   /* the widest this CPU runs */
    TC_SIMD_PORTABLE,   /* plain C (the only one off x86-64) */
    TC_SIMD_AVX2,
    TC_SIMD_AVX512
} tc_simd;

typedef struct tc_gemm_opts {
    unsigned threads;   /* worker threads; 0 = one per online core */
    tc_matrix scale_a;  /* block-scaled kinds: M x K/scale_block scale patterns */
    tc_matrix scale_b;  /* block-scaled kinds: K/scale_block x N scale patterns */
    unsigned simd;      /* a tc_simd; TC_EUNSUPPORTED when this CPU lacks it */
} tc_gemm_opts;

/* 1 if this CPU runs tc_simd s (TC_SIMD_AUTO and TC_SIMD_PORTABLE: always). */
int tc_gemm_simd_available(unsigned s);

/* D (M x N) = A (M x K) * B (K x N) + C (M x N) in profile p's arithmetic, A in p->in and
 * B in p->in_b (each in its own format for the mixed pairs). C may be
 * NULL (every c is +0); opts may be NULL (all cores, no scales). Every input word is
 * checked before anything is written: on failure D is untouched. TC_EINVAL for a NULL
 * matrix, a zero dimension, an ld smaller than the packed one, or sizes whose product
 * overflows; TC_EFORMAT for a word wider than its format; TC_ESHAPE when a block-scaled
 * K is not a multiple of the scale block; TC_EUNSUPPORTED for an opts->simd this CPU
 * lacks; TC_ENOMEM when memory or a worker cannot be had. */
tc_status tc_gemm(const tc_profile *p, size_t M, size_t N, size_t K, const tc_matrix *A,
                  const tc_matrix *B, const tc_matrix *C, const tc_matrix_out *D,
                  const tc_gemm_opts *opts);

#ifdef __cplusplus
}
#endif
#endif /* TCSIM_GEMM_H */
#endif /* TCSIM_H */
