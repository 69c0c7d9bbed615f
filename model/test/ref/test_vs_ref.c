/*
 * test_vs_ref.c - the golden model against the exact reference (ref_exact.c).
 *
 *   test_vs_ref [--seed N] [--cases N] [--profile NAME] [--case I] [--max-print N]
 *               [--dump N] [--selftest] [--table]
 *
 * Three parts:
 *   selftest  the reference against hand-computed cases written from docs/contract.md, so
 *             that the reference is not only ever checked against the model;
 *   table     the model's profile table (tc_profile_table) against our own
 *             transcription of the docs/contract.md table, row for row, both ways;
 *   random    a seeded random comparison over every row of the model's table, bit
 *             for bit, with inputs drawn to hit the hard cases (see `scenario`).
 * --selftest and --table run only those parts; with neither, all three run.
 * --profile NAME restricts the random part to one model row (all --cases go to it),
 * --case I to one case of it (every case's inputs depend only on seed, row, I);
 * --dump N prints the first N cases of every row with both results.
 * Prints PASSED or FAILED; the exit status is non-zero on any failure.
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "vs_ref.h"


/* ======================================================================= random run */

typedef enum result_class { RES_NAN, RES_INF, RES_ZERO, RES_SUB, RES_NORMAL, RES_INT,
                            RES_ERROR, RES_COUNT } result_class;
static const char *const RES_NAMES[RES_COUNT] = {"nan", "inf", "zero", "subnormal", "normal",
                                                 "int", "model-error"};

static result_class classify(const row_ctx *rc, uint32_t bits)
{
    if (is_exact_kind(rc->rp.kind))
        return RES_INT;
    ref_num x;
    if (ref_decode(rc->fout->id, bits, &x) != 0)
        return RES_ERROR;
    if (x.cls == REF_NAN)
        return RES_NAN;
    if (x.cls == REF_INF)
        return RES_INF;
    if (x.sig == 0)
        return RES_ZERO;
    return (x.sig >> rc->fout->mbits) ? RES_NORMAL : RES_SUB;
}

typedef struct run_opts {
    uint64_t seed;
    uint64_t cases;
    const char *profile;
    long long only_case;
    unsigned max_print;
    unsigned dump;       /* print the first `dump` cases of every row, matching or not */
} run_opts;

typedef struct run_stats {
    uint64_t done, mismatches, printed;
    uint64_t bucket[SC_COUNT][RES_COUNT];
} run_stats;

static void print_words(const char *label, const uint32_t *v, size_t n, unsigned width)
{
    printf("  %s:", label);
    for (size_t i = 0; i < n; i++)
        printf("%s%0*" PRIx32, i % 16 == 0 && i ? "\n     " : " ", (int)(width + 3) / 4, v[i]);
    printf("\n");
}

static void report_mismatch(const run_opts *o, size_t row, uint64_t ci, const row_ctx *rc,
                            const test_case *t, tc_status st, uint32_t md, int rrc, uint32_t rd)
{
    printf("MISMATCH %s (row %zu) case %" PRIu64 " seed %" PRIu64 " scenario %s k %zu\n",
           rc->mp->name, row, ci, o->seed, SC_NAMES[t->sc], t->k);
    print_words("a", t->a, t->k, rc->fin->width);
    print_words("b", t->b, t->k, rc->fin_b->width);
    if (rc->scaled) {
        print_words("scale_a", t->sa, t->k / rc->rp.scale_block, 8);
        print_words("scale_b", t->sb, t->k / rc->rp.scale_block, 8);
    }
    printf("  c: %0*" PRIx32 "\n", (int)(rc->fout->width + 3) / 4, t->c);
    printf("  model: 0x%0*" PRIx32 " (%s)   ref: 0x%0*" PRIx32 "%s\n",
           (int)(rc->fout->width + 3) / 4, md, tc_strerror(st), (int)(rc->fout->width + 3) / 4,
           rd, rrc ? " (ref error)" : "");
    printf("  rerun: --seed %" PRIu64 " --profile %s --case %" PRIu64 "\n", o->seed,
           rc->mp->name, ci);
}

