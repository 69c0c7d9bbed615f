/* test_async_timing - wgmma and tcgen05.mma as asynchronous operations (tcsim_timing.h,
 * tc_async_*), against cycle counts worked by hand from the Hopper record below (the
 * h100 record before the H200's measurement calibrated it) and the b200 record of
 * model/data/timing.txt:
 *   hopper: 512 fp16 FMA/clk a sub-core, k-step 8, depth 14, drain_rows 4, step_fwd 8,
 *   warp_overhead 7. wgmma.m64n256k16 fp16: each sub-core m16n256k16 = 2 steps of
 *   16*256*8/512 = 64 beats, issue interval 128, latency 14 + 16/4 + 1*max(8, 64) + 64
 *   = 146. wgmma.m64n8k16: 2 steps of 2 beats, interval max(4, ii_min 4) = 4, latency
 *   14 + 4 + max(8, 2) + 2 = 28.
 *   b200: tcgen05.mma m128n256k16, A in shared memory: (128/32) * (256/8) = 128 array
 *   passes, 256 + 128 shared-memory rows = 96 cycles at 4 a cycle: 128 cycles, latency
 *   128 + depth 14 = 142. m64n64k16: 2 * 8 = 16 passes, 128 rows = 32 cycles: shared
 *   memory bound, 32, latency 46. */
#include <stdio.h>
#include <string.h>
#include "tcsim.h"
#include "check.h"

/* The Hopper record the hand-worked counts start from (async_wait left out: 0). */
static const char hopper_rec[] =
    "gpu hx arch hopper subcores 4 tc_per_subcore 1 fedps_per_tc 64 fedp_len16 8 "
    "acc32_rate_div 1 step_k16 8 depth 14 drain_rows 4 step_fwd 8 acc32_extra 0 ii_min 4 "
    "sparse_ii_min 4 warp_overhead 7 measure_offset 0 acc32_buffer 0 volta_operand_fetch 0 "
    "volta_fedp_latency 0 volta_f16_pack 0 volta_writeback 0 volta_fedps_per_tg 0\n";

static tc_mma_op op_of(unsigned m, unsigned n, unsigned k, tc_fmt in, tc_fmt acc)
{
    tc_mma_op op = {m, n, k, in, acc, 0};
    return op;
}

