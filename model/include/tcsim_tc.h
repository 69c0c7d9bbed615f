/*
 * tcsim_tc.h - the Volta tensor core: warp fragments, HMMA.884 sets and steps, and
 * the cycle-level timing of the tensor-core pipeline. Included by tcsim.h.
 *
 * Sources (facts only; the code is ours):
 *  - seed 001 (Raihan, Goli, Aamodt, "Modeling Deep Learning Accelerator Enabled
 *    GPUs"), sections III-B..IV: threadgroups (lanes 4g..4g+3), octets (threadgroup X
 *    and X+4, Table II), the sub-tiles each HMMA set and step reads and writes
 *    (Figure 10, Table III), the cumulative cycles per HMMA (Figure 9) and the
 *    microarchitecture (Figure 13: per-threadgroup A and C buffers, a B buffer shared
 *    by an octet, 16 four-term FEDPs per tensor core, two tensor cores per sub-core).
 *  - seed 002 (PTX ISA, mma.m8n8k4 .f16/.f32 fragments): the register layout of one
 *    HMMA.884 set. mma.m8n8k4 is one set; wmma.mma m16n16k16 is four, one per k slice.
 *
 * Coordinates: an operand is a logical matrix (A is M x K, B is K x N, C and D are
 * M x N), whatever its layout in memory; the layout only selects which element each
 * lane holds (Figure 7: A row-major is distributed as B column-major, and vice versa).
 * Fragments are per-lane arrays of element bit patterns, element i of lane l at
 * frag[l][i] in the order wmma's x[i] / mma's a_i, b_i, c_i list them. In the
 * registers, two fp16 elements share a 32-bit register (element 2r low, 2r+1 high).
 */
/* A part of tcsim.h: included on its own, it brings in tcsim.h, which includes it
 * back in its place (its declarations need tcsim.h's types, and tcsim.h its). */
#ifndef TCSIM_H
#include "tcsim.h"
#else
#ifndef TCSIM_TC_H
#define TCSIM_TC_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* ------------------------------------------------------------ shapes and fragments */

typedef enum tc_shape {
    TC_SHAPE_M16N16K16 = 0, /* wmma.mma m16n16k16: one 16x16x16 tile per warp */
    TC_SHAPE_M8N8K4,        /* mma.m8n8k4: four independent 8x8x4 tiles, one per octet */
    TC_SHAPE_COUNT
} tc_shape;

typedef enum tc_layout { TC_LAYOUT_ROW = 0, TC_LAYOUT_COL, TC_LAYOUT_COUNT } tc_layout;

typedef enum tc_operand {
    TC_OPERAND_A = 0,
    TC_OPERAND_B,
    TC_OPERAND_C,  /* C and D share one layout (D is written over C) */
    TC_OPERAND_COUNT
} tc_operand;

#define TC_WARP_LANES 32
#define TC_FRAG_MAX 16    /* elements per lane of the largest fragment (wmma A and B) */

const char *tc_shape_name(tc_shape s);            /* "m16n16k16", "m8n8k4"; NULL if bad */
tc_status tc_shape_parse(const char *name, tc_shape *out);
const char *tc_layout_name(tc_layout l);          /* "row", "col"; NULL if bad */
tc_status tc_layout_parse(const char *name, tc_layout *out);

/* M, N, K of one tile, and how many independent tiles a warp computes (1 or 4). */
tc_status tc_shape_dims(tc_shape s, unsigned *m, unsigned *n, unsigned *k, unsigned *tiles);

/* One kind of fragment. layout is ignored for C (the accumulator layout depends only on
 * its format); acc is the accumulator format, TC_FMT_FP32 or TC_FMT_FP16, and matters
 * only for C. Only arch TC_ARCH_VOLTA has fragments here (TC_EUNSUPPORTED otherwise). */
typedef struct tc_frag_spec {
    tc_arch arch;
    tc_shape shape;
    tc_operand op;
    tc_layout layout;
    tc_fmt acc;
} tc_frag_spec;

/* Where one fragment element lives: tile (the m8n8k4 computation, 0..3; 0 for
 * m16n16k16), and row, col in that tile's operand matrix. */
typedef struct tc_frag_elem {
    unsigned tile, row, col;
} tc_frag_elem;

/* Elements each lane holds (wmma A/B 16, C 8; m8n8k4 A/B 4, C 8). */
tc_status tc_frag_count(const tc_frag_spec *s, unsigned *n);

