/* cmd_bench.c - `tcsim bench`: throughput of the model on one core.
 *
 * For each FEDP profile, L-term dot products per second through the single-case call
 * (tc_dot) and the batch call (tc_dot_batch); whole mma.m16n8k16 tiles (tc_mma_tile, what
 * a simulator's handle computes per instruction with data); then `tcsim dot`'s line
 * engine on generated text (parsing and printing included); a naive scalar C FEDP loop
 * beside tc_dot; whole GEMMs through tc_gemm (multiply-adds per second, one thread and
 * all cores). Prints a table and writes JSON. */
#define _POSIX_C_SOURCE 200809L
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include "cli.h"
#include "dot_stream.h"

enum { CASES = 4096 };

/* CPU time of this process: the figures are per core, and other load on the machine
 * does not count against them. */
static double now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

static uint64_t rng_next(uint64_t *s) /* xorshift64*: reproducible inputs */
{
    *s ^= *s >> 12;
    *s ^= *s << 25;
    *s ^= *s >> 27;
    return *s * UINT64_C(2685821657736338717);
}

/* A finite, normal-ish random pattern of a float format (exponent near 1). */
static uint32_t rand_value(uint64_t *s, tc_fmt f)
{
    const tc_fmt_info *fi = tc_fmt_get(f);
    uint64_t r = rng_next(s);
    uint32_t man = (uint32_t)r & ((1u << fi->man_bits) - 1u);
    int e = fi->bias - 2 + (int)((r >> 32) % 4), top = (1 << fi->exp_bits) - 2;
    uint32_t exp = (uint32_t)(e < 1 ? 1 : e > top ? top : e); /* a normal binade */
    uint32_t sign = (uint32_t)(r >> 40) & 1u;
    uint32_t v = (sign << (fi->exp_bits + fi->man_bits)) | (exp << fi->man_bits) | man;
    return v << fi->ignore_low;
}

typedef struct bench_row {
    const char *name;
    unsigned k;
    double single, batch;
} bench_row;

/* A measurement that cannot be made: the model refused inputs generated valid, or the
 * text engine could not start. Said on stderr; the caller gives up (no figure is
 * better than a wrong one). */
static double failed(const char *what, const char *why)
{
    fprintf(stderr, "tcsim bench: %s: %s\n", what, why);
    return -1;
}

/* Repeats fn over the case set until `secs` have passed; returns dot products/s, or -1
 * after saying why on stderr. */
static double rate(const tc_profile *p, size_t k, const uint32_t *a, const uint32_t *b,
                   const uint32_t *c, uint32_t *d, int batch, double secs)
{
    size_t done = 0;
    double t0 = now(), t;
    do {
        tc_status st = TC_OK;
        if (batch) {
            st = tc_dot_batch(p, CASES, k, a, b, c, d, NULL);
        } else {
            for (size_t i = 0; i < CASES && st == TC_OK; i++)
                st = tc_dot(p, k, a + i * k, b + i * k, c[i], &d[i]);
        }
        if (st != TC_OK) /* the inputs are generated valid: a failure is a bug */
            return failed(p->name, tc_strerror(st));
        done += CASES;
        t = now();
    } while (t - t0 < secs);
    return (double)done / (t - t0);
}

/* Whole tiles per second: ampere mma.m16n8k16, fp16 -> fp32 (two 8-term k-steps); -1
 * after saying why. */
static double tile_rate(double secs, uint64_t *seed)
{
    enum { M = 16, N = 8, K = 16 };
    uint32_t A[M * K], B[K * N], C[M * N], D[M * N];
    const tc_profile *p;
    tc_status st = tc_profile_find(TC_ARCH_AMPERE, TC_INSTR_MMA, TC_FMT_FP16, TC_FMT_FP32, &p);
    if (st != TC_OK)
        return failed("mma.m16n8k16 tile", tc_strerror(st));
    for (size_t i = 0; i < M * K; i++)
        A[i] = rand_value(seed, TC_FMT_FP16);
    for (size_t i = 0; i < K * N; i++)
        B[i] = rand_value(seed, TC_FMT_FP16);
    for (size_t i = 0; i < M * N; i++)
        C[i] = rand_value(seed, TC_FMT_FP32);
    size_t done = 0;
    double t0 = now(), t;
    do {
        for (int r = 0; r < 256; r++, done++)
            if ((st = tc_mma_tile(p, M, N, K, A, B, C, D)) != TC_OK)
                return failed("mma.m16n8k16 tile", tc_strerror(st));
        C[done % (M * N)] = D[done % (M * N)]; /* keep the work live */
        t = now();
    } while (t - t0 < secs);
    return (double)done / (t - t0);
}

