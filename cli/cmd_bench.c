/* cmd_bench.c - `tcsim bench`: throughput of the model on one core.
 *
 * For each FEDP profile, L-term dot products per second through the single-case call
 * (tc_dot) and the batch call (tc_dot_batch); whole mma.m16n8k16 tiles (tc_mma_tile, what
 * a simulator's handle computes per instruction with data); then `tcsim dot`'s line
 * engine on generated text (parsing and printing included). Prints a table and writes
 * JSON. */
#define _POSIX_C_SOURCE 200809L
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
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
                     NULL, 0, 0};
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

/* The usage; ctx: the JSON file's name. */
static void bench_help(const void *ctx)
{
    printf("usage: tcsim bench [--quick] [--profile NAME] [--json FILE]\n\n"
           "Dot products per second of the model on one core, per FEDP profile (k = L),\n"
           "through tc_dot and tc_dot_batch; ampere mma.m16n8k16 tiles per second\n(tc_mma_tile); "
           "`tcsim dot` lines per second (ampere fp16, k = 8, parsing\nincluded). "
           "--profile: that FEDP profile only, named\narch_instr_in_out from `tcsim list` "
           "(ampere_mma_fp16_fp32). Writes JSON to\n%s (opened before the run).\n",
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
            b[i] = rand_value(&seed, p->in);
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
    int ok = measured;
    if (measured) {
        fprintf(f, "{\n  \"unit\": \"dot products per second, one core\",\n  \"profiles\": [\n");
        for (size_t i = 0; i < nres; i++)
            fprintf(f, "    {\"profile\": \"%s\", \"k\": %u, \"single\": %.0f, "
                       "\"batch\": %.0f}%s\n", res[i].name, res[i].k, res[i].single,
                    res[i].batch, i + 1 < nres ? "," : "");
        fprintf(f, "  ],\n  \"mma_m16n8k16_tiles_per_s\": %.0f,\n"
                   "  \"tcsim_dot_lines_per_s\": %.0f\n}\n", tile, cli);
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
