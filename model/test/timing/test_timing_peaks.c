/* test_timing_peaks - the new GPU records against their datasheets: the structure's
 * dense throughput per SM and clock (mma on the sub-cores, wgmma on the four m16
 * shares, tcgen05.mma on the Blackwell array) must be the vendor's peak divided by SMs
 * and clock, and the benchmark must reach it with enough work in flight. The expected
 * figures are computed here from the datasheet numbers typed in below (TFLOPS, SMs,
 * MHz), not taken from the model; Hopper's mma.sync, which does not reach them, is
 * held to the rates the probe measured on an H200. */
#include <math.h>
#include <stdio.h>
#include <string.h>
#include "tcsim.h"

static int fails;

/* A datasheet line: dense TFLOPS (or TOPS) of one input format on a GPU. */
typedef struct peak {
    const char *gpu;
    tc_instr instr;
    unsigned m, n, k;
    tc_fmt in, acc;
    double tflops, sms, mhz;   /* mhz 0: no published clock (checked as a ratio) */
    double tol;                /* relative tolerance: the datasheets round */
    int sparse;                /* mma.sp (2:4): k counts the dense k */
} peak;

/* FMA per clock and SM the structure gives: the fmas of one instruction over the
 * cycles the SM's tensor cores are busy with it (mma: one per sub-core at a time). */
static double model_rate(const peak *p, double *bench)
{
    tc_gpu_timing g;
    tc_op_timing t;
    tc_mma_op op = {p->m, p->n, p->k, p->in, p->acc, p->sparse};
    tc_bench_result r = {0};
    tc_status st = tc_gpu_timing_find(p->gpu, &g);
    if (st == TC_OK && p->instr == TC_INSTR_MMA) {
        st = tc_op_timing_of(&g, &op, &t);
        if (st == TC_OK)
            st = tc_bench_mma(&g, &op, 16, 4, 200, &r);
    } else if (st == TC_OK) {
        st = p->instr == TC_INSTR_WGMMA ? tc_wgmma_timing_of(&g, &op, &t)
                                        : tc_tcgen05_timing_of(&g, &op, 1, 1, &t);
        if (st == TC_OK)
            st = tc_bench_async(&g, &op, p->instr, 8, 4, 200, &r);
    }
    if (st != TC_OK) {
        printf("FAIL %s %s m%un%uk%u %s: %s\n", p->gpu, tc_instr_name(p->instr), p->m, p->n,
               p->k, tc_fmt_get(p->in)->name, tc_strerror(st));
        fails++;
        return 0;
    }
    *bench = r.fma_per_clk_x10 / 10.0;
    double units = p->instr == TC_INSTR_MMA ? g.subcores : 1;
    return units * (double)t.fmas / t.issue_interval;
}

