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
 *   fedp_tb --dot-profiles the profiles `tcsim dot --engine rtl` runs, "arch instr in out"
 *   fedp_tb --dot-cases ARCH INSTR IN OUT N SEED   N random `tcsim dot` input lines
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
#include "a100_vectors.h"
#include "fedp_dut.h"
#include "test_args.h"

/* ------------------------------------------------------------------ random numbers */

typedef struct rng {
    uint64_t s;
} rng;

static uint64_t rnd64(rng *r) /* splitmix64: the same sequence on every platform */
{
    uint64_t z = (r->s += UINT64_C(0x9e3779b97f4a7c15));
    z = (z ^ (z >> 30)) * UINT64_C(0xbf58476d1ce4e5b9);
    z = (z ^ (z >> 27)) * UINT64_C(0x94d049bb133111eb);
    return z ^ (z >> 31);
}

static uint32_t rnd_below(rng *r, uint32_t n)
{
    return n ? (uint32_t)((rnd64(r) >> 32) * n >> 32) : 0;
}

static uint32_t rnd_bits(rng *r, unsigned w)
{
    return w >= 32 ? (uint32_t)rnd64(r) : (uint32_t)rnd64(r) & ((1u << w) - 1u);
}

/* ------------------------------------------------------------------------ values */

static uint32_t mask32(unsigned w)
{
    return w >= 32 ? 0xffffffffu : (1u << w) - 1u;
}

/* A pattern of float format f from its fields (low: the ignored bits of tf32). */
static uint32_t pack(const tc_fmt_info *fi, uint32_t sign, uint32_t ef, uint32_t mf, uint32_t low)
{
    uint32_t v = (((sign << fi->exp_bits) | ef) << fi->man_bits) | mf;
    return (v << fi->ignore_low) | (low & mask32(fi->ignore_low));
}

/* The largest exponent field of a finite value. */
static uint32_t max_finite_field(const tc_fmt_info *fi)
{
    uint32_t ones = mask32(fi->exp_bits);
    return fi->nan_style == 1 ? ones - 1u : ones;
}

/* A finite value with its exponent field in [lo, hi] (clamped to the finite range). */
static uint32_t finite(rng *r, const tc_fmt_info *fi, int lo, int hi)
{
    int top = (int)max_finite_field(fi);
    lo = lo < 0 ? 0 : lo > top ? top : lo;
    hi = hi < lo ? lo : hi > top ? top : hi;
    uint32_t ef = (uint32_t)lo + rnd_below(r, (uint32_t)(hi - lo + 1));
    uint32_t mf = rnd_bits(r, fi->man_bits);
    if (fi->nan_style == 2 && ef == mask32(fi->exp_bits) && mf == mask32(fi->man_bits))
        mf--; /* S.1111.111 is e4m3's NaN */
    return pack(fi, rnd_below(r, 2), ef, mf, rnd_bits(r, fi->ignore_low));
}

/* The corner values of a float format: zeros, subnormal and normal extremes, one and
 * its neighbour, Inf and NaNs where the format has them. Returns the count. */
static size_t corners(tc_fmt f, uint32_t *out)
{
    const tc_fmt_info *fi = tc_fmt_get(f);
    uint32_t top = max_finite_field(fi), mant = mask32(fi->man_bits);
    uint32_t maxm = fi->nan_style == 2 ? mant - 1u : mant;
    size_t n = 0;
    for (uint32_t s = 0; s < 2; s++) {
        out[n++] = pack(fi, s, 0, 0, 0);                         /* zero */
        out[n++] = pack(fi, s, 0, 1, 0);                         /* smallest subnormal */
        out[n++] = pack(fi, s, 0, mant, 0);                      /* largest subnormal */
        out[n++] = pack(fi, s, 1, 0, 0);                         /* smallest normal */
        out[n++] = pack(fi, s, (uint32_t)fi->bias, 0, 0);        /* one */
        out[n++] = pack(fi, s, (uint32_t)fi->bias, 1, 0);        /* one plus an ulp */
        out[n++] = pack(fi, s, (uint32_t)fi->bias - 1u, mant, 0);/* just below one */
        out[n++] = pack(fi, s, top, maxm, 0);                    /* largest finite */
        if (fi->has_inf)
            out[n++] = pack(fi, s, mask32(fi->exp_bits), 0, 0);
    }
    if (fi->nan_style == 1) {
        out[n++] = pack(fi, 0, mask32(fi->exp_bits), 1, 0);
        out[n++] = pack(fi, 1, mask32(fi->exp_bits), mant, 0);
        out[n++] = pack(fi, 0, mask32(fi->exp_bits), 1u << (fi->man_bits - 1), 0);
    } else if (fi->nan_style == 2) {
        out[n++] = pack(fi, 0, mask32(fi->exp_bits), mant, 0);
        out[n++] = pack(fi, 1, mask32(fi->exp_bits), mant, 0);
    }
    return n;
}
#define MAX_CORNERS 32

static int msb64(uint64_t x) /* x != 0 */
{
    return 63 - __builtin_clzll(x);
}

/* x * 2^w (x > 0) as a positive pattern of float format f, if f holds it exactly. */
static int scaled(tc_fmt f, uint32_t x, int w, uint32_t *out)
{
    const tc_fmt_info *fi = tc_fmt_get(f);
    int sub = fi->emin - (int)fi->man_bits;
    for (; !(x & 1u); x >>= 1)
        w++; /* trailing zeros carry no precision */
    int top = msb64(x), e = top + w;
    if (e > fi->emax || w < sub || top > (int)fi->man_bits)
        return 0;
    uint32_t ef = 0, mf;
    if (e >= fi->emin) {
        ef = (uint32_t)(e + fi->bias);
        mf = (x << (fi->man_bits - (unsigned)top)) & mask32(fi->man_bits);
    } else {
        mf = x << (w - sub); /* a subnormal: x in units of 2^sub, below 2^man_bits */
    }
    if (fi->nan_style == 2 && ef == mask32(fi->exp_bits) && mf == mask32(fi->man_bits))
        return 0; /* S.1111.111 is e4m3's NaN */
    *out = pack(fi, 0, ef, mf, 0);
    return 1;
}

/* 2^e in float format f, if it is exactly representable (normal or subnormal). */
static int power_of_two(tc_fmt f, int e, uint32_t *out)
{
    return scaled(f, 1, e, out);
}

static uint32_t negate(tc_fmt f, uint32_t x)
{
    const tc_fmt_info *fi = tc_fmt_get(f);
    return x ^ (1u << (fi->ignore_low + fi->exp_bits + fi->man_bits));
}

/* -------------------------------------------------------------- the scoreboard */

typedef struct op {
    int valid;
    const tc_profile *p;
    unsigned in, out;  /* format selects driven: p's, except for the unsupported ones */
    size_t n;
    uint32_t a[TC_MAX_L], b[TC_MAX_L], c, expect;
    const char *gen;  /* the generator that made it */
    uint64_t index;   /* its number in the run */
} op;

