/*
 * tcsim.h - public C API of the tensor-core golden model.
 *
 * One header, C11, no dependencies but libc. Every name is prefixed tc_ / TC_.
 * The arithmetic is docs/contract.md (bit-exact); values travel as raw bit
 * patterns in uint32_t (the low bits of the word, as wide as the format).
 *
 * Conventions:
 *  - Functions that can fail return tc_status; results come back through
 *    out-pointers, which are left untouched on failure. tc_strerror() names a status.
 *    The few that return a value instead (tc_unit_take, tc_bw_row_get, ...) cannot
 *    fail on valid arguments and do not check their pointers.
 *  - No global mutable state: every function is reentrant and thread-safe.
 *    Profiles returned by tc_profile_find() point into a const table and live
 *    for the life of the program.
 *  - Nothing here calls exit() or abort(), whatever the input.
 */
#ifndef TCSIM_H
#define TCSIM_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

#define TCSIM_VERSION_MAJOR 0
#define TCSIM_VERSION_MINOR 2
#define TCSIM_VERSION_PATCH 3
#define TCSIM_VERSION "0.2.3"

/* ---------------------------------------------------------------- status */

typedef enum tc_status {
    TC_OK = 0,
    TC_EINVAL,      /* a NULL pointer, a count of zero, an out-of-range value */
    TC_EFORMAT,     /* a bit pattern wider than its format, an unknown format */
    TC_ESHAPE,      /* a tile or block shape the profile does not support */
    TC_ENOMEM,
    TC_EIO,
    TC_EUNSUPPORTED, /* no profile for this (arch, instr, in, out) combination */
    TC_EBUSY        /* the resource is busy this cycle: try again later (tcsim_sim.h) */
} tc_status;

const char *tc_strerror(tc_status s);

/* ---------------------------------------------------------------- formats */

/* Append only: the numeric values are part of the ABI and of rtl/tc_pkg.sv. */
typedef enum tc_fmt {
    TC_FMT_FP32 = 0,
    TC_FMT_TF32,   /* e8m10 in a 32-bit word; the low 13 bits are ignored */
    TC_FMT_FP16,
    TC_FMT_BF16,
    TC_FMT_E4M3,   /* OCP: bias 7, no Inf, S.1111.111 is NaN */
    TC_FMT_E5M2,   /* IEEE-like: Inf and NaN */
    TC_FMT_E3M2,   /* fp6, no Inf/NaN */
    TC_FMT_E2M3,   /* fp6, no Inf/NaN */
    TC_FMT_E2M1,   /* fp4, no Inf/NaN */
    TC_FMT_UE8M0,  /* scale: 2^(x-127), 0xff is NaN */
    TC_FMT_UE4M3,  /* scale: e4m3 with the sign bit ignored */
    TC_FMT_INT8,
    TC_FMT_UINT8,
    TC_FMT_INT4,
    TC_FMT_UINT4,
    TC_FMT_S32,    /* integer accumulator / output */
    /* fp64 (DMMA): IEEE binary64. Its patterns are 64 bits wide, so it travels only
     * through the uint64_t API of tcsim_f64.h; every uint32_t function refuses it. */
    TC_FMT_FP64 = 16,
    /* issue 33, 1-bit forms: one bit per word (0 or 1), a and b of the .and.popc and
     * .xor.popc kinds */
    TC_FMT_B1 = 17,
    TC_FMT_COUNT
} tc_fmt;

typedef enum tc_fmt_class {
    TC_CLASS_FLOAT,   /* sign, exponent, significand */
    TC_CLASS_SCALE,   /* unsigned scale factor (ue8m0, ue4m3) */
    TC_CLASS_INT      /* two's complement or unsigned integer */
} tc_fmt_class;

/* How a format encodes NaN: tc_fmt_info.nan_style, and tc_pkg::NAN_* in the RTL (`tcsim
 * emit-pkg` writes those from these values). */
