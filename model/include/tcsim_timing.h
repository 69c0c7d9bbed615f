/*
 * tcsim_timing.h - instruction timing of tensor cores across GPUs, from one
 * parameterized structure. Included by tcsim.h.
 *
 * The structure (docs/timing.md derives it from seeds 001 and 004):
 *  - an SM has `subcores` sub-cores; a warp runs on one of them (warp w on w mod subcores)
 *    and each sub-core has `tc_per_subcore` tensor cores of `fedps_per_tc` FEDPs;
 *  - an FEDP sums `fedp_len16` products of 16-bit inputs a cycle; its length scales with
 *    the input width (half for tf32, twice for 8-bit, four times for 4-bit), and an fp32
 *    accumulator divides the rate by `acc32_rate_div` (GeForce parts: 2);
 *  - an mma instruction is `steps` k-steps of m x n x k_step, k_step = step_k16 * 16 /
 *    input bits (k8 for fp16, k4 for tf32, k16 for int8); a sparse (2:4) mma runs as the
 *    dense instruction of half its k, on twice the products;
 *  - the issue interval (cycles the sub-core's tensor cores are busy with one
 *    instruction) is steps * m*n*k_step / rate + `ii_extra` (+ `sparse_ii_extra` for a
 *    sparse instruction), at least `ii_min` (`sparse_ii_min` for sparse instructions);
 *  - the latency from issue to the result being readable is
 *      depth + ceil(m / drain_rows) + (steps-1) * max(step_fwd, beats of a step)
 *      + acc32_extra (fp32 accumulator only)
 *    where `step_fwd` is the forwarding delay of one k-step's sum into the next;
 *  - with acc32_rate_div > 1 only the fp32 accumulator stage is slower: the front end
 *    (operand fetch, multipliers) is busy `front_interval` = the 16-bit rate's interval
 *    and takes an instruction while the accumulator's backlog is at most
 *    acc32_buffer front passes (tc_unit_next_take; Turing 1, seed 001 Table I).
 * Volta (arch volta) also carries the HMMA pipeline of tcsim_tc.h (tc_volta_timing),
 * which reproduces seed 001 Figure 9 exactly; its wmma/m8n8k4 latencies come from it.
 *
 * The parameters of every GPU are in model/data/timing.txt, embedded in the library at
 * build time (no file is opened at run time); tc_gpu_timing_parse reads the same text
 * format from a caller's string, for GPUs the table does not have.
 * This part of the model does no arithmetic on values, only on cycles.
 */
/* A part of tcsim.h: included on its own, it brings in tcsim.h, which includes it
 * back in its place (its declarations need tcsim.h's types, and tcsim.h its). */
#ifndef TCSIM_H
#include "tcsim.h"
#else
#ifndef TCSIM_TIMING_H
#define TCSIM_TIMING_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

#define TC_GPU_NAME_MAX 24