enum { B_TIMING, B_NAN, B_INF, B_ZERO, B_SUBNORMAL, B_NORMAL, N_BUCKETS };
static const char *const bucket_name[N_BUCKETS] = {"valid/timing", "nan", "inf", "zero",
                                                   "subnormal", "normal"};

typedef struct tb {
    fedp_dut *dut;
    const fedp_params *q;
    uint64_t seed;
    unsigned print_max;
    rng r;
    op ring[16];         /* operations in flight, by cycle modulo the latency */
    unsigned lat;
    uint64_t cycle, issued, checked, dropped, printed, mism[N_BUCKETS];
    int have_bad;
    op first_bad;
} tb;

static int bucket_of(tc_fmt out, uint32_t x)
{
    tc_value v;
    if (tc_decode(out, x, &v) != TC_OK)
        return B_NORMAL;
    if (v.kind == TC_VAL_NAN)
        return B_NAN;
    if (v.kind == TC_VAL_INF)
        return B_INF;
    if (v.sig == 0)
        return B_ZERO;
    return (v.sig >> tc_fmt_get(out)->man_bits) ? B_NORMAL : B_SUBNORMAL;
}

static void print_op(const tb *t, const op *o, const char *what, uint32_t got, int got_valid)
{
    unsigned wi = (tc_fmt_get(o->p->in)->width + 3) / 4;
    unsigned wo = (tc_fmt_get(o->p->out)->width + 3) / 4;
    printf("  MISMATCH (%s) seed %" PRIu64 " op %" PRIu64 " [%s] %s n=%zu\n", what, t->seed,
           o->index, o->gen, o->p->name, o->n);
    printf("    a:");
    for (size_t i = 0; i < o->n; i++)
        printf(" %0*x", (int)wi, o->a[i]);
    printf("\n    b:");
    for (size_t i = 0; i < o->n; i++)
        printf(" %0*x", (int)wi, o->b[i]);
    printf("\n    c: %0*x  expected: %0*x  rtl: %0*x%s\n", (int)wo, o->c, (int)wo, o->expect,
           (int)wo, got, got_valid ? "" : " (valid_o low)");
}

static void mismatch(tb *t, int bucket, const op *o, uint32_t got, int got_valid)
{
    t->mism[bucket]++;
    if (t->printed++ < t->print_max && o->valid)
        print_op(t, o, bucket_name[bucket], got, got_valid);
    else if (t->printed <= t->print_max)
        printf("  MISMATCH (valid/timing) seed %" PRIu64 " cycle %" PRIu64
               ": valid_o high with no operation due\n", t->seed, t->cycle);
    if (!t->have_bad && o->valid) {
        t->first_bad = *o;
        t->have_bad = 1;
    }
}

/* One clock cycle: drive o (a bubble if !o->valid), step, and check what is due. */
static void cycle(tb *t, const op *o)
{
    dut_drive(t->dut, o->valid, (tc_fmt)o->in, (tc_fmt)o->out, o->n, o->a, o->b, o->c);
    t->ring[t->cycle % t->lat] = *o;
    t->issued += o->valid != 0;
    dut_step(t->dut);
    const op *due = &t->ring[(t->cycle + 1) % t->lat];
    uint32_t got;
    int v = dut_sample(t->dut, &got);
    if (v != due->valid)
        mismatch(t, B_TIMING, due, got, v);
    else if (v) {
        t->checked++;
        if (got != due->expect)
            mismatch(t, bucket_of(due->out == TC_FMT_FP16 ? TC_FMT_FP16 : TC_FMT_FP32,
                                  due->expect), due, got, v);
    }
    t->ring[(t->cycle + 1) % t->lat].valid = 0; /* done: no longer in flight */
    t->cycle++;
}

/* Fills the expected result; a model error is a testbench bug. */
static void expect(op *o)
{
    tc_status st = tc_fedp_step(o->p, o->n, o->a, o->b, o->c, &o->expect, NULL);
    if (st != TC_OK) {
        fprintf(stderr, "fedp_tb: the model refused op %" PRIu64 " [%s] of %s: %s\n", o->index,
                o->gen, o->p->name, tc_strerror(st));
        exit(2);
    }
}

static void issue(tb *t, op *o)
{
    o->valid = 1;
    o->index = t->issued;
    expect(o);
    cycle(t, o);
}

/* A cycle without an operation; its inputs are garbage that must not matter. */
static void bubble(tb *t, const tc_profile *p)
{
    op o;
    memset(&o, 0, sizeof o);
    o.p = p;
    o.in = p->in;
    o.out = p->out;
    o.n = t->q->L;
    for (size_t i = 0; i < o.n; i++) {
        o.a[i] = rnd_bits(&t->r, tc_fmt_get(p->in)->width);
        o.b[i] = rnd_bits(&t->r, tc_fmt_get(p->in)->width);
    }
    o.c = rnd_bits(&t->r, tc_fmt_get(p->out)->width);
    cycle(t, &o);
}

static void drain(tb *t, const tc_profile *p)
{
    for (unsigned i = 0; i < t->lat; i++)
        bubble(t, p);
}

/* rst_ni low for `cycles` rising edges, with operations offered on valid_i meanwhile:
 * everything in flight and offered is dropped, so valid_o stays low until new work. */
static void reset_midstream(tb *t, const tc_profile *p, unsigned cycles)
{
    for (unsigned i = 0; i < t->lat; i++)
        if (t->ring[i].valid)
            t->dropped++;
    memset(t->ring, 0, sizeof t->ring);
    dut_set_reset(t->dut, 0);
    for (unsigned i = 0; i < cycles; i++) {
        op o;
        memset(&o, 0, sizeof o);
        o.p = p;
        o.valid = 1; /* offered during reset: must be dropped */
        o.n = 0;
        dut_drive(t->dut, 1, p->in, p->out, 0, o.a, o.b, 0);
        dut_step(t->dut);
        uint32_t got;
        if (dut_sample(t->dut, &got)) {
            o.valid = 0;
            mismatch(t, B_TIMING, &o, got, 1);
        }
        t->cycle++;
    }
    dut_set_reset(t->dut, 1);
    for (unsigned i = 0; i < t->lat; i++)
        t->ring[i].p = p;
}

/* ------------------------------------------------------------- directed cases */

static void clear_op(op *o, const tc_profile *p, const char *gen)
{
    memset(o, 0, sizeof *o);
    o->p = p;
    o->in = p->in;
    o->out = p->out;
    o->n = p->L;
    o->gen = gen;
}

