/* bw_conv_bench.c - the performance figures of issue 7: shared-memory activation traffic
 * and cycles of Algorithm 3 against Algorithm 2 for a ResNet-style 3x3 layer (N 1,
 * H = W = 56, C = K = 64, pad 1, fp16 -> fp32), and the FEDP array's utilization during
 * the convolution, for both tensor-memory organizations, and the CPU seconds of each run
 * (model_seconds in the JSON). Prints a table and writes JSON to argv[1]. Not a test
 * (`cmake --build build --target bw_bench`); the outputs of the two algorithms are
 * checked to agree bit for bit all the same. */
#define _POSIX_C_SOURCE 200809L /* clock_gettime (bench_clock.h) */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "tcsim.h"
#include "bench_clock.h"
#include "report_file.h"
#include "bw_conv_args.h"

int main(int argc, char **argv)
{
    const tc_conv_shape sh = {1, 56, 56, 64, 64, 3, 3, 1, 1, 1};
    unsigned P, Q;
    tc_conv_out_dims(&sh, &P, &Q);
    size_t na = (size_t)sh.n * sh.h * sh.w * sh.c, nw = (size_t)sh.k * sh.r * sh.s * sh.c;
    size_t no = (size_t)sh.n * P * Q * sh.k;
    uint32_t *act = malloc(na * 4), *wgt = malloc(nw * 4), *o2 = malloc(no * 4), *o3 = malloc(no * 4);
    if (!act || !wgt || !o2 || !o3)
        return 1;
    tc_random_fill(TC_FMT_FP16, 1, na, act);
    tc_random_fill(TC_FMT_FP16, 2, nw, wgt);
    FILE *js = NULL;
    if (argc > 1 && !(js = report_open("bw_bench", argv[1])))
        return 1;
    if (js)
        fprintf(js, "{\n  \"layer\": {\"n\": 1, \"h\": 56, \"w\": 56, \"c\": 64, \"k\": 64, "
                    "\"r\": 3, \"s\": 3, \"pad\": 1, \"kind\": \"f16\", \"in\": \"fp16\", "
                    "\"out\": \"fp32\"},\n  \"runs\": [\n");
    printf("%-6s %-5s %14s %8s %6s %9s %12s %8s\n", "banks", "algo", "smem_row_loads", "shifts",
           "mmas", "cycles", "utilization", "cpu_s");
    static const unsigned banks[2] = {8, 4};
    int rc = 0;
    for (int b = 0; b < 2; b++) {
        tc_conv_stats st[4];
        for (int algo = 2; algo <= 3; algo++) {
            tc_conv_args ca = bw_f16_conv(&sh, (tc_conv_algo)algo, banks[b]);
            double t0 = bench_cpu_seconds();
            tc_status s = tc_conv(&ca, act, wgt, algo == 2 ? o2 : o3, &st[algo]);
            double dt = bench_cpu_seconds() - t0;
            if (s != TC_OK) {
                fprintf(stderr, "bw_bench: %s\n", tc_strerror(s));
                return 1;
            }
            double util = (double)st[algo].array_passes / (double)st[algo].cycles;
            printf("%-6u %-5d %14llu %8llu %6llu %9llu %11.1f%% %8.2f\n", banks[b], algo,
                   (unsigned long long)st[algo].smem_row_loads,
                   (unsigned long long)st[algo].shifts, (unsigned long long)st[algo].mmas,
                   (unsigned long long)st[algo].cycles, 100.0 * util, dt);
            if (js)
                fprintf(js, "    {\"banks\": %u, \"algo\": %d, \"smem_row_loads\": %llu, "
                            "\"shifts\": %llu, \"mmas\": %llu, \"cycles\": %llu, "
                            "\"array_passes\": %llu, \"utilization\": %.4f, "
                            "\"model_seconds\": %.3f},\n", banks[b], algo,
                        (unsigned long long)st[algo].smem_row_loads,
                        (unsigned long long)st[algo].shifts, (unsigned long long)st[algo].mmas,
                        (unsigned long long)st[algo].cycles,
                        (unsigned long long)st[algo].array_passes, util, dt);
        }
        if (memcmp(o2, o3, no * 4)) {
            fprintf(stderr, "bw_bench: algorithms 2 and 3 disagree\n");
            rc = 1;
        }
        double rows = (double)st[3].smem_row_loads / (double)st[2].smem_row_loads;
        double cyc = (double)st[3].cycles / (double)st[2].cycles;
        printf("banks %u: algo 3 / algo 2: smem activation rows %.3f, cycles %.3f\n", banks[b],
               rows, cyc);
        if (js)
            fprintf(js, "    {\"banks\": %u, \"ratio_smem_rows_3_over_2\": %.4f, "
                        "\"ratio_cycles_3_over_2\": %.4f}%s\n", banks[b], rows, cyc,
                    b == 0 ? "," : "");
    }
    if (js) {
        fprintf(js, "  ]\n}\n");
        if (report_close(js, "bw_bench", argv[1]))
            rc = 1;
    }
    free(act);
    free(wgt);
    free(o2);
    free(o3);
    return rc;
}
