/* fedp_tb.c - testbench of rtl/fedp.sv: every result of a Verilated instance is compared
 * bit for bit with the model (tc_fedp_step), at the cycle the instance's latency says.
 *
 *   fedp_tb --instance NAME [--seed S] [--count N] [--vectors DIR] [--fst FILE] [--print N]
 *           [--random-only]   (no directed cases, no A100 vectors: a short waveform)
 *   fedp_tb --instance NAME --replay-check N [--seed S]   the stage replay itself: N
 *                          random operations per profile replayed alone, every stage
 *                          register must agree with the model's trace
 *   fedp_tb --profiles     every FEDP row of the model's table has an instance, and every
 *                          instance implements at least one row
 *   fedp_tb --list         the instances, their parameters and the profiles they implement
 *   fedp_tb --dot-profiles the profiles `tcsim dot --engine rtl` runs,
 *                          "arch instr in_a in_b out" (in_b = in_a but for a mixed pair)
 *   fedp_tb --dot-cases ARCH INSTR IN_A IN_B OUT N SEED   N random `tcsim dot` input lines
 *
 * In the manner of Vortex's fma_unit test: the seed and count come from the command line;
 * directed corner cases per profile come first, then the A100 vectors of the profiles
 * that have them, then "tame" and fully random operations (N per profile, the profiles of
 * the instance interleaved so that the format selects travel down the pipeline); the
 * expected value is computed at issue and checked LATENCY rising edges later, exactly,
 * with no tolerance. The random stream runs back to back first (one result per cycle),
 * then with random bubbles (whose inputs are garbage), then with resets in the middle of
 * the stream (the dropped operations must never appear). Mismatches are bucketed by the
 * class of the expected result and the first few printed in hex with the seed; the first
 * one is replayed alone and its stage registers compared with the model's trace.
 * Prints PASSED or FAILED; the exit status says the same.
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include "fedp_tb.h"
#include "test_args.h"

/* ------------------------------------------------------- tcsim dot input lines */

/* Every profile `tcsim dot --engine rtl` can run: its FEDP step has an instance. */
static int dot_profiles(void)
{
    const tc_profile *rows;
    size_t n = tc_profile_table(&rows);
    for (size_t i = 0; i < n; i++) {
        const tc_profile *sp;
        if (tc_profile_step_of(&rows[i], &sp) == TC_OK && fedp_instance_for(sp))
            printf("%s %s %s %s %s\n", tc_arch_name(rows[i].arch),
                   tc_instr_name(rows[i].instr), tc_fmt_get(rows[i].in)->name,
                   tc_fmt_get(rows[i].in_b)->name, tc_fmt_get(rows[i].out)->name);
    }
    return 0;
}

/* --------------------------------------------------------------- the checks */

/* The model profiles an instance implements, in table order. */
static size_t implemented(const fedp_params *q, const tc_profile **out, size_t cap)
{
    const tc_profile *rows;
    size_t n = tc_profile_table(&rows), k = 0;
    for (size_t i = 0; i < n; i++)
        if (fedp_implements(q, &rows[i]) && k < cap)
            out[k++] = &rows[i];
    return k;
}

/* Two rows an instance implements with the same a, b and c/d formats. */
static int same_formats(const tc_profile *p, const tc_profile *q)
{
    return p->in == q->in && p->in_b == q->in_b && p->out == q->out;
}

static void print_params(const fedp_dut_ops *ops)
{
    const fedp_params *q = &ops->params;
    char e32[16] = "none", e16[16] = "none";
    if (q->emin_align_fp32 != TC_EMIN_ALIGN_NONE)
        snprintf(e32, sizeof e32, "%d", q->emin_align_fp32);
    if (q->emin_align_fp16 != TC_EMIN_ALIGN_NONE)
        snprintf(e16, sizeof e16, "%d", q->emin_align_fp16);
    printf("%s: L %u, F %u, formats 0x%x, outputs 0x%x, Emin_align fp32 %s fp16 %s, "
           "fp32 fraction %u, element %u bits, latency %u (fedp %u + operand register)%s%s\n",
           ops->name, q->L, q->F,
           (unsigned)q->in_fmts, (unsigned)q->out_fmts, e32, e16, q->fp32_man_bits,
           q->elem_bits, q->latency, q->rtl_latency, q->in_pairs ? ", mixed pairs" : "",
           ops->has_trace ? ", FST trace" : "");
}