int main(void)
{
#define H100(instr, m, n, k, in, acc, tf) \
    {"h100", TC_INSTR_##instr, m, n, k, TC_FMT_##in, TC_FMT_##acc, tf, 132, 1830, 0.001, 0}
#define H200(instr, m, n, k, in, acc, tf) \
    {"h200", TC_INSTR_##instr, m, n, k, TC_FMT_##in, TC_FMT_##acc, tf, 132, 1830, 0.001, 0}
    /* H100 SXM5 / H200 SXM datasheets, dense (half the "with sparsity" figures): 989.4
     * fp16/bf16, 494.7 tf32, 1978.9 fp8/int8 at 1830 MHz on 132 SMs. L40S datasheet:
     * 362.05 fp16/bf16, 183 tf32, 733 fp8, 142 SMs, 2520 MHz (its fp16 figure is 1.2%
     * under the fp8 one halved: tolerance 1.5%). */
    const peak peaks[] = {
        H100(WGMMA, 64, 256, 16, FP16, FP32, 989.4),
        H100(WGMMA, 64, 256, 16, BF16, FP32, 989.4),
        H100(WGMMA, 64, 256, 16, FP16, FP16, 989.4),
        H100(WGMMA, 64, 256, 8, TF32, FP32, 494.7),
        H100(WGMMA, 64, 256, 32, E4M3, FP32, 1978.9),
        H100(WGMMA, 64, 256, 32, E5M2, FP32, 1978.9),
        H100(WGMMA, 64, 256, 32, INT8, S32, 1978.9),
        H200(WGMMA, 64, 256, 16, FP16, FP32, 989.4),
        H200(WGMMA, 64, 256, 8, TF32, FP32, 494.7),
        H200(WGMMA, 64, 256, 32, E4M3, FP32, 1978.9),
        H200(WGMMA, 64, 256, 32, INT8, S32, 1978.9),
        {"l40s", TC_INSTR_MMA, 16, 8, 16, TC_FMT_FP16, TC_FMT_FP32, 362.05, 142, 2520, 0.015, 0},
        {"l40s", TC_INSTR_MMA, 16, 8, 16, TC_FMT_BF16, TC_FMT_FP32, 362.05, 142, 2520, 0.015, 0},
        {"l40s", TC_INSTR_MMA, 16, 8, 8, TC_FMT_TF32, TC_FMT_FP32, 183, 142, 2520, 0.015, 0},
        {"l40s", TC_INSTR_MMA, 16, 8, 32, TC_FMT_E4M3, TC_FMT_FP32, 733, 142, 2520, 0.015, 0},
        {"l40s", TC_INSTR_MMA, 16, 8, 32, TC_FMT_E5M2, TC_FMT_FP32, 733, 142, 2520, 0.015, 0},
    };
    for (size_t i = 0; i < sizeof peaks / sizeof peaks[0]; i++) {
        const peak *p = &peaks[i];
        double want = p->tflops * 1e12 / (2 * p->sms * p->mhz * 1e6), bench = 0;
        double got = model_rate(p, &bench);
        int ok = fabs(got - want) <= p->tol * want && bench >= 0.99 * got;
        printf("%s %-4s %-6s m%un%uk%u %-5s %-4s datasheet %7.1f model %6.0f bench %7.1f "
               "FMA/clk/SM\n", ok ? "ok  " : "FAIL", p->gpu, tc_instr_name(p->instr), p->m,
               p->n, p->k, tc_fmt_get(p->in)->name, tc_fmt_get(p->acc)->name, want, got, bench);
        fails += !ok;
    }
    /* mma.sync on Hopper does not reach those peaks: measured on an H200 by tcsim-probe
     * (data/vectors/h200/timing.txt, 16 warps x ILP 4 at 1980 MHz, FMA/clk/SM counting
     * the dense k of mma.sp): one full-size instruction (4 cycles of beats) per 6 cycles
     * a sub-core, a half-size one (2 cycles of beats) per 4, a sparse one per 6 or 8.
     * The records must give these within 4% (m16n8k8 measures 993 of the 1024 that one
     * instruction per 4 cycles gives: the benchmark's loop costs the GPU a little more
     * than the model's warp_overhead). */
    const struct {
        const char *gpu;
        unsigned m, k;
        tc_fmt in, acc;
        int sparse;
        double measured;
    } ms[] = {
        {"h200", 16, 16, TC_FMT_FP16, TC_FMT_FP32, 0, 1358.2},
        {"h200", 16, 16, TC_FMT_BF16, TC_FMT_FP32, 0, 1358.2},
        {"h200", 16, 8, TC_FMT_TF32, TC_FMT_FP32, 0, 679.1},
        {"h200", 16, 32, TC_FMT_INT8, TC_FMT_S32, 0, 2715.8},
        {"h200", 16, 8, TC_FMT_FP16, TC_FMT_FP32, 0, 993.2},
        {"h200", 16, 8, TC_FMT_FP16, TC_FMT_FP16, 0, 1020.2},
        {"h200", 16, 4, TC_FMT_TF32, TC_FMT_FP32, 0, 496.6},
        {"h200", 16, 16, TC_FMT_INT8, TC_FMT_S32, 0, 2001.8},
        {"h200", 8, 16, TC_FMT_INT8, TC_FMT_S32, 0, 1013.6},
        {"h200", 16, 16, TC_FMT_FP16, TC_FMT_FP32, 1, 1344.4},
        {"h200", 16, 32, TC_FMT_FP16, TC_FMT_FP32, 1, 2007.7},
        {"h200", 16, 8, TC_FMT_TF32, TC_FMT_FP32, 1, 672.4},
        {"h200", 16, 16, TC_FMT_TF32, TC_FMT_FP32, 1, 1003.9},
        {"h200", 16, 32, TC_FMT_INT8, TC_FMT_S32, 1, 2686.9},
        {"h200", 16, 64, TC_FMT_INT8, TC_FMT_S32, 1, 4027.7},
        {"h100", 16, 16, TC_FMT_FP16, TC_FMT_FP32, 0, 1358.2},
        {"h100", 16, 32, TC_FMT_INT8, TC_FMT_S32, 0, 2715.8},
    };
    for (size_t i = 0; i < sizeof ms / sizeof ms[0]; i++) {
        peak p = {ms[i].gpu, TC_INSTR_MMA, ms[i].m, 8, ms[i].k, ms[i].in, ms[i].acc,
                  0, 0, 0, 0, ms[i].sparse};
        double bench = 0, got = model_rate(&p, &bench);
        int ok = fabs(bench - ms[i].measured) <= 0.04 * ms[i].measured;
        printf("%s %-4s %-6s m%un8k%-2u %-5s %-4s measured %7.1f model %6.0f bench %7.1f "
               "FMA/clk/SM\n",
               ok ? "ok  " : "FAIL", ms[i].gpu, ms[i].sparse ? "mma.sp" : "mma", ms[i].m,
               ms[i].k, tc_fmt_get(ms[i].in)->name, tc_fmt_get(ms[i].acc)->name,
               ms[i].measured, got, bench);
        fails += !ok;
    }
    /* B200 (HGX B200 datasheet, with sparsity: fp16/bf16 4.5 PFLOPS, tf32 2.2, fp8 9,
     * int8 9 POPS) gives no clock: the array's fp16 rate is seed 003's (4 sub-cores x
     * 8 x 8 FEDPs x k16 = 4096), and the other formats hold the datasheet's ratios. */
    const struct { tc_fmt in, acc; unsigned k; double pf; } bw[] = {
        {TC_FMT_FP16, TC_FMT_FP32, 16, 4.5}, {TC_FMT_BF16, TC_FMT_FP32, 16, 4.5},
        {TC_FMT_TF32, TC_FMT_FP32, 8, 2.2}, {TC_FMT_E4M3, TC_FMT_FP32, 32, 9},
        {TC_FMT_INT8, TC_FMT_S32, 32, 9},
    };
    for (size_t i = 0; i < sizeof bw / sizeof bw[0]; i++) {
        peak p = {"b200", TC_INSTR_TCGEN05, 128, 256, bw[i].k, bw[i].in, bw[i].acc, 0, 0, 0, 0, 0};
        double bench = 0, got = model_rate(&p, &bench);
        double want = 4096 * bw[i].pf / 4.5;
        /* 2.2 is 2.25 rounded down: 2.3% */
        int ok = fabs(got - want) <= 0.025 * want && bench >= 0.99 * got;
        printf("%s b200 tcgen05 m128n256k%u %-5s datasheet ratio %7.1f model %6.0f bench %7.1f "
               "FMA/clk/SM\n", ok ? "ok  " : "FAIL", bw[i].k, tc_fmt_get(bw[i].in)->name, want,
               got, bench);
        fails += !ok;
    }
    printf("%s\n", fails ? "FAILED" : "all peaks hold");
    return fails != 0;
}
