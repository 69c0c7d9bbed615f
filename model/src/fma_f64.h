/* fma_f64.h - one IEEE 754 binary64 fused multiply-add, the step of the fp64 form
 * (fma_f64.c; tcsim_f64.h builds the dot products, tiles and GEMMs on it). */
#ifndef TCSIM_FMA_F64_H
#define TCSIM_FMA_F64_H

#include <stdint.h>

/* a*b + c rounded once to nearest even, IEEE specials, NaN results 0x7fff...ff. */
uint64_t tc_fma_f64(uint64_t a, uint64_t b, uint64_t c);

#endif
