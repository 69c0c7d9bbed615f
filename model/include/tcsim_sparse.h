/*
 * tcsim_sparse.h - mma.sp: A structured sparse (2:4), its metadata and its warp fragments.
 * Included by tcsim.h.
 *
 * Arithmetic (docs/contract.md, "Forms beyond one input format"): a row of A stores k/2 of
 * its k elements, and the metadata says which; d is the profile's dense dot product over
 * the k/2 kept products in k order (c + sum of a_stored[i] * b[kept[i]]), with its L, F
 * and rounding. The dropped positions of B take no part (they are only width-checked).
 *
 * Metadata (PTX ISA 9.0, section 9.7.14.6.1 "Sparse matrix storage"). A row of A is cut
 * into chunks of tc_sp_chunk(in) consecutive k; each chunk has one 4-bit metadata nibble:
 *  - fp16, bf16, e4m3, e5m2, int8, uint8: chunks of 4, 2 stored; the nibble holds two
 *    2-bit indices, bits 1:0 the first kept position, bits 3:2 the second. They must
 *    ascend (PTX: 0b0000, 0b0101, 0b1010, 0b1111 are invalid; mma.sp::ordered_metadata
 *    allows only the ascending 0b0100, 0b1000, 0b1001, 0b1100, 0b1101, 0b1110): any other
 *    nibble is refused with TC_EINVAL.
 *  - tf32 (1:2): chunks of 2, 1 stored; the nibble is 0b0100 for position 0, 0b1110 for
 *    position 1 (PTX: "the only meaningful index values"), anything else TC_EINVAL.
 *  - int4, uint4 (4:8 in pairs): chunks of 8, 4 stored; the two ascending 2-bit indices
 *    select two of the four element pairs (index j keeps k 2j and 2j+1 of the chunk).
 * Nibbles are packed as in the PTX metadata register, eight to a 32-bit word from the low
 * bits up: chunk q of a row is bits 4(q%8)+3 .. 4(q%8) of word q/8. A row of k elements
 * has tc_sp_meta_words(in, k) words; bits past its last chunk must be zero (TC_EINVAL).
 *
 * Which profiles: those whose instruction has an mma.sp form in the PTX target table
 * (tc_ptx_instr_get, form TC_PTX_MMA_SP) for their input and accumulator formats and
 * arch: mma on ampere and later (fp16 with fp16 or fp32 out, bf16, tf32, int8, uint8,
 * int4, uint4), fp8 from ada. Others, wgmma and tcgen05 included, are TC_EUNSUPPORTED.
 */
/* A part of tcsim.h: included on its own, it brings in tcsim.h, which includes it
 * back in its place (its declarations need tcsim.h's types). */
#ifndef TCSIM_H
#include "tcsim.h"
#else
#ifndef TCSIM_SPARSE_H
#define TCSIM_SPARSE_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* ------------------------------------------------------------ metadata */

/* Elements of A per metadata nibble (4; 2 for tf32; 8 for int4, uint4); 0 for a format
 * that no mma.sp form takes. Half of them are stored. */
unsigned tc_sp_chunk(tc_fmt in);

/* 32-bit metadata words of a row of k elements: ceil(k / chunk / 8); 0 if k is not a
 * multiple of the chunk or the format has none. */
size_t tc_sp_meta_words(tc_fmt in, size_t k);

/* TC_OK if p's instruction has an mma.sp form (above), else TC_EUNSUPPORTED. */
tc_status tc_profile_sparse(const tc_profile *p);

/* The k/2 kept positions of a row (0..k-1, ascending) from its metadata. TC_EINVAL for a
 * k that is not a positive multiple of the chunk, or invalid metadata (above);
 * TC_EUNSUPPORTED for a format without a sparse form. */
tc_status tc_sp_kept(tc_fmt in, size_t k, const uint32_t *meta, size_t *kept);

/* --------------------------------------------------------- arithmetic */

/* d = c + sum_i a[i] * b[kept[i]] (i < k/2, kept from meta) in p's arithmetic. a holds the
 * k/2 stored elements in k order (p->in), b all k elements (p->in_b), meta
 * tc_sp_meta_words(p->in, k) words. k is the dense k: a positive multiple of the chunk. */
tc_status tc_dot_sp(const tc_profile *p, size_t k, const uint32_t *a, const uint32_t *meta,
                    const uint32_t *b, uint32_t c, uint32_t *d);

