/* probe.h - tcsim-probe: measures a GPU's tensor-core arithmetic and timing and writes
 * them in the formats tcsim reads (`tcsim vectors`, `tcsim timing --params`).
 * docs/timing.md ("The probe") describes the method.
 *
 * The host side (C11, this header) lists the forms a target has, draws the cases, packs
 * them into the instructions' register fragments, and writes the files; the device side
 * (probe_device.h: the CUDA kernels of cuda/, or a canned device for the tests) only runs
 * instructions on register words and times loops. */
#ifndef TCSIM_PROBE_H
#define TCSIM_PROBE_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include "tcsim.h"

/* One instruction form: what the probe runs and measures. */
typedef struct probe_form {
    tc_instr instr;          /* mma, wgmma or tcgen05 */
    int sparse;              /* mma.sp */
    unsigned m, n, k;
    tc_fmt in, acc;
    unsigned sm;             /* first target that has it */
    int numerics;            /* 1: this build has a numerics kernel for it */
    int timing;              /* 1: this build has a timing kernel for it */
    int mixed;               /* B in in_b (issue 33's pairs: mma's int8 x uint8, int4 x
                                uint4, e4m3 x e5m2; tcgen05's), else in */
    tc_fmt in_b;
    tc_kind op;              /* b1: TC_KIND_POPC_AND or _XOR (the op is part of the
                                form); 0 for the others */
    /* tcgen05.mma only (zero elsewhere): */
    const char *kind;        /* block-scaled: "mxf8f6f4", "mxf4", "mxf4nvf4"; else NULL */
    tc_fmt scale;            /* block-scaled: the scale factors' format */
    unsigned block;          /* block-scaled: elements a scale factor */
    int pair;                /* cta_group::2: a CTA pair, m rows across its two SMs */
} probe_form;
/* B's format. */
tc_fmt probe_fmt_b(const probe_form *f);
/* The profile of a form on arch (tc_profile_find_ab, or tc_profile_find_scaled). */
tc_status probe_profile(tc_arch arch, const probe_form *f, const tc_profile **p);

/* The forms of target sm (70..100), in a fixed order: every mma and mma.sp row of the
 * library's PTX table (tc_ptx_instr_get) the target has and the arithmetic times (its
 * profile table; the pairs, b1's ops and fp64's DMMA too), then wgmma (sm_90) and
 * tcgen05.mma (sm_100) over the formats of their profiles. Returns the count (<= cap). */
size_t probe_forms(unsigned sm, probe_form *out, size_t cap);
/* Independent m x n x k tiles one instruction computes: 4 for mma.m8n8k4 of fp16 (one
 * per quad-pair), else 1 (fp64's m8n8k4 is one warp-wide tile). */
unsigned probe_form_tiles(const probe_form *f);
/* The kernel kind of a form (probe_kinds.h), -1 where the kernels have none. */
int probe_kind(const probe_form *f);
/* "mma.m16n8k16", "wgmma.m64n256k16", "tcgen05.m128n256k16", a block-scaled
 * "tcgen05.mxf4nvf4.m128n16k64", a CTA pair's "tcgen05.pair.m256n32k16" into buf. */
void probe_form_op(const probe_form *f, char *buf, size_t size);
/* The inputs' formats: "e4m3", a mixed pair's "e4m3xe2m1", a block-scaled form's
 * elements and scales "e2m1.ue4m3", a b1 form's with its op "b1.and". */
void probe_form_in(const probe_form *f, char *buf, size_t size);
/* The arch of a target: 70 volta, 75 turing, 80..87 ampere, 89 ada, 90 hopper, 100..
 * blackwell; TC_ARCH_COUNT for another. */
tc_arch probe_arch_of_sm(unsigned sm);

