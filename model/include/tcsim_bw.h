/*
 * tcsim_bw.h - Blackwell tcgen05.mma over tensor memory, its array cost model, and the
 * convolutions of seed 003 (Algorithms 1-3) built on it. Included by tcsim.h.
 *
 * Sources (facts only; the code is ours): seed 003 sections 1.1-1.3 (operands: A in
 * tensor memory or shared memory, B in shared memory, D and the scale factors in tensor
 * memory; disable-output-lane; enable-input-d; the shapes of Table 11 and the scale
 * groups of Table 12; tcgen05.shift and Algorithms 1-3 for convolution).
 * The arithmetic is docs/contract.md through the blackwell tcgen05 profiles: every element
 * of D is one tc_dot / tc_dot_scaled call, nothing else computes.
 *
 * Operand rows. One instruction's K is one 256-bit row per matrix row: 8 words of 32
 * bits, element e of the row at bits [e*W, e*W+W) of the little-endian word sequence,
 * W the kind's container width (docs/blackwell_mma.md):
 *
 *   kind        a/b formats                      W   K   D
 *   f16         fp16, bf16                      16  16   fp32 (fp16 also for fp16)
 *   tf32        tf32                            32   8   fp32
 *   f8f6f4      e4m3 e5m2 e3m2 e2m3 e2m1         8  32   fp32, fp16
 *   i8          int8, uint8                      8  32   s32
 *   mxf8f6f4    e4m3 e5m2 e3m2 e2m3 e2m1         8  32   fp32, ue8m0 per 32
 *   mxf4        e2m1                             4  64   fp32, ue8m0 per 32
 *   mxf4nvf4    e2m1                             4  64   fp32, ue8m0 or ue4m3 per 16
 *
 * (fp6 and fp4 sit in the low bits of an 8-bit container for f8f6f4, as PTX unpacks
 * them; mxf4 packs two e2m1 per byte.) A and B each have a format, as the instruction
 * descriptor has an A type and a B type: f8f6f4 and mxf8f6f4 take any pair of their
 * five formats (fp4 weights times fp8 activations), i8 any pair of int8 and uint8, the
 * other kinds one format for both (docs/contract.md, "Mixed A and B formats").
 *
 * Tensor-memory layout of an instruction:
 *  - row i of A and of D lives in lane tc_bw_lane_of_row(M, i): lane i for M = 128;
 *    for M = 64, lanes 0-15 of each 32-lane group (i / 16 * 32 + i % 16), so that all
 *    four sub-core arrays share the rows, as PTX's M = 64 data path does;
 *  - A from tensor memory: the 8 columns a_col .. a_col+7 of that lane;
 *  - D: column d_col + j holds D[i][j] (one element per 32-bit word; an fp16 D sits in
 *    the low 16 bits); columns wrap at 512 as in tcsim_tmem.h;
 *  - scale factors (block-scaled kinds): byte g of word (lane of row i, sfa_col) is
 *    A's scale for K-block g; byte g of word (lane n % 128, sfb_col + n / 128) is B's
 *    scale for column n. (A model choice: PTX's exact scale-factor layout is not in
 *    the seed.)
 * Shared-memory operands are rows of 8 words: row m of A, and row n of B^T (column n
 * of B, its K elements), each at words + row * row_stride.
 */
/* A part of tcsim.h: included on its own, it brings in tcsim.h, which includes it
 * back in its place (its declarations need tcsim.h's types, and tcsim.h its). */
#ifndef TCSIM_H
#include "tcsim.h"
#else
#ifndef TCSIM_BW_H
#define TCSIM_BW_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* ------------------------------------------------------------- the instruction */

typedef enum tc_bw_kind {
    TC_BW_F16 = 0, TC_BW_TF32, TC_BW_F8F6F4, TC_BW_I8,
    TC_BW_MXF8F6F4, TC_BW_MXF4, TC_BW_MXF4NVF4, TC_BW_KIND_COUNT
} tc_bw_kind;

#define TC_BW_ROW_WORDS 8     /* one operand row of one instruction: 256 bits */
#define TC_BW_MAX_K 64        /* mxf4 */
#define TC_BW_MAX_N 256

const char *tc_bw_kind_name(tc_bw_kind k);             /* "f16", ...; NULL if bad */
tc_status tc_bw_kind_parse(const char *name, tc_bw_kind *out);
/* K of one instruction and the container width W of one element (table above). */
tc_status tc_bw_kind_dims(tc_bw_kind k, unsigned *K, unsigned *W);

/* The profile of (kind, in, out, scale): the blackwell tcgen05 row the instruction's
 * arithmetic is, A and B both in `in`. scale is ignored for kinds without scale factors;
 * scale_block 0 is the kind's default. TC_EUNSUPPORTED for a combination the table of
 * the header does not list. */
tc_status tc_bw_profile(tc_bw_kind k, tc_fmt in, tc_fmt out, tc_fmt scale,
                        const tc_profile **out_profile);
