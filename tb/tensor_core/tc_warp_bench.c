/* tc_warp_bench.c [JSON] - simulation speed of the Verilated warp top (rtl/tc_warp.sv),
 * without a trace: clocks per second (every clock counts: the 24 register writes that
 * load an instruction's fragments and the instruction itself) and whole instructions per
 * second, for wmma.mma m16n16k16 in both modes, per second of the process's CPU time (one
 * core; the wall-clock rate on a busy machine is lower). Prints them; writes JSON if asked. */
#define _POSIX_C_SOURCE 200809L
#include <stdio.h>
#include <string.h>
#include <time.h>
#include "bench_clock.h"
#include "report_file.h"
#include "tc_warp_engine.h"

int main(int argc, char **argv)
{
    FILE *f = NULL;
    if (argc > 1 && !(f = report_open("tc_warp_bench", argv[1])))
        return 1;
    tc_warp_engine *e;
    if (tc_warp_engine_open(NULL, &e) != TC_OK) {
        fprintf(stderr, "tc_warp_bench: cannot open the Verilated warp top\n");
        return 1;
    }
    double rate[2], ops[2];
    uint64_t x = 88172645463325252u;
    for (int f16 = 0; f16 < 2; f16++) {
        tc_hmma_cfg cfg = {TC_SHAPE_M16N16K16, TC_LAYOUT_ROW, TC_LAYOUT_COL,
                           f16 ? TC_FMT_FP16 : TC_FMT_FP32};
        tc_warp_frags w;
        unsigned n_ops = 0;
        uint64_t c0 = tc_warp_engine_cycles(e);
        double t0 = bench_cpu_seconds(), t;
        do {
            for (unsigned l = 0; l < TC_WARP_LANES; l++)
                for (unsigned i = 0; i < TC_FRAG_MAX; i++) {
                    x ^= x << 13;
                    x ^= x >> 7;
                    x ^= x << 17;
                    uint32_t h = (uint32_t)(x & 0x83ffu) | (uint32_t)(12 + x % 6) << 10;
                    w.a[l][i] = h;
                    w.b[l][i] = h ^ 0x155u;
                    w.c[l][i] = f16 ? h : h << 13;
                }
            tc_hmma_event ev[16];
            size_t n;
            uint64_t done;
            if (tc_warp_engine_run(e, &cfg, &w, ev, 16, &n, &done) != TC_OK) {
                fprintf(stderr, "tc_warp_bench: run failed\n");
                return 1;
            }
            n_ops++;
            t = bench_cpu_seconds();
        } while (t - t0 < 2.0);
        rate[f16] = (double)(tc_warp_engine_cycles(e) - c0) / (t - t0);
        ops[f16] = n_ops / (t - t0);
        printf("tc_warp (Verilated, no trace), wmma.mma m16n16k16 %s: %.0f cycles/s, "
               "%.0f instructions/s\n", f16 ? "fp16" : "mixed", rate[f16], ops[f16]);
    }
    tc_warp_engine_close(e);
    printf("target >= 100000 cycles/s: %s\n",
           rate[0] >= 100000 && rate[1] >= 100000 ? "met" : "NOT met");
    if (f) {
        fprintf(f, "{\n  \"unit\": \"simulated clocks per second of CPU time, one core, no trace\",\n"
                   "  \"target_cycles_per_s\": 100000,\n  \"runs\": [\n"
                   "    {\"instr\": \"wmma.mma m16n16k16\", \"acc\": \"fp32\", \"cycles_per_s\": %.0f, "
                   "\"instructions_per_s\": %.0f},\n"
                   "    {\"instr\": \"wmma.mma m16n16k16\", \"acc\": \"fp16\", \"cycles_per_s\": %.0f, "
                   "\"instructions_per_s\": %.0f}\n  ]\n}\n", rate[0], ops[0], rate[1], ops[1]);
        if (report_close(f, "tc_warp_bench", argv[1]))
            return 1;
    }
    return 0;
}