/* Every pair of corner values in the first product, against every corner c. */
static void directed_corners(tb *t, const tc_profile *p)
{
    uint32_t ci[MAX_CORNERS], co[MAX_CORNERS];
    size_t ni = corners(p->in, ci), no = corners(p->out, co);
    op o;
    for (size_t i = 0; i < ni; i++)
        for (size_t j = 0; j < ni; j++)
            for (size_t k = 0; k < no; k++) {
                clear_op(&o, p, "corner pair");
                o.a[0] = ci[i];
                o.b[0] = ci[j];
                o.c = co[k];
                issue(t, &o);
            }
    /* two corner products that may meet as Inf - Inf, with a corner c */
    for (size_t i = 0; i < ni; i++)
        for (size_t j = 0; j < ni; j++)
            for (size_t k = 0; k < no; k += 3) {
                clear_op(&o, p, "corner products");
                o.a[0] = ci[i];
                o.b[0] = ci[i];
                o.a[p->L - 1] = ci[j];
                o.b[p->L - 1] = negate(p->in, ci[j]);
                o.c = co[k];
                issue(t, &o);
            }
}

/* Two powers of two a distance d apart (one the largest term, which sets E), for d
 * around F: the smaller one is kept, truncated, or lost. Either may be c or a product,
 * of either sign, alone or as L equal small products whose sum would survive an
 * exact addition but whose terms are each truncated. */
static void directed_truncation(tb *t, const tc_profile *p)
{
    const tc_fmt_info *fi = tc_fmt_get(p->in), *fo = tc_fmt_get(p->out);
    int emin_in = fi->emin - (int)fi->man_bits;
    int emin_out = fo->emin - (int)fo->man_bits;
    op o;
    for (int big = 2 * emin_in; big <= 2 * fi->emax; big++)
        for (int d = (int)p->F - 4; d <= (int)p->F + 3; d++)
            for (int role = 0; role < 4; role++) {
                int small = big - d;
                int prod_e = (role & 1) ? small : big, c_e = (role & 1) ? big : small;
                uint32_t c, x, y;
                int ex = prod_e / 2, ey = prod_e - ex;
                if (c_e < emin_out || !power_of_two(p->out, c_e, &c) ||
                    !power_of_two(p->in, ex, &x) || !power_of_two(p->in, ey, &y)) {
                    /* split the product exponent unevenly when halves do not fit */
                    ex = prod_e < 0 ? emin_in : fi->emax;
                    ey = prod_e - ex;
                    if (!power_of_two(p->out, c_e, &c) || !power_of_two(p->in, ex, &x) ||
                        !power_of_two(p->in, ey, &y))
                        continue;
                }
                clear_op(&o, p, "truncation");
                o.c = (role & 2) ? negate(p->out, c) : c;
                if (role & 1) { /* small products, all L of them */
                    for (size_t i = 0; i < p->L; i++) {
                        o.a[i] = x;
                        o.b[i] = (role & 2) ? y : negate(p->in, y);
                    }
                } else {
                    o.a[0] = x;
                    o.b[0] = y;
                }
                issue(t, &o);
            }
}

/* Splits 2^e into a product of two powers of two of format f; 0 if none exists. */
static int split_power(tc_fmt f, int e, uint32_t *x, uint32_t *y)
{
    const tc_fmt_info *fi = tc_fmt_get(f);
    int sub = fi->emin - (int)fi->man_bits;
    for (int ex = e / 2, k = 0; k < 2 * (fi->emax - sub) + 2; k++) {
        int cand = ex + (k % 2 ? (k + 1) / 2 : -(k / 2)); /* e/2, e/2-1, e/2+1, ... */
        if (power_of_two(f, cand, x) && power_of_two(f, e - cand, y))
            return 1;
    }
    return 0;
}

/* The floor of E (Emin_align) at work. It only acts when every term lies below it,
 * which needs c = 0 (c's exponent is at least its format's emin, above every floor):
 * products v (with an odd last bit or not), a half ulp of v (an exact tie for round to
 * nearest) and a small term of either sign just above or below the floor's last kept
 * bit 2^(floor-F), which breaks the tie, or moves a truncated result, only if it
 * survives. */
static void directed_floor(tb *t, const tc_profile *p)
{
    if (p->emin_align == TC_EMIN_ALIGN_NONE)
        return;
    const tc_fmt_info *fo = tc_fmt_get(p->out);
    int floor = p->emin_align, man = (int)p->out_man_bits;
    op o;
    for (int ev = floor - 8; ev < floor; ev++)
        for (int s = floor - (int)p->F - 2; s <= floor - (int)p->F + 1; s++)
            for (int v = 0; v < 16; v++) {
                int ulp = (ev > fo->emin ? ev : fo->emin) - man;
                clear_op(&o, p, "floor");
                o.c = (v & 8) ? negate(p->out, 0) : 0;
                if (!split_power(p->in, ev, &o.a[0], &o.b[0]) ||
                    !split_power(p->in, s, &o.a[1], &o.b[1]))
                    continue;
                if (v & 1)
                    o.b[1] = negate(p->in, o.b[1]);
                if ((v & 2) && !split_power(p->in, ulp - 1, &o.a[2], &o.b[2]))
                    continue;
                if ((v & 4) && !split_power(p->in, ulp, &o.a[3], &o.b[3]))
                    continue;
                issue(t, &o);
            }
}

/* Sums near the largest finite output: every product the largest input squared, or c
 * the largest output plus products around half its ulp (Inf or not, by rounding). */
static void directed_overflow(tb *t, const tc_profile *p)
{
    const tc_fmt_info *fi = tc_fmt_get(p->in), *fo = tc_fmt_get(p->out);
    uint32_t big = pack(fi, 0, max_finite_field(fi),
                        fi->nan_style == 2 ? mask32(fi->man_bits) - 1u : mask32(fi->man_bits), 0);
    uint32_t cmax = pack(fo, 0, max_finite_field(fo), mask32(fo->man_bits), 0);
    op o;
    for (int s = 0; s < 2; s++) {
        clear_op(&o, p, "overflow");
        for (size_t i = 0; i < p->L; i++) {
            o.a[i] = big;
            o.b[i] = s ? negate(p->in, big) : big;
        }
        issue(t, &o);
        o.c = s ? negate(p->out, cmax) : cmax;
        issue(t, &o);
    }
    /* c = largest finite, plus 2^e for e around the half ulp of the output */
    int half_ulp = fo->emax - (int)(p->out == TC_FMT_FP32 ? p->out_man_bits : fo->man_bits) - 1;
    for (int e = half_ulp - 3; e <= half_ulp + 2; e++)
        for (int k = 1; k <= 3 && (size_t)k <= p->L; k++) {
            uint32_t x, y;
            int ex = e / 2, ey = e - ex;
            if (!power_of_two(p->in, ex, &x) || !power_of_two(p->in, ey, &y)) {
                ex = e < 0 ? fi->emin : fi->emax;
                ey = e - ex;
                if (!power_of_two(p->in, ex, &x) || !power_of_two(p->in, ey, &y))
                    continue;
            }
            clear_op(&o, p, "overflow boundary");
            o.c = cmax;
            for (int i = 0; i < k; i++) {
                o.a[i] = x;
                o.b[i] = y;
            }
            issue(t, &o);
        }
}

