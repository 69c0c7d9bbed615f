/* tmem_bench.c - speed of the Verilated tmem under a random request stream.
 *
 *   tmem_bench [--cycles N] [--seed S] [--json FILE] [--min RATE]
 *
 * Every port gets a new request with probability 1/2 per idle cycle (payloads random,
 * columns anywhere, ld/st of 1-8 columns), held until ready, so conflicts and two-cycle
 * requests happen as in the testbench's busiest phase. The RTL runs alone (no model).
 * Prints cycles per second of wall-clock and of process CPU time for both
 * organizations and writes them as JSON (default: TCSIM_REPORTS_DIR/tmem-bench.json).
 * --min: exit 1 if a rate (CPU time) is below RATE cycles/s (the target is 200000). */
#define _POSIX_C_SOURCE 199309L /* clock_gettime (bench_clock.h) */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include "bench_clock.h"
#include "report_file.h"
#include "splitmix.h"
#include "tmem_dut.h"

#ifndef TCSIM_REPORTS_DIR
#define TCSIM_REPORTS_DIR "."
#endif

static void fill(tk_rng *r, uint32_t *w, size_t n)
{
    for (size_t i = 0; i + 1 < n; i += 2) {
        uint64_t x = tk_next(r);
        w[i] = (uint32_t)x;
        w[i + 1] = (uint32_t)(x >> 32);
    }
}

typedef struct result { double wall_rate, cpu_rate; unsigned long requests; } result;

static int run(unsigned banks, unsigned long cycles, unsigned long long seed, result *res)
{
    static uint32_t d[TC_TMEM_WIDE_WORDS], cp[TC_TMEM_WIDE_WORDS], st[TC_TMEM_QUARTER_WORDS];
    tmem_dut *t = tmem_dut_new(banks, NULL);
    if (!t)
        return -1;
    tk_rng r = { seed + banks };
    tc_tmem_inputs in = { 0 };
    in.d_data = d;
    in.cp_data = cp;
    in.ls_data = st;
    in.ls_ncols = 1;
    tc_tmem_outputs o;
    unsigned long requests = 0;
    double w0 = bench_seconds(CLOCK_MONOTONIC), c0 = bench_cpu_seconds();
    for (unsigned long i = 0; i < cycles; i++) {
        uint64_t x = tk_next(&r);
        if (!in.d_valid && (x & 1)) {
            in.d_valid = 1;
            in.d_col = (x >> 8) & 511;
            in.d_disable[0] = (uint32_t)(x >> 20);
            fill(&r, d, TC_TMEM_WIDE_WORDS);
        }
        if (!in.a_valid && (x & 2)) {
            in.a_valid = 1;
            in.a_col = (x >> 17) & 511;
        }
        if (!in.shift_valid && (x & 4)) {
            in.shift_valid = 1;
            in.shift_col = (x >> 26) & 511;
        }
        if (!in.cp_valid && (x & 8)) {
            in.cp_valid = 1;
            in.cp_col = (x >> 35) & 511;
            fill(&r, cp, TC_TMEM_WIDE_WORDS);
        }
        if (!in.ls_valid && (x & 16)) {
            in.ls_valid = 1;
            in.ls_col = (x >> 44) & 511;
            in.ls_store = (x >> 53) & 1;
            in.ls_group = (x >> 54) & 3;
            in.ls_ncols = 1 + ((x >> 56) & 7);
            if (in.ls_store)
                fill(&r, st, TC_TMEM_QUARTER_WORDS);
        }
        tmem_dut_cycle(t, &in, &o);
        if (o.ready) {
            requests++;
            if (o.ready & (1u << TC_TMEM_PORT_D)) in.d_valid = 0;
            if (o.ready & (1u << TC_TMEM_PORT_A)) in.a_valid = 0;
            if (o.ready & (1u << TC_TMEM_PORT_SHIFT)) in.shift_valid = 0;
            if (o.ready & (1u << TC_TMEM_PORT_CP)) in.cp_valid = 0;
            if (o.ready & (1u << TC_TMEM_PORT_LS)) in.ls_valid = 0;
        }
    }
    double w = bench_seconds(CLOCK_MONOTONIC) - w0, c = bench_cpu_seconds() - c0;
    tmem_dut_free(t);
    res->wall_rate = (double)cycles / w;
    res->cpu_rate = (double)cycles / c;
    res->requests = requests;
    return 0;
}