/* One GPU's parameters (one line of timing.txt). */
typedef struct tc_gpu_timing {
    char name[TC_GPU_NAME_MAX];  /* "a100", "rtx3070ti", "rtx2080ti", "v100" */
    tc_arch arch;
    unsigned subcores;           /* sub-cores (processing blocks) per SM */
    unsigned tc_per_subcore;     /* tensor cores per sub-core */
    unsigned fedps_per_tc;       /* FEDPs per tensor core */
    unsigned fedp_len16;         /* products per FEDP and cycle, 16-bit inputs */
    unsigned acc32_rate_div;     /* rate divisor with an fp32 accumulator (1 or 2) */
    unsigned step_k16;           /* k of one instruction step, 16-bit inputs */
    unsigned depth;              /* pipeline cycles every instruction pays */
    unsigned drain_rows;         /* result rows written back per cycle */
    unsigned step_fwd;           /* forwarding delay of a k-step's sum into the next */
    unsigned acc32_extra;        /* extra latency with an fp32 accumulator */
    unsigned ii_min;             /* shortest issue interval of an instruction */
    unsigned sparse_ii_min;      /* shortest issue interval of a sparse instruction */
    unsigned warp_overhead;      /* a warp's own cycles between two loop iterations of the
                                    seed-004 microbenchmark (loop, __syncwarp): a property
                                    of that benchmark's code, not of the tensor core */
    unsigned measure_offset;     /* seed 001's first clock read to the first HMMA */
    tc_volta_timing volta;       /* arch volta: the HMMA pipeline (tcsim_tc.h) */
    /* appended in 0.2 (fields are only appended: earlier offsets stay) */
    unsigned acc32_buffer;       /* front-end passes the front end may run ahead of a
                                    slower (fp32, acc32_rate_div > 1) accumulator stage:
                                    Turing 1 (seed 001 Table I FP32-acc rows) */
    /* appended in 0.3 */
    unsigned uncalibrated;       /* bit i: key i (tc_gpu_timing_key) was written "~VALUE"
                                    in the text: assumed, backed by no measurement */
    /* appended in 0.4 */
    unsigned async_wait;         /* an asynchronous MMA (wgmma, tcgen05.mma): cycles from its
                                    last result to the wait that returns it to the issuing
                                    warps (wgmma.wait_group, the mbarrier of
                                    tcgen05.commit), fence and commit included; optional
                                    in a record (0 when absent) */
    /* appended in 0.5 (optional in a record: 0 when absent) */
    unsigned ii_extra;           /* cycles an mma.sync instruction holds its sub-core's
                                    tensor cores beyond its steps' beats (H200: 2; wgmma
                                    and tcgen05.mma pay none) */
    unsigned sparse_ii_extra;    /* more cycles again for a sparse (mma.sp) one (H200: 2) */
} tc_gpu_timing;

/* The name of key i of timing.txt ("subcores", ...), the key bit i of
 * tc_gpu_timing.uncalibrated stands for; NULL past the last key. */
const char *tc_gpu_timing_key(unsigned i);

/* The i-th GPU of the built-in table (0, 1, ...), copied into *out; TC_EUNSUPPORTED
 * past the end. */
tc_status tc_gpu_timing_get(size_t i, tc_gpu_timing *out);

/* A GPU of the built-in table by name ("a100") or by architecture name ("ampere": the
 * table's first GPU of that arch), copied into *out. TC_EUNSUPPORTED if none. */
tc_status tc_gpu_timing_find(const char *name, tc_gpu_timing *out);

/* Parses the GPU called `name` from `text` in timing.txt's format (lines of
 * "gpu NAME key value key value ..."; '#' starts a comment). TC_EUNSUPPORTED if the
 * text has no such GPU, TC_EINVAL for a malformed line, an unknown key, a missing key,
 * a key given twice in a record or a value out of range. A value is a decimal number of at most 10 digits from 0 to
 * its key's limit: 16 for acc32_rate_div and acc32_buffer, 32 for volta_fedps_per_tg,
 * 64 for subcores, tc_per_subcore and the other volta_* keys, 256 for fedp_len16,
 * step_k16 and drain_rows, 4096 for fedps_per_tc, 100000 for the rest (cycles);
 * subcores, tc_per_subcore, fedps_per_tc, fedp_len16, acc32_rate_div, step_k16,
 * drain_rows, ii_min and sparse_ii_min are at least 1; on arch volta the volta_* keys
 * must also be a pipeline tc_volta_hmma_timing runs (tcsim_tc.h). A name has at most
 * TC_GPU_NAME_MAX - 1 characters. A value written "~VALUE" (e.g. "depth ~14") is read
 * as VALUE and marked uncalibrated (the uncalibrated field). */
tc_status tc_gpu_timing_parse(const char *text, const char *name, tc_gpu_timing *out);

/* One tensor-core instruction, as timing sees it: its shape and formats. */
typedef struct tc_mma_op {
    unsigned m, n, k;            /* mma.m16n8k16: 16, 8, 16; wmma 16x16x16 on volta */
    tc_fmt in;                   /* format of a and b (fp16, bf16, tf32, int8, ...) */
    tc_fmt acc;                  /* format of c and d (fp32, fp16, s32) */
    int sparse;                  /* mma.sp: a is 2:4 sparse (k counts the dense k) */
} tc_mma_op;