/* Sums at the top of the adder: all L products and c with the largest significand at one
 * exponent (2^0) and one sign, so that |sum| nears its bound (4L + 2) * 2^F, the bound
 * that sizes fedp.sv's signed sum (SW) and hence its sign bit. With fp16 inputs the sum
 * is L * (2 - 2^-10)^2 + (2 - ulp) > 4L, which needs every bit of SW; random operands
 * practically never line up L products like this, and directed_overflow's c is either
 * 0 or far above the products. Coarser formats (fp8 and below) stay below 2^(SW-2) even
 * so (e4m3: 32 * 1.875^2 + 2 < 128 at L = 32): for them this is only a large exact sum. */
static void directed_adder_top(tb *t, const tc_profile *p)
{
    const tc_fmt_info *fi = tc_fmt_get(p->in), *fo = tc_fmt_get(p->out);
    uint32_t x = pack(fi, 0, (uint32_t)fi->bias, mask32(fi->man_bits), 0);
    uint32_t c = pack(fo, 0, (uint32_t)fo->bias, mask32(fo->man_bits), 0);
    op o;
    for (int v = 0; v < 4; v++) {
        clear_op(&o, p, "adder top");
        for (size_t i = 0; i < p->L; i++) {
            o.a[i] = (v & 1) ? negate(p->in, x) : x;
            o.b[i] = x;
        }
        o.c = (v & 2) ? ((v & 1) ? negate(p->out, c) : c) : 0;
        issue(t, &o);
    }
}

/* Exact cancellation: pairs of equal and opposite products, with c zero, -0, tiny or
 * far below E (truncated away: the exact sum is then zero, +0). */
static void directed_cancellation(tb *t, const tc_profile *p)
{
    const tc_fmt_info *fo = tc_fmt_get(p->out);
    uint32_t cs[6] = {0, negate(p->out, 0), pack(fo, 0, 0, 1, 0), pack(fo, 1, 0, 1, 0),
                      pack(fo, 0, 1, 0, 0), 0};
    power_of_two(p->out, -(int)p->F - 3, &cs[5]);
    op o;
    for (int rep = 0; rep < 200; rep++)
        for (size_t k = 0; k < 6; k++) {
            clear_op(&o, p, "cancellation");
            const tc_fmt_info *fi = tc_fmt_get(p->in);
            for (size_t i = 0; i + 1 < p->L; i += 2) {
                o.a[i] = finite(&t->r, fi, fi->bias - 4, fi->bias + 4);
                o.b[i] = finite(&t->r, fi, fi->bias - 4, fi->bias + 4);
                o.a[i + 1] = negate(p->in, o.a[i]);
                o.b[i + 1] = o.b[i];
            }
            o.c = cs[k];
            issue(t, &o);
        }
}

/* A format select outside the instance's set gives the canonical NaN of the output
 * (for an unsupported output select fp32's, or fp16's in an instance without fp32):
 * fedp.sv's contract, not the model's. */
static void directed_unsupported(tb *t, const tc_profile *p)
{
    op o;
    for (unsigned f = 0; f < TC_FMT_COUNT; f++) {
        if ((t->q->in_fmts >> f) & 1u)
            continue;
        clear_op(&o, p, "unsupported input format");
        for (size_t i = 0; i < p->L; i++)
            o.a[i] = o.b[i] = rnd_bits(&t->r, t->q->elem_bits);
        o.in = f;
        o.valid = 1;
        o.index = t->issued;
        o.expect = tc_canonical_nan(p->out);
        cycle(t, &o);
    }
    tc_fmt nan_fmt = (t->q->out_fmts >> TC_FMT_FP32) & 1u ? TC_FMT_FP32 : TC_FMT_FP16;
    for (unsigned f = 0; f < TC_FMT_COUNT; f++) {
        if ((t->q->out_fmts >> f) & 1u)
            continue;
        clear_op(&o, p, "unsupported output format");
        o.out = f;
        o.valid = 1;
        o.index = t->issued;
        o.expect = tc_canonical_nan(nan_fmt);
        cycle(t, &o);
    }
}

/* ---------------------------------------------------------------- random cases */

enum { G_TAME, G_WIDE, G_FULL, G_CANCEL, G_NEAR_ZERO, G_MIXED, G_SHORT, G_SPECIAL, G_LOW,
       G_TIE, N_GEN };
static const char *const gen_name[N_GEN] = {"tame", "wide", "full random", "cancel",
                                            "near zero", "mixed", "short", "special", "low",
                                            "subnormal tie"};
/* Share of each generator, in percent. G_TIE needs an output rounded to nearest (fp16)
 * and inputs fine enough to reach its ties; other profiles get G_LOW's cases instead. */
static const unsigned gen_share[N_GEN] = {15, 15, 15, 10, 10, 10, 5, 5, 10, 5};

/* A value of float format f whose exponent (floor of log2) is e, random significand and
 * sign; 0 if f has no such value. */
static uint32_t value_at(rng *r, tc_fmt f, int e)
{
    const tc_fmt_info *fi = tc_fmt_get(f);
    int sub = fi->emin - (int)fi->man_bits; /* exponent of the smallest subnormal */
    if (e < sub || e > fi->emax)
        return 0;
    uint32_t mf = rnd_bits(r, fi->man_bits), ef = 0;
    if (e >= fi->emin) {
        ef = (uint32_t)(e + fi->bias);
        if (fi->nan_style == 2 && ef == mask32(fi->exp_bits) && mf == mask32(fi->man_bits))
            mf--;
    } else {
        unsigned pos = (unsigned)(e - sub); /* leading one of the subnormal fraction */
        mf = (1u << pos) | (mf & ((1u << pos) - 1u));
    }
    return pack(fi, rnd_below(r, 2), ef, mf, rnd_bits(r, fi->ignore_low));
}

/* Terms near the bottom of the profile's range: around Emin_align where the profile has
 * one (the floor then sets E and truncates), else around the output's smallest normal. */
static void low_op(tb *t, const tc_profile *p, op *o)
{
    const tc_fmt_info *fi = tc_fmt_get(p->in), *fo = tc_fmt_get(p->out);
    int base = p->emin_align != TC_EMIN_ALIGN_NONE ? p->emin_align : fo->emin;
    int lo = base - (int)p->F - 6, span = (int)p->F + 8;
    int sub = fi->emin - (int)fi->man_bits;
    for (size_t i = 0; i < p->L; i++) {
        int e = lo + (int)rnd_below(&t->r, (uint32_t)span);
        /* split e between a and b within the input's exponent range */
        int ea_lo = e - fi->emax > sub ? e - fi->emax : sub;
        int ea_hi = e - sub < fi->emax ? e - sub : fi->emax;
        o->a[i] = o->b[i] = 0;
        if (ea_lo > ea_hi || rnd_below(&t->r, 8) == 0)
            continue;
        int ea = ea_lo + (int)rnd_below(&t->r, (uint32_t)(ea_hi - ea_lo + 1));
        o->a[i] = value_at(&t->r, p->in, ea);
        o->b[i] = value_at(&t->r, p->in, e - ea);
    }
    o->c = rnd_below(&t->r, 4) ? value_at(&t->r, p->out, lo + (int)rnd_below(&t->r, (uint32_t)span))
                               : 0;
}