static void wgmma_cases(void)
{
    tc_gpu_timing g;
    CHECK_COND(tc_gpu_timing_parse(hopper_rec, "hx", &g) == TC_OK && g.async_wait == 0);
    tc_mma_op big = op_of(64, 256, 16, TC_FMT_FP16, TC_FMT_FP32);
    tc_op_timing t;
    CHECK_COND(tc_wgmma_timing_of(&g, &big, &t) == TC_OK);
    CHECK_COND(t.steps == 2 && t.beats == 64 && t.issue_interval == 128 && t.latency == 146);
    CHECK_COND(t.fmas == 64u * 256 * 16);
    tc_mma_op small = op_of(64, 8, 16, TC_FMT_FP16, TC_FMT_FP32);
    CHECK_COND(tc_wgmma_timing_of(&g, &small, &t) == TC_OK);
    CHECK_COND(t.issue_interval == 4 && t.latency == 28);
    /* tf32 k8: k-step 4, rate 256: 2 steps of 16*256*4/256 = 64 beats, the same cycles */
    tc_mma_op tf = op_of(64, 256, 8, TC_FMT_TF32, TC_FMT_FP32);
    CHECK_COND(tc_wgmma_timing_of(&g, &tf, &t) == TC_OK && t.latency == 146);
    /* shapes and arches PTX does not have */
    tc_mma_op bad = op_of(64, 256, 8, TC_FMT_FP16, TC_FMT_FP32);
    CHECK_COND(tc_wgmma_timing_of(&g, &bad, &t) == TC_ESHAPE);
    bad = op_of(64, 260, 16, TC_FMT_FP16, TC_FMT_FP32);
    CHECK_COND(tc_wgmma_timing_of(&g, &bad, &t) == TC_ESHAPE);
    bad = op_of(128, 256, 16, TC_FMT_FP16, TC_FMT_FP32);
    CHECK_COND(tc_wgmma_timing_of(&g, &bad, &t) == TC_ESHAPE);
    tc_gpu_timing ada;
    CHECK_COND(tc_gpu_timing_find("l40s", &ada) == TC_OK);
    CHECK_COND(tc_wgmma_timing_of(&ada, &big, &t) == TC_EUNSUPPORTED);
    CHECK_COND(tc_tcgen05_timing_of(&g, &big, 1, 0, &t) == TC_EUNSUPPORTED);

    tc_async *a;
    uint64_t r, at, now;
    CHECK_COND(tc_async_create(&g, &a) == TC_OK);
    CHECK_COND(tc_async_wgmma(a, 0, &big, &r) == TC_EINVAL);      /* no fence yet */
    CHECK_COND(tc_async_wgmma_fence(a, 0) == TC_OK);
    CHECK_COND(tc_async_wgmma(a, 0, &big, &r) == TC_OK && r == 146);
    CHECK_COND(tc_async_wgmma(a, 0, &big, &r) == TC_OK && r == 274); /* queued behind: 128 */
    CHECK_COND(tc_async_wgmma_commit(a, 0) == TC_OK);
    CHECK_COND(tc_async_wgmma(a, 0, &big, &r) == TC_OK && r == 402);
    CHECK_COND(tc_async_wgmma_commit(a, 0) == TC_OK);
    /* wait_group 1: the first group (146, 274) only */
    CHECK_COND(tc_async_wgmma_wait(a, 0, 1, &at) == TC_OK && at == 274);
    CHECK_COND(tc_async_wgmma_fence(a, 0) == TC_EBUSY);            /* still waiting */
    CHECK_COND(tc_async_tick(a, 274, NULL) == TC_OK);
    CHECK_COND(tc_async_wgmma(a, 0, &big, &r) == TC_EINVAL);       /* the wait unfenced it */
    CHECK_COND(tc_async_wgmma_fence(a, 0) == TC_OK);
    /* the sub-cores are busy until 3 * 128 = 384: 384 + 146 */
    CHECK_COND(tc_async_wgmma(a, 0, &big, &r) == TC_OK && r == 530);
    CHECK_COND(tc_async_wgmma_commit(a, 0) == TC_OK);
    CHECK_COND(tc_async_wgmma_wait(a, 0, 0, &at) == TC_OK && at == 530);
    CHECK_COND(tc_async_tick(a, 530 - 274, &now) == TC_OK && now == 530);
    /* nothing pending: the wait returns now; an empty group is complete at once */
    CHECK_COND(tc_async_wgmma_commit(a, 0) == TC_OK);
    CHECK_COND(tc_async_wgmma_wait(a, 0, 0, &at) == TC_OK && at == 530);
    /* a second warpgroup shares the sub-cores: its wgmma starts when they free */
    CHECK_COND(tc_async_wgmma_fence(a, 0) == TC_OK && tc_async_wgmma_fence(a, 1) == TC_OK);
    CHECK_COND(tc_async_wgmma(a, 0, &big, &r) == TC_OK && r == 530 + 146);
    CHECK_COND(tc_async_wgmma(a, 1, &big, &r) == TC_OK && r == 530 + 128 + 146);
    CHECK_COND(tc_async_wgmma_commit(a, 1) == TC_OK);
    CHECK_COND(tc_async_wgmma_wait(a, 1, 0, &at) == TC_OK && at == 530 + 274);
    CHECK_COND(tc_async_wgmma_wait(a, 0, 0, &at) == TC_OK && at == 530); /* wg 0 never committed */
    CHECK_COND(tc_async_wgmma_fence(a, TC_ASYNC_WARPGROUPS) == TC_EINVAL);
    tc_async_destroy(a);

    /* the benchmark: one warpgroup, ILP 1: an iteration is 146 + 7 cycles, the last one
     * ends at its result: 199 * 153 + 146 = 30593 cycles, 153.0 a iteration; ILP 4:
     * 4 * 128 + 18 + 7 = 537 a iteration */
    tc_bench_result b;
    CHECK_COND(tc_bench_async(&g, &big, TC_INSTR_WGMMA, 4, 1, 200, &b) == TC_OK);
    CHECK_COND(b.cycles == 30593 && b.latency_x10 == 1530);
    CHECK_COND(tc_bench_async(&g, &big, TC_INSTR_WGMMA, 4, 4, 200, &b) == TC_OK);
    CHECK_COND(b.cycles == 199u * 537 + 530 && b.latency_x10 == 5370);
    CHECK_COND(tc_bench_async(&g, &big, TC_INSTR_WGMMA, 6, 1, 200, &b) == TC_EINVAL);
}