typedef enum tc_nan_style {
    TC_NAN_NONE = 0,      /* no NaN */
    TC_NAN_IEEE = 1,      /* all-ones exponent (with a zero fraction: Inf if has_inf) */
    TC_NAN_ALL_ONES = 2,  /* only the all-ones exponent and fraction (e4m3) */
    TC_NAN_WORD = 3       /* the whole word all ones (ue8m0) */
} tc_nan_style;

/* Static description of a format (one row of the format table). */
typedef struct tc_fmt_info {
    const char *name;     /* "fp16", "e4m3", ... as tcsim spells it */
    tc_fmt_class cls;
    unsigned width;       /* bits in the word (tf32: 32) */
    unsigned exp_bits;
    unsigned man_bits;    /* fraction bits, without the hidden bit */
    int bias;
    int emin;             /* exponent of the smallest normal: 1 - bias */
    int emax;             /* exponent of the largest finite binade */
    unsigned ignore_low;  /* low bits of the word that carry no value (tf32: 13) */
    int has_inf;          /* all-ones exponent with zero fraction is Inf */
    int nan_style;        /* a tc_nan_style (an int: the struct's layout is ABI) */
    int is_signed;        /* has a sign bit (floats) / two's complement (ints) */
} tc_fmt_info;

const tc_fmt_info *tc_fmt_get(tc_fmt f);              /* NULL when out of range */
tc_status tc_fmt_parse(const char *name, tc_fmt *out); /* by name, case-sensitive */

/* Exact decoded value of a float or scale bit pattern. */
typedef enum tc_value_kind { TC_VAL_FINITE, TC_VAL_INF, TC_VAL_NAN } tc_value_kind;
typedef struct tc_value {
    tc_value_kind kind;
    int sign;          /* 1 for negative (also for -0 and -Inf) */
    uint64_t sig;      /* significand, man_bits fraction bits; 0 for zero */
    int exp;           /* value = sig * 2^(exp - man_bits); exp >= emin */
} tc_value;

/* Decode `bits` of a float or scale format. TC_EFORMAT if bits do not fit the width. */
tc_status tc_decode(tc_fmt f, uint32_t bits, tc_value *out);

/* Convert the value of a float pattern exactly to another float format
 * (e.g. fp8 -> fp16, fp16 -> fp32); TC_EINVAL if it is not representable. */
tc_status tc_convert_exact(tc_fmt from, uint32_t bits, tc_fmt to, uint32_t *out);

/* Round a float pattern to another float format, round to nearest even
 * (fp32 -> fp16 for c in fp16-output mode). NaN becomes the canonical NaN. */
tc_status tc_convert_rne(tc_fmt from, uint32_t bits, tc_fmt to, uint32_t *out);

/* Canonical NaN of an output format (fp32 0x7fffffff, fp16 0x7fff). */
uint32_t tc_canonical_nan(tc_fmt f);

/* An integer format's patterns and their values (int8 0xff is -1, uint8 0xff is 255,
 * s32 is itself): TC_EFORMAT for a format that is not an integer one or a pattern wider
 * than it, TC_EINVAL for a value outside its range. */
tc_status tc_int_value(tc_fmt f, uint32_t bits, int32_t *out);
tc_status tc_int_pattern(tc_fmt f, int64_t value, uint32_t *out);

/* ------------------------------------------------- architectures and profiles */

typedef enum tc_arch {
    TC_ARCH_VOLTA = 0, TC_ARCH_TURING, TC_ARCH_AMPERE, TC_ARCH_ADA,
    TC_ARCH_HOPPER, TC_ARCH_BLACKWELL, TC_ARCH_COUNT
} tc_arch;

typedef enum tc_instr {
    TC_INSTR_MMA = 0,   /* mma.sync / wmma: every architecture */
    TC_INSTR_WGMMA,     /* Hopper warpgroup MMA */
    TC_INSTR_TCGEN05,   /* Blackwell tcgen05.mma */
    TC_INSTR_COUNT
} tc_instr;

