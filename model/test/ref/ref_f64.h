/* ref_f64.h - the exact reference of the fp64 form (ref_f64.c, MPFR): one binary64 FMA
 * step and the k-order chain of them, written from IEEE 754 and docs/contract.md without
 * looking at model/src. */
#ifndef TCSIM_REF_F64_H
#define TCSIM_REF_F64_H

#include <stddef.h>
#include <stdint.h>
#include <string.h>

/* A binary64 pattern as the host's double and back (C's double is binary64 here). */
static inline double ref_f64_double(uint64_t x)
{
    double d;
    memcpy(&d, &x, sizeof d);
    return d;
}
static inline uint64_t ref_f64_bits(double d)
{
    uint64_t x;
    memcpy(&x, &d, sizeof x);
    return x;
}

/* a*b + c: the exact product, the exact sum, rounded once to binary64 (nearest even,
 * subnormals, overflow to Inf); a NaN result is 0x7fffffffffffffff. */
uint64_t ref_fma_f64(uint64_t a, uint64_t b, uint64_t c);

/* d = c, then d = ref_fma_f64(a[i], b[i], d) for i = 0..k-1. */
uint64_t ref_dot_f64(size_t k, const uint64_t *a, const uint64_t *b, uint64_t c);

#endif