static void tcgen05_cases(void)
{
    tc_gpu_timing g;
    CHECK_COND(tc_gpu_timing_find("b200", &g) == TC_OK);
    tc_mma_op big = op_of(128, 256, 16, TC_FMT_FP16, TC_FMT_FP32);
    tc_op_timing t;
    CHECK_COND(tc_tcgen05_timing_of(&g, &big, 1, 0, &t) == TC_OK);
    CHECK_COND(t.issue_interval == 128 && t.latency == 142 && t.fmas == 128u * 256 * 16);
    tc_mma_op small = op_of(64, 64, 16, TC_FMT_FP16, TC_FMT_FP32);
    CHECK_COND(tc_tcgen05_timing_of(&g, &small, 1, 0, &t) == TC_OK);
    CHECK_COND(t.beats == 16 && t.issue_interval == 32 && t.latency == 46);
    /* A in tensor memory: 64 rows of B only, 16 cycles: the array's 16 passes */
    CHECK_COND(tc_tcgen05_timing_of(&g, &small, 1, 1, &t) == TC_OK && t.issue_interval == 16);
    /* a CTA pair, M 256: each SM 128 rows, half of B: 128 passes; its share of the fmas */
    tc_mma_op pair = op_of(256, 256, 16, TC_FMT_FP16, TC_FMT_FP32);
    CHECK_COND(tc_tcgen05_timing_of(&g, &pair, 2, 0, &t) == TC_OK);
    CHECK_COND(t.issue_interval == 128 && t.fmas == 128u * 256 * 16);
    CHECK_COND(tc_tcgen05_timing_of(&g, &pair, 1, 0, &t) == TC_ESHAPE);
    tc_mma_op odd = op_of(128, 24, 16, TC_FMT_FP16, TC_FMT_FP32); /* M 128: N step 16 */
    CHECK_COND(tc_tcgen05_timing_of(&g, &odd, 1, 0, &t) == TC_ESHAPE);

    tc_async *a;
    uint64_t r, at;
    CHECK_COND(tc_async_create(&g, &a) == TC_OK);
    CHECK_COND(tc_async_mbarrier_wait(a, 0, &at) == TC_EINVAL);    /* nothing committed */
    CHECK_COND(tc_async_tcgen05_mma(a, &big, 1, 0, &r) == TC_OK && r == 142);
    CHECK_COND(tc_async_tcgen05_mma(a, &big, 1, 0, &r) == TC_OK && r == 270);
    CHECK_COND(tc_async_tcgen05_commit(a, 0) == TC_OK);
    CHECK_COND(tc_async_tcgen05_mma(a, &big, 1, 0, &r) == TC_OK && r == 398);
    CHECK_COND(tc_async_tcgen05_commit(a, 1) == TC_OK);
    CHECK_COND(tc_async_tcgen05_commit(a, 0) == TC_OK);            /* a second phase on 0 */
    CHECK_COND(tc_async_mbarrier_wait(a, 0, &at) == TC_OK && at == 270);
    CHECK_COND(tc_async_mbarrier_wait(a, 1, &at) == TC_OK && at == 398);
    CHECK_COND(tc_async_mbarrier_wait(a, 0, &at) == TC_OK && at == 398);
    CHECK_COND(tc_async_mbarrier_wait(a, 0, &at) == TC_EINVAL);
    tc_async_destroy(a);
    tc_bench_result b;
    /* one CTA, ILP 1: 142 + 7 an iteration, the last ending at 142 */
    CHECK_COND(tc_bench_async(&g, &big, TC_INSTR_TCGEN05, 4, 1, 100, &b) == TC_OK);
    CHECK_COND(b.cycles == 99u * 149 + 142);
}