const char *tc_arch_name(tc_arch a);
const char *tc_instr_name(tc_instr i);
tc_status tc_arch_parse(const char *name, tc_arch *out);
tc_status tc_instr_parse(const char *name, tc_instr *out);

typedef enum tc_round { TC_RZ = 0, TC_RNE = 1 } tc_round;

/* How a profile computes a dot product. */
typedef enum tc_kind {
    TC_KIND_FEDP = 0,   /* chained FEDP steps of L terms (docs/contract.md) */
    TC_KIND_FP8_EMU,    /* fp8 through the arch's fp16 path (hopper/blackwell mma) */
    TC_KIND_INT,        /* exact s32 accumulate with wrap-around (no hardware data) */
    TC_KIND_MX,         /* mxf8f6f4: one L-term FEDP step, product exponents scaled */
    TC_KIND_MXF4,       /* mxf4 / mxf4nvf4: exact 16-term groups, scaled, F = 35 */
    /* issue 33, b1: d = c + popcount(a OP b) over k, s32 with wrap-around (found with
     * tc_profile_find_popc, the op being part of the form) */
    TC_KIND_POPC_AND,   /* mma .and.popc (sm_80 on) */
    TC_KIND_POPC_XOR,   /* mma .xor.popc (sm_75 on) */
    TC_KIND_FP64        /* DMMA: one binary64 FMA per k in k order (tcsim_f64.h) */
} tc_kind;

#define TC_EMIN_ALIGN_NONE (-100000) /* no floor on the alignment exponent */
/* Products per group of the mxf4 kinds: each group is summed exactly and scaled by its
 * scale pair before the groups are aligned (docs/contract.md). rtl/tc_pkg.sv has it as
 * MXF4_GROUP. */
#define TC_MXF4_GROUP 16

/* One row of the profile table. The RTL parameter sets are checked against it. */
typedef struct tc_profile {
    const char *name;      /* e.g. "ampere_mma_fp16_fp32" */
    tc_arch arch;
    tc_instr instr;
    tc_fmt in;             /* format of a (and of b where in_b is the same) */
    tc_fmt out;            /* format of c and d (fp32, fp16, s32) */
    tc_kind kind;
    unsigned L;            /* terms per FEDP step (for MXF4: terms per instruction step) */
    unsigned F;            /* fraction bits kept after alignment, relative to 2^E */
    tc_round round;        /* rounding of each step's result */
    int emin_align;        /* floor of the alignment exponent, or TC_EMIN_ALIGN_NONE */
    unsigned out_man_bits; /* fraction bits of the result before widening to `out`
                              (13 for native fp8 with fp32 output: e8m13), else out's */
    tc_fmt scale;          /* block-scaled kinds: scale format, else TC_FMT_COUNT */
    unsigned scale_block;  /* elements per scale factor (32 or 16), else 0 */
    const char *source;    /* where the row comes from / its status */
    int zero_plus;         /* 1: a result that rounds to zero is +0 whatever the sum's sign
                              (fp16 output from Hopper on: docs/contract.md step 7) */
    tc_fmt in_b;           /* format of b: in, except in the mixed-pair rows (e4m3 x e5m2,
                              the f8f6f4 pairs), where each operand decodes in its own
                              format (docs/contract.md, "Mixed A and B formats"); last, so
                              that the fields before it keep their offsets */
} tc_profile;

/* Find the profile of (arch, instr, in, out), a and b both in `in`; TC_EUNSUPPORTED if
 * there is none. Block-scaled kinds are found with tc_profile_find_scaled. */
tc_status tc_profile_find(tc_arch a, tc_instr i, tc_fmt in, tc_fmt out,
                          const tc_profile **out_profile);

