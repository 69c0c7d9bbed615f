/* test_timing_tables - the timing model next to every published row of tables.txt
 * (seed 001 Figure 9 and Table I, seed 004 Tables 3-7). Fails if Figure 9 is not
 * matched exactly or if any other number is more than 10% off.
 *
 * One exception, printed on its row: where a seed-004 row's own latency and throughput
 * disagree (throughput = warps * ILP * m*n*k / latency, as seed 004 defines it) by more
 * than 3%, one of the two is a misprint and neither is held against the model. Rows
 * marked t1-x in tables.txt (seed 001 Table I rows the structure does not explain) are
 * printed with their errors and not counted; docs/timing.md lists them and why.
 *
 * Every row was measured on its GPU, so its instruction must be one of that GPU's PTX
 * instructions (tc_ptx_find, tc_arch_ptx_sm): a row the table calls a what-if fails. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "tcsim.h"

#define TOL 0.10

static int failures, checked, skipped, unexplained;
static int report_only; /* the current row is a t1-x row: print, do not count */
static double worst;
static char worst_where[160];

static double err_of(double model, double table)
{
    return (model - table) / table;
}

/* Prints "table/model (+e%)" and counts the check. */
static void check(const char *where, double table, double model)
{
    double e = err_of(model, table);
    int bad = fabs(e) > TOL;
    if (report_only) {
        printf(" %g/%.1f (%+.1f%%)", table, model, 100 * e);
        unexplained++;
        return;
    }
    printf(" %g/%.1f (%+.1f%%)%s", table, model, 100 * e, bad ? " FAIL" : "");
    checked++;
    if (bad)
        failures++;
    if (fabs(e) > worst) {
        worst = fabs(e);
        snprintf(worst_where, sizeof worst_where, "%s", where);
    }
}

static int gpu_of(const char *name, tc_gpu_timing *g)
{
    tc_status st = tc_gpu_timing_find(name, g);
    if (st != TC_OK) {
        printf("FAIL: no GPU '%s' in timing.txt: %s\n", name, tc_strerror(st));
        failures++;
        return -1;
    }
    return 0;
}

static int fmt_of(const char *s, tc_fmt *f)
{
    if (tc_fmt_parse(s, f) != TC_OK) {
        printf("FAIL: bad format '%s'\n", s);
        failures++;
        return -1;
    }
    return 0;
}

/* Counts a failure if the GPU's PTX target lacks the measured instruction. */
static void measured_on(const tc_gpu_timing *g, const tc_mma_op *op, int wmma)
{
    tc_ptx_instr p;
    tc_status st = tc_ptx_find(op, wmma, &p);
    if (st != TC_OK || p.sm > tc_arch_ptx_sm(g->arch)) {
        printf(" FAIL: measured on %s, but not a PTX instruction of %s (sm_%u): %s", g->name,
               tc_arch_name(g->arch), tc_arch_ptx_sm(g->arch),
               st != TC_OK ? tc_strerror(st) : "a later target's");
        failures++;
    }
}

static void row_fig9(char **w, int n)
{
    tc_gpu_timing g;
    tc_mma_op op = {16, 16, 16, TC_FMT_FP16, TC_FMT_COUNT, 0};
    if (n < 4 || gpu_of(w[1], &g) || fmt_of(w[2], &op.acc))
        return;
    uint64_t cum[64];
    size_t cnt;
    tc_status st = tc_wmma_cumulative(&g, &op, cum, 64, &cnt);
    printf("fig9 %s acc %s (exact):", w[1], w[2]);
    measured_on(&g, &op, 1);
    if (st != TC_OK || cnt != (size_t)(n - 3)) {
        printf(" FAIL: %s, %zu HMMAs for %d published\n", tc_strerror(st), cnt, n - 3);
        failures++;
        return;
    }
    int bad = 0;
    for (size_t i = 0; i < cnt; i++) {
        unsigned long t = strtoul(w[3 + i], NULL, 10);
        printf(" %lu/%llu", t, (unsigned long long)cum[i]);
        bad |= t != cum[i];
        checked++;
    }
    printf("%s\n", bad ? " FAIL" : "");
    failures += bad;
}

static void row_t1(char **w, int n)
{
    tc_gpu_timing g;
    tc_mma_op op = {0, 0, 0, TC_FMT_COUNT, TC_FMT_COUNT, 0};
    if (n != 9 || gpu_of(w[1], &g) || fmt_of(w[2], &op.in) || fmt_of(w[3], &op.acc))
        return;
    if (sscanf(w[4], "%ux%ux%u", &op.m, &op.n, &op.k) != 3) {
        printf("FAIL: bad shape '%s'\n", w[4]);
        failures++;
        return;
    }
    uint64_t cum[64];
    size_t cnt;
    tc_status st = tc_wmma_cumulative(&g, &op, cum, 64, &cnt);
    printf("%s %s %s->%s %s:", w[0], w[1], w[2], w[3], w[4]);
    measured_on(&g, &op, 1);
    if (st != TC_OK) {
        printf(" FAIL: %s\n", tc_strerror(st));
        failures++;
        return;
    }
    /* Table I counts sets of HMMAs; the model's HMMAs per set = HMMAs / published sets. */
    int sets = 0;
    while (sets < 4 && strcmp(w[5 + sets], "-"))
        sets++;
    if (sets == 0 || cnt % (size_t)sets) {
        printf(" FAIL: %zu HMMAs do not form %d sets\n", cnt, sets);
        failures++;
        return;
    }
    for (int s = 0; s < sets; s++) {
        char where[96];
        snprintf(where, sizeof where, "t1 %s %s %s %s set %d", w[1], w[2], w[3], w[4], s + 1);
        check(where, atof(w[5 + s]), (double)cum[(s + 1) * (cnt / (size_t)sets) - 1]);
    }
    printf("\n");
}