/* The same with A in in_a and B in in_b (with in_a == in_b it is tc_bw_profile): the
 * pairs are the kind's (table above; the profile's in and in_b are in_a and in_b).
 * TC_EUNSUPPORTED for a pair the kind lacks (e.g. fp16 x bf16, e4m3 x int8), as for
 * any combination without a profile. */
tc_status tc_bw_profile_ab(tc_bw_kind k, tc_fmt in_a, tc_fmt in_b, tc_fmt out, tc_fmt scale,
                           const tc_profile **out_profile);

/* Element e of a 256-bit row / store value v there (v must fit W bits). */
uint32_t tc_bw_row_get(const uint32_t row[TC_BW_ROW_WORDS], unsigned W, unsigned e);
void tc_bw_row_set(uint32_t row[TC_BW_ROW_WORDS], unsigned W, unsigned e, uint32_t v);

/* Lane of row i of A / D for an M (64 or 128) instruction; 128 (no lane) if bad. */
unsigned tc_bw_lane_of_row(unsigned M, unsigned i);

typedef struct tc_bw_smem {
    const uint32_t *words;
    size_t row_stride;      /* words from one row to the next, >= TC_BW_ROW_WORDS */
} tc_bw_smem;

typedef struct tc_bw_mma_desc {
    tc_bw_kind kind;
    tc_fmt in;              /* format of A (and of B unless in_b says otherwise) */
    tc_fmt out;             /* format of D (fp32, fp16, s32) */
    tc_fmt scale;           /* block-scaled kinds: ue8m0 or ue4m3 */
    unsigned M, N;          /* 64 or 128; 8..256 in steps of 8 */
    unsigned d_col;         /* D: columns d_col .. d_col + N - 1 */
    int a_tmem;             /* 1: A in tensor memory at a_col; 0: A in a_smem */
    unsigned a_col;
    tc_bw_smem a_smem;      /* M rows */
    tc_bw_smem b_smem;      /* N rows (columns of B) */
    unsigned sfa_col, sfb_col;  /* scale-factor columns (block-scaled kinds) */
    uint32_t disable[TC_TMEM_LANES / 32]; /* disable-output-lane: bit l%32 of word l/32 */
    int enable_input_d;     /* 1: D = A*B + D; 0: D = A*B */
    /* Format of B. TC_FMT_FP32 (0: what a zero-initialised or memset descriptor holds)
     * means "the same as in": no kind takes fp32 operands, so 0 names no B format, and
     * a descriptor written before B had a field of its own keeps its meaning. Last, so
     * that the fields before it keep their offsets. tc_bw_mma_in_b resolves it. */
    tc_fmt in_b;
} tc_bw_mma_desc;

/* B's format of an instruction: d->in_b, or d->in where in_b is TC_FMT_FP32 (0). */
tc_fmt tc_bw_mma_in_b(const tc_bw_mma_desc *d);

/* What one instruction cost in the array model (tc_bw_mma_cost). */
typedef struct tc_bw_cost {
    uint64_t array_passes;  /* cycles the FEDP array computes */
    uint64_t tmem_cycles;   /* tensor-memory requests: A, C reads, D writes, scales */
    uint64_t smem_rows;     /* 256-bit rows read from shared memory (A and B) */
    uint64_t smem_cycles;   /* those rows at TC_BW_SMEM_BYTES_PER_CYCLE */
    uint64_t cycles;        /* issue to next issue: the busiest of the three */
} tc_bw_cost;

/* One tcgen05.mma: reads A, B, C (when enable_input_d) and the scale factors, computes
 * every D[i][j] with tc_dot / tc_dot_scaled in the profile of tc_bw_profile_ab (A in
 * in, B in tc_bw_mma_in_b), and writes D back through the tensor memory's D port with
 * the disable-output-lane mask (lanes outside the M rows are never written either).
 * cost may be NULL. The memory must be idle. TC_ESHAPE for a bad M or N,
 * TC_EUNSUPPORTED for a bad kind/format mix or an A/B pair the kind lacks, TC_EFORMAT
 * for an element with bits above its own operand's format width in its container (an
 * e2m1 B beside an e4m3 A may hold 4 bits only): in any row of B, in a row of A only
 * when its lane is enabled (a disabled lane's row is not read). On an error nothing is
 * written. */
tc_status tc_bw_mma(tc_tmem *t, const tc_bw_mma_desc *d, tc_bw_cost *cost);

/* An engine that runs one instruction in place of tc_bw_mma (e.g. the Verilated RTL);
 * it must leave the tensor memory as tc_bw_mma would and may fill cost. */
typedef tc_status (*tc_bw_mma_fn)(void *ctx, tc_tmem *t, const tc_bw_mma_desc *d,
                                  tc_bw_cost *cost);

/* ------------------------------------------------------------- the array model */

/* The modelled SM (docs/blackwell_mma.md): four sub-core tensor cores, one per
 * 32-lane group, each an 8 x 8 grid of FEDP units that completes one K-step of the
 * instruction for an 8 x 8 block of D per cycle (seed 003 Table 11: 8x8x16 f16,
 * 8x8x8 tf32, 8x8x32 f8f6f4/i8, 8x8x64 mxf4). Shared memory delivers 128 bytes (four
 * 256-bit rows) per cycle. */