/* Find the profile of (arch, instr, in_a, in_b, out): a in in_a, b in in_b. With
 * in_a == in_b it is tc_profile_find; the mixed pairs exist where the PTX ISA has them
 * (e4m3 with e5m2 for ada mma, hopper mma and wgmma; every pair of e4m3, e5m2, e3m2,
 * e2m3, e2m1 for blackwell tcgen05 kind::f8f6f4; int8 with uint8 both ways on every
 * arch with int8 mma, int4 with uint4 where it has int4 mma). TC_EUNSUPPORTED if there
 * is none. */
tc_status tc_profile_find_ab(tc_arch a, tc_instr i, tc_fmt in_a, tc_fmt in_b, tc_fmt out,
                             const tc_profile **out_profile);

/* The 1-bit forms (issue 33): op is TC_KIND_POPC_AND or TC_KIND_POPC_XOR, a and b are
 * b1 and c, d s32. The op is part of the form, as a scale is of the block-scaled kinds:
 * tc_profile_find and tc_profile_find_ab do not return these rows (TC_EUNSUPPORTED for
 * b1), since no op is the default. TC_EINVAL for another op or a NULL out_profile,
 * TC_EUNSUPPORTED where the arch and instruction lack the op (.xor.popc from Turing,
 * .and.popc from Ampere, mma only). */
tc_status tc_profile_find_popc(tc_arch a, tc_instr i, tc_kind op, const tc_profile **out_profile);

/* Block-scaled kinds (tcgen05 only): kind_name is "mxf8f6f4", "mxf4" or "mxf4nvf4";
 * scale_block 0 selects the kind's default (32, or 16 for mxf4nvf4). */
tc_status tc_profile_find_scaled(tc_arch a, tc_instr i, const char *kind_name,
                                 tc_fmt in, tc_fmt scale, unsigned scale_block,
                                 const tc_profile **out_profile);

/* The same with a in in_a and b in in_b (mxf8f6f4's mixed pairs: every pair of e4m3,
 * e5m2, e3m2, e2m3, e2m1); with in_a == in_b it is tc_profile_find_scaled.
 * TC_EUNSUPPORTED if there is none. */
tc_status tc_profile_find_scaled_ab(tc_arch a, tc_instr i, const char *kind_name,
                                    tc_fmt in_a, tc_fmt in_b, tc_fmt scale,
                                    unsigned scale_block, const tc_profile **out_profile);

/* Every row of the table, for listing: returns the row count, *rows the array. */
size_t tc_profile_table(const tc_profile **rows);

/* ----------------------------------------------------------- dot products */

/* d = c + sum_{i<k} a[i]*b[i], in the profile's arithmetic (k > L chains steps;
 * for fp8 emulation, blocks of 32). a: k bit patterns of p->in, b: of p->in_b;
 * c, d: p->out. The b1 kinds take one bit a word (0 or 1; more is TC_EFORMAT) and
 * give d = c + popcount(a AND b) or (a XOR b) over the k words.
 * Not for block-scaled profiles (use tc_dot_scaled). */
tc_status tc_dot(const tc_profile *p, size_t k, const uint32_t *a, const uint32_t *b,
                 uint32_t c, uint32_t *d);

/* n independent dot products of length k: case j uses a[j*k..], b[j*k..], c[j],
 * writes d[j]. Same results as n calls of tc_dot, faster. On a format error
 * *n_done (if not NULL) tells how many cases were finished before it; d beyond those
 * may have been written (cases run in groups), so its contents there are undefined. */
tc_status tc_dot_batch(const tc_profile *p, size_t n, size_t k, const uint32_t *a,
                       const uint32_t *b, const uint32_t *c, uint32_t *d, size_t *n_done);

/* Block-scaled dot product: k must be a multiple of p->scale_block; scale_a and
 * scale_b hold k / p->scale_block scale bit patterns each. */
