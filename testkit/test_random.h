/* test_random.h - the random stream of the model's tests and the RTL testbenches that
 * check against them (model/test, tb/): one xorshift64* generator, seeded by each
 * program (rng = any non-zero value), and the fp16 / accumulator patterns of the Volta
 * warp tests, and the model's result for one of their tiles. Header-only; included once
 * per program. */
#ifndef TCSIM_TEST_RANDOM_H
#define TCSIM_TEST_RANDOM_H

#include <stdint.h>
#include "tcsim.h"

static uint64_t rng = 1;

static inline uint64_t rnd64(void)
{
    rng ^= rng >> 12;
    rng ^= rng << 25;
    rng ^= rng >> 27;
    return rng * UINT64_C(2685821657736338717);
}

static inline uint32_t rnd(void)
{
    return (uint32_t)(rnd64() >> 32);
}

/* fp16 patterns: mostly a narrow exponent range (sums that cancel and round); with
 * `wild`, any pattern, and one in 16 from every class (zero, subnormal, huge, Inf, NaN). */
static inline uint32_t rnd_fp16(int wild)
{
    uint32_t r = rnd(), sign = (r >> 31) << 15;
    if (wild && r % 16 == 0) {
        static const uint32_t sp[] = {0x0000, 0x0001, 0x03ff, 0x0400, 0x7bff, 0x7c00, 0x7e00,
                                      0x3c00, 0x1400};
        return sign | sp[(r >> 8) % (sizeof sp / sizeof sp[0])];
    }
    if (wild)
        return (r >> 8) & 0xffffu;
    return sign | ((12 + (r >> 4) % 7) << 10) | ((r >> 12) & 0x3ffu);
}

/* An accumulator pattern: fp16 as above, or fp32 near 1 (wild: any, one in 8 +-Inf). */
static inline uint32_t rnd_acc(tc_fmt acc, int wild)
{
    if (acc == TC_FMT_FP16)
        return rnd_fp16(wild);
    uint32_t r = rnd();
    if (wild)
        return r % 8 == 0 ? 0x7f800000u | (r & 0x80000000u) : r;
    return (r & 0x80000000u) | ((124u + (r >> 4) % 8) << 23) | (r & 0x7fffffu);
}

/* The 16 Volta warp configurations, in the order the warp tests (model and RTL) walk
 * them: i = shape * 8 + (fp16 accumulator) * 4 + A layout * 2 + B layout. */
#define TK_HMMA_CFGS 16u

static inline tc_hmma_cfg tk_hmma_cfg(unsigned i)
{
    tc_hmma_cfg cfg = {(tc_shape)(i >> 3 & 1u), (tc_layout)(i >> 1 & 1u), (tc_layout)(i & 1u),
                       (i >> 2 & 1u) ? TC_FMT_FP16 : TC_FMT_FP32};
    return cfg;
}

/* D(i, j) of tile t of a Volta MMA (A: T x M x K, B: T x K x N, C: T x M x N, row major)
 * from the model's dot product alone, one tc_dot of the K <= 16 products: what the warp
 * tests hold the HMMA sets (model) and the warp (RTL) against. */
static inline uint32_t tile_dot_ref(const tc_profile *p, unsigned M, unsigned N, unsigned K,
                                    const uint32_t *A, const uint32_t *B, const uint32_t *C,
                                    unsigned t, unsigned i, unsigned j)
{
    uint32_t a[16], b[16], d = 0;
    for (unsigned k = 0; k < K; k++) {
        a[k] = A[(t * M + i) * K + k];
        b[k] = B[(t * K + k) * N + j];
    }
    tc_dot(p, K, a, b, C[(t * M + i) * N + j], &d);
    return d;
}

#endif