static int parse(const char *opt, const char *s, unsigned long long *out)
{
    char *end;
    errno = 0;
    unsigned long long v = strtoull(s, &end, 0);
    if (!*s || *end || errno || s[0] == '-') {
        fprintf(stderr, "tmem_bench: bad value for %s '%s'\n", opt, s);
        return -1;
    }
    *out = v;
    return 0;
}

int main(int argc, char **argv)
{
    unsigned long long cycles = 300000, seed = 1, min = 0;
    const char *json = TCSIM_REPORTS_DIR "/tmem-bench.json";
    for (int i = 1; i < argc; i++) {
        if (!strcmp(argv[i], "-h") || !strcmp(argv[i], "--help")) {
            printf("usage: tmem_bench [--cycles N] [--seed S] [--json FILE] [--min RATE]\n");
            return 0;
        }
        if (i + 1 >= argc) {
            fprintf(stderr, "tmem_bench: unknown option or missing value '%s'\n", argv[i]);
            return 2;
        }
        const char *o = argv[i], *v = argv[++i];
        if (!strcmp(o, "--cycles")) {
            if (parse(o, v, &cycles) || cycles == 0)
                return 2;
        } else if (!strcmp(o, "--seed")) {
            if (parse(o, v, &seed))
                return 2;
        } else if (!strcmp(o, "--min")) {
            if (parse(o, v, &min))
                return 2;
        } else if (!strcmp(o, "--json")) {
            json = v;
        } else {
            fprintf(stderr, "tmem_bench: unknown option '%s'\n", o);
            return 2;
        }
    }
    FILE *f = report_open("tmem_bench", json);
    if (!f)
        return 1;
    static const unsigned orgs[2] = { 8, 4 };
    result res[2];
    for (int i = 0; i < 2; i++) {
        if (run(orgs[i], (unsigned long)cycles, seed, &res[i])) {
            fprintf(stderr, "tmem_bench: cannot build the %u-bank RTL\n", orgs[i]);
            return 1;
        }
        printf("tmem %u banks x %u rows: %.0f cycles/s (CPU time), %.0f cycles/s (wall), "
               "%lu requests in %llu cycles\n",
               orgs[i], 512 / orgs[i], res[i].cpu_rate, res[i].wall_rate, res[i].requests, cycles);
    }
    fprintf(f, "{\n  \"benchmark\": \"tmem\",\n  \"what\": \"Verilated rtl/tmem.sv cycles per "
               "second, random request stream on all five ports\",\n  \"target_cycles_per_s\": "
               "200000,\n  \"cycles\": %llu,\n  \"seed\": %llu,\n  \"results\": [\n",
            cycles, seed);
    for (int i = 0; i < 2; i++)
        fprintf(f, "    {\"banks\": %u, \"rows\": %u, \"cycles_per_s_cpu\": %.0f, "
                   "\"cycles_per_s_wall\": %.0f, \"requests\": %lu}%s\n",
                orgs[i], 512 / orgs[i], res[i].cpu_rate, res[i].wall_rate, res[i].requests,
                i ? "" : ",");
    fprintf(f, "  ]\n}\n");
    if (report_close(f, "tmem_bench", json))
        return 1;
    for (int i = 0; i < 2; i++)
        if (min && res[i].cpu_rate < (double)min) {
            fprintf(stderr, "tmem_bench: %u banks below %llu cycles/s\n", orgs[i], min);
            return 1;
        }
    return 0;
}