/* ---- cases: the generator families of the tests (testkit) */
enum {
    PROBE_RANDOM = 0, /* any bit pattern of the input format (specials too) */
    PROBE_SPECIALS,   /* corner values (zeros, extremes, Inf, NaN) among finite */
    PROBE_CANCEL,     /* a[0]b[0] = -a[1]b[1] exactly, the rest small */
    PROBE_SUBNORMAL,  /* products below fp32's (and fp16's) normal range */
    PROBE_C_ZERO,     /* c = 0: with fp16 output, the alignment-floor question */
    PROBE_FLOOR,      /* c = +-0, a rounding tie that only a term near the
                         alignment floor breaks: the floor itself */
    PROBE_FAMILIES
};
/* Case i of n (family i % PROBE_FAMILIES) for inputs `in`, dot length k: a[k], b[k]
 * (patterns of in) and c (fp32 pattern; s32 for integer inputs, whose families test the
 * extremes and the s32 overflow instead), drawn from seed and i only (any order). */
void probe_case(tc_fmt in, unsigned k, uint64_t seed, size_t i, uint32_t *a, uint32_t *b,
                uint32_t *c);
/* The same for fp64 (DMMA): binary64 patterns a[k], b[k] and c, the families read for a
 * chain of binary64 FMAs: any 64 bits; binary64's corners among moderate values; an
 * exact cancellation; products in binary64's subnormal range (exponents summing to
 * -1080..-1020) beside a zero or subnormal c; c = 0; and, in the floor family's place
 * (fp64 has no alignment floor), c = +-0 with products that cancel exactly in pairs,
 * whose zero's sign RNE decides. */
void probe_case_f64(unsigned k, uint64_t seed, size_t i, uint64_t *a, uint64_t *b,
                    uint64_t *c);

/* Scale factors of a block-scaled form: case i's n scale patterns of fmt (ue8m0 or
 * ue4m3), drawn from seed, i and which (0: A's, 1: B's) only: mostly near 1 (2^-4 ..
 * 2^4), one case in 8 at the format's extremes (smallest, largest, NaN, zero). */
void probe_scales(tc_fmt fmt, uint64_t seed, size_t i, int which, unsigned n, uint32_t *out);
/* A tile row of k elements (patterns of fmt, stride words apart) into the bytes the
 * kernels copy to shared memory, one a word: 8-bit and wider elements as they are; for
 * kind::f8f6f4's fp6 and fp4 (PTX ISA, "Packing formats" of tcgen05.mma's shared
 * memory operands) each 16 elements packed as a little-endian bit stream (element 0 in
 * the low bits: 8 bytes of fp4, 12 of fp6), then zero padding to 16 bytes, so that a
 * row takes the bytes of 8-bit elements; for kind::mxf4 and mxf4nvf4 (packed: 1) two
 * e2m1 a byte, the even one in the low nibble. Returns the words written (k, or k / 2). */
unsigned probe_smem_row(tc_fmt fmt, int packed, const uint32_t *x, unsigned k, unsigned stride,
                        uint32_t *out);

/* ---- fragments: the mma.sync register layouts of the PTX ISA ("Matrix fragments for
 * mma.m16n8kK"). One mma carries n independent cases: case j is row j of A, column j
 * of B and C[j][j], read back from D[j][j]; A's rows n.. and the rest of C are zero. */
enum { PROBE_LANES = 32, PROBE_MAX_REGS = 16 }; /* fp64 m16n8k16's A: 8 f64, 16 words */
typedef struct probe_frag {
    unsigned a_regs, b_regs, c_regs, d_regs;   /* 32-bit registers per lane */
} probe_frag;
/* TC_OK and the register counts for an mma form with a numerics kernel; else
 * TC_EUNSUPPORTED. An fp64 element takes two registers, its low word first (the kernel
 * joins them into the .f64 register the PTX fragment names). */
tc_status probe_frag_of(const probe_form *f, probe_frag *out);
/* Packs cases [0, n) (a: n*k, b: n*k patterns of in; c: n fp32 patterns, converted to
 * the accumulator format RNE) into one mma's registers: regs[lane * count + r]. */
tc_status probe_frag_pack(const probe_form *f, const uint32_t *a, const uint32_t *b,
                          const uint32_t *c, uint32_t *a_regs, uint32_t *b_regs,
                          uint32_t *c_regs);
/* mma.sp (2:4): the cases' A holds the dense k, already zero outside 2:4 pattern
 * `pattern` (probe_sparsify); the registers get A compressed (the PTX layout of a dense
 * A of k/2) and, as A's last register in every lane, the metadata word of the pattern
 * (the same in every lane, so the metadata's own fragment layout does not matter).
 * For a dense form the pattern is ignored. */
