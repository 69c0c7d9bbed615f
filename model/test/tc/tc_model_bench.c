/* tc_model_bench.c [JSON] - speed of the model's Volta tensor core on one core:
 * whole wmma.mma m16n16k16 instructions per second through tc_volta_mma (fragment loads,
 * 16 or 8 HMMAs of 256 or 128 FEDP steps, the store), both modes; and the cycle-level
 * timing model (tc_volta_hmma_timing) per second. Prints them; writes JSON if asked. */
#define _POSIX_C_SOURCE 200809L
#include <stdio.h>
#include <string.h>
#include <time.h>
#include "tcsim.h"
#include "bench_clock.h"
#include "report_file.h"

int main(int argc, char **argv)
{
    uint32_t A[256], B[256], C[256], D[256];
    uint64_t x = 88172645463325252u;
    double mma[2], timing[2];
    FILE *f = NULL;
    if (argc > 1 && !(f = report_open("tc_model_bench", argv[1])))
        return 1;
    for (int f16 = 0; f16 < 2; f16++) {
        tc_hmma_cfg cfg = {TC_SHAPE_M16N16K16, TC_LAYOUT_ROW, TC_LAYOUT_COL,
                           f16 ? TC_FMT_FP16 : TC_FMT_FP32};
        for (unsigned i = 0; i < 256; i++) {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            uint32_t h = (uint32_t)(x & 0x83ffu) | (uint32_t)(12 + x % 6) << 10;
            A[i] = h;
            B[i] = h ^ 0x155u;
            C[i] = f16 ? h : h << 13;
        }
        unsigned n = 0;
        double t0 = bench_cpu_seconds(), t;
        do {
            for (int r = 0; r < 64; r++, n++)
                if (tc_volta_mma(&cfg, A, B, C, D) != TC_OK)
                    return 1;
            C[n % 256] = f16 ? D[n % 256] : D[n % 256]; /* keep the work live */
            t = bench_cpu_seconds();
        } while (t - t0 < 1.0);
        mma[f16] = n / (t - t0);
        n = 0;
        t0 = bench_cpu_seconds();
        do {
            for (int r = 0; r < 1024; r++, n++) {
                tc_hmma_event ev[16];
                size_t ne;
                uint64_t done;
                if (tc_volta_hmma_timing(NULL, &cfg, ev, 16, &ne, &done) != TC_OK)
                    return 1;
            }
            t = bench_cpu_seconds();
        } while (t - t0 < 0.5);
        timing[f16] = n / (t - t0);
        printf("model wmma.mma m16n16k16 %s: %.0f instructions/s (%.3g MAC/s), timing model "
               "%.0f instructions/s\n", f16 ? "fp16" : "mixed", mma[f16], mma[f16] * 4096,
               timing[f16]);
    }
    printf("target >= 1000000 whole-wmma operations/s: %s\n",
           mma[0] >= 1e6 && mma[1] >= 1e6 ? "met" : "NOT met");
    if (f) {
        fprintf(f, "{\n  \"unit\": \"whole instructions per second of CPU time, one core\",\n"
                   "  \"target_wmma_per_s\": 1000000,\n  \"runs\": [\n");
        for (int f16 = 0; f16 < 2; f16++)
            fprintf(f, "    {\"instr\": \"wmma.mma m16n16k16\", \"acc\": \"%s\", \"wmma_per_s\": %.0f, "
                       "\"mac_per_s\": %.0f, \"timing_model_per_s\": %.0f}%s\n",
                    f16 ? "fp16" : "fp32", mma[f16], mma[f16] * 4096, timing[f16], f16 ? "" : ",");
        fprintf(f, "  ]\n}\n");
        if (report_close(f, "tc_model_bench", argv[1]))
            return 1;
    }
    return 0;
}