/* The FEDP exponent of a value of format f whose leading one is 2^e: floor(log2) for a
 * normal, emin for a subnormal (NUMERICS.md step 1). */
static int fedp_exp(const tc_fmt_info *fi, int e)
{
    return e < fi->emin ? fi->emin : e;
}

/* The factors a = x * 2^(w-eb), b = 2^eb of a product worth x * 2^w, if both exist in
 * format f and the product's FEDP exponent e_a + e_b is at most emax_p. */
static int factors(tc_fmt f, uint32_t x, int w, int eb, int emax_p, uint32_t *a, uint32_t *b)
{
    const tc_fmt_info *fi = tc_fmt_get(f);
    int lead = msb64(x) + w; /* floor(log2) of the product */
    return power_of_two(f, eb, b) && scaled(f, x, w - eb, a) &&
           fedp_exp(fi, eb) + fedp_exp(fi, lead - eb) <= emax_p;
}

/* A product a*b of format f worth exactly x * 2^w (x > 0) whose FEDP exponent is at most
 * emax_p, so that it cannot raise E above the caller's choice. The split is random among
 * those that exist (normal or subnormal factors: the decoders see both). 0 if none. */
static int product_of(rng *r, tc_fmt f, uint32_t x, int w, int emax_p, uint32_t *a,
                      uint32_t *b)
{
    const tc_fmt_info *fi = tc_fmt_get(f);
    int sub = fi->emin - (int)fi->man_bits;
    uint32_t n = 0, pick;
    for (int eb = sub; eb <= fi->emax; eb++)
        n += (uint32_t)factors(f, x, w, eb, emax_p, a, b);
    if (!n)
        return 0;
    pick = rnd_below(r, n);
    for (int eb = sub; eb <= fi->emax; eb++)
        if (factors(f, x, w, eb, emax_p, a, b) && pick-- == 0)
            break;
    return 1;
}

/* Appends to o's products one worth x * 2^w (x > 0), negative if neg, whose exponent is
 * at most E. 0 when no slot is left or the input format has no such product. */
static int add_product(rng *r, const tc_profile *p, op *o, size_t *n, uint32_t x, int w,
                       int E, int neg)
{
    if (*n >= p->L || !product_of(r, p->in, x, w, E, &o->a[*n], &o->b[*n]))
        return 0;
    if (neg)
        o->a[*n] = negate(p->in, o->a[*n]);
    (*n)++;
    return 1;
}

/* Appends products that sum exactly to x * 2^u (x > 0, u = E - F: no truncation), of
 * sign neg: from the top, chunks of the input's precision, none above 2^(E+1) (a larger
 * part is split into several chunks just below it). 0 if the slots run out. */
static int add_sum(rng *r, const tc_profile *p, op *o, size_t *n, uint64_t x, int u, int E,
                   int neg)
{
    const int P = (int)tc_fmt_get(p->in)->man_bits + 1, top_max = E - u;
    while (x) {
        int top = msb64(x), hi = top < top_max ? top : top_max;
        int lo = hi - P + 1 < 0 ? 0 : hi - P + 1;
        uint64_t chunk = x >> lo, cap = (UINT64_C(1) << (hi - lo + 1)) - 1u;
        chunk = chunk > cap ? cap : chunk;
        if (!add_product(r, p, o, n, (uint32_t)chunk, u + lo, E, neg))
            return 0;
        x -= chunk << lo;
    }
    return 1;
}

/* Sums in the subnormal range of a round-to-nearest output, on or beside a rounding tie
 * (G_TIE). Below the output's smallest normal the result's lsb is fixed, 2^(emin-man),
 * and the rounder shifts the normalised sum right to it first: the bits that shift
 * drops belong to the sticky bit as much as those it keeps. They can be non-zero only
 * when the sum's own lsb, 2^(E-F), lies far below the output's, i.e. with E at (or near)
 * the floor Emin_align, and random operations practically never meet that together with
 * a tie. So, in units of 2^(E-F), with 2^k the output's lsb, the sum is built as
 *     S = Q * 2^k + 2^(k-1) + d,   d = 0, +2^j or -2^j (j below the round bit),
 * Q a subnormal fraction (in c when E allows, else in products): an exact tie (decided by
 * Q's parity), one just above it (rounded up by a lone low bit: often the lowest one a
 * product can reach, the one the shift drops), or just below it. Every term is exact at
 * E, except an optional tiny product below 2^(E-F) that the truncation must remove (it
 * would break the tie in exact arithmetic); with E above the floor, a pair of equal and
 * opposite products at 2^E sets it. Returns 0 when the profile has no such sums: a
 * result rounded toward zero has no tie, and inputs too coarse (the finest product
 * above the round bit: e4m3 and smaller) make every such result exact. */