/* D = A*B + C for an M x N x K tile with A 2:4 sparse, every element a tc_dot_sp of its
 * row and column. A is M x K/2 (the stored elements, row-major), E is M x W metadata
 * words (W = tc_sp_meta_words(p->in, K), row i's words at E[i * W]), B is K x N, C and D
 * M x N, all row-major. Every word and all metadata are checked before D is written. */
tc_status tc_mma_sp_tile(const tc_profile *p, size_t M, size_t N, size_t K,
                         const uint32_t *A, const uint32_t *E, const uint32_t *B,
                         const uint32_t *C, uint32_t *D);

/* ------------------------------------------------------------ fragments */

/* The warp fragments of mma.sp.m16n8kK (PTX ISA 9.0, 9.7.14.6.2 "Matrix fragments for
 * multiply-accumulate operation with sparse matrix A"): K and in as the PTX target table
 * has them (fp16/bf16 k16, k32; tf32 k8, k16; int8/uint8 k32, k64; e4m3/e5m2 k64;
 * int4/uint4 k64, k128). B, C and D are the dense mma's fragments of the same shape.
 *
 * A: lane l (groupID g = l / 4, thread t = l % 4) holds a_regs registers of per_reg
 * stored elements (2 for 16-bit, 1 for tf32, 4 for 8-bit, 8 for 4-bit formats). Element i
 * (register r = i / per_reg, e = i % per_reg) is stored element (row, scol) of the 16 x K/2
 * stored A: row = g + 8 (r % 2), scol = per_reg t + e + 4 per_reg (r / 2). In dense
 * columns this is PTX's firstcol = threadID_in_group * 4 (* 2 tf32, * 8 8-bit, * 16
 * 4-bit), + 16 (8, 32, 64) for the second half of the registers.
 *
 * Metadata: one .b32 register; in each group of four lanes, meta_threads of them (1, 2 or
 * 4) hold the group's metadata, lanes 4g + meta_threads * selector + j (j <
 * meta_threads), and the sparsity selector takes 4 / meta_threads values (PTX: one thread
 * {0..3} for fp16/bf16 k16 and tf32 k8; a pair, 0 = T0,T1 or 1 = T2,T3, for fp16/bf16 k32,
 * tf32 k16, 8-bit k32 and 4-bit k64; all four, selector 0, for 8-bit k64 and 4-bit
 * k128). Those registers, taken in order j as one bit stream, hold the nibbles of the
 * group's A registers register by register, and within one register index lane t = 0..3
 * in turn, each the nibbles of its elements' chunks in order (4 bits for a 16-bit or tf32
 * register, 8 for an 8- or 4-bit one). PTX draws this in its metadata figures (119-147);
 * CUTLASS's sm89 sparse-fp8 emulation spells it out for m16n8k32 f16 (thread pair TA: rows
 * g then g+8 of dense k 0..15, TB: k 16..31) and m16n8k64 8-bit (T0..T3: register 0..3 of
 * each lane of the group). The other lanes' metadata registers are 0 here. */
typedef struct tc_sp_frag_info {
    unsigned a_regs;       /* A registers per lane (2 or 4) */
    unsigned per_reg;      /* stored elements per register */
    unsigned meta_threads; /* lanes of a group of four holding metadata (1, 2 or 4) */
    unsigned selectors;    /* sparsity selector values: 0 .. selectors-1 */
} tc_sp_frag_info;

/* TC_EUNSUPPORTED if PTX has no mma.sp.m16n8kK for in. */
tc_status tc_sp_frag_shape(tc_fmt in, unsigned K, tc_sp_frag_info *out);

/* Where A element i of lane `lane` lives in the 16 x K/2 stored A. TC_EINVAL for a lane
 * >= 32 or i >= a_regs * per_reg. */
tc_status tc_sp_frag_a_map(tc_fmt in, unsigned K, unsigned lane, unsigned i, unsigned *row,
                           unsigned *scol);

/* The warp's metadata registers from E (16 rows of tc_sp_meta_words(in, K) words, as
 * tc_mma_sp_tile takes it), for a sparsity selector; every lane's word written. TC_EINVAL
 * for a selector out of range or invalid metadata in E. */
tc_status tc_sp_meta_pack(tc_fmt in, unsigned K, unsigned selector, const uint32_t *E,
                          uint32_t meta[32]);

/* E back from the warp's metadata registers (the holding lanes' words; the others'
 * ignored). TC_EINVAL for a selector out of range or invalid metadata. */
tc_status tc_sp_meta_unpack(tc_fmt in, unsigned K, unsigned selector, const uint32_t meta[32],
                            uint32_t *E);

#ifdef __cplusplus
}
#endif
#endif /* TCSIM_SPARSE_H */
#endif /* TCSIM_H */
