/* ref_sparse.h - the reference of mma.sp (docs/contract.md, "Forms beyond one input
 * format"): the PTX ISA's metadata (9.7.14.6.1 "Sparse matrix storage") read again,
 * without the model's code, and the reference's dense dot product (ref_dot) over the
 * kept products in k order. */
#ifndef REF_SPARSE_H
#define REF_SPARSE_H

#include "ref_exact.h"

/* The positions one row's metadata keeps, ascending: nibble q of the row (bits
 * 4(q%8)+3..4(q%8) of meta[q/8]) covers k positions q*chunk .. q*chunk+chunk-1 with chunk
 * 4 (two 2-bit indices, first in the low bits, ascending), 2 for tf32 (0b0100: element
 * 0, 0b1110: element 1) and 8 for int4/uint4 (two ascending indices of element pairs).
 * Returns the count (k/2), or -1 for invalid metadata or a k the chunk does not divide. */
long ref_sp_kept(tc_fmt in, size_t k, const uint32_t *meta, size_t *kept);

/* d = c + sum over the kept positions x of a_stored[i] * b[x] (i counting the kept ones)
 * in row p's arithmetic: 0, or -1 when the metadata or a pattern is refused. */
int ref_dot_sp(ref_ctx *w, const ref_profile *p, size_t k, const uint32_t *a,
               const uint32_t *meta, const uint32_t *b, uint32_t c, uint32_t *d);

#endif
