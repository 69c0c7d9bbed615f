/* cmd_demo.c - `tcsim demo`: the golden model on a built-in example set.
 *
 * Shows the same dot products on volta, turing, ampere, hopper and blackwell (ada's fp16
 * rows are ampere's): the differences are the point (alignment width, terms per step,
 * Emin_align, rounding). Then checks the model against the A100 hardware vectors of the
 * data folder (data_dir.h), or of --vectors DIR. */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include "a100_vectors.h"
#include "cli.h"
#include "data_dir.h"

/* Value of a bit pattern as a double, for display only (every format fits). */
static double to_double(tc_fmt f, uint32_t bits)
{
    tc_value v;
    if (tc_decode(f, bits, &v) != TC_OK || v.kind == TC_VAL_NAN)
        return NAN;
    if (v.kind == TC_VAL_INF)
        return v.sign ? -INFINITY : INFINITY;
    double x = ldexp((double)v.sig, v.exp - (int)tc_fmt_get(f)->man_bits);
    return v.sign ? -x : x;
}

typedef struct example {
    const char *what;
    size_t k;
    uint32_t a[16], b[16]; /* fp16 */
    uint32_t c;            /* fp32 */
} example;

static const example examples[] = {
    {"1 + 2^-24 + 2^-24: small terms vs the alignment width F", 3,
     {0x3c00, 0x0001, 0x0001}, {0x3c00, 0x3c00, 0x3c00}, 0x00000000},
    {"1 - 2^-24: truncation toward zero of a negative term", 2,
     {0x3c00, 0x8001}, {0x3c00, 0x3c00}, 0x00000000},
    {"2^15 - 2^15 + 2^-14 x 8 terms: one step or chained steps", 10,
     {0x7800, 0xf800, 0x0400, 0x0400, 0x0400, 0x0400, 0x0400, 0x0400, 0x0400, 0x0400},
     {0x3c00, 0x3c00, 0x3c00, 0x3c00, 0x3c00, 0x3c00, 0x3c00, 0x3c00, 0x3c00, 0x3c00},
     0x00000000},
    {"sum of 16 fp16 values near 1 with c = 1/3 (fp32)", 16,
     {0x3c01, 0x3bff, 0x3c03, 0x3bfd, 0x3c05, 0x3bfb, 0x3c07, 0x3bf9, 0x3c09, 0x3bf7, 0x3c0b,
      0x3bf5, 0x3c0d, 0x3bf3, 0x3c0f, 0x3bf1},
     {0x3555, 0x3555, 0x3555, 0x3555, 0x3555, 0x3555, 0x3555, 0x3555, 0x3555, 0x3555, 0x3555,
      0x3555, 0x3555, 0x3555, 0x3555, 0x3555},
     0x3eaaaaab},
};

/* The examples on each arch; 0, or -1 after naming the arch and the reason on stderr
 * (the inputs are fixed and valid: only a bug gets there). */
static int show_examples(void)
{
    static const tc_arch archs[] = {TC_ARCH_VOLTA, TC_ARCH_TURING, TC_ARCH_AMPERE,
                                    TC_ARCH_HOPPER, TC_ARCH_BLACKWELL};
    for (size_t e = 0; e < sizeof examples / sizeof examples[0]; e++) {
        const example *x = &examples[e];
        printf("\n%s (k = %zu)\n", x->what, x->k);
        printf("  %-10s %-4s %-8s %-22s %-6s %s\n", "arch", "L", "fp32 out", "", "fp16 out", "");
        for (size_t i = 0; i < sizeof archs / sizeof archs[0]; i++) {
            const tc_profile *p32, *p16;
            uint32_t d32 = 0, d16 = 0, c16 = 0;
            tc_status st;
            if ((st = tc_profile_find(archs[i], TC_INSTR_MMA, TC_FMT_FP16, TC_FMT_FP32, &p32)) ||
                (st = tc_profile_find(archs[i], TC_INSTR_MMA, TC_FMT_FP16, TC_FMT_FP16, &p16)) ||
                (st = tc_convert_rne(TC_FMT_FP32, x->c, TC_FMT_FP16, &c16)) ||
                (st = tc_dot(p32, x->k, x->a, x->b, x->c, &d32)) ||
                (st = tc_dot(p16, x->k, x->a, x->b, c16, &d16))) {
                fflush(stdout);
                fprintf(stderr, "tcsim demo: %s on %s: %s\n", x->what, tc_arch_name(archs[i]),
                        tc_strerror(st));
                return -1;
            }
            printf("  %-10s %-4u %08x %-22.17g %04x   %.11g\n", tc_arch_name(archs[i]), p32->L,
                   d32, to_double(TC_FMT_FP32, d32), d16, to_double(TC_FMT_FP16, d16));
        }
    }
    return 0;
}

