/* timing_bench.c [JSON] - speed of the seed-004 benchmark host (tc_bench_mma, what
 * `tcsim timing` runs) on one core: simulated mma per second of CPU time for A100
 * mma.m16n8k16 fp16 -> fp32 at a few warps x ILP points, from a single warp to the
 * largest the host takes (64 x 16). Prints them; writes JSON if asked. */
#define _POSIX_C_SOURCE 200809L
#include <stdio.h>
#include <time.h>
#include "tcsim.h"
#include "bench_clock.h"
#include "report_file.h"

int main(int argc, char **argv)
{
    static const struct { unsigned warps, ilp; } points[] = {{1, 1}, {4, 4}, {8, 2}, {64, 16}};
    enum { N_POINTS = sizeof points / sizeof points[0] };
    double rate[N_POINTS];
    FILE *f = NULL;
    if (argc > 1 && !(f = report_open("timing_bench", argv[1])))
        return 1;
    tc_gpu_timing g;
    tc_mma_op op = {16, 8, 16, TC_FMT_FP16, TC_FMT_FP32, 0};
    if (tc_gpu_timing_find("a100", &g) != TC_OK) {
        fprintf(stderr, "timing_bench: no a100 in the built-in table\n");
        return 1;
    }
    for (unsigned p = 0; p < N_POINTS; p++) {
        /* about 4 M mma a run, repeated for at least half a second */
        unsigned per_iter = points[p].warps * points[p].ilp;
        unsigned iters = (4u << 20) / per_iter;
        if (iters > 1000000)
            iters = 1000000;
        uint64_t mma = 0;
        double t0 = bench_cpu_seconds(), t;
        do {
            tc_bench_result r;
            tc_status st = tc_bench_mma(&g, &op, points[p].warps, points[p].ilp, iters, &r);
            if (st != TC_OK) {
                fprintf(stderr, "timing_bench: %s\n", tc_strerror(st));
                return 1;
            }
            mma += (uint64_t)iters * per_iter;
            t = bench_cpu_seconds();
        } while (t - t0 < 0.5);
        rate[p] = (double)mma / (t - t0);
        printf("a100 mma.m16n8k16 fp16->fp32, %2u warps x ILP %2u: %.1f M mma/s\n",
               points[p].warps, points[p].ilp, rate[p] / 1e6);
    }
    if (f) {
        fprintf(f, "{\n  \"unit\": \"simulated mma per second of CPU time, one core "
                   "(tc_bench_mma)\",\n  \"gpu\": \"a100\",\n  \"op\": \"mma.m16n8k16 fp16 fp32\",\n"
                   "  \"runs\": [\n");
        for (unsigned p = 0; p < N_POINTS; p++)
            fprintf(f, "    {\"warps\": %u, \"ilp\": %u, \"mma_per_s\": %.0f}%s\n", points[p].warps,
                    points[p].ilp, rate[p], p + 1 < N_POINTS ? "," : "");
        fprintf(f, "  ]\n}\n");
        if (report_close(f, "timing_bench", argv[1]))
            return 1;
    }
    return 0;
}