/* Every FEDP row of the model's table has an instance; every instance implements one. */
static int check_profiles(int verbose)
{
    const fedp_dut_ops *const *list;
    size_t ni = fedp_instances(&list), bad = 0;
    const tc_profile *rows;
    size_t nr = tc_profile_table(&rows);
    for (size_t i = 0; i < ni; i++) {
        const tc_profile *ps[64];
        size_t k = implemented(&list[i]->params, ps, 64);
        if (verbose) {
            print_params(list[i]);
            for (size_t j = 0; j < k; j++)
                printf("    %s\n", ps[j]->name);
        }
        if (!k) {
            printf("instance %s implements no profile of the model's table: its parameters "
                   "have drifted (reconfigure CMake, which reads them from the table)\n",
                   list[i]->name);
            bad++;
        }
    }
    /* mixed pairs included: their instances decode b by its own select (InPairs) */
    for (size_t r = 0; r < nr; r++)
        if (rows[r].kind == TC_KIND_FEDP && !fedp_instance_for(&rows[r])) {
            printf("profile %s (L %u, F %u, Emin_align %d) has no Verilated instance\n",
                   rows[r].name, rows[r].L, rows[r].F, rows[r].emin_align);
            bad++;
        }
    if (!verbose)
        printf("%zu instances, %zu profile rows: %s\n", ni, nr, bad ? "FAILED" : "PASSED");
    return bad != 0;
}

static int usage(FILE *f)
{
    return test_usage(f, "usage: fedp_tb --instance NAME [--seed S] [--count N] [--vectors DIR]\n"
                      "               [--fst FILE] [--print N] [--random-only]\n"
                      "       fedp_tb --instance NAME --replay-check N [--seed S]\n"
                      "       fedp_tb --profiles | --list | --dot-profiles\n"
                      "       fedp_tb --dot-cases ARCH INSTR IN_A IN_B OUT N SEED\n");
}