/* Parses "m16n8k16" into m, n, k. */
tc_status tc_mma_shape_parse(const char *s, unsigned *m, unsigned *n, unsigned *k);

/* The PTX instructions a GPU runs (added in 0.2.3). The structure times any shape its
 * formats allow; these say which of them a target has as an instruction, so that a
 * caller can tell a GPU's instructions from the structure's what-ifs (docs/timing.md).
 * Rows: the PTX ISA's mma, mma.sp and wmma forms over tc_fmt (pairs of a and b formats,
 * the b1 ops too),
 * each with the first target that has it; model/test/timing/ptx_targets_check.py holds
 * every row against ptxas. */
typedef enum tc_ptx_form {
    TC_PTX_MMA = 0,              /* mma.sync */
    TC_PTX_MMA_SP,               /* mma.sp.sync: 2:4 sparse a, k the dense k */
    TC_PTX_WMMA,                 /* wmma.mma.sync */
    TC_PTX_FORM_COUNT
} tc_ptx_form;
typedef struct tc_ptx_instr {
    tc_ptx_form form;
    unsigned m, n, k;
    tc_fmt in, acc;
    unsigned sm;                 /* first target: 80 for sm_80; every later one has it */
    /* appended for issue 33 (every arithmetic form): */
    tc_fmt in_b;                 /* format of b: in, but for the mixed pairs (int8 x
                                    uint8, e4m3 x e5m2) */
    tc_kind op;                  /* the b1 rows: TC_KIND_POPC_AND or TC_KIND_POPC_XOR
                                    (.and.popc, .xor.popc); 0 for every other row */
} tc_ptx_instr;
/* The i-th row (0, 1, ...); TC_EUNSUPPORTED past the end, TC_EINVAL for a NULL out. */
tc_status tc_ptx_instr_get(size_t i, tc_ptx_instr *out);
/* The row of op as wmma (wmma nonzero) or as mma / mma.sp (op->sparse); TC_EUNSUPPORTED
 * if PTX has no such instruction, TC_EINVAL for a NULL pointer or a sparse wmma. op has
 * one format: the rows with b in a's format answer (for b1, the first op listed,
 * .xor.popc, the one every target with b1 has); tc_ptx_lookup names a pair or an op. */
tc_status tc_ptx_find(const tc_mma_op *op, int wmma, tc_ptx_instr *out);
/* The row whose every field but sm is key's (form, shape, in, in_b, acc, op): the pairs
 * and the b1 ops (issue 33). TC_EUNSUPPORTED if PTX has no such instruction, TC_EINVAL
 * for a NULL pointer. */
tc_status tc_ptx_lookup(const tc_ptx_instr *key, tc_ptx_instr *out);
/* The PTX target of an arch, as tc_ptx_instr.sm counts it (volta 70, turing 75, ampere
 * 80, ada 89, hopper 90, blackwell 100); 0 for a value that is no tc_arch. An
 * instruction is one of the arch's when its row's sm is at most this. */
unsigned tc_arch_ptx_sm(tc_arch a);
/* "mma", "mma.sp", "wmma"; "?" for a value that is no tc_ptx_form. */
const char *tc_ptx_form_name(tc_ptx_form f);

/* What one instruction costs on one sub-core. */
typedef struct tc_op_timing {
    unsigned steps;              /* k-steps */
    unsigned beats;              /* cycles one step keeps the tensor cores busy */
    unsigned issue_interval;     /* cycles the accumulator stage is busy: the steady-state
                                    interval between two instructions of a sub-core */
    unsigned latency;            /* cycles from the accumulator starting it (the issue
                                    cycle unless it is still busy) to the result being
                                    readable */
    uint64_t fmas;               /* m*n*k multiply-adds (dense count for sparse; 4*m*n*k
                                    for Volta's mma.m8n8k4, one 8x8x4 per quad pair) */
    /* appended in 0.2 (fields are only appended: earlier offsets stay) */
    unsigned front_interval;     /* cycles the front end (operand fetch, multipliers) is
                                    busy; < issue_interval only for a slower fp32
                                    accumulator (acc32_rate_div > 1) */
    unsigned acc_slack;          /* cycles of accumulator backlog the front end takes an
                                    instruction over (acc32_buffer * front_interval) */
} tc_op_timing;