enum { N_SETS = sizeof a100_sets / sizeof a100_sets[0] };

/* The A100 sets under root, all loaded before anything is printed, so that a bad file is
 * an error with nothing half shown. Returns 0, or -1 after a message (the folder is
 * checked here for --vectors DIR; data_dir_find has checked the default one). */
static int load_vectors(const char *root, a100_cases cs[N_SETS])
{
    struct stat st;
    int exists = stat(root, &st) == 0;
    if (!exists || !S_ISDIR(st.st_mode)) {
        fprintf(stderr, "tcsim demo: cannot read --vectors '%s': %s\n", CLI_PATH(root),
                exists ? "not a folder" : strerror(errno));
        return -1;
    }
    for (size_t s = 0; s < N_SETS; s++)
        if (a100_load(root, &a100_sets[s], &cs[s])) {
            while (s--)
                a100_free(&cs[s]);
            return -1;
        }
    return 0;
}

/* The A100 vectors through the model: prints one line per set; returns mismatches. */
static long check_vectors(const char *root, const a100_cases cs[N_SETS])
{
    long bad_total = 0;
    printf("\nA100 hardware vectors (%s):\n", CLI_PATH(root));
    for (size_t s = 0; s < N_SETS; s++) {
        const a100_set *set = &a100_sets[s];
        const tc_profile *p = NULL;
        tc_profile_find(TC_ARCH_AMPERE, TC_INSTR_MMA, set->in, set->out, &p);
        long bad = 0;
        for (size_t i = 0; i < cs[s].n; i++) {
            uint32_t d;
            bad += !p || tc_dot(p, cs[s].k, cs[s].a + i * cs[s].k, cs[s].b + i * cs[s].k,
                                cs[s].c[i], &d) != TC_OK || d != cs[s].d[i];
        }
        printf("  %-10s %zu cases, k = %zu: %zu bit-exact, %ld differ\n", set->name, cs[s].n,
               cs[s].k, cs[s].n - (size_t)bad, bad);
        bad_total += bad;
    }
    return bad_total;
}

static void demo_help(const void *ctx)
{
    (void)ctx;
    printf("usage: tcsim demo [--vectors DIR]\n\nRuns the golden model on built-in "
           "examples for every architecture, then on the\nA100 hardware vectors "
           "(default: vectors/a100 in tcsim's data folder). Exit status\n1 if a "
           "vector differs, 2 if the folder or a vector file cannot be read or is\n"
           "malformed.\n\n" DATA_DIR_HELP);
}

static int demo_run(int argc, char **argv)
{
    const char *vectors = NULL;
    const cli_opt opt[] = {{.name = "--vectors", .value = &vectors}};
    int st = cli_parse_opts(&(cli_opts){"demo", "option", 0, demo_help, NULL,
                                        opt, CLI_COUNT(opt)}, argc, argv);
    if (st >= 0)
        return st;
    static char default_dir[GV_PATH];
    if (!vectors) {
        if (data_dir_find("demo", "vectors/a100", default_dir, sizeof default_dir))
            return CLI_USAGE;
        vectors = default_dir;
    }
    a100_cases cs[N_SETS];
    if (load_vectors(vectors, cs))
        return CLI_USAGE;
    printf("tcsim %s golden model: d = c + sum a_i*b_i, fp16 inputs through mma\n",
           TCSIM_VERSION);
    int shown = show_examples() == 0;
    long bad = shown ? check_vectors(vectors, cs) : 0;
    for (size_t s = 0; s < N_SETS; s++)
        a100_free(&cs[s]);
    if (!shown)
        return CLI_FAIL;
    printf("\n%s\n", bad ? "some A100 vectors differ" : "every A100 vector matches");
    return bad ? CLI_FAIL : CLI_OK;
}

const cli_cmd cmd_demo = {"demo", "the golden model on a built-in example set", demo_run};