static int tie_op(tb *t, const tc_profile *p, op *o)
{
    const tc_fmt_info *fi = tc_fmt_get(p->in), *fo = tc_fmt_get(p->out);
    rng *r = &t->r;
    const int F = (int)p->F, man = (int)p->out_man_bits;
    const int grid = 2 * (fi->emin - (int)fi->man_bits); /* the finest product bit */
    const int lsb = fo->emin - man;                       /* the subnormal result's lsb */
    if (p->round != TC_RNE || grid > lsb - 1 || p->L < 4)
        return 0;
    /* E: half the time the lowest it can be (the floor, or two minimal exponents), else
     * anywhere up to the output's emin (above it the sum is rarely subnormal) */
    int e_lo = 2 * fi->emin, e_hi = fo->emin;
    if (p->emin_align != TC_EMIN_ALIGN_NONE && p->emin_align > e_lo)
        e_lo = p->emin_align;
    e_hi = e_hi < e_lo ? e_lo : e_hi;
    int E = e_lo + (rnd_below(r, 2) ? 0 : (int)rnd_below(r, (uint32_t)(e_hi - e_lo + 1)));
    int u = E - F, k = lsb - u;        /* the sum's lsb; its bits below the result's lsb */
    int jlo = grid > u ? grid - u : 0; /* the lowest sum bit a product can set */
    if (k < 1 || k + man + 2 > 62)
        return 0;
    /* d: 0, +2^j or -2^j, j the lowest reachable bit half the time */
    int dsign = (int)rnd_below(r, 3) - 1, j = jlo;
    if (jlo > k - 2)
        dsign = 0;
    else if (rnd_below(r, 2))
        j = jlo + (int)rnd_below(r, (uint32_t)(k - 1 - jlo));
    /* Q of random width, so that small and large subnormals both occur; sometimes the
     * largest, whose rounding up carries into the smallest normal */
    uint32_t q = rnd_below(r, 8) ? rnd_bits(r, rnd_below(r, (uint32_t)man + 1)) : mask32(man);
    int neg = (int)rnd_below(r, 2);
    uint32_t c = rnd_below(r, 2) ? negate(p->out, 0) : 0; /* +-0: no term, no sign */
    if (E >= fo->emin && q && rnd_below(r, 2) && scaled(p->out, q, lsb, &c)) {
        c = neg ? negate(p->out, c) : c; /* a subnormal c holds Q */
        q = 0;
    }
    size_t n;
    for (;; q >>= 1) { /* a Q too large for the slots at this E is halved */
        n = 0;
        uint64_t head = ((uint64_t)q << k) | (UINT64_C(1) << (k - 1));
        if (add_sum(r, p, o, &n, head, u, E, neg) &&
            (!dsign || add_sum(r, p, o, &n, UINT64_C(1) << j, u, E, neg ^ (dsign < 0))))
            break;
        if (!q)
            return 0;
    }
    if (p->emin_align == TC_EMIN_ALIGN_NONE || E > p->emin_align) {
        /* the pair that sets E (if two slots are left): a product at 2^E, its negation */
        int ea = fi->emin + (int)rnd_below(r, (uint32_t)(E - 2 * fi->emin + 1));
        ea = ea > fi->emax ? fi->emax : ea;
        if (n + 2 <= p->L && E - ea >= fi->emin && E - ea <= fi->emax) {
            o->a[n] = value_at(r, p->in, ea);
            o->b[n] = value_at(r, p->in, E - ea);
            o->a[n + 1] = negate(p->in, o->a[n]);
            o->b[n + 1] = o->b[n];
            n += 2;
        }
    }
    if (rnd_below(r, 4) == 0) /* below the sum's lsb: truncated away (if representable) */
        add_product(r, p, o, &n, 1, u - 1 - (int)rnd_below(r, 2), E, (int)rnd_below(r, 2));
    for (size_t i = n; i < p->L; i++)
        o->a[i] = o->b[i] = 0;
    for (size_t i = p->L - 1; i > 0; i--) { /* the terms in random positions */
        size_t s = rnd_below(r, (uint32_t)i + 1);
        uint32_t xa = o->a[i], xb = o->b[i];
        o->a[i] = o->a[s];
        o->b[i] = o->b[s];
        o->a[s] = xa;
        o->b[s] = xb;
    }
    o->c = c;
    return 1;
}

static uint32_t elem_of(tb *t, const tc_profile *p, int g, const uint32_t *cor, size_t ncor)
{
    const tc_fmt_info *fi = tc_fmt_get(p->in);
    rng *r = &t->r;
    switch (g) {
    case G_TAME:
        return finite(r, fi, fi->bias - 3, fi->bias + 3);
    case G_WIDE:
        return finite(r, fi, 0, (int)max_finite_field(fi));
    case G_FULL:
        return rnd_bits(r, fi->width);
    case G_SPECIAL:
        return cor[rnd_below(r, (uint32_t)ncor)];
    default: { /* mixed: any of the above, or zero */
        int k = (int)rnd_below(r, 5);
        return k == 4 ? 0 : elem_of(t, p, k == 3 ? G_SPECIAL : k, cor, ncor);
    }
    }
}

static uint32_t c_of(tb *t, const tc_profile *p, int g, const uint32_t *cor, size_t ncor)
{
    const tc_fmt_info *fo = tc_fmt_get(p->out), *fi = tc_fmt_get(p->in);
    rng *r = &t->r;
    switch (g) {
    case G_TAME: /* around the size of a tame product */
        return finite(r, fo, fo->bias - 6, fo->bias + 6);
    case G_WIDE: { /* anywhere from the products' range down to far below it */
        int lo = fo->bias + 2 * fi->emin - (int)p->F - 8, hi = fo->bias + 2 * fi->emax + 4;
        return finite(r, fo, rnd_below(r, 4) ? lo : 0, hi);
    }
    case G_FULL:
        return rnd_bits(r, fo->width);
    case G_SPECIAL:
        return cor[rnd_below(r, (uint32_t)ncor)];
    default: {
        int k = (int)rnd_below(r, 5);
        return k == 4 ? 0 : c_of(t, p, k == 3 ? G_SPECIAL : k, cor, ncor);
    }
    }
}

static int pick_gen(rng *r)
{
    uint32_t x = rnd_below(r, 100), acc = 0;
    for (int g = 0; g < N_GEN; g++)
        if (x < (acc += gen_share[g]))
            return g;
    return G_TAME;
}

static void random_op(tb *t, const tc_profile *p, op *o)
{
    uint32_t ci[MAX_CORNERS], co[MAX_CORNERS];
    size_t ni = corners(p->in, ci), no = corners(p->out, co);
    int g = pick_gen(&t->r);
    clear_op(o, p, gen_name[g]);
    int eg = g == G_CANCEL || g == G_NEAR_ZERO || g == G_SHORT || g == G_LOW || g == G_TIE
                 ? G_TAME
                 : g;
    for (size_t i = 0; i < p->L; i++) {
        o->a[i] = elem_of(t, p, eg, ci, ni);
        o->b[i] = elem_of(t, p, eg, ci, ni);
    }
    o->c = c_of(t, p, eg, co, no);
    if (g == G_CANCEL) { /* random pairs cancel exactly; the rest stays */
        for (size_t i = 0; i + 1 < p->L; i += 2)
            if (rnd_below(&t->r, 4)) {
                o->a[i + 1] = negate(p->in, o->a[i]);
                o->b[i + 1] = o->b[i];
            }
    } else if (g == G_NEAR_ZERO) { /* c = -(the step with c = 0): what is left is small */
        o->c = 0;
        expect(o);
        tc_value v;
        if (tc_decode(p->out, o->expect, &v) == TC_OK && v.kind == TC_VAL_FINITE)
            o->c = negate(p->out, o->expect);
    } else if (g == G_SHORT) { /* fewer than L products: the model pads with zeros */
        o->n = rnd_below(&t->r, (uint32_t)p->L + 1);
    } else if (g == G_LOW) {
        low_op(t, p, o);
    } else if (g == G_TIE && !tie_op(t, p, o)) { /* no tie to build: the bottom instead */
        o->gen = gen_name[G_LOW];
        low_op(t, p, o);
    }
}

/* N random operations per profile, the profiles interleaved: back to back first, then
 * with bubbles, then with resets in the middle of the stream. */
static void random_stream(tb *t, const tc_profile *const *ps, size_t np, uint64_t count)
{
    uint64_t total = count * np;
    for (uint64_t i = 0; i < total; i++) {
        const tc_profile *p = ps[rnd_below(&t->r, (uint32_t)np)];
        uint64_t phase = i * 10 / total; /* 0-4 back to back, 5-8 bubbles, 9 resets */
        if (phase >= 5 && rnd_below(&t->r, 4) == 0)
            bubble(t, p);
        if (phase == 9 && rnd_below(&t->r, 64) == 0)
            reset_midstream(t, p, 1 + rnd_below(&t->r, 3));
        op o;
        random_op(t, p, &o);
        issue(t, &o);
    }
    drain(t, ps[0]);
}