/* `tcsim dot` lines per second: ampere fp16 -> fp32, k = 8, text in memory; -1 after
 * saying why. */
static double cli_rate(double secs, uint64_t *seed)
{
    enum { LINES = 20000 };
    size_t cap = (size_t)LINES * 96;
    char *text = malloc(cap), *p = text;
    if (!text)
        return failed("tcsim dot", "out of memory");
    for (int i = 0; i < LINES; i++) {
        for (int t = 0; t < 16; t++)
            p += sprintf(p, "%04x ", rand_value(seed, TC_FMT_FP16));
        p += sprintf(p, "%08x\n", rand_value(seed, TC_FMT_FP32));
    }
    dot_options o = {TC_ARCH_AMPERE, TC_INSTR_MMA, TC_FMT_FP16, TC_FMT_FP32, TC_FMT_COUNT,
                     NULL, 0, 0, 0, TC_FMT_COUNT, 0};
    dot_stream ds;
    FILE *sink = fopen("/dev/null", "w");
    if (!sink || dot_open("bench", &o, &ds)) {
        free(text);
        if (sink)
            fclose(sink);
        return failed("tcsim dot", "its engine did not start");
    }
    size_t lines = 0;
    int ok = 1;
    double t0 = now(), t;
    do {
        FILE *in = fmemopen(text, (size_t)(p - text), "r");
        ok = in && !dot_stream_run(&ds, in, sink); /* dot_stream_run said why */
        if (in)
            fclose(in);
        lines += LINES;
        t = now();
    } while (ok && t - t0 < secs);
    dot_close(&ds);
    fclose(sink);
    free(text);
    return ok ? (double)lines / (t - t0) : failed("tcsim dot", "a run of its engine failed");
}

/* ------------------------------------------------------------ gemm */

/* The naive scalar C FEDP that the targets compare with: ampere fp16 -> fp32,
 * k = 8, finite inputs, each step written out plainly (decode with a branch per
 * subnormal, products, max exponent, shift, sum, normalise, truncate to fp32). It is a
 * baseline only; naive_rate checks its results against tc_dot's. */
static uint32_t naive_fedp(const uint32_t *a, const uint32_t *b, uint32_t c)
{
    int64_t sig[9];
    int exp[9], E = -1000;
    for (int i = 0; i < 8; i++) {
        int ea = (a[i] >> 10) & 31, eb = (b[i] >> 10) & 31;
        int64_t ma = a[i] & 1023, mb = b[i] & 1023;
        if (ea) ma |= 1024; else ea = 1;
        if (eb) mb |= 1024; else eb = 1;
        sig[i] = ma * mb * (((a[i] ^ b[i]) >> 15) ? -1 : 1);
        exp[i] = ea + eb - 30 - 20; /* value = sig * 2^exp */
        if (sig[i] && exp[i] + 20 > E)
            E = exp[i] + 20;
    }
    int ec = (c >> 23) & 255;
    int64_t mc = c & 0x7fffff;
    if (ec) mc |= 0x800000; else ec = 1;
    sig[8] = (c >> 31) ? -mc : mc;
    exp[8] = ec - 127 - 23;
    if (mc && exp[8] + 23 > E)
        E = exp[8] + 23;
    if (E < -132)
        E = -132;
    int64_t sum = 0; /* in units of 2^(E - 24) */
    for (int i = 0; i < 9; i++) {
        int sh = E - 24 - exp[i];
        int64_t m = sig[i] < 0 ? -sig[i] : sig[i];
        m = sh >= 63 ? 0 : sh >= 0 ? m >> sh : m << -sh;
        sum += sig[i] < 0 ? -m : m;
    }
    if (sum == 0)
        return 0;
    uint32_t sign = sum < 0;
    uint64_t mag = (uint64_t)(sum < 0 ? -sum : sum);
    int q = E - 24, top = 63 - __builtin_clzll(mag), e = top + q;
    if (e < -126)
        e = -126;
    int sh = e - 23 - q;
    uint64_t m = sh >= 64 ? 0 : sh >= 0 ? mag >> sh : mag << -sh;
    if (e > 127)
        return (sign << 31) | 0x7f800000u;
    uint32_t biased = (m >> 23) ? (uint32_t)(e + 127) : 0u;
    return (sign << 31) | (biased << 23) | (uint32_t)(m & 0x7fffff);
}