/* TC_ESHAPE for an m, n or k of 0 or above 4096, a shape that is not a whole number of
 * steps, or one whose cycles do not fit an unsigned; TC_EUNSUPPORTED for a format the structure has no width for, or an
 * instruction the arch does not have (no tc_profile_find profile for its formats), or
 * mma.m8n8k4 off Volta (four 8x8x4 products, one per quad pair, that only Volta's
 * pipeline models: Ampere runs them off the tensor cores, seed 004 Fig. 3);
 * TC_EINVAL for parameters outside what tc_gpu_timing_parse accepts. On volta,
 * m16n16k16 and m8n8k4 (fp16 inputs) come from the HMMA pipeline (tc_volta_hmma_timing). */
tc_status tc_op_timing_of(const tc_gpu_timing *g, const tc_mma_op *op, tc_op_timing *out);

/* One sub-core's tensor cores as two stages (front end, accumulator), for a host or
 * simulator that issues instructions to it; all-zero is idle. */
typedef struct tc_unit_state {
    uint64_t front_free;         /* first cycle the front end takes an instruction */
    uint64_t acc_free;           /* first cycle the accumulator stage is free */
} tc_unit_state;

/* The first cycle >= now at which the sub-core takes an instruction of timing *t:
 * the front end is free and the accumulator's backlog is at most t->acc_slack. */
uint64_t tc_unit_next_take(const tc_unit_state *u, const tc_op_timing *t, uint64_t now);

/* The sub-core takes the instruction at cycle now (>= tc_unit_next_take): updates *u and
 * returns the cycle its result is readable (latency after the accumulator starts it). */
uint64_t tc_unit_take(tc_unit_state *u, const tc_op_timing *t, uint64_t now);

/* Seed 004's microbenchmark replayed through the cycle-level simulator (tcsim_sim.h):
 * `warps` warps on one SM, each running `iters` iterations of `ilp` independent mma
 * (each accumulating into its own registers, so iteration i+1's j-th mma waits for
 * iteration i's), then the loop's own instructions (warp_overhead cycles). */
typedef struct tc_bench_result {
    uint64_t cycles;             /* until the last warp's last result */
    uint64_t latency_x10;        /* cycles per iteration of the slowest warp, x10, rounded */
    uint64_t fma_per_clk_x10;    /* FMA per cycle and SM, x10, rounded */
} tc_bench_result;
/* TC_EINVAL for warps 0 or above 64, ilp 0 or above 16, iters 0 or above 10^6;
 * otherwise tc_op_timing_of's status for op. */
tc_status tc_bench_mma(const tc_gpu_timing *g, const tc_mma_op *op, unsigned warps,
                       unsigned ilp, unsigned iters, tc_bench_result *out);

/* tc_bench_mma that reports how far it is: progress(ctx, done, total) from the calling
 * thread each time the mma completed, done of total = warps * ilp * iters, reach a
 * further hundredth of total (at most 100 calls; a run that succeeds ends with done ==
 * total, one refused by its arguments makes none). A large run (64 warps x ILP 16 x 10^6
 * iterations is 10^9 mma) takes minutes. progress may be NULL: then it is tc_bench_mma. */
typedef void (*tc_bench_progress_fn)(void *ctx, uint64_t done, uint64_t total);
tc_status tc_bench_mma_progress(const tc_gpu_timing *g, const tc_mma_op *op, unsigned warps,
                                unsigned ilp, unsigned iters, tc_bench_progress_fn progress,
                                void *ctx, tc_bench_result *out);

