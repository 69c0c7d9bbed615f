/* baseline_tb.c - functional check of the chained-FMA baseline (rtl/baseline/).
 *
 *   baseline_tb [--seed S] [--count N] [--model-count M]
 *
 * 1. The chain model (chain_model.c, exact GMP sums) against the host: fp32 results
 *    against fmaf under the same rounding mode (toward zero and to nearest), fp16 results
 *    against (_Float16) of a double fma that was exact. M random cases per check, every
 *    input format; a check that compares too few cases fails rather than passing empty.
 * 2. The Verilated fma_chain against the chain model: N random operations (tame values,
 *    random bit patterns, specials, exact cancellations, idle cycles), issued one per
 *    cycle with the chain's systolic timing, compared bit for bit after the latency.
 * Mismatches are counted by bucket (testkit/scoreboard.h: the class of the expected
 * result, or a valid at the wrong cycle). Prints PASSED or FAILED; exit 0 only on
 * PASSED, 2 on bad arguments.
 */
#include <fenv.h>
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "baseline_dut.h"
#include "chain_model.h"
#include "fmt_values.h"
#include "scoreboard.h"
#include "test_args.h"

#define MAX_L 64
#define RING 128

/* The seed's stream (testkit/splitmix.h): one draw, and [0, n) as its remainder. */
static tk_rng rng_state;
static tk_score score = {.print_max = 18}; /* testkit scoreboard: mismatches by bucket */
static uint64_t rnd(void) { return tk_next(&rng_state); }
static unsigned rnd_below(unsigned n) { return tk_mod(&rng_state, n); }

static const tc_fmt elem_fmts[] = {TC_FMT_TF32, TC_FMT_FP16, TC_FMT_BF16, TC_FMT_E4M3,
                                   TC_FMT_E5M2, TC_FMT_E3M2, TC_FMT_E2M3, TC_FMT_E2M1};
#define N_ELEM_FMTS (sizeof elem_fmts / sizeof elem_fmts[0])

/* ------------------------------------------------------------ 1. model vs host */

static double value_of(tc_fmt f, uint32_t word)
{
    tc_value v;
    if (tc_decode(f, word, &v) != TC_OK || v.kind == TC_VAL_NAN)
        return NAN;
    if (v.kind == TC_VAL_INF)
        return v.sign ? -INFINITY : INFINITY;
    double x = ldexp((double)v.sig, v.exp - (int)tc_fmt_get(f)->man_bits);
    return v.sign ? -x : x;
}

static uint32_t f32_bits(float x)
{
    uint32_t u;
    memcpy(&u, &x, sizeof u);
    return u;
}

static int is_nan_pattern(tc_fmt f, uint32_t bits)
{
    tc_value v;
    return tc_decode(f, bits, &v) == TC_OK && v.kind == TC_VAL_NAN;
}

typedef struct check_count {
    unsigned long compared, skipped;
} check_count;

/* want: the host's result, of format out */
static void report_mismatch(const char *what, tc_fmt in, tc_fmt out, uint32_t a, uint32_t b,
                            uint32_t c, uint32_t want, uint32_t got)
{
    tk_fail(&score, tk_bucket_of(out, want), "model %s: %s a %x b %x c %x: host %08x, model %08x",
            what, tc_fmt_get(in)->name, (unsigned)a, (unsigned)b, (unsigned)c, (unsigned)want,
            (unsigned)got);
}

/* One case of the model-vs-host checks: an element format, a and b (as words) in one
 * mode near one binade, c of format cf within `spread` binades of their product's
 * (biased by cbias). */
typedef struct fma_case {
    tc_fmt in;
    uint32_t a, b, c;
} fma_case;

static fma_case draw_fma(tc_fmt cf, int cbias, int spread)
{
    fma_case k;
    k.in = elem_fmts[rnd_below(N_ELEM_FMTS)];
    const tc_fmt_info *fi = tc_fmt_get(k.in);
    unsigned mode = rnd_below(4);
    int ebase = 1 + (int)rnd_below((1u << fi->exp_bits) - 2u);
    int special = mode == 0 ? 0 : mode == 3 ? 2 : 1;
    k.a = tk_draw(&rng_state, fi, special, ebase) << fi->ignore_low;
    k.b = tk_draw(&rng_state, fi, mode == 0 ? 0 : 1, ebase) << fi->ignore_low;
    int cbase = 2 * (ebase - fi->bias) + cbias + (int)rnd_below(2u * (unsigned)spread) - spread;
    k.c = tk_draw(&rng_state, tc_fmt_get(cf), special, cbase);
    return k;
}