/* Naive-loop dots per second on the bench's inputs; -1 after saying why (a result
 * that is not tc_dot's means the baseline is wrong and measures nothing). */
static double naive_rate(const tc_profile *p, const uint32_t *a, const uint32_t *b,
                         const uint32_t *c, uint32_t *d, double secs)
{
    for (size_t i = 0; i < CASES; i++) {
        uint32_t want;
        if (tc_dot(p, 8, a + i * 8, b + i * 8, c[i], &want) != TC_OK ||
            naive_fedp(a + i * 8, b + i * 8, c[i]) != want)
            return failed("naive scalar FEDP loop", "its result is not tc_dot's");
    }
    size_t done = 0;
    double t0 = now(), t;
    do {
        for (size_t i = 0; i < CASES; i++)
            d[i] = naive_fedp(a + i * 8, b + i * 8, c[i]);
        done += CASES;
        t = now();
    } while (t - t0 < secs);
    return (double)done / (t - t0);
}

static double wall(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

typedef struct gemm_row {
    const char *kind;        /* what the row measures */
    const tc_profile *p;
    size_t n;                /* M = N = K */
    unsigned threads;        /* 0: all cores */
    double mac_per_s;
} gemm_row;

/* One tc_gemm of n x n x n on random finite inputs (block-scaled: scales near 1),
 * repeated until `secs`; multiply-adds per second (CPU time for one thread, wall time
 * for several, which then is the machine's rate); -1 after saying why. */
static double gemm_rate(const tc_profile *p, size_t n, unsigned threads, double secs,
                        uint64_t *seed)
{
    int scaled = p->kind == TC_KIND_MX || p->kind == TC_KIND_MXF4;
    size_t ns = scaled ? n / p->scale_block : 0;
    uint32_t *a = malloc(n * n * sizeof *a), *b = malloc(n * n * sizeof *b);
    uint32_t *c = malloc(n * n * sizeof *c), *d = malloc(n * n * sizeof *d);
    uint32_t *sa = malloc((n * ns + 1) * sizeof *sa), *sb = malloc((n * ns + 1) * sizeof *sb);
    double r = -1;
    if (!a || !b || !c || !d || !sa || !sb) {
        failed(p->name, "out of memory");
        goto out;
    }
    const tc_fmt_info *fi = tc_fmt_get(p->in);
    for (size_t i = 0; i < n * n; i++) {
        a[i] = fi->cls == TC_CLASS_INT ? (uint32_t)rng_next(seed) & ((1u << fi->width) - 1u)
                                       : rand_value(seed, p->in);
        b[i] = fi->cls == TC_CLASS_INT ? (uint32_t)rng_next(seed) & ((1u << fi->width) - 1u)
                                       : rand_value(seed, p->in);
        c[i] = p->out == TC_FMT_S32 ? (uint32_t)rng_next(seed) : rand_value(seed, p->out);
    }
    for (size_t i = 0; i < n * ns; i++)
        sa[i] = sb[i] = 127 - 2 + (uint32_t)(rng_next(seed) % 4); /* ue8m0 near 1 */
    tc_matrix A = {a, TC_LAYOUT_ROW, 0}, B = {b, TC_LAYOUT_ROW, 0}, C = {c, TC_LAYOUT_ROW, 0};
    tc_matrix_out D = {d, TC_LAYOUT_ROW, 0};
    tc_gemm_opts o = {.threads = threads, .scale_a = {sa, TC_LAYOUT_ROW, 0},
                      .scale_b = {sb, TC_LAYOUT_ROW, 0}};
    size_t done = 0;
    double (*clock)(void) = threads == 1 ? now : wall, t0 = clock(), t;
    do {
        tc_status st = tc_gemm(p, n, n, n, &A, &B, &C, &D, &o);
        if (st != TC_OK) {
            failed(p->name, tc_strerror(st));
            goto out;
        }
        done++;
        t = clock();
    } while (t - t0 < secs);
    r = (double)done * (double)n * (double)n * (double)n / (t - t0);
out:
    free(a); free(b); free(c); free(d); free(sa); free(sb);
    return r;
}

/* The gemm rows: ampere mma fp16 -> fp32 on one thread and on all, then one row per
 * kind on one thread. Fills rows (capacity 16); returns the count, 0 after a failure. */
static size_t gemm_rows(int quick, double secs, uint64_t *seed, gemm_row *rows)
{
    const size_t big = quick ? 64 : 512, small = quick ? 64 : 256;
    struct {
        const char *kind;
        tc_arch arch;
        tc_instr instr;
        tc_fmt in, out;
        const char *scaled;
        size_t n;
        unsigned threads;
    } want[] = {
        {"fp16", TC_ARCH_AMPERE, TC_INSTR_MMA, TC_FMT_FP16, TC_FMT_FP32, NULL, big, 1},
        {"fp16", TC_ARCH_AMPERE, TC_INSTR_MMA, TC_FMT_FP16, TC_FMT_FP32, NULL, big, 0},
        {"tf32", TC_ARCH_AMPERE, TC_INSTR_MMA, TC_FMT_TF32, TC_FMT_FP32, NULL, small, 1},
        {"bf16", TC_ARCH_AMPERE, TC_INSTR_MMA, TC_FMT_BF16, TC_FMT_FP32, NULL, small, 1},
        {"fp8 wgmma", TC_ARCH_HOPPER, TC_INSTR_WGMMA, TC_FMT_E4M3, TC_FMT_FP32, NULL, small, 1},
        {"fp8 emulation", TC_ARCH_HOPPER, TC_INSTR_MMA, TC_FMT_E4M3, TC_FMT_FP32, NULL, small, 1},
        {"f8f6f4", TC_ARCH_BLACKWELL, TC_INSTR_TCGEN05, TC_FMT_E2M3, TC_FMT_FP32, NULL, small, 1},
        {"mxf4", TC_ARCH_BLACKWELL, TC_INSTR_TCGEN05, TC_FMT_E2M1, TC_FMT_FP32, "mxf4", small, 1},
        {"int8", TC_ARCH_AMPERE, TC_INSTR_MMA, TC_FMT_INT8, TC_FMT_S32, NULL, small, 1},
    };
    size_t n = 0;
    for (size_t i = 0; i < sizeof want / sizeof want[0]; i++) {
        const tc_profile *p;
        tc_status st = want[i].scaled
            ? tc_profile_find_scaled(want[i].arch, want[i].instr, want[i].scaled, want[i].in,
                                     TC_FMT_UE8M0, 0, &p)
            : tc_profile_find(want[i].arch, want[i].instr, want[i].in, want[i].out, &p);
        if (st != TC_OK) {
            failed(want[i].kind, tc_strerror(st));
            return 0;
        }
        gemm_row *g = &rows[n++];
        *g = (gemm_row){want[i].kind, p, want[i].n, want[i].threads, 0};
        g->mac_per_s = gemm_rate(p, g->n, g->threads, secs, seed);
        if (g->mac_per_s < 0)
            return 0;
        printf("gemm %-13s %-34s %4zu %7s %10.3g MAC/s\n", g->kind, p->name, g->n,
               g->threads ? "1 thr" : "all thr", g->mac_per_s);
        fflush(stdout);
    }
    return n;
}

/* The usage; ctx: the JSON file's name. */
static void bench_help(const void *ctx)
{
    printf("usage: tcsim bench [--quick] [--profile NAME] [--json FILE]\n\n"
           "Dot products per second of the model on one core, per FEDP profile (k = L),\n"
           "through tc_dot and tc_dot_batch; ampere mma.m16n8k16 tiles per second\n(tc_mma_tile); "
           "`tcsim dot` lines per second (ampere fp16, k = 8, parsing\nincluded). "
           "--profile: that FEDP profile only, named\narch_instr_in_out from `tcsim list` "
           "(ampere_mma_fp16_fp32). Then a naive scalar C FEDP loop beside tc_dot (ampere\n"
           "fp16, k = 8), and tc_gemm multiply-adds per second (MAC/s): ampere mma fp16->fp32\n"
           "at M = N = K = 512 on one thread and on all cores, one row per kind at 256\n"
           "(--quick: 64). Writes JSON to\n%s (opened before the run).\n",
           *(const char *const *)ctx);
}

static int bench_run(int argc, char **argv)
{
    const char *json = TCSIM_REPORTS_DIR "/model-bench.json", *only = NULL;
    int quick = 0;
    const cli_opt opt[] = {{.name = "--quick", .flag = &quick},
                           {.name = "--profile", .value = &only},
                           {.name = "--json", .value = &json}};
    int st = cli_parse_opts(&(cli_opts){"bench", "option", 0, bench_help, &json,
                                        opt, CLI_COUNT(opt)}, argc, argv);
    if (st >= 0)
        return st;
    double secs = quick ? 0.05 : 0.3;
    const tc_profile *rows;
    size_t nrows = tc_profile_table(&rows);
    if (only) {
        size_t r = 0;
        while (r < nrows && strcmp(only, rows[r].name))
            r++;
        if (r == nrows) {
            fprintf(stderr, "tcsim bench: unknown --profile '%s' (a name is arch_instr_in_out "
                            "from tcsim list: ampere_mma_fp16_fp32)\n", CLI_WORD(only));
            return CLI_USAGE;
        }
        if (rows[r].kind != TC_KIND_FEDP) {
            fprintf(stderr, "tcsim bench: --profile '%s' is not an FEDP profile; bench measures "
                            "FEDP profiles only\n", CLI_WORD(only));
            return CLI_USAGE;
        }
    }
    /* Opened before the run, so that a bad path is an error now, not seconds later. */
    FILE *f = fopen(json, "w");
    if (!f) {
        fprintf(stderr, "tcsim bench: cannot write '%s': %s\n", CLI_PATH(json), strerror(errno));
        return CLI_FAIL;
    }
    bench_row *res = calloc(nrows, sizeof *res);
    uint32_t *a = malloc(CASES * 64 * sizeof *a), *b = malloc(CASES * 64 * sizeof *b);
    uint32_t *c = malloc(CASES * sizeof *c), *d = malloc(CASES * sizeof *d);
    if (!res || !a || !b || !c || !d) {
        fprintf(stderr, "tcsim bench: out of memory\n");
        free(res); free(a); free(b); free(c); free(d);
        fclose(f);
        return CLI_FAIL;
    }
    uint64_t seed = 0x5eed;
    size_t nres = 0;
    int measured = 1; /* every figure made (a failure said why on stderr) */
    printf("%-34s %3s %14s %14s\n", "profile", "k", "single dots/s", "batch dots/s");
    for (size_t r = 0; r < nrows && measured; r++) {
        const tc_profile *p = &rows[r];
        if (p->kind != TC_KIND_FEDP || (only && strcmp(only, p->name)))
            continue;
        for (size_t i = 0; i < CASES * p->L; i++) {
            a[i] = rand_value(&seed, p->in);
            b[i] = rand_value(&seed, p->in_b);
        }
        for (size_t i = 0; i < CASES; i++)
            c[i] = rand_value(&seed, p->out);
        bench_row *br = &res[nres++];
        br->name = p->name;
        br->k = p->L;
        br->single = rate(p, p->L, a, b, c, d, 0, secs);
        br->batch = br->single < 0 ? -1 : rate(p, p->L, a, b, c, d, 1, secs);
        if ((measured = br->batch >= 0)) {
            printf("%-34s %3u %14.0f %14.0f\n", br->name, br->k, br->single, br->batch);
            fflush(stdout);
        }
    }
    double tile = measured ? tile_rate(secs, &seed) : -1;
    if ((measured = tile >= 0))
        printf("%-34s %3d %14.0f   (tiles/s: %.3g multiply-adds/s)\n",
               "mma.m16n8k16 tile ampere fp16->fp32", 16, tile, tile * 16 * 8 * 16);
    double cli = measured ? cli_rate(secs * 3, &seed) : -1;
    if ((measured = cli >= 0))
        printf("%-34s %3d %14.0f   (lines/s, parsing and printing included)\n",
               "tcsim dot ampere fp16->fp32", 8, cli);
    /* the naive scalar loop and tc_dot side by side on the same cases (ampere fp16, k 8) */
    double naive = -1, single = -1;
    const tc_profile *pa;
    if (measured && tc_profile_find(TC_ARCH_AMPERE, TC_INSTR_MMA, TC_FMT_FP16, TC_FMT_FP32,
                                    &pa) == TC_OK) {
        for (size_t i = 0; i < CASES * 8; i++) {
            a[i] = rand_value(&seed, TC_FMT_FP16);
            b[i] = rand_value(&seed, TC_FMT_FP16);
        }
        for (size_t i = 0; i < CASES; i++)
            c[i] = rand_value(&seed, TC_FMT_FP32);
        naive = naive_rate(pa, a, b, c, d, secs);
        single = naive < 0 ? -1 : rate(pa, 8, a, b, c, d, 0, secs);
    }
    if ((measured = single >= 0)) {
        printf("fedp naive scalar C loop ampere fp16->fp32 8 %14.0f   (dots/s)\n", naive);
        printf("fedp tc_dot single case  ampere fp16->fp32 8 %14.0f   (dots/s)\n", single);
    }
    gemm_row grows[16];
    size_t ngemm = measured ? gemm_rows(quick, secs, &seed, grows) : 0;
    measured = ngemm > 0;
    long cores = sysconf(_SC_NPROCESSORS_ONLN);
    int ok = measured;
    if (measured) {
        fprintf(f, "{\n  \"unit\": \"dot products per second, one core\",\n  \"profiles\": [\n");
        for (size_t i = 0; i < nres; i++)
            fprintf(f, "    {\"profile\": \"%s\", \"k\": %u, \"single\": %.0f, "
                       "\"batch\": %.0f}%s\n", res[i].name, res[i].k, res[i].single,
                    res[i].batch, i + 1 < nres ? "," : "");
        fprintf(f, "  ],\n  \"mma_m16n8k16_tiles_per_s\": %.0f,\n"
                   "  \"tcsim_dot_lines_per_s\": %.0f,\n", tile, cli);
        fprintf(f, "  \"fedp_ampere_fp16_fp32_k8\": {\"naive_scalar_loop_dots_per_s\": %.0f, "
                   "\"tc_dot_dots_per_s\": %.0f},\n", naive, single);
        fprintf(f, "  \"gemm\": [\n");
        for (size_t i = 0; i < ngemm; i++)
            fprintf(f, "    {\"kind\": \"%s\", \"profile\": \"%s\", \"m\": %zu, \"n\": %zu, "
                       "\"k\": %zu, \"threads\": %ld, \"mac_per_s\": %.0f}%s\n", grows[i].kind,
                    grows[i].p->name, grows[i].n, grows[i].n, grows[i].n,
                    grows[i].threads ? (long)grows[i].threads : cores, grows[i].mac_per_s,
                    i + 1 < ngemm ? "," : "");
        fprintf(f, "  ]\n}\n");
        /* fprintf buffers: a full disk shows up at the latest in fclose. */
        ok = !ferror(f);
        ok &= fclose(f) == 0;
        if (ok)
            printf("wrote %s\n", CLI_PATH(json));
        else
            fprintf(stderr, "tcsim bench: cannot write '%s': %s\n", CLI_PATH(json),
                    strerror(errno));
    } else { /* no JSON with a figure missing: the file opened empty goes */
        fclose(f);
        remove(json);
    }
    free(res); free(a); free(b); free(c); free(d);
    return ok ? CLI_OK : CLI_FAIL;
}

const cli_cmd cmd_bench = {"bench", "model throughput per profile (table + JSON)", bench_run};