int main(int argc, char **argv)
{
    const char *name = NULL, *fst = NULL, *vectors = TCSIM_DATA_DIR "/vectors/a100";
    uint64_t seed = 1, count = 1000000, print_max = 10, replay_n = 0;
    int random_only = 0;
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        if (!strcmp(a, "-h") || !strcmp(a, "--help"))
            return usage(stdout);
        if (!strcmp(a, "--profiles"))
            return check_profiles(0);
        if (!strcmp(a, "--list"))
            return check_profiles(1);
        if (!strcmp(a, "--dot-profiles"))
            return dot_profiles();
        if (!strcmp(a, "--dot-cases")) {
            uint64_t n, sd;
            if (i + 7 >= argc) {
                fprintf(stderr, "fedp_tb: --dot-cases needs ARCH INSTR IN_A IN_B OUT N SEED\n");
                return usage(stderr);
            }
            if (test_parse_u64("fedp_tb", "--dot-cases N", argv[i + 6], UINT64_MAX, &n) ||
                test_parse_u64("fedp_tb", "--dot-cases SEED", argv[i + 7], UINT64_MAX, &sd))
                return 2;
            return dot_cases(argv + i + 1, n, sd);
        }
        if (!strcmp(a, "--random-only")) {
            random_only = 1;
            continue;
        }
        static const char *const opts[] = {"--seed", "--count", "--print", "--replay-check",
                                           "--instance", "--fst", "--vectors", NULL};
        const char *v = test_option("fedp_tb", argc, argv, &i, opts);
        if (!v)
            return usage(stderr);
        uint64_t *num = !strcmp(a, "--seed")           ? &seed
                        : !strcmp(a, "--count")        ? &count
                        : !strcmp(a, "--print")        ? &print_max
                        : !strcmp(a, "--replay-check") ? &replay_n
                                                       : NULL;
        if (num) {
            if (test_parse_u64("fedp_tb", a, v, UINT64_MAX, num))
                return 2;
        } else if (!strcmp(a, "--instance")) {
            name = v;
        } else if (!strcmp(a, "--fst")) {
            fst = v;
        } else {
            vectors = v;
        }
    }
    if (!name) {
        fprintf(stderr, "fedp_tb: which --instance? (fedp_tb --list)\n");
        return usage(stderr);
    }
    const fedp_dut_ops *ops = fedp_instance_find(name);
    if (!ops) {
        fprintf(stderr, "fedp_tb: no instance '%s' (fedp_tb --list)\n", name);
        return 2;
    }
    if (fst && !ops->has_trace) {
        fprintf(stderr, "fedp_tb: --fst: %s was Verilated without trace: no waveform (the "
                        "traced instances: tb/fedp/CMakeLists.txt)\n", name);
        return 2;
    }
    const tc_profile *all[64], *ps[64];
    size_t na = implemented(&ops->params, all, 64), np = 0;
    print_params(ops);
    /* Rows with the same formats compute the same function in this instance (it
     * implements each one's parameters): test one per (in, in_b, out), name the others. */
    for (size_t i = 0; i < na; i++) {
        size_t j = 0;
        while (j < np && !same_formats(ps[j], all[i]))
            j++;
        if (j == np)
            ps[np++] = all[i];
    }
    for (size_t j = 0; j < np; j++) {
        printf("  %s", ps[j]->name);
        const char *sep = " (the same function as";
        for (size_t i = 0; i < na; i++)
            if (all[i] != ps[j] && same_formats(all[i], ps[j])) {
                printf("%s %s", sep, all[i]->name);
                sep = ",";
            }
        printf("%s\n", *sep == ',' ? ")" : "");
    }
    if (!np || ops->params.latency > 16 || ops->params.latency == 0) {
        printf("%s implements no profile of the model (or an impossible latency)\nFAILED\n",
               name);
        return 1;
    }

    static tb t; /* the ring of in-flight operations is large */
    t.dut = dut_new(ops, fst);
    if (!t.dut) {
        if (fst)
            fprintf(stderr, "fedp_tb: cannot create %s with its waveform: cannot write '%s'\n",
                    name, fst);
        else
            fprintf(stderr, "fedp_tb: cannot create %s\n", name);
        return 1;
    }
    t.q = dut_params(t.dut);
    t.seed = seed;
    t.r.s = seed;
    t.score.print_max = print_max;
    t.lat = t.q->latency;
    for (unsigned i = 0; i < t.lat; i++)
        t.ring[i].p = ps[0];
    if (replay_n) {
        int rc = replay_check(&t, ps, np, replay_n);
        dut_free(t.dut);
        return rc;
    }
    printf("seed %" PRIu64 ", %" PRIu64 " random operations per (in, in_b, out) formats (a "
           "quarter for a mixed pair)\n", seed, count);

    clock_t t0 = clock();
    for (size_t i = 0; i < np && !random_only; i++) {
        uint64_t before = t.issued;
        directed(&t, ps[i]);
        printf("  %-28s %" PRIu64 " directed\n", ps[i]->name, t.issued - before);
    }
    drain(&t, ps[0]);
    int sets = random_only ? 0 : a100(&t, vectors);
    if (sets < 0) {
        dut_free(t.dut);
        printf("FAILED (A100 vectors)\n");
        return 1;
    }
    random_stream(&t, ps, np, count);
    double secs = (double)(clock() - t0) / CLOCKS_PER_SEC;

    uint64_t bad = tk_score_total(&t.score);
    printf("%" PRIu64 " operations issued, %" PRIu64 " results checked, %" PRIu64
           " dropped by resets, %" PRIu64 " cycles; %.1f s (%.2f M ops/s with the model)\n",
           t.issued, t.checked, t.dropped, t.cycle, secs, secs > 0 ? t.issued / secs / 1e6 : 0);
    tk_score_print(&t.score);
    if (t.have_bad)
        replay(&t, &t.first_bad, 1);
    /* Every issued operation is checked or was dropped by a reset. */
    if (t.checked + t.dropped != t.issued) {
        printf("%" PRIu64 " operations neither checked nor dropped\n",
               t.issued - t.checked - t.dropped);
        bad++;
    }
    dut_free(t.dut);
    return tk_verdict(bad);
}