/* Seed 001 Table I: one wmma of `op` (16-bit inputs: four m16n8k8 HMMAs on two
 * accumulators, the second k half after the first; 8-bit: four independent m8n8k16)
 * issued by one warp; cum[s] is the cumulative cycles read after HMMA s (the cycle the
 * next one issues, after the last the cycle D is readable), plus measure_offset.
 * *n = HMMAs (<= cap). TC_ESHAPE for a shape that is not a whole number of HMMAs (on
 * Volta: not 16x16x16), of more than 64 HMMAs or of more than cap. */
tc_status tc_wmma_cumulative(const tc_gpu_timing *g, const tc_mma_op *op, uint64_t *cum,
                             size_t cap, size_t *n);

/* ------------------------------------------------ asynchronous instructions */

/* Hopper's wgmma.mma_async: one warpgroup (4 warps, one per sub-core) computes
 * m64 x n x k, each sub-core the 16 rows of its warp, A from registers or shared memory
 * and B from shared memory. Shapes: m 64, n 8..256 in steps of 8, k the instruction's
 * (32 bytes of input: k16 for 16-bit, k8 for tf32, k32 for 8-bit; op->sparse doubles it
 * and runs as the dense k, as mma.sp does). On each sub-core it is the structure's
 * instruction m16 x n x k (steps, beats, issue interval as tc_op_timing_of); its result
 * is readable
 *     depth + ceil(16 / drain_rows) + (steps-1) * max(step_fwd, beats) + beats
 * after the sub-cores start it: unlike a small mma, whose beats hide under the pipeline's
 * depth, a wgmma streams n/8 column blocks and its last row leaves after the last beat.
 * TC_EUNSUPPORTED for an arch without wgmma (tc_profile_find) or formats it lacks,
 * TC_ESHAPE for a shape PTX does not have, TC_EINVAL for bad parameters. */
tc_status tc_wgmma_timing_of(const tc_gpu_timing *g, const tc_mma_op *op, tc_op_timing *out);

/* Blackwell's tcgen05.mma through the array model (tcsim_bw.h, tc_bw_mma_cost): issued by
 * one thread for the CTA (cta_group 1: M 64 or 128) or for a CTA pair (cta_group 2:
 * M 128 or 256, each SM computing M/2 rows and holding half of B); n 8..256 in steps
 * of 8 (16 for M 128 per SM), k the instruction's (32 bytes: k16 for 16-bit, k8 tf32,
 * k32 8-bit). a_tmem: A from tensor memory (else shared memory, which then also streams
 * A's rows). One SM's part: issue_interval = the cost's cycles (array passes, or shared
 * memory when that is slower), latency = those cycles + depth (the array's last pass to
 * D in tensor memory and the commit's arrive; uncalibrated on every GPU so far),
 * fmas = the SM's share of m*n*k. TC_EUNSUPPORTED off Blackwell. */
tc_status tc_tcgen05_timing_of(const tc_gpu_timing *g, const tc_mma_op *op,
                               unsigned cta_group, int a_tmem, tc_op_timing *out);

/* One SM's asynchronous tensor-core operations, for a host that issues them and waits
 * as a kernel does: wgmma per warpgroup with wgmma.fence, commit_group and wait_group N;
 * tcgen05.mma from the CTA's issuing thread with tcgen05.commit to an mbarrier. The
 * handle's clock starts at 0 and only tc_async_tick moves it; an operation happens at the
 * current cycle. The tensor cores take the operations in issue order, each when the
 * sub-cores (wgmma) or the array (tcgen05) are done with the one before: issuing never
 * stalls (the queue is the hardware's), waiting does. Cycles only, no data. */
typedef struct tc_async tc_async;
enum { TC_ASYNC_WARPGROUPS = 16, TC_ASYNC_GROUPS = 64, TC_ASYNC_BARRIERS = 16 };

