/* test_a100.c - the A100 results (four sets of 5,000: the 20,000 in data/vectors/a100),
 * bit for bit, through the library.
 *
 *   test_a100 [VECTOR_DIR]          check every set with tc_dot and tc_dot_batch
 *   test_a100 --emit SET IN EXPECT  write SET as `tcsim dot` input lines to IN and the
 *                                   GPU's results, as tcsim prints them, to EXPECT
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "a100_vectors.h"

static const char *default_dir(void)
{
    return TCSIM_DATA_DIR "/vectors/a100";
}

static int check_set(const char *root, const a100_set *s, const tc_profile *p)
{
    a100_cases cs;
    if (a100_load(root, s, &cs))
        return 1;
    size_t bad = 0;
    uint32_t *d = malloc(cs.n * sizeof *d);
    for (size_t i = 0; i < cs.n; i++) {
        uint32_t r;
        if (tc_dot(p, cs.k, cs.a + i * cs.k, cs.b + i * cs.k, cs.c[i], &r) != TC_OK ||
            r != cs.d[i]) {
            if (bad++ < 10)
                fprintf(stderr, "  %s case %zu: model %08x, A100 %08x\n", s->name, i, r,
                        cs.d[i]);
        }
    }
    /* the batch call must give the same results */
    size_t done = 0, batch_bad = 0;
    if (!d || tc_dot_batch(p, cs.n, cs.k, cs.a, cs.b, cs.c, d, &done) != TC_OK || done != cs.n)
        batch_bad = cs.n;
    for (size_t i = 0; d && batch_bad < cs.n && i < cs.n; i++)
        batch_bad += d[i] != cs.d[i];
    printf("%-10s %-24s %zu cases: %zu mismatches (single), %zu (batch)\n", s->name, p->name,
           cs.n, bad, batch_bad);
    free(d);
    a100_free(&cs);
    return bad || batch_bad;
}

static int emit(const char *root, const char *name, const char *in_path, const char *exp_path)
{
    for (size_t j = 0; j < 4; j++) {
        const a100_set *s = &a100_sets[j];
        if (strcmp(name, s->name))
            continue;
        a100_cases cs;
        if (a100_load(root, s, &cs))
            return 1;
        FILE *fi = fopen(in_path, "w"), *fe = fopen(exp_path, "w");
        if (!fi || !fe) {
            fprintf(stderr, "cannot write %s / %s\n", in_path, exp_path);
            return 1;
        }
        unsigned wi = (tc_fmt_get(s->in)->width + 3) / 4, wo = (tc_fmt_get(s->out)->width + 3) / 4;
        fprintf(fi, "# A100 %s: %zu cases, k = %zu\n", s->name, cs.n, cs.k);
        for (size_t i = 0; i < cs.n; i++) {
            for (size_t t = 0; t < 2 * cs.k; t++) {
                uint32_t w = t < cs.k ? cs.a[i * cs.k + t] : cs.b[i * cs.k + t - cs.k];
                fprintf(fi, (i & 1) ? "0x%0*x " : "%0*x ", (int)wi, w); /* both spellings */
            }
            fprintf(fi, "%0*x\n", (int)wo, cs.c[i]);
            fprintf(fe, "%0*x\n", (int)wo, cs.d[i]);
        }
        fclose(fi);
        fclose(fe);
        a100_free(&cs);
        return 0;
    }
    fprintf(stderr, "unknown set '%s'\n", name);
    return 1;
}

int main(int argc, char **argv)
{
    if (argc == 5 && !strcmp(argv[1], "--emit"))
        return emit(default_dir(), argv[2], argv[3], argv[4]);
    const char *root = argc > 1 ? argv[1] : default_dir();
    int fails = 0;
    for (size_t j = 0; j < 4; j++) {
        const tc_profile *p;
        if (tc_profile_find(TC_ARCH_AMPERE, TC_INSTR_MMA, a100_sets[j].in, a100_sets[j].out,
                            &p) != TC_OK) {
            fprintf(stderr, "no ampere profile for %s\n", a100_sets[j].name);
            return 1;
        }
        fails += check_set(root, &a100_sets[j], p);
    }
    printf(fails ? "FAILED\n" : "PASSED\n");
    return fails ? 1 : 0;
}
