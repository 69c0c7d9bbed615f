/* fedp_bench.c - simulated FEDP operations per second of Verilated instances, without
 * waveforms: the volta instance (the target: >= 5 million/s) and the largest.
 *
 *   fedp_bench_run [JSON_FILE] [--seconds S]
 *
 * One operation per cycle, back to back, through the C API (drive, rising edge,
 * sample), from a pool of random operands prepared beforehand so that the figure is
 * the simulator's, not the random generator's. */
#define _POSIX_C_SOURCE 200809L /* clock_gettime */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include "fedp_dut.h"
#include "bench_clock.h"
#include "report_file.h"

#define POOL 1024

typedef struct result {
    const char *name;
    unsigned L;
    uint64_t ops;
    double secs;
} result;

static int run(const char *name, double min_secs, result *res)
{
    const fedp_dut_ops *ops = fedp_instance_find(name);
    if (!ops)
        return -1;
    const tc_profile *rows, *p = NULL;
    size_t nr = tc_profile_table(&rows);
    for (size_t i = 0; i < nr && !p; i++)
        if (fedp_implements(&ops->params, &rows[i]))
            p = &rows[i];
    fedp_dut *d = dut_new(ops, NULL);
    if (!p || !d)
        return -1;
    unsigned L = ops->params.L, w = tc_fmt_get(p->in)->width;
    static uint32_t a[POOL][TC_MAX_L], b[POOL][TC_MAX_L], c[POOL];
    uint64_t x = 0x2545f4914f6cdd1dULL;
    for (size_t i = 0; i < POOL; i++) {
        for (unsigned j = 0; j < L; j++) {
            x ^= x << 13, x ^= x >> 7, x ^= x << 17;
            a[i][j] = (uint32_t)x & (w >= 32 ? 0xffffffffu : (1u << w) - 1u);
            b[i][j] = (uint32_t)(x >> 32) & (w >= 32 ? 0xffffffffu : (1u << w) - 1u);
        }
        c[i] = (uint32_t)(x >> 16);
    }
    uint64_t n = 0, sink = 0;
    double t0 = bench_cpu_seconds(), t = t0;
    while (t - t0 < min_secs) {
        for (size_t i = 0; i < POOL; i++) {
            uint32_t r;
            dut_drive(d, 1, p->in, p->in_b, p->out, L, a[i], b[i], c[i]);
            dut_step(d);
            sink += (uint64_t)dut_sample(d, &r) + r;
        }
        n += POOL;
        t = bench_cpu_seconds();
    }
    dut_free(d);
    res->name = name;
    res->L = L;
    res->ops = n;
    res->secs = t - t0;
    return sink == 0; /* the results were used; all-zero output means a dead model */
}

int main(int argc, char **argv)
{
    const char *json = NULL;
    double secs = 2.0;
    for (int i = 1; i < argc; i++) {
        if (!strcmp(argv[i], "--seconds") && i + 1 < argc)
            secs = atof(argv[++i]);
        else
            json = argv[i];
    }
    FILE *f = NULL;
    if (json && !(f = report_open("fedp_bench", json)))
        return 1;
    /* The largest: the most products per step, then the most formats. */
    const fedp_dut_ops *const *list;
    size_t ni = fedp_instances(&list);
    const char *largest = NULL;
    unsigned best = 0;
    for (size_t i = 0; i < ni; i++) {
        unsigned nf = 0;
        for (uint32_t m = list[i]->params.in_fmts; m; m &= m - 1)
            nf++;
        unsigned size = list[i]->params.L * 64 + nf;
        if (size > best) {
            best = size;
            largest = list[i]->name;
        }
    }
    const char *names[2] = {"volta_fp16", largest};
    result res[2];
    for (int i = 0; i < 2; i++) {
        if (run(names[i], secs, &res[i])) {
            fprintf(stderr, "fedp_bench: instance %s failed\n", names[i]);
            return 1;
        }
        printf("%-18s L %2u: %.2f million FEDP operations/s (%llu in %.2f s of CPU time, no trace)\n",
               res[i].name, res[i].L, res[i].ops / res[i].secs / 1e6,
               (unsigned long long)res[i].ops, res[i].secs);
    }
    double volta = res[0].ops / res[0].secs;
    printf("volta target 5 million/s: %s\n", volta >= 5e6 ? "met" : "NOT met");
    if (f) {
        fprintf(f, "{\n  \"benchmark\": \"fedp simulated operations per second\",\n"
                   "  \"target_volta_ops_per_s\": 5000000,\n  \"results\": [\n");
        for (int i = 0; i < 2; i++)
            fprintf(f, "    {\"instance\": \"%s\", \"L\": %u, \"ops\": %llu, \"seconds\": %.3f, "
                       "\"ops_per_s\": %.0f, \"trace\": false}%s\n", res[i].name, res[i].L,
                    (unsigned long long)res[i].ops, res[i].secs, res[i].ops / res[i].secs,
                    i ? "" : ",");
        fprintf(f, "  ]\n}\n");
        if (report_close(f, "fedp_bench", json))
            return 1;
    }
    return 0;
}