static void row_t004(char **w, int n)
{
    tc_gpu_timing g;
    tc_mma_op op = {0, 0, 0, TC_FMT_COUNT, TC_FMT_COUNT, 0};
    if (n != 15 || gpu_of(w[2], &g) || fmt_of(w[4], &op.in) || fmt_of(w[5], &op.acc))
        return;
    const char *shape = w[3];
    op.sparse = !strncmp(shape, "mma.sp.", 7);
    shape += op.sparse ? 7 : 4;
    if (tc_mma_shape_parse(shape, &op.m, &op.n, &op.k) != TC_OK) {
        printf("FAIL: bad op '%s'\n", w[3]);
        failures++;
        return;
    }
    printf("t004 table %s %s %s %s->%s:", w[1], w[2], w[3], w[4], w[5]);
    measured_on(&g, &op, 0);
    tc_bench_result r;
    char where[128];
    tc_status st = tc_bench_mma(&g, &op, 1, 1, 200, &r);
    if (st != TC_OK) {
        printf(" FAIL: %s\n", tc_strerror(st));
        failures++;
        return;
    }
    snprintf(where, sizeof where, "table %s %s %s %s %s latency", w[1], w[2], w[3], w[4], w[5]);
    printf(" latency");
    check(where, atof(w[6]), r.latency_x10 / 10.0);
    for (int p = 0; p < 2; p++) {
        char **c = w + 7 + 4 * p;
        unsigned warps = (unsigned)atoi(c[0]), ilp = (unsigned)atoi(c[1]);
        double lat = atof(c[2]), thr = atof(c[3]);
        st = tc_bench_mma(&g, &op, warps, ilp, 200, &r);
        if (st != TC_OK) {
            printf(" FAIL: %s\n", tc_strerror(st));
            failures++;
            return;
        }
        printf(" | (%u,%u) lat", warps, ilp);
        double implied = warps * ilp * (double)op.m * op.n * op.k / lat;
        if (fabs(implied - thr) / thr > 0.03) {
            printf(" %g/%.1f thr %g/%.1f (not checked: the table's latency implies %.1f"
                   " FMA/clk/SM)", lat, r.latency_x10 / 10.0, thr, r.fma_per_clk_x10 / 10.0,
                   implied);
            skipped += 2;
            continue;
        }
        snprintf(where, sizeof where, "table %s %s %s %s %s (%u,%u) latency", w[1], w[2],
                 w[3], w[4], w[5], warps, ilp);
        check(where, lat, r.latency_x10 / 10.0);
        printf(" thr");
        snprintf(where, sizeof where, "table %s %s %s %s %s (%u,%u) throughput", w[1], w[2],
                 w[3], w[4], w[5], warps, ilp);
        check(where, thr, r.fma_per_clk_x10 / 10.0);
    }
    printf("\n");
}

int main(int argc, char **argv)
{
    if (argc != 2) {
        fprintf(stderr, "usage: test_timing_tables tables.txt\n");
        return 2;
    }
    FILE *f = fopen(argv[1], "r");
    if (!f) {
        perror(argv[1]);
        return 2;
    }
    char line[512];
    int rows = 0;
    while (fgets(line, sizeof line, f)) {
        char *w[32];
        int n = 0;
        for (char *t = strtok(line, " \t\r\n"); t && n < 32; t = strtok(NULL, " \t\r\n")) {
            if (t[0] == '#')
                break;
            w[n++] = t;
        }
        if (n == 0)
            continue;
        rows++;
        if (!strcmp(w[0], "fig9"))
            row_fig9(w, n);
        else if (!strcmp(w[0], "t1") || !strcmp(w[0], "t1-x")) {
            report_only = !strcmp(w[0], "t1-x");
            row_t1(w, n);
            report_only = 0;
        }
        else if (!strcmp(w[0], "t004"))
            row_t004(w, n);
        else {
            printf("FAIL: unknown row kind '%s'\n", w[0]);
            failures++;
        }
    }
    fclose(f);
    printf("\n%d rows, %d numbers checked, worst error %.1f%% (%s);\n"
           "not checked: %d (table inconsistent), %d (t1-x rows the model does not explain)\n",
           rows, checked, 100 * worst, worst_where, skipped, unexplained);
    if (rows < 49 || checked < 200) {
        printf("FAIL: the table file is incomplete\n");
        failures++;
    }
    printf("%s\n", failures ? "FAILED" : "PASSED");
    return failures ? 1 : 0;
}