/* fp32 (23 fraction bits) against fmaf in the same rounding mode. */
static void check_fp32(int rne, unsigned long count, check_count *k)
{
    chain_round r = {TC_FMT_FP32, 23, rne};
    for (unsigned long n = 0; n < count; n++) {
        fma_case x = draw_fma(TC_FMT_FP32, 127, 30);
        tc_fmt in = x.in;
        uint32_t a = x.a, b = x.b, c = x.c;
        float fc;
        memcpy(&fc, &c, sizeof fc);
        fesetround(rne ? FE_TONEAREST : FE_TOWARDZERO);
        feclearexcept(FE_ALL_EXCEPT);
        float host = fmaf((float)value_of(in, a), (float)value_of(in, b), fc);
        int overflow = fetestexcept(FE_OVERFLOW) != 0;
        fesetround(FE_TONEAREST);
        uint32_t got = chain_fma(in, a, b, c, &r);
        if (overflow && !rne) { /* IEEE: largest finite; the baseline (and FEDP): Inf */
            k->skipped++;
            continue;
        }
        k->compared++;
        if (isnan(host) ? !is_nan_pattern(TC_FMT_FP32, got) : f32_bits(host) != got)
            report_mismatch(rne ? "fp32 rne" : "fp32 rz", in, TC_FMT_FP32, a, b, c, f32_bits(host),
                            got);
    }
}

/* fp16 (to nearest even) against _Float16 of a double fma that was exact. */
static void check_fp16(unsigned long count, check_count *k)
{
#ifdef __FLT16_MAX__
    chain_round r = {TC_FMT_FP16, 10, 1};
    for (unsigned long n = 0; n < count; n++) {
        fma_case x = draw_fma(TC_FMT_FP16, 15, 10);
        tc_fmt in = x.in;
        uint32_t a = x.a, b = x.b, c = x.c;
        feclearexcept(FE_ALL_EXCEPT);
        double exact = fma(value_of(in, a), value_of(in, b), value_of(TC_FMT_FP16, c));
        if (fetestexcept(FE_INEXACT | FE_OVERFLOW | FE_UNDERFLOW)) {
            k->skipped++;
            continue;
        }
        _Float16 h = (_Float16)exact;
        uint16_t hb;
        memcpy(&hb, &h, sizeof hb);
        uint32_t got = chain_fma(in, a, b, c, &r);
        k->compared++;
        if (isnan(exact) ? !is_nan_pattern(TC_FMT_FP16, got) : hb != got)
            report_mismatch("fp16 rne", in, TC_FMT_FP16, a, b, c, hb, got);
    }
#else
    (void)count;
    (void)k;
#endif
}

static void model_selftest(unsigned long count)
{
    check_count rz = {0}, rne = {0}, h = {0};
    check_fp32(0, count, &rz);
    check_fp32(1, count, &rne);
    check_fp16(count, &h);
    printf("model vs host: fp32 rz %lu compared (%lu overflows skipped), fp32 rne %lu, "
           "fp16 rne %lu (%lu inexact in double skipped)\n",
           rz.compared, rz.skipped, rne.compared, h.compared, h.skipped);
    /* Each check must have compared a real share of its cases. */
    if (rz.compared < count / 2 || rne.compared < count / 2)
        tk_fail(&score, TK_B_CHECK, "fp32 checks compared too few cases");
#ifdef __FLT16_MAX__
    if (h.compared < count / 4)
        tk_fail(&score, TK_B_CHECK, "fp16 check compared too few cases");
#endif
}

/* --------------------------------------------------------- 2. RTL vs model */

typedef struct op {
    int valid;
    tc_fmt in, out;
    uint32_t a[MAX_L], b[MAX_L]; /* value bits, as driven */
    uint32_t c, want;
} op;

static void make_op(op *o, const baseline_params *p, const tc_fmt *ins, unsigned n_in,
                    const tc_fmt *outs, unsigned n_out)
{
    o->valid = rnd_below(8) != 0; /* idle cycles too */
    o->in = ins[rnd_below(n_in)];
    o->out = outs[rnd_below(n_out)];
    const tc_fmt_info *fi = tc_fmt_get(o->in), *fo = tc_fmt_get(o->out);
    unsigned r = rnd_below(10);
    int ebase = 1 + (int)rnd_below((1u << fi->exp_bits) - 2u);
    uint32_t aw[MAX_L], bw[MAX_L];
    for (unsigned i = 0; i < p->L; i++) {
        int mode = r < 4 ? 1 : r < 7 ? 0 : (rnd_below(8) ? 1 : 2);
        o->a[i] = tk_draw(&rng_state, fi, mode, ebase);
        o->b[i] = tk_draw(&rng_state, fi, mode, ebase);
        if (r == 9 && (i & 1u)) { /* this product cancels the previous one */
            o->a[i] = o->a[i - 1];
            o->b[i] = o->b[i - 1] ^ (1u << (tk_value_bits(fi) - 1));
        }
        aw[i] = o->a[i] << fi->ignore_low;
        bw[i] = o->b[i] << fi->ignore_low;
    }
    int cmode = r < 4 ? 1 : r < 7 ? 0 : (rnd_below(4) ? 1 : 2);
    o->c = tk_draw(&rng_state, fo, cmode, 2 * (ebase - fi->bias) + fo->bias);
    chain_round rr = chain_round_of(o->out, p->fp32_man_bits);
    o->want = chain_dot(o->in, p->L, aw, bw, o->c, &rr);
}