/* Our parameters for a model row; 0 if we have none (counted as a failure). */
static double now_s(void)
{
    struct timespec ts;
    timespec_get(&ts, TIME_UTC);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

/* Share of the cases per row: the kinds with more rules to get wrong get more. */
static uint64_t row_weight(const tc_profile *p)
{
    switch (p->kind) {
    case TC_KIND_INT: case TC_KIND_POPC_AND: case TC_KIND_POPC_XOR: return 1;
    case TC_KIND_FP64: return 0; /* 64-bit words: test_f64 and ref_f64.c */
    case TC_KIND_FEDP: return 4;
    case TC_KIND_FP8_EMU: return 6;
    case TC_KIND_MX: return 6;
    default: return 12; /* MXF4 */
    }
}

/* Cases for one row (rounded up, so the total is at least `cases`). */
static uint64_t row_cases(uint64_t cases, const tc_profile *p, uint64_t wsum)
{
    return (cases * row_weight(p) + wsum - 1) / wsum;
}

static int run_random(const run_opts *o)
{
    const tc_profile *rows;
    size_t n = tc_profile_table(&rows), nsel = 0;
    for (size_t i = 0; i < n; i++)
        if (!o->profile || strcmp(o->profile, rows[i].name) == 0)
            nsel++;
    if (nsel == 0) {
        printf("random: no profile named %s\n", o->profile ? o->profile : "(any)");
        return 1;
    }
    ref_ctx *w = ref_ctx_new();
    run_stats *s = calloc(1, sizeof *s);
    test_case *t = malloc(sizeof *t);
    uint64_t *row_bad = calloc(n, sizeof *row_bad);
    if (!w || !s || !t || !row_bad)
        return 1;
    uint64_t wsum = 0, total = 0;
    for (size_t i = 0; i < n; i++)
        if (!o->profile || strcmp(o->profile, rows[i].name) == 0)
            wsum += row_weight(&rows[i]);
    for (size_t i = 0; i < n; i++)
        if (!o->profile || strcmp(o->profile, rows[i].name) == 0)
            total += o->only_case >= 0 ? 1 : row_cases(o->cases, &rows[i], wsum);
    uint64_t next_report = total / 10;
    int unpaired = 0;
    double t0 = now_s();
    fprintf(stderr, "random: %" PRIu64 " cases over %zu profiles, seed %" PRIu64 "\n", total,
            nsel, o->seed);
    for (size_t ri = 0; ri < n; ri++) {
        const tc_profile *mp = &rows[ri];
        if (o->profile && strcmp(o->profile, mp->name) != 0)
            continue;
        row_ctx rc;
        if (mp->kind == TC_KIND_FP64)
            continue; /* tc_dot refuses it: test_f64 holds it against ref_f64.c */
        if (!make_row_ctx(mp, &rc)) {
            printf("random: %s: no reference parameters for this row\n", mp->name);
            unpaired++;
            continue;
        }
        uint64_t first = o->only_case >= 0 ? (uint64_t)o->only_case : 0;
        uint64_t last = o->only_case >= 0 ? first + 1 : row_cases(o->cases, mp, wsum);
        for (uint64_t ci = first; ci < last; ci++) {
            rng r;
            rng_seed(&r, o->seed * 0x9e3779b97f4a7c15ull + (ri + 1) * 0xd1b54a32d192ed03ull + ci);
            gen_case(&r, w, &rc, t);
            uint32_t md = 0, rd = 0;
            tc_status st = rc.scaled ? tc_dot_scaled(mp, t->k, t->a, t->b, t->sa, t->sb, t->c, &md)
                                     : tc_dot(mp, t->k, t->a, t->b, t->c, &md);
            /* A one-step case goes again through tc_fedp_step with a trace, which always
             * takes the general step: tc_dot's fast path serves every case without an
             * Inf, a NaN or an e4m3 word of exponent field 1111, so the general step's
             * own arithmetic would otherwise meet the reference only on those. */
            uint32_t td = md;
            if (st == TC_OK && mp->kind == TC_KIND_FEDP && t->k <= mp->L) {
                static tc_fedp_trace tr;
                st = tc_fedp_step(mp, t->k, t->a, t->b, t->c, &td, &tr);
            }
            int rrc = ref_run(w, &rc, t, &rd);
            if (ci < o->dump) {
                printf("case %" PRIu64 " of %s (%s, k %zu): c %08" PRIx32 " model %08" PRIx32
                       " ref %08" PRIx32 "\n", ci, mp->name, SC_NAMES[t->sc], t->k, t->c, md, rd);
                print_words("a", t->a, t->k, rc.fin->width);
                print_words("b", t->b, t->k, rc.fin_b->width);
            }
            if (st != TC_OK || rrc != 0 || md != rd || td != rd) {
                s->mismatches++;
                row_bad[ri]++;
                s->bucket[t->sc][st != TC_OK ? RES_ERROR : classify(&rc, rd)]++;
                if (s->printed < o->max_print || o->only_case >= 0) {
                    s->printed++;
                    report_mismatch(o, ri, ci, &rc, t, st, md, rrc, rd);
                    if (td != md)
                        printf("  traced step (general path): 0x%0*" PRIx32 "\n",
                               (int)(rc.fout->width + 3) / 4, td);
                }
            }
            if (++s->done >= next_report && next_report) {
                fprintf(stderr, "random: %3.0f%% (%" PRIu64 "/%" PRIu64 " cases, %" PRIu64
                        " mismatches, %.1f s)\n", 100.0 * (double)s->done / (double)total,
                        s->done, total, s->mismatches, now_s() - t0);
                next_report += total / 10 ? total / 10 : 1;
            }
        }
    }
    if (s->mismatches) {
        printf("random: mismatches by profile:\n");
        for (size_t ri = 0; ri < n; ri++)
            if (row_bad[ri])
                printf("  %-40s %" PRIu64 "\n", rows[ri].name, row_bad[ri]);
        printf("random: mismatches by scenario x reference result:\n");
        for (int i = 0; i < SC_COUNT; i++)
            for (int j = 0; j < RES_COUNT; j++)
                if (s->bucket[i][j])
                    printf("  %-10s %-12s %" PRIu64 "\n", SC_NAMES[i], RES_NAMES[j], s->bucket[i][j]);
    }
    printf("random: %" PRIu64 " cases, %" PRIu64 " mismatches, %.1f s\n", s->done, s->mismatches,
           now_s() - t0);
    int bad = s->mismatches != 0 || unpaired != 0;
    free(row_bad);
    free(t);
    free(s);
    ref_ctx_free(w);
    return bad;
}

/* ======================================================================= main */

static int parse_u64(const char *s, uint64_t *out)
{
    char *end;
    if (!s || !*s)
        return -1;
    unsigned long long v = strtoull(s, &end, 0);
    if (*end)
        return -1;
    *out = v;
    return 0;
}

static void usage(void)
{
    fprintf(stderr, "usage: test_vs_ref [--seed N] [--cases N] [--profile NAME] [--case I]\n"
                    "                   [--max-print N] [--dump N] [--selftest] [--table]\n");
}

int main(int argc, char **argv)
{
    run_opts o = {1, 1000000, NULL, -1, 20, 0};
    int only_self = 0, only_table = 0;
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        uint64_t v = 0;
        const char *val = i + 1 < argc ? argv[i + 1] : NULL;
        if (strcmp(a, "--selftest") == 0) {
            only_self = 1;
        } else if (strcmp(a, "--table") == 0) {
            only_table = 1;
        } else if (strcmp(a, "--profile") == 0 && val) {
            o.profile = val;
            i++;
        } else if ((strcmp(a, "--seed") == 0 || strcmp(a, "--cases") == 0 ||
                    strcmp(a, "--case") == 0 || strcmp(a, "--max-print") == 0 ||
                    strcmp(a, "--dump") == 0) &&
                   parse_u64(val, &v) == 0) {
            if (strcmp(a, "--seed") == 0)
                o.seed = v;
            else if (strcmp(a, "--cases") == 0)
                o.cases = v;
            else if (strcmp(a, "--case") == 0)
                o.only_case = (long long)v;
            else if (strcmp(a, "--dump") == 0)
                o.dump = (unsigned)v;
            else
                o.max_print = (unsigned)v;
            i++;
        } else {
            usage();
            return 2;
        }
    }
    int bad = 0;
    int all = !only_self && !only_table;
    if (all || only_self)
        bad |= run_selftest();
    if (all || only_table)
        bad |= run_table();
    if (all && o.cases)
        bad |= run_random(&o);
    printf("%s\n", bad ? "FAILED" : "PASSED");
    return bad ? 1 : 0;
}