#define TC_BW_SUBCORES 4
#define TC_BW_ARRAY_ROWS 8
#define TC_BW_ARRAY_COLS 8
#define TC_BW_SMEM_BYTES_PER_CYCLE 128
#define TC_BW_FEDPS (TC_BW_SUBCORES * TC_BW_ARRAY_ROWS * TC_BW_ARRAY_COLS)

/* Cost of an M x N instruction: array passes = (M / 4 / 8) * (N / 8); smem cycles =
 * ceil(smem_rows / 4); cycles = max(passes, tmem_cycles, smem_cycles). tmem_cycles is
 * what the tensor-memory model charged for the instruction's requests. */
tc_status tc_bw_mma_cost(unsigned M, unsigned N, uint64_t smem_rows, uint64_t tmem_cycles,
                         tc_bw_cost *out);

/* ------------------------------------------------------------- convolution */

typedef enum tc_conv_algo {
    TC_CONV_DIRECT = 1,     /* Algorithm 1: direct loops, one tc_dot per tap and chunk */
    TC_CONV_PER_TAP = 2,    /* Algorithm 2: one MMA per filter tap, every row loaded */
    TC_CONV_SHIFT = 3       /* Algorithm 3: activation reuse with tcgen05.shift */
} tc_conv_algo;

typedef struct tc_conv_shape {
    unsigned n, h, w, c;    /* activations NHWC */
    unsigned k, r, s;       /* weights KRSC */
    unsigned stride, pad, dilation; /* the same in H and W */
} tc_conv_shape;

/* Output height P and width Q; TC_ESHAPE if the filter does not fit, a size is 0, or
 * P or Q would not fit an unsigned. */
tc_status tc_conv_out_dims(const tc_conv_shape *sh, unsigned *P, unsigned *Q);

typedef struct tc_conv_args {
    tc_conv_shape shape;
    tc_bw_kind kind;        /* f16, tf32, f8f6f4 or i8 */
    tc_fmt in, out;         /* in: the activations' (A's) format, and the weights' unless
                               in_b says otherwise */
    tc_conv_algo algo;
    unsigned banks;         /* tensor-memory organization: 8 or 4 (0: 8) */
    tc_bw_mma_fn mma;       /* NULL: tc_bw_mma */
    void *mma_ctx;
    tc_fmt in_b;            /* the weights' (B's) format; TC_FMT_FP32 (0) is "as in", as
                               tc_bw_mma_desc's in_b; a pair as the kind's (f8f6f4, i8) */
} tc_conv_args;

typedef struct tc_conv_stats {
    uint64_t smem_row_loads;  /* activation rows copied from shared to tensor memory */
    uint64_t shifts;          /* tcgen05.shift requests */
    uint64_t mmas;            /* tcgen05.mma instructions */
    uint64_t cycles;          /* the whole convolution on the modelled SM */
    uint64_t array_passes;    /* cycles the FEDP array computed */
    uint64_t weight_rows;     /* weight rows the MMAs read from shared memory */
} tc_conv_stats;

/* Algorithms 2 and 3 keep a tile's whole D (K columns, rounded up to 8) in tensor
 * memory beside the two 8-column A windows: K up to this. Algorithm 1 has no limit. */
#define TC_CONV_MMA_MAX_K (TC_TMEM_COLS - 2 * TC_TMEM_SLICE)

/* O = conv(A, W): act is N*H*W*C words (NHWC) and wgt K*R*S*C (KRSC), bit patterns of
 * `in` (TC_EFORMAT, for every algorithm, if one is wider than `in`); out gets N*P*Q*K
 * words (NPQK) of `out`; TC_ESHAPE for K above TC_CONV_MMA_MAX_K in algorithms 2, 3. All three algorithms give the same bits:
 * each output is +0 followed by one FEDP step per (r, channel chunk of K, s) in that
 * order, over the chunk's channels, for the taps whose input position is inside the
 * image (a tap in the padding contributes no step: the MMA masks that lane). stats may
 * be NULL; Algorithm 1 leaves its counters at zero. */
tc_status tc_conv(const tc_conv_args *args, const uint32_t *act, const uint32_t *wgt,
                  uint32_t *out, tc_conv_stats *stats);

/* Tame random bit patterns of format f (finite, exponents near 0, both signs; integer
 * formats uniformly) from a 64-bit seed: for tests and `tcsim conv`. */
tc_status tc_random_fill(tc_fmt f, uint64_t seed, size_t n, uint32_t *out);

/* FNV-1a (64-bit) over the words, four bytes each, little-endian: `tcsim conv`'s
 * checksum of its output bits. */
uint64_t tc_checksum_words(const uint32_t *w, size_t n);

#ifdef __cplusplus
}
#endif
#endif /* TCSIM_BW_H */
#endif /* TCSIM_H */
