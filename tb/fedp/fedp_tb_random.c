/* fedp_tb_random.c - the FEDP testbench's random operations: generators by share (tame,
 * wide, full random, cancelling, near zero, mixed, short, special, low, subnormal ties),
 * the interleaved stream with bubbles and resets, and the `tcsim dot` input lines drawn
 * from the same generators. Every a is of the profile's format in, every b of in_b (a
 * mixed pair's own formats). */
#include <stdio.h>
#include <string.h>
#include "fedp_tb.h"

static int msb64(uint64_t x) /* x != 0 */
{
    return 63 - __builtin_clzll(x);
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

/* Terms near the bottom of the profile's range: around Emin_align where the profile has
 * one (the floor then sets E and truncates), else around the output's smallest normal. */
static void low_op(tb *t, const tc_profile *p, op *o)
{
    const tc_fmt_info *fi = tc_fmt_get(p->in), *fb = tc_fmt_get(p->in_b);
    const tc_fmt_info *fo = tc_fmt_get(p->out);
    int base = p->emin_align != TC_EMIN_ALIGN_NONE ? p->emin_align : fo->emin;
    int lo = base - (int)p->F - 6, span = (int)p->F + 8;
    int sub = fi->emin - (int)fi->man_bits, sub_b = fb->emin - (int)fb->man_bits;
    for (size_t i = 0; i < p->L; i++) {
        int e = lo + (int)tk_below(&t->r, (uint32_t)span);
        /* split e between a and b within their formats' exponent ranges */
        int ea_lo = e - fb->emax > sub ? e - fb->emax : sub;
        int ea_hi = e - sub_b < fi->emax ? e - sub_b : fi->emax;
        o->a[i] = o->b[i] = 0;
        if (ea_lo > ea_hi || tk_below(&t->r, 8) == 0)
            continue;
        int ea = ea_lo + (int)tk_below(&t->r, (uint32_t)(ea_hi - ea_lo + 1));
        o->a[i] = tk_value_at(&t->r, p->in, ea);
        o->b[i] = tk_value_at(&t->r, p->in_b, e - ea);
    }
    o->c = tk_below(&t->r, 4) ? tk_value_at(&t->r, p->out, lo + (int)tk_below(&t->r, (uint32_t)span))
                               : 0;
}

/* The FEDP exponent of a value of format f whose leading one is 2^e: floor(log2) for a
 * normal, emin for a subnormal (docs/contract.md step 1). */
static int fedp_exp(const tc_fmt_info *fi, int e)
{
    return e < fi->emin ? fi->emin : e;
}

/* The factors a = x * 2^(w-eb) of format fa, b = 2^eb of format fb of a product worth
 * x * 2^w, if both exist and the product's FEDP exponent e_a + e_b is at most emax_p. */
static int factors(tc_fmt fa, tc_fmt fb, uint32_t x, int w, int eb, int emax_p, uint32_t *a,
                   uint32_t *b)
{
    int lead = msb64(x) + w; /* floor(log2) of the product */
    return tk_power_of_two(fb, eb, b) && tk_scaled(fa, x, w - eb, a) &&
           fedp_exp(tc_fmt_get(fb), eb) + fedp_exp(tc_fmt_get(fa), lead - eb) <= emax_p;
}

/* A product a*b (a of p's format in, b of in_b) worth exactly x * 2^w (x > 0) whose FEDP
 * exponent is at most emax_p, so that it cannot raise E above the caller's choice. The
 * split is random among those that exist (normal or subnormal factors: the decoders see
 * both). 0 if none. */
static int product_of(tk_rng *r, const tc_profile *p, uint32_t x, int w, int emax_p,
                      uint32_t *a, uint32_t *b)
{
    const tc_fmt_info *fb = tc_fmt_get(p->in_b);
    int sub = fb->emin - (int)fb->man_bits;
    uint32_t n = 0, pick;
    for (int eb = sub; eb <= fb->emax; eb++)
        n += (uint32_t)factors(p->in, p->in_b, x, w, eb, emax_p, a, b);
    if (!n)
        return 0;
    pick = tk_below(r, n);
    for (int eb = sub; eb <= fb->emax; eb++)
        if (factors(p->in, p->in_b, x, w, eb, emax_p, a, b) && pick-- == 0)
            break;
    return 1;
}

/* Appends to o's products one worth x * 2^w (x > 0), negative if neg, whose exponent is
 * at most E. 0 when no slot is left or the input format has no such product. */
static int add_product(tk_rng *r, const tc_profile *p, op *o, size_t *n, uint32_t x, int w,
                       int E, int neg)
{
    if (*n >= p->L || !product_of(r, p, x, w, E, &o->a[*n], &o->b[*n]))
        return 0;
    if (neg)
        o->a[*n] = tk_negate(p->in, o->a[*n]);
    (*n)++;
    return 1;
}

/* Appends products that sum exactly to x * 2^u (x > 0, u = E - F: no truncation), of
 * sign neg: from the top, chunks of the input's precision, none above 2^(E+1) (a larger
 * part is split into several chunks just below it). 0 if the slots run out. */
static int add_sum(tk_rng *r, const tc_profile *p, op *o, size_t *n, uint64_t x, int u, int E,
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
    const tc_fmt_info *fi = tc_fmt_get(p->in), *fb = tc_fmt_get(p->in_b);
    const tc_fmt_info *fo = tc_fmt_get(p->out);
    tk_rng *r = &t->r;
    const int F = (int)p->F, man = (int)p->out_man_bits;
    /* the finest product bit */
    const int grid = fi->emin - (int)fi->man_bits + fb->emin - (int)fb->man_bits;
    const int lsb = fo->emin - man;                       /* the subnormal result's lsb */
    if (p->round != TC_RNE || grid > lsb - 1 || p->L < 4)
        return 0;
    /* E: half the time the lowest it can be (the floor, or two minimal exponents), else
     * anywhere up to the output's emin (above it the sum is rarely subnormal) */
    int e_lo = fi->emin + fb->emin, e_hi = fo->emin;
    if (p->emin_align != TC_EMIN_ALIGN_NONE && p->emin_align > e_lo)
        e_lo = p->emin_align;
    e_hi = e_hi < e_lo ? e_lo : e_hi;
    int E = e_lo + (tk_below(r, 2) ? 0 : (int)tk_below(r, (uint32_t)(e_hi - e_lo + 1)));
    int u = E - F, k = lsb - u;        /* the sum's lsb; its bits below the result's lsb */
    int jlo = grid > u ? grid - u : 0; /* the lowest sum bit a product can set */
    if (k < 1 || k + man + 2 > 62)
        return 0;
    /* d: 0, +2^j or -2^j, j the lowest reachable bit half the time */
    int dsign = (int)tk_below(r, 3) - 1, j = jlo;
    if (jlo > k - 2)
        dsign = 0;
    else if (tk_below(r, 2))
        j = jlo + (int)tk_below(r, (uint32_t)(k - 1 - jlo));
    /* Q of random width, so that small and large subnormals both occur; sometimes the
     * largest, whose rounding up carries into the smallest normal */
    uint32_t q = tk_below(r, 8) ? tk_bits(r, tk_below(r, (uint32_t)man + 1)) : tk_mask32(man);
    int neg = (int)tk_below(r, 2);
    uint32_t c = tk_below(r, 2) ? tk_negate(p->out, 0) : 0; /* +-0: no term, no sign */
    if (E >= fo->emin && q && tk_below(r, 2) && tk_scaled(p->out, q, lsb, &c)) {
        c = neg ? tk_negate(p->out, c) : c; /* a subnormal c holds Q */
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
        int ea = fi->emin + (int)tk_below(r, (uint32_t)(E - fi->emin - fb->emin + 1));
        ea = ea > fi->emax ? fi->emax : ea;
        if (n + 2 <= p->L && E - ea >= fb->emin && E - ea <= fb->emax) {
            o->a[n] = tk_value_at(r, p->in, ea);
            o->b[n] = tk_value_at(r, p->in_b, E - ea);
            o->a[n + 1] = tk_negate(p->in, o->a[n]);
            o->b[n + 1] = o->b[n];
            n += 2;
        }
    }
    if (tk_below(r, 4) == 0) /* below the sum's lsb: truncated away (if representable) */
        add_product(r, p, o, &n, 1, u - 1 - (int)tk_below(r, 2), E, (int)tk_below(r, 2));
    for (size_t i = n; i < p->L; i++)
        o->a[i] = o->b[i] = 0;
    for (size_t i = p->L - 1; i > 0; i--) { /* the terms in random positions */
        size_t s = tk_below(r, (uint32_t)i + 1);
        uint32_t xa = o->a[i], xb = o->b[i];
        o->a[i] = o->a[s];
        o->b[i] = o->b[s];
        o->a[s] = xa;
        o->b[s] = xb;
    }
    o->c = c;
    return 1;
}

/* An element of format f (an operand's) from generator g; cor: f's corners. */
static uint32_t elem_of(tb *t, tc_fmt f, int g, const uint32_t *cor, size_t ncor)
{
    const tc_fmt_info *fi = tc_fmt_get(f);
    tk_rng *r = &t->r;
    switch (g) {
    case G_TAME:
        return tk_finite(r, fi, fi->bias - 3, fi->bias + 3);
    case G_WIDE:
        return tk_finite(r, fi, 0, (int)tk_max_finite_field(fi));
    case G_FULL:
        return tk_bits(r, fi->width);
    case G_SPECIAL:
        return cor[tk_below(r, (uint32_t)ncor)];
    default: { /* mixed: any of the above, or zero */
        int k = (int)tk_below(r, 5);
        return k == 4 ? 0 : elem_of(t, f, k == 3 ? G_SPECIAL : k, cor, ncor);
    }
    }
}

static uint32_t c_of(tb *t, const tc_profile *p, int g, const uint32_t *cor, size_t ncor)
{
    const tc_fmt_info *fo = tc_fmt_get(p->out), *fi = tc_fmt_get(p->in);
    const tc_fmt_info *fb = tc_fmt_get(p->in_b);
    tk_rng *r = &t->r;
    switch (g) {
    case G_TAME: /* around the size of a tame product */
        return tk_finite(r, fo, fo->bias - 6, fo->bias + 6);
    case G_WIDE: { /* anywhere from the products' range down to far below it */
        int lo = fo->bias + fi->emin + fb->emin - (int)p->F - 8;
        int hi = fo->bias + fi->emax + fb->emax + 4;
        return tk_finite(r, fo, tk_below(r, 4) ? lo : 0, hi);
    }
    case G_FULL:
        return tk_bits(r, fo->width);
    case G_SPECIAL:
        return cor[tk_below(r, (uint32_t)ncor)];
    default: {
        int k = (int)tk_below(r, 5);
        return k == 4 ? 0 : c_of(t, p, k == 3 ? G_SPECIAL : k, cor, ncor);
    }
    }
}

static int pick_gen(tk_rng *r)
{
    uint32_t x = tk_below(r, 100), acc = 0;
    for (int g = 0; g < N_GEN; g++)
        if (x < (acc += gen_share[g]))
            return g;
    return G_TAME;
}

void random_op(tb *t, const tc_profile *p, op *o)
{
    uint32_t ci[TK_MAX_CORNERS], cb[TK_MAX_CORNERS], co[TK_MAX_CORNERS];
    size_t ni = tk_corners(p->in, ci), nb = tk_corners(p->in_b, cb), no = tk_corners(p->out, co);
    int g = pick_gen(&t->r);
    clear_op(o, p, gen_name[g]);
    int eg = g == G_CANCEL || g == G_NEAR_ZERO || g == G_SHORT || g == G_LOW || g == G_TIE
                 ? G_TAME
                 : g;
    for (size_t i = 0; i < p->L; i++) {
        o->a[i] = elem_of(t, p->in, eg, ci, ni);
        o->b[i] = elem_of(t, p->in_b, eg, cb, nb);
    }
    o->c = c_of(t, p, eg, co, no);
    if (g == G_CANCEL) { /* random pairs cancel exactly; the rest stays */
        for (size_t i = 0; i + 1 < p->L; i += 2)
            if (tk_below(&t->r, 4)) {
                o->a[i + 1] = tk_negate(p->in, o->a[i]);
                o->b[i + 1] = o->b[i];
            }
    } else if (g == G_NEAR_ZERO) { /* c = -(the step with c = 0): what is left is small */
        o->c = 0;
        expect(o);
        tc_value v;
        if (tc_decode(p->out, o->expect, &v) == TC_OK && v.kind == TC_VAL_FINITE)
            o->c = tk_negate(p->out, o->expect);
    } else if (g == G_SHORT) { /* fewer than L products: the model pads with zeros */
        o->n = tk_below(&t->r, (uint32_t)p->L + 1);
    } else if (g == G_LOW) {
        low_op(t, p, o);
    } else if (g == G_TIE && !tie_op(t, p, o)) { /* no tie to build: the bottom instead */
        o->gen = gen_name[G_LOW];
        low_op(t, p, o);
    }
}

/* Random operations of a mixed pair per `count`: PAIR_SHARE / 4 of an equal-format
 * profile's. A pair shares everything after UNPACK with its formats' own rows, which run
 * the full count; what it adds (b decoded by its own select) its directed cases and this
 * share cover, and blackwell_f8f6f4's 40 pairs would otherwise make its test 5x longer. */
enum { PAIR_SHARE = 1 };

/* N random operations per profile (N * PAIR_SHARE / 4 per mixed pair), the profiles
 * interleaved: back to back first, then with bubbles, then with resets in the middle of
 * the stream. */
void random_stream(tb *t, const tc_profile *const *ps, size_t np, uint64_t count)
{
    uint32_t weight[64], sum = 0; /* in quarters of `count` */
    for (size_t j = 0; j < np && j < 64; j++)
        sum += weight[j] = ps[j]->in_b == ps[j]->in ? 4u : PAIR_SHARE;
    uint64_t total = count * sum / 4;
    for (uint64_t i = 0; i < total; i++) {
        uint32_t x = tk_below(&t->r, sum);
        size_t j = 0;
        while (x >= weight[j])
            x -= weight[j++];
        const tc_profile *p = ps[j];
        uint64_t phase = i * 10 / total; /* 0-4 back to back, 5-8 bubbles, 9 resets */
        if (phase >= 5 && tk_below(&t->r, 4) == 0)
            bubble(t, p);
        if (phase == 9 && tk_below(&t->r, 64) == 0)
            reset_midstream(t, p, 1 + tk_below(&t->r, 3));
        op o;
        random_op(t, p, &o);
        issue(t, &o);
    }
    drain(t, ps[0]);
}

/* N random `tcsim dot` input lines for profile (arch, instr, in_a, in_b, out): k from
 * 1 to 3L (several chained steps, short last blocks), values from the random generators:
 * k a's of in_a, then k b's of in_b, then c. */
int dot_cases(char **args, uint64_t n, uint64_t seed)
{
    tc_arch a;
    tc_instr in;
    tc_fmt fa, fb, fo;
    const tc_profile *p;
    if (tc_arch_parse(args[0], &a) || tc_instr_parse(args[1], &in) ||
        tc_fmt_parse(args[2], &fa) || tc_fmt_parse(args[3], &fb) ||
        tc_fmt_parse(args[4], &fo) || tc_profile_find_ab(a, in, fa, fb, fo, &p)) {
        fprintf(stderr, "fedp_tb: no profile %s %s %s %s %s\n", args[0], args[1], args[2],
                args[3], args[4]);
        return 2;
    }
    static tb t;
    t.r.s = seed;
    uint32_t ci[TK_MAX_CORNERS], cb[TK_MAX_CORNERS], co[TK_MAX_CORNERS];
    size_t ni = tk_corners(p->in, ci), nb = tk_corners(p->in_b, cb), no = tk_corners(p->out, co);
    static const int gens[] = {G_TAME, G_TAME, G_WIDE, G_FULL, G_SPECIAL, G_MIXED};
    unsigned wa = (tc_fmt_get(p->in)->width + 3) / 4, wb = (tc_fmt_get(p->in_b)->width + 3) / 4;
    unsigned wo = (tc_fmt_get(p->out)->width + 3) / 4;
    for (uint64_t j = 0; j < n; j++) {
        int g = gens[tk_below(&t.r, sizeof gens / sizeof gens[0])];
        size_t k = 1 + tk_below(&t.r, 3 * p->L);
        uint32_t v[6 * TC_MAX_L];
        for (size_t i = 0; i < 2 * k; i++)
            v[i] = i < k ? elem_of(&t, p->in, g, ci, ni) : elem_of(&t, p->in_b, g, cb, nb);
        for (size_t i = 0; i < 2 * k; i++)
            printf("%0*x ", (int)(i < k ? wa : wb), v[i]);
        printf("%0*x\n", (int)wo, c_of(&t, p, g, co, no));
    }
    return 0;
}