/* ----------------------------------------------------------------- A100 vectors */

/* The GPU's results, where the instance implements Ampere's profile of the set. */
static int a100(tb *t, const char *root)
{
    size_t sets = 0;
    for (size_t j = 0; j < sizeof a100_sets / sizeof a100_sets[0]; j++) {
        const a100_set *s = &a100_sets[j];
        const tc_profile *p;
        if (tc_profile_find(TC_ARCH_AMPERE, TC_INSTR_MMA, s->in, s->out, &p) != TC_OK ||
            !fedp_implements(t->q, p) || s->k > p->L)
            continue;
        a100_cases cs;
        if (a100_load(root, s, &cs))
            return -1;
        uint64_t before = t->mism[B_NAN] + t->mism[B_INF] + t->mism[B_ZERO] +
                          t->mism[B_SUBNORMAL] + t->mism[B_NORMAL] + t->mism[B_TIMING];
        for (size_t i = 0; i < cs.n; i++) {
            op o;
            clear_op(&o, p, "A100");
            o.n = cs.k;
            memcpy(o.a, cs.a + i * cs.k, cs.k * sizeof *o.a);
            memcpy(o.b, cs.b + i * cs.k, cs.k * sizeof *o.b);
            o.c = cs.c[i];
            o.valid = 1;
            o.index = t->issued;
            o.expect = cs.d[i]; /* the hardware's result, not the model's */
            cycle(t, &o);
        }
        drain(t, p);
        uint64_t after = t->mism[B_NAN] + t->mism[B_INF] + t->mism[B_ZERO] +
                         t->mism[B_SUBNORMAL] + t->mism[B_NORMAL] + t->mism[B_TIMING];
        printf("  A100 %-10s through %-24s %zu cases, %" PRIu64 " mismatches\n", s->name,
               p->name, cs.n, after - before);
        a100_free(&cs);
        sets++;
    }
    return (int)sets;
}

/* ------------------------------------------------------------- stage replay */

/* The fraction width the instance left-justifies every element to (fedp.sv's MB). */
static unsigned max_man_bits(uint32_t fmts)
{
    unsigned m = 0;
    for (unsigned f = 0; f < TC_FMT_COUNT; f++)
        if ((fmts >> f) & 1u && tc_fmt_get((tc_fmt)f)->man_bits > m)
            m = tc_fmt_get((tc_fmt)f)->man_bits;
    return m;
}

/* Runs op o alone and compares each stage register with the model's trace, naming the
 * first stage that differs: where a mismatch is born. Returns 0 when MUL, ALIGN and ADD
 * agree, 1 when one differs, -1 when there is nothing to compare (a special result).
 * Quiet unless verbose. */
static int replay(tb *t, const op *o, int verbose)
{
    tc_fedp_trace tr;
    uint32_t d;
    const tc_fmt_info *fi = tc_fmt_get(o->p->in);
    if (tc_fedp_step(o->p, o->n, o->a, o->b, o->c, &d, &tr) != TC_OK)
        return -1;
    if (verbose)
        printf("  replay of op %" PRIu64 " stage by stage:\n", o->index);
    if (tr.special) {
        if (verbose)
            printf("    the model's result is special (code %d): no stage to compare\n",
                   tr.special);
        return -1;
    }
    dut_reset(t->dut);
    dut_drive(t->dut, 1, o->p->in, o->p->out, o->n, o->a, o->b, o->c);
    dut_step(t->dut); /* fedp_tb_top's operand register */
    dut_drive(t->dut, 0, o->p->in, o->p->out, 0, o->a, o->b, 0);
    fedp_stages s;
    unsigned lj = (unsigned)(2 * (max_man_bits(t->q->in_fmts) - fi->man_bits));
    dut_step(t->dut);
    dut_stages(t->dut, &s);
    for (size_t i = 0; i < o->n; i++) {
        if (tr.prod_zero[i] || tr.prod_sig[i] == 0)
            continue;
        if (s.mul_psig[i] != tr.prod_sig[i] << lj || s.mul_pexp[i] != tr.prod_exp[i]) {
            if (verbose)
                printf("    MUL differs at product %zu: rtl sig %" PRIx64 " exp %d, model sig %"
                       PRIx64 " exp %d (<< %u)\n", i, s.mul_psig[i], s.mul_pexp[i],
                       tr.prod_sig[i], tr.prod_exp[i], lj);
            return 1;
        }
    }
    dut_step(t->dut);
    dut_stages(t->dut, &s);
    int any = 0;
    for (size_t i = 0; i <= o->n; i++)
        any |= !tr.prod_zero[i == o->n ? TC_MAX_L : i];
    if (any && s.align_e != tr.align_e) {
        if (verbose)
            printf("    ALIGN differs: rtl E %d, model E %d\n", s.align_e, tr.align_e);
        return 1;
    }
    for (size_t i = 0; i <= t->q->L; i++) {
        int64_t m = i == t->q->L ? tr.align_t[TC_MAX_L] : i < o->n ? tr.align_t[i] : 0;
        if (s.align_t[i] != m) {
            if (verbose)
                printf("    ALIGN differs at term %zu: rtl %" PRId64 ", model %" PRId64 "\n",
                       i, s.align_t[i], m);
            return 1;
        }
    }
    dut_step(t->dut);
    dut_stages(t->dut, &s);
    if (s.add_sum != tr.add_sum) {
        if (verbose)
            printf("    ADD differs: rtl %" PRId64 ", model %" PRId64 "\n", s.add_sum,
                   tr.add_sum);
        return 1;
    }
    if (verbose)
        printf("    MUL, ALIGN and ADD agree: the difference is in NORM/ROUND or the selection\n");
    return 0;
}

/* The replay itself under test: on an instance that matches the model, every stage of
 * every replayed operation must agree with the trace (else replay would blame a stage
 * wrongly when a real mismatch is diagnosed). n random operations per profile. */
static int replay_check(tb *t, const tc_profile *const *ps, size_t np, uint64_t n)
{
    uint64_t compared = 0, differ = 0;
    for (size_t j = 0; j < np; j++)
        for (uint64_t i = 0; i < n; i++) {
            op o;
            random_op(t, ps[j], &o);
            o.index = i;
            int r = replay(t, &o, 0);
            compared += r >= 0;
            if (r > 0 && differ++ == 0) {
                printf("  first that differs: seed %" PRIu64 ", %s, operation %" PRIu64
                       " [%s]\n", t->seed, ps[j]->name, i, o.gen);
                replay(t, &o, 1);
            }
        }
    printf("replay check: %" PRIu64 " operations replayed stage by stage, %" PRIu64
           " differ\n%s\n", compared, differ, differ || !compared ? "FAILED" : "PASSED");
    return differ || !compared;
}

/* ------------------------------------------------------- tcsim dot input lines */