static void rtl_test(unsigned long count)
{
    const baseline_params *p = &baseline_dut.params;
    if (p->L > MAX_L || p->latency + p->L >= RING) {
        tk_fail(&score, TK_B_CHECK, "L = %u does not fit the testbench", p->L);
        return;
    }
    tc_fmt ins[TC_FMT_COUNT], outs[2];
    unsigned n_in = 0, n_out = 0;
    for (unsigned f = 0; f < TC_FMT_COUNT; f++)
        if (p->in_fmts >> f & 1u)
            ins[n_in++] = (tc_fmt)f;
    if (p->out_fmts >> TC_FMT_FP32 & 1u)
        outs[n_out++] = TC_FMT_FP32;
    if (p->out_fmts >> TC_FMT_FP16 & 1u)
        outs[n_out++] = TC_FMT_FP16;
    printf("fma_chain: L %u, input formats", p->L);
    for (unsigned i = 0; i < n_in; i++)
        printf(" %s", tc_fmt_get(ins[i])->name);
    printf(", results");
    for (unsigned i = 0; i < n_out; i++)
        if (outs[i] == TC_FMT_FP32)
            printf(" fp32 (%u fraction bits)", p->fp32_man_bits);
        else
            printf(" fp16");
    printf(", latency %u\n", p->latency);

    static op ring[RING];
    void *dut = baseline_dut.create();
    baseline_dut.set_reset(dut, 0);
    uint32_t zero[MAX_L] = {0};
    for (int i = 0; i < 2; i++) {
        baseline_dut.drive(dut, 0, 0, 0, zero, zero, 0);
        baseline_dut.step(dut);
    }
    baseline_dut.set_reset(dut, 1);

    unsigned long checked = 0, total = count + p->latency + p->L;
    uint64_t before = tk_score_total(&score);
    for (unsigned long t = 0; t < total; t++) {
        op *o = &ring[t % RING];
        if (t < count)
            make_op(o, p, ins, n_in, outs, n_out);
        else
            memset(o, 0, sizeof *o);
        /* Slot j carries element j of the operation issued j cycles ago. */
        uint32_t a[MAX_L], b[MAX_L];
        for (unsigned j = 0; j < p->L; j++) {
            const op *src = t >= j ? &ring[(t - j) % RING] : NULL;
            a[j] = src ? src->a[j] : (uint32_t)rnd();
            b[j] = src ? src->b[j] : (uint32_t)rnd();
        }
        baseline_dut.drive(dut, o->valid, o->in, o->out, a, b, o->c);
        baseline_dut.step(dut);
        if (t + 1 < p->latency)
            continue;
        const op *done = &ring[(t + 1 - p->latency) % RING];
        uint32_t d;
        int v = baseline_dut.sample(dut, &d);
        if (v != done->valid || (v && d != done->want)) {
            int bucket = v != done->valid ? TK_B_TIMING : tk_bucket_of(done->out, done->want);
            if (tk_score_add(&score, bucket)) {
                printf("FAIL [%s] operation %lu: %s -> %s, c %x:", tk_bucket_name(bucket),
                       t + 1 - p->latency, tc_fmt_get(done->in)->name, tc_fmt_get(done->out)->name,
                       (unsigned)done->c);
                for (unsigned j = 0; j < p->L; j++)
                    printf(" %x*%x", (unsigned)done->a[j], (unsigned)done->b[j]);
                printf(": model %x valid %d, RTL %x valid %d\n", (unsigned)done->want,
                       done->valid, (unsigned)d, v);
            }
        }
        checked += done->valid;
    }
    baseline_dut.destroy(dut);
    printf("RTL vs chain model: %lu operations, %llu mismatches\n", checked,
           (unsigned long long)(tk_score_total(&score) - before));
    if (checked <= count / 2)
        tk_fail(&score, TK_B_CHECK, "only %lu of %lu operations were valid", checked, count);
}

int main(int argc, char **argv)
{
    uint64_t seed = 1, count = 20000, model_count = 200000;
    const test_opt opts[] = {{"--seed", &seed, UINT64_MAX, NULL, NULL},
                             {"--count", &count, ULONG_MAX, NULL, NULL},
                             {"--model-count", &model_count, ULONG_MAX, NULL, NULL},
                             {NULL, NULL, 0, NULL, NULL}};
    int st = test_parse_opts("baseline_tb", argc, argv, opts,
                             "usage: baseline_tb [--seed S] [--count N] [--model-count M]\n");
    if (st != TEST_RUN)
        return st;
    rng_state.s = seed;
    model_selftest((unsigned long)model_count);
    rtl_test((unsigned long)count);
    printf("seed %llu\n", (unsigned long long)seed);
    tk_score_print(&score);
    return tk_verdict(tk_score_total(&score));
}