enum { PROBE_SP_PATTERNS = 6 };
tc_status probe_frag_pack_sp(const probe_form *f, unsigned pattern, const uint32_t *a,
                             const uint32_t *b, const uint32_t *c, uint32_t *a_regs,
                             uint32_t *b_regs, uint32_t *c_regs);
/* Zeroes the elements of n cases' A (k each) that 2:4 pattern `pattern` does not keep. */
void probe_sparsify(const probe_form *f, unsigned pattern, size_t n, uint32_t *a);
/* The metadata word of a pattern: two 2-bit indices per group of 4, for 8 groups. */
uint32_t probe_sp_meta(unsigned pattern);
/* n cases of k words (a or b) in place to the k/2 that pattern keeps, in k order. */
void probe_sp_compress(const probe_form *f, unsigned pattern, size_t n, uint32_t *x);
/* The two indices (of every 4) that pattern keeps. */
void probe_sp_kept(unsigned pattern, unsigned *first, unsigned *second);
/* wgmma and tcgen05.mma (A and B from shared memory: the device lays tiles out,
 * cuda/kmajor.cuh): one m64nN or m128nN instruction carries n cases on D's diagonal as
 * above, its tiles A (m x k) and B (k x n) patterns of in, C and D (m x n) accumulator
 * patterns, row-major. */
tc_status probe_tile_pack(const probe_form *f, const uint32_t *a, const uint32_t *b,
                          const uint32_t *c, uint32_t *A, uint32_t *B, uint32_t *C);
void probe_tile_diag(const probe_form *f, const uint32_t *D, uint32_t *d);
/* The inverse, for a device that computes from registers (the canned one): the tiles
 * A (m x k), B (k x n), C (m x n) row-major as patterns. */
void probe_frag_unpack_ab(const probe_form *f, const uint32_t *a_regs, const uint32_t *b_regs,
                          const uint32_t *c_regs, uint32_t *A, uint32_t *B, uint32_t *C);
/* D (m x n, accumulator patterns) into registers, and d[j] = D[j][j] out of them. */
void probe_frag_pack_d(const probe_form *f, const uint32_t *D, uint32_t *d_regs);
void probe_frag_diag(const probe_form *f, const uint32_t *d_regs, uint32_t *d);
/* fp64 (DMMA): the same four on binary64 patterns (PTX ISA "Matrix fragments for
 * mma.m8n8k4 with .f64" and for m16n8k4/k8/k16 with .f64: one f64 a register pair);
 * c is already binary64. */
tc_status probe_frag_pack_f64(const probe_form *f, const uint64_t *a, const uint64_t *b,
                              const uint64_t *c, uint32_t *a_regs, uint32_t *b_regs,
                              uint32_t *c_regs);
void probe_frag_unpack_f64(const probe_form *f, const uint32_t *a_regs, const uint32_t *b_regs,
                           const uint32_t *c_regs, uint64_t *A, uint64_t *B, uint64_t *C);
void probe_frag_pack_d_f64(const probe_form *f, const uint64_t *D, uint32_t *d_regs);
void probe_frag_diag_f64(const probe_form *f, const uint32_t *d_regs, uint64_t *d);

/* ---- the device (probe_device.c: CUDA; probe_canned.c: the tests') */
typedef struct probe_gpu {
    char name[64];           /* "NVIDIA H100 80GB HBM3" */
    char driver[32];
    unsigned sm;             /* 90 */
    unsigned sms;
    unsigned clock_mhz;      /* the SM clock the timing counts */
} probe_gpu;
/* 0 and *g, or -1 with a message in err. */
int probe_dev_open(probe_gpu *g, char *err, size_t size);
/* nmma instructions of form f, each from its lanes' registers (probe_frag counts). */
int probe_dev_mma(const probe_form *f, size_t nmma, const uint32_t *a_regs,
                  const uint32_t *b_regs, const uint32_t *c_regs, uint32_t *d_regs,
                  char *err, size_t size);