static void uncalibrated_marks(void)
{
    tc_gpu_timing g;
    CHECK_COND(tc_gpu_timing_find("a100", &g) == TC_OK && g.uncalibrated == 0);
    CHECK_COND(tc_gpu_timing_find("h100", &g) == TC_OK && g.uncalibrated != 0);
    unsigned depth = 0;
    while (tc_gpu_timing_key(depth) && strcmp(tc_gpu_timing_key(depth), "depth"))
        depth++;
    CHECK_COND(tc_gpu_timing_key(depth) != NULL && (g.uncalibrated >> depth & 1u));
    const char *rec = "gpu x arch hopper subcores 4 tc_per_subcore 1 fedps_per_tc 64 "
                      "fedp_len16 8 acc32_rate_div 1 step_k16 8 depth ~20 drain_rows 4 "
                      "step_fwd 8 acc32_extra 0 ii_min 4 sparse_ii_min 4 warp_overhead 7 "
                      "measure_offset 0 acc32_buffer 0 volta_operand_fetch 0 "
                      "volta_fedp_latency 0 volta_f16_pack 0 volta_writeback 0 "
                      "volta_fedps_per_tg 0\n";
    CHECK_COND(tc_gpu_timing_parse(rec, "x", &g) == TC_OK && g.depth == 20 &&
          g.uncalibrated == 1u << depth);
    char bad[1024];
    snprintf(bad, sizeof bad, "%.*s~%s", (int)(strstr(rec, "~20") - rec), rec,
             strstr(rec, "~20"));
    CHECK_COND(tc_gpu_timing_parse(bad, "x", &g) == TC_EINVAL);    /* "~~20" */
    g.uncalibrated = 1u << 31;
    CHECK_COND(tc_async_create(&g, NULL) == TC_EINVAL);
}

/* async_wait: optional in a record, once at most, and added to an asynchronous MMA's
 * latency one for one (146 + 175 for the m64n256k16 above). */
static void async_wait_key(void)
{
    char rec[1024];
    tc_gpu_timing g;
    tc_op_timing t;
    tc_mma_op big = op_of(64, 256, 16, TC_FMT_FP16, TC_FMT_FP32);
    snprintf(rec, sizeof rec, "%.*s async_wait 175\n", (int)strlen(hopper_rec) - 1, hopper_rec);
    CHECK_COND(tc_gpu_timing_parse(rec, "hx", &g) == TC_OK && g.async_wait == 175);
    CHECK_COND(tc_wgmma_timing_of(&g, &big, &t) == TC_OK && t.latency == 146 + 175);
    CHECK_COND(t.issue_interval == 128); /* the rate does not change */
    snprintf(rec, sizeof rec, "%.*s async_wait 175 async_wait 1\n", (int)strlen(hopper_rec) - 1,
             hopper_rec);
    CHECK_COND(tc_gpu_timing_parse(rec, "hx", &g) == TC_EINVAL);
    snprintf(rec, sizeof rec, "%.*s async_wait 100001\n", (int)strlen(hopper_rec) - 1, hopper_rec);
    CHECK_COND(tc_gpu_timing_parse(rec, "hx", &g) == TC_EINVAL);
}

int main(void)
{
    wgmma_cases();
    tcgen05_cases();
    uncalibrated_marks();
    async_wait_key();
    printf("%s\n", failures ? "FAILED" : "async timing: all hand-worked cycles hold");
    return failures != 0;
}