/* Every profile `tcsim dot --engine rtl` can run: its FEDP step has an instance. */
static int dot_profiles(void)
{
    const tc_profile *rows;
    size_t n = tc_profile_table(&rows);
    for (size_t i = 0; i < n; i++) {
        const tc_profile *sp;
        if (tc_profile_step_of(&rows[i], &sp) == TC_OK && fedp_instance_for(sp))
            printf("%s %s %s %s\n", tc_arch_name(rows[i].arch), tc_instr_name(rows[i].instr),
                   tc_fmt_get(rows[i].in)->name, tc_fmt_get(rows[i].out)->name);
    }
    return 0;
}

/* N random `tcsim dot` input lines for profile (arch, instr, in, out): k from 1 to
 * 3L (several chained steps, short last blocks), values from the random generators. */
static int dot_cases(char **args, uint64_t n, uint64_t seed)
{
    tc_arch a;
    tc_instr in;
    tc_fmt fi, fo;
    const tc_profile *p;
    if (tc_arch_parse(args[0], &a) || tc_instr_parse(args[1], &in) || tc_fmt_parse(args[2], &fi) ||
        tc_fmt_parse(args[3], &fo) || tc_profile_find(a, in, fi, fo, &p)) {
        fprintf(stderr, "fedp_tb: no profile %s %s %s %s\n", args[0], args[1], args[2], args[3]);
        return 2;
    }
    static tb t;
    t.r.s = seed;
    uint32_t ci[MAX_CORNERS], co[MAX_CORNERS];
    size_t ni = corners(p->in, ci), no = corners(p->out, co);
    static const int gens[] = {G_TAME, G_TAME, G_WIDE, G_FULL, G_SPECIAL, G_MIXED};
    unsigned wi = (tc_fmt_get(p->in)->width + 3) / 4, wo = (tc_fmt_get(p->out)->width + 3) / 4;
    for (uint64_t j = 0; j < n; j++) {
        int g = gens[rnd_below(&t.r, sizeof gens / sizeof gens[0])];
        size_t k = 1 + rnd_below(&t.r, 3 * p->L);
        uint32_t v[6 * TC_MAX_L];
        for (size_t i = 0; i < 2 * k; i++)
            v[i] = elem_of(&t, p, g, ci, ni);
        for (size_t i = 0; i < 2 * k; i++)
            printf("%0*x ", (int)wi, v[i]);
        printf("%0*x\n", (int)wo, c_of(&t, p, g, co, no));
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

static void print_params(const fedp_dut_ops *ops)
{
    const fedp_params *q = &ops->params;
    char e32[16] = "none", e16[16] = "none";
    if (q->emin_align_fp32 != TC_EMIN_ALIGN_NONE)
        snprintf(e32, sizeof e32, "%d", q->emin_align_fp32);
    if (q->emin_align_fp16 != TC_EMIN_ALIGN_NONE)
        snprintf(e16, sizeof e16, "%d", q->emin_align_fp16);
    printf("%s: L %u, F %u, formats 0x%x, outputs 0x%x, Emin_align fp32 %s fp16 %s, "
           "fp32 fraction %u, element %u bits, latency %u (fedp %u + operand register)%s\n",
           ops->name, q->L, q->F,
           (unsigned)q->in_fmts, (unsigned)q->out_fmts, e32, e16, q->fp32_man_bits,
           q->elem_bits, q->latency, q->rtl_latency, ops->has_trace ? ", FST trace" : "");
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
    fprintf(f, "usage: fedp_tb --instance NAME [--seed S] [--count N] [--vectors DIR]\n"
               "               [--fst FILE] [--print N] [--random-only]\n"
               "       fedp_tb --instance NAME --replay-check N [--seed S]\n"
               "       fedp_tb --profiles | --list | --dot-profiles\n"
               "       fedp_tb --dot-cases ARCH INSTR IN OUT N SEED\n");
    return f == stdout ? 0 : 2;
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
            if (i + 6 >= argc) {
                fprintf(stderr, "fedp_tb: --dot-cases needs ARCH INSTR IN OUT N SEED\n");
                return usage(stderr);
            }
            if (test_parse_u64("fedp_tb", "--dot-cases N", argv[i + 5], UINT64_MAX, &n) ||
                test_parse_u64("fedp_tb", "--dot-cases SEED", argv[i + 6], UINT64_MAX, &sd))
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
     * implements each one's parameters): test one per (in, out), name the others. */
    for (size_t i = 0; i < na; i++) {
        size_t j = 0;
        while (j < np && !(ps[j]->in == all[i]->in && ps[j]->out == all[i]->out))
            j++;
        if (j == np)
            ps[np++] = all[i];
    }
    for (size_t j = 0; j < np; j++) {
        printf("  %s", ps[j]->name);
        const char *sep = " (the same function as";
        for (size_t i = 0; i < na; i++)
            if (all[i] != ps[j] && all[i]->in == ps[j]->in && all[i]->out == ps[j]->out) {
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
    t.print_max = (unsigned)print_max;
    t.lat = t.q->latency;
    for (unsigned i = 0; i < t.lat; i++)
        t.ring[i].p = ps[0];
    if (replay_n) {
        int rc = replay_check(&t, ps, np, replay_n);
        dut_free(t.dut);
        return rc;
    }
    printf("seed %" PRIu64 ", %" PRIu64 " random operations per (in, out) format pair\n", seed,
           count);

    clock_t t0 = clock();
    for (size_t i = 0; i < np && !random_only; i++) {
        uint64_t before = t.issued;
        directed_corners(&t, ps[i]);
        directed_truncation(&t, ps[i]);
        directed_overflow(&t, ps[i]);
        directed_adder_top(&t, ps[i]);
        directed_cancellation(&t, ps[i]);
        directed_floor(&t, ps[i]);
        directed_unsupported(&t, ps[i]);
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

    uint64_t bad = 0;
    for (int b = 0; b < N_BUCKETS; b++)
        bad += t.mism[b];
    printf("%" PRIu64 " operations issued, %" PRIu64 " results checked, %" PRIu64
           " dropped by resets, %" PRIu64 " cycles; %.1f s (%.2f M ops/s with the model)\n",
           t.issued, t.checked, t.dropped, t.cycle, secs, secs > 0 ? t.issued / secs / 1e6 : 0);
    printf("mismatches:");
    for (int b = 0; b < N_BUCKETS; b++)
        printf(" %s %" PRIu64 "%s", bucket_name[b], t.mism[b], b + 1 < N_BUCKETS ? "," : "\n");
    if (t.have_bad)
        replay(&t, &t.first_bad, 1);
    /* Every issued operation is checked or was dropped by a reset. */
    if (t.checked + t.dropped != t.issued) {
        printf("%" PRIu64 " operations neither checked nor dropped\n",
               t.issued - t.checked - t.dropped);
        bad++;
    }
    dut_free(t.dut);
    printf("%s\n", bad ? "FAILED" : "PASSED");
    return bad != 0;
}