/* TC_EINVAL for a NULL or bad g (tc_gpu_timing_check), TC_ENOMEM. */
tc_status tc_async_create(const tc_gpu_timing *g, tc_async **out);
void tc_async_destroy(tc_async *a);
/* Advances the clock by cycles (0: none); *now (may be NULL) the cycle it is then.
 * TC_EINVAL past 2^62. */
tc_status tc_async_tick(tc_async *a, uint64_t cycles, uint64_t *now);

/* wgmma.fence of warpgroup wg (< TC_ASYNC_WARPGROUPS): its register writes are ordered
 * before its next wgmma. PTX requires one before a warpgroup's first wgmma and after it
 * touched the accumulators, which the handle takes to be after each wait: a wgmma with
 * no fence since the warpgroup's last wait (or ever) is TC_EINVAL. TC_EBUSY while the
 * warpgroup is still waiting (before the cycle its last wait returned). */
tc_status tc_async_wgmma_fence(tc_async *a, unsigned wg);
/* wgmma.mma_async: queued at the current cycle into wg's open group; *ready (may be NULL)
 * is the cycle its result will be readable. Statuses of tc_wgmma_timing_of; TC_EINVAL
 * without a fence; TC_EBUSY while the warpgroup waits. */
tc_status tc_async_wgmma(tc_async *a, unsigned wg, const tc_mma_op *op, uint64_t *ready);
/* wgmma.commit_group: the open wgmmas (possibly none) become one group. TC_EBUSY with
 * TC_ASYNC_GROUPS groups pending or while the warpgroup waits. */
tc_status tc_async_wgmma_commit(tc_async *a, unsigned wg);
/* wgmma.wait_group n: *at = the first cycle (>= now) at which at most n of wg's committed
 * groups are pending. The warpgroup is blocked until then (its fence, wgmma and commit
 * are TC_EBUSY); the groups it waited for are retired. Uncommitted wgmmas are not
 * waited for (as in PTX). */
tc_status tc_async_wgmma_wait(tc_async *a, unsigned wg, unsigned n, uint64_t *at);

/* tcgen05.mma of one CTA (cta_group 1) or of this SM's half of a pair (2), queued at the
 * current cycle; *ready (may be NULL) as above. Statuses of tc_tcgen05_timing_of. */
tc_status tc_async_tcgen05_mma(tc_async *a, const tc_mma_op *op, unsigned cta_group,
                               int a_tmem, uint64_t *ready);
/* tcgen05.commit to mbarrier bar (< TC_ASYNC_BARRIERS): the barrier's next phase
 * completes when every tcgen05.mma issued before the commit has. TC_EBUSY with
 * TC_ASYNC_GROUPS phases pending on the barrier. */
tc_status tc_async_tcgen05_commit(tc_async *a, unsigned bar);
/* mbarrier wait for bar's oldest pending phase: *at = the cycle (>= now) it completes;
 * the phase is retired. TC_EINVAL if no commit is pending on bar (the wait would never
 * return). */
tc_status tc_async_mbarrier_wait(tc_async *a, unsigned bar, uint64_t *at);

/* The seed-004 benchmark for the asynchronous instructions: warps / 4 warpgroups (wgmma;
 * warps a multiple of 4) or warps / 4 CTAs sharing one issuing SM (tcgen05, cta_group 1,
 * A in shared memory; the CTAs take turns on the SM's one array), each iterating: fence,
 * ilp instructions, commit, wait for all of them (wait_group 0 / the mbarrier), then
 * warp_overhead cycles of loop. latency_x10: cycles per iteration of the slowest;
 * fma_per_clk_x10: FMA per cycle of the SM. TC_EINVAL for warps not a multiple of 4,
 * 0 or above 64, ilp 0 or above 16, iters 0 or above 10^6; else the op's status. */
tc_status tc_bench_async(const tc_gpu_timing *g, const tc_mma_op *op, tc_instr instr,
                         unsigned warps, unsigned ilp, unsigned iters, tc_bench_result *out);

#ifdef __cplusplus
}
#endif
#endif /* TCSIM_TIMING_H */
#endif /* TCSIM_H */