/* The element that lane `lane` holds at index i. TC_EINVAL for lane >= 32 or i >= count. */
tc_status tc_frag_map(const tc_frag_spec *s, unsigned lane, unsigned i, tc_frag_elem *e);

/* Whole-warp transfers between matrices and fragments (wmma.load / wmma.store).
 * mat holds `tiles` (tc_shape_dims) row-major matrices one after another, each of the
 * operand's logical size; frag[l][i] as above (unused entries untouched). Patterns are
 * not checked here: the arithmetic checks them. */
tc_status tc_frag_load(const tc_frag_spec *s, const uint32_t *mat,
                       uint32_t frag[TC_WARP_LANES][TC_FRAG_MAX]);
tc_status tc_frag_store(const tc_frag_spec *s, const uint32_t frag[TC_WARP_LANES][TC_FRAG_MAX],
                        uint32_t *mat);

/* ------------------------------------------------------------- HMMA sets and steps */

/* One warp-level MMA instruction on Volta. acc TC_FMT_FP32 is mixed precision (fp16
 * A, B; fp32 C, D: 4 steps per set), TC_FMT_FP16 is FP16 mode (2 steps per set). */
typedef struct tc_hmma_cfg {
    tc_shape shape;
    tc_layout a_layout, b_layout;
    tc_fmt acc;
} tc_hmma_cfg;

/* The HMMA.884 sequence: sets (4 for m16n16k16, one per k slice of 4; 1 for m8n8k4),
 * steps per set (4 mixed, 2 fp16), and beats per step: cycles a step occupies the
 * FEDPs, = outputs per threadgroup and step / FEDPs per threadgroup (8/4 = 2 mixed,
 * 16/4 = 4 fp16). TC_EINVAL / TC_EUNSUPPORTED for a bad configuration. */
tc_status tc_hmma_geometry(const tc_hmma_cfg *cfg, unsigned *sets, unsigned *steps,
                           unsigned *beats);

/* What threadgroup `half` (0: threadgroup X, 1: X+4) of every octet reads and writes in
 * (set, step), in the octet's coordinates (its A is 8 x K, its B K x 8, its C and D
 * 8 x 8; Table II places the octets). Figure 10 / Table III. */
typedef struct tc_hmma_access {
    unsigned k0;            /* k = k0 .. k0+3 */
    unsigned row0, rows;    /* rows of A, C and D */
    unsigned col0, cols;    /* columns of B, C and D */
    unsigned acc_pair;      /* the accumulator register pair (regs 2p, 2p+1) read and written */
} tc_hmma_access;
tc_status tc_hmma_access_of(const tc_hmma_cfg *cfg, unsigned set, unsigned step,
                            unsigned half, tc_hmma_access *out);

/* A warp's fragment registers for one instruction. c holds C on entry and D after the
 * last HMMA: every HMMA accumulates into its register pair in place, as HMMA.884 does
 * (Figure 9: R8 <- R8 + ...). */
typedef struct tc_warp_frags {
    uint32_t a[TC_WARP_LANES][TC_FRAG_MAX];
    uint32_t b[TC_WARP_LANES][TC_FRAG_MAX];
    uint32_t c[TC_WARP_LANES][TC_FRAG_MAX];
} tc_warp_frags;

/* Executes HMMA (set, step) on the fragments: every threadgroup fills its A buffer from
 * its own lanes, every octet its shared B buffer from both threadgroups, and each output
 * is one FEDP step of the volta profile for cfg->acc through `fn` (NULL: the model's
 * arithmetic, as tc_fedp_step, the HMMA's steps as one tc_dot_batch), its c from and its
 * d to the owning lane's accumulator element. On an error no accumulator is written. */
tc_status tc_hmma_exec(const tc_hmma_cfg *cfg, unsigned set, unsigned step,
                       tc_warp_frags *w, tc_step_fn fn, void *ctx);

/* Every HMMA of the instruction in order (set-major), as tc_hmma_exec. */
tc_status tc_hmma_run(const tc_hmma_cfg *cfg, tc_warp_frags *w, tc_step_fn fn, void *ctx);

/* D = A*B + C through the warp: load the fragments, run the HMMAs, store D. A, B, C, D
 * hold `tiles` logical matrices each (tc_shape_dims); D may not alias A or B. The
 * result equals, element by element, tc_dot of the volta profile in k order. */
tc_status tc_volta_mma(const tc_hmma_cfg *cfg, const uint32_t *A, const uint32_t *B,
                       const uint32_t *C, uint32_t *D);