tc_status tc_dot_scaled(const tc_profile *p, size_t k, const uint32_t *a, const uint32_t *b,
                        const uint32_t *scale_a, const uint32_t *scale_b, uint32_t c,
                        uint32_t *d);

/* Stage outputs of one FEDP step, named as the RTL stages (UNPACK, MUL, ALIGN, ADD,
 * NORM/ROUND), for debugging and for comparing with the RTL's stage registers. */
#define TC_MAX_L 64
/* Arrays are indexed by term position i < n; index TC_MAX_L holds c. */
typedef struct tc_fedp_trace {
    unsigned n_terms;            /* n products + c */
    int special;                 /* 0 none, 1 NaN, 2 +Inf, 3 -Inf */
    int prod_exp[TC_MAX_L + 1];  /* MUL: e_a + e_b (index L: c's exponent) */
    uint64_t prod_sig[TC_MAX_L + 1];
    int prod_sign[TC_MAX_L + 1];
    int prod_zero[TC_MAX_L + 1];
    int align_e;                 /* ALIGN: E after the Emin_align floor */
    int64_t align_t[TC_MAX_L + 1];/* ALIGN: signed truncated terms */
    int64_t add_sum;             /* ADD: exact integer sum (value = sum * 2^(E-F)) */
    uint32_t result;             /* ROUND: the step's result */
} tc_fedp_trace;

/* One FEDP step over n <= p->L products (missing terms are zero), c in p->out.
 * p must be a TC_KIND_FEDP profile. trace may be NULL. */
tc_status tc_fedp_step(const tc_profile *p, size_t n, const uint32_t *a, const uint32_t *b,
                       uint32_t c, uint32_t *d, tc_fedp_trace *trace);

/* The chaining of a dot product (k > L steps, the fp8 emulation's halves and final
 * addition) with each FEDP step delegated to `step` - e.g. the Verilated RTL. With
 * step = NULL the model's own tc_fedp_step is used, which is what tc_dot does.
 * The step is called with the profile that defines the step (tc_profile_step_of),
 * n <= L products in that profile's input formats (a in its in, b in its in_b), and c in
 * its output format. */
typedef tc_status (*tc_step_fn)(void *ctx, const tc_profile *step_profile, size_t n,
                                const uint32_t *a, const uint32_t *b, uint32_t c, uint32_t *d);
tc_status tc_dot_engine(const tc_profile *p, size_t k, const uint32_t *a, const uint32_t *b,
                        uint32_t c, uint32_t *d, tc_step_fn step, void *ctx);

/* The FEDP profile whose steps implement p: p itself for TC_KIND_FEDP, the arch's fp16
 * profile (same output format) for TC_KIND_FP8_EMU; TC_EUNSUPPORTED for other kinds. */
tc_status tc_profile_step_of(const tc_profile *p, const tc_profile **step_profile);

/* One IEEE addition x + y in float format f (fp32 or fp16) with rounding r: the
 * CUDA-core addition that ends the fp8 emulation. NaN results are canonical. */
tc_status tc_add(tc_fmt f, uint32_t x, uint32_t y, tc_round r, uint32_t *out);

/* ----------------------------------------------------------------- tiles */

/* D = A*B + C for an M x N x K tile, every element a tc_dot in k order 0..K-1.
 * A is M x K row-major, B is K x N row-major, C and D are M x N row-major. */
tc_status tc_mma_tile(const tc_profile *p, size_t M, size_t N, size_t K,
                      const uint32_t *A, const uint32_t *B, const uint32_t *C, uint32_t *D);

#include "tcsim_tmem.h"
#include "tcsim_tc.h"
#include "tcsim_bw.h"
#include "tcsim_gemm.h"
#include "tcsim_timing.h"
#include "tcsim_sim.h"
#include "tcsim_sparse.h" /* issue 33: mma.sp */
#include "tcsim_f64.h"

#ifdef __cplusplus
}
#endif
#endif /* TCSIM_H */