/* ntiles wgmma or tcgen05.mma of form f on tiles (probe_tile_pack's), tile after tile. */
int probe_dev_tile(const probe_form *f, size_t ntiles, const uint32_t *A, const uint32_t *B,
                   const uint32_t *C, uint32_t *D, char *err, size_t size);
/* The same for a block-scaled form: SA (m x k / block patterns of f->scale, tile after
 * tile) scales A's rows, SB (n x k / block) B's columns. */
int probe_dev_tile_scaled(const probe_form *f, size_t ntiles, const uint32_t *A,
                          const uint32_t *B, const uint32_t *SA, const uint32_t *SB,
                          const uint32_t *C, uint32_t *D, char *err, size_t size);
/* Seed 004's loop on one SM: warps warps, each iters iterations of ilp independent
 * instructions; *cycles = clock64 from the first warp's start to the last warp's end,
 * minus the same for the loop without instructions. 0; 1 (err says why) where the
 * point does not fit on an SM (registers); -1 for a failure. */
int probe_dev_time(const probe_form *f, unsigned warps, unsigned ilp, unsigned iters,
                   uint64_t *cycles, char *err, size_t size);

/* ---- writers */
/* The vectors of one form under dir (made if missing) in `tcsim vectors`' layout:
 * a_<GPU>_<in>.txt, b_..., c_<GPU>_fp32.txt, d_<GPU>_<acc>.txt (for fp16 output, the
 * GPU was given c rounded RNE to fp16, as the reader assumes; integer forms: values
 * as 32-bit words, c in c_<GPU>_s32.txt). Appends d for the set
 * when a/b/c exist already (the fp16 and fp32 accumulators share the cases). */
int probe_write_vectors(const char *dir, const char *gpu, const probe_form *f, size_t n,
                        const uint32_t *a, const uint32_t *b, const uint32_t *c,
                        const uint32_t *d, int write_inputs);
/* An fp64 form's: a_<GPU>_fp64.txt, b_..., c_<GPU>_fp64.txt and d_<GPU>_fp64.txt, every
 * word a binary64 pattern in 16 hex digits (cli/gpu_vectors.h). */
int probe_write_vectors_f64(const char *dir, const char *gpu, const probe_form *f, size_t n,
                            const uint64_t *a, const uint64_t *b, const uint64_t *c,
                            const uint64_t *d);
/* A mixed pair's b is b_<GPU>_<in_b>.txt. A block-scaled form's scale factors beside
 * them: sa_<GPU>_<scale>.txt and sb_<GPU>_<scale>.txt, a line a case of k / block
 * patterns (hex, the format's own bits: a scale factor has no exact fp32 image for
 * every pattern), and kind_<GPU>.txt, the kind's name (cli/gpu_vectors.h). */
int probe_write_scales(const char *dir, const char *gpu, const probe_form *f, size_t n,
                       const uint32_t *sa, const uint32_t *sb);
/* A b1 form's op beside its vectors: kind_<GPU>.txt, "and" or "xor" (the words of
 * `tcsim dot --popc`). */
int probe_write_popc(const char *dir, const char *gpu, const probe_form *f);
/* mma.sp: sparse_<GPU>.txt beside the vectors, a line a case: "keep I J", the two
 * elements of every four k that the case's A kept (the vectors hold the kept k/2 terms
 * of a and b, in k order). Case i is instruction i / n's, pattern (i / n) mod 6. */
int probe_write_sparse(const char *dir, const char *gpu, const probe_form *f, size_t cases);
/* The header: GPU, driver, SMs, clock, date, seed, cases. */
int probe_write_header(const char *path, const probe_gpu *g, const char *date, uint64_t seed,
                       size_t cases);
/* A measured point: latency (one warp, ILP 1) or a warps x ILP throughput point. */
typedef struct probe_point {
    probe_form f;
    unsigned warps, ilp, iters;
    uint64_t cycles;
} probe_point;
/* The GPU's timing record (timing.txt's format, name `name`): the built-in record of
 * its arch with depth calibrated from the first latency point of an mma (the measured
 * cycles per iteration less the structure's other terms); the keys not calibrated keep
 * their "~" mark. Then, as comments, each point beside the model's prediction. */
int probe_write_record(FILE *out, const char *name, const probe_gpu *g,
                       const probe_point *pts, size_t n);

#endif