/* ------------------------------------------------------------------------ timing */

/* Registers between an FEDP's inputs and its result: fedp.sv's default Depth, written
 * into rtl/tc_pkg.sv as FEDP_LATENCY by `tcsim emit-pkg` (at 4: MUL | ALIGN | ADD+CPA |
 * NORM+ROUND). The one number the model and rtl/fedp.sv share; tb/tensor_core checks the
 * Verilated fedp's LATENCY against it. fedp.sv takes 2..6; changing this changes the
 * tensor core's cycle behaviour with it. */
#define TC_FEDP_LATENCY 4

/* The tensor-core pipeline (Figure 13) that both timing.c and rtl/tensor_core.sv
 * build, cycle for cycle. An HMMA dispatched in cycle d:
 *   d .. d+F-1     operand fetch (F = operand_fetch): its register pairs are read from
 *                  the register file in cycle d, cross to the tensor core and are
 *                  written into the threadgroup A/C buffers and the octet B buffer at
 *                  the end of cycle d+F-1;
 *   d+F+j          beat j < E enters the FEDPs (E = beats: a step's 32 / steps outputs
 *                  of a half, fedps_per_tg a beat, rounded up; tc_hmma_geometry's for
 *                  the V100's 4);
 *   +fedp_latency  the beat's results leave the FEDPs;
 *   +f16_pack      (fp16 only) two fp16 results of consecutive beats are merged in a
 *                  register into one 32-bit register write;
 *   +writeback     result register, then the register-file write: the register is
 *                  readable from that cycle on.
 * The sequencer dispatches in order, one HMMA per cycle at most, when (1) the FEDPs
 * are free: the previous HMMA's beats are over (d >= d_prev + E_prev), and (2) the
 * accumulator pair it reads has no write pending from an earlier HMMA (the set before
 * wrote it: a scoreboard bit per pair, set at dispatch, cleared by the last write).
 *
 * Figure 9 counts cycles from a clock read before the first HMMA to a clock read after
 * HMMA n. Volta's compiler puts the wait a following instruction needs on the
 * instruction before it, so the read after HMMA n sees the cycle in which the next
 * HMMA can dispatch, and after the last HMMA the cycle in which D can be read:
 *   T(n) = issue_offset + d(n+1) - d(1),   T(last) = issue_offset + done - d(1).
 * issue_offset is the measurement's own delay from its first clock read to the first
 * dispatch; it is not part of the tensor core. */
typedef struct tc_volta_timing {
    unsigned operand_fetch;  /* F: register read, crossbar, buffer write (3) */
    unsigned fedp_latency;   /* TC_FEDP_LATENCY (4) */
    unsigned f16_pack;       /* fp16 pack register (1) */
    unsigned writeback;      /* result register, register-file write (2) */
    unsigned fedps_per_tg;   /* FEDPs per threadgroup: 16 per tensor core / 4 (4) */
    unsigned issue_offset;   /* Figure 9's first clock read to the first dispatch (8) */
} tc_volta_timing;

/* The values above. */
void tc_volta_timing_default(tc_volta_timing *t);

/* One HMMA of a trace. set and step count from 0 (Figure 9 prints SET1..4, STEP0..3). */
typedef struct tc_hmma_event {
    unsigned set, step;
    uint64_t dispatch;       /* cycle the sequencer dispatched it (the first is 0) */
    uint64_t first_beat;     /* cycle its beat 0 entered the FEDPs */
    uint64_t written;        /* first cycle in which its accumulator pair is readable */
    uint64_t cumulative;     /* Figure 9's cumulative cycles, T(n) above */
} tc_hmma_event;

/* Simulates, cycle by cycle, the pipeline above for one instruction: fills ev[0..n-1]
 * (cap >= number of HMMAs, else TC_ESHAPE) and *done (first cycle D is readable).
 * t NULL means tc_volta_timing_default. TC_EINVAL for operand_fetch, fedp_latency or
 * writeback outside 1 to 64, f16_pack above 64, fedps_per_tg outside 1 to 32, or
 * fedp_latency + f16_pack + writeback - 1 (the stages behind the FEDP inputs) above 64. */
tc_status tc_volta_hmma_timing(const tc_volta_timing *t, const tc_hmma_cfg *cfg,
                               tc_hmma_event *ev, size_t cap, size_t *n, uint64_t *done);

#ifdef __cplusplus
}
#endif
#endif /* TCSIM_TC_H */
#endif /* TCSIM_H */
