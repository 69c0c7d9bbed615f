/* test_vs_ref_stimulus.c - the cases of the random comparison: per scenario, inputs
 * drawn to hit the hard cases (cancellation, carries, overflow, underflow, ties,
 * specials), every case's inputs a function of the seed, the row and its number. */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "vs_ref.h"

const char *const SC_NAMES[SC_COUNT] = {
    "random", "tame", "spread", "cancel", "carry", "overflow", "underflow", "tie",
    "special", "zeros"};
const unsigned SC_WEIGHT[SC_COUNT] = {10, 14, 14, 15, 8, 8, 10, 12, 4, 5};

/* ======================================================================= generators */


static int fmt_lo(const ref_fmt *f) /* lowest binade: the smallest subnormal's */
{
    return f->emin - (int)f->mbits;
}

static uint32_t fmt_sign_bit(const ref_fmt *f)
{
    return (uint32_t)1u << (f->width - 1);
}

/* A finite pattern of f in binade e (clamped to the format's binades; below emin it
 * is a subnormal), sign neg, fraction drawn in style fs. */
static uint32_t mk_float(rng *r, const ref_fmt *f, int neg, int e, frac_style fs)
{
    unsigned mb = f->mbits;
    uint32_t mask = (1u << mb) - 1u, frac = 0;
    e = clampi(e, fmt_lo(f), f->emax);
    switch (fs) {
    case FR_RANDOM: frac = (uint32_t)rnext(r) & mask; break;
    case FR_ZERO: frac = 0; break;
    case FR_ONES: frac = mask; break;
    case FR_FEW:
        if (mb)
            frac = (1u << rbelow(r, mb)) | (rpct(r, 50) ? 1u << rbelow(r, mb) : 0u);
        break;
    }
    uint32_t w;
    if (e >= f->emin) {
        uint32_t expf = (uint32_t)(e + f->bias);
        if (f->spec == REF_SPEC_E4M3 && expf == (1u << f->ebits) - 1u && frac == mask)
            frac = mask - 1u; /* S.1111.111 is NaN: 448 is the top */
        w = (expf << mb) | frac;
    } else {
        unsigned pos = mb - (unsigned)(f->emin - e); /* the leading 1 of the subnormal */
        w = (1u << pos) | (frac & ((1u << pos) - 1u));
    }
    if (neg)
        w |= (uint32_t)1u << (f->width - f->ignore_low - 1);
    w <<= f->ignore_low;
    if (f->ignore_low && rpct(r, 50)) /* tf32: junk in the ignored bits */
        w |= (uint32_t)rnext(r) & ((1u << f->ignore_low) - 1u);
    return w;
}

static uint32_t mk_zero(const ref_fmt *f, int neg)
{
    return neg ? fmt_sign_bit(f) : 0u;
}

static int has_inf(const ref_fmt *f)
{
    return f->spec == REF_SPEC_IEEE;
}

static int has_nan(const ref_fmt *f)
{
    return f->spec == REF_SPEC_IEEE || f->spec == REF_SPEC_E4M3;
}

static uint32_t mk_inf(const ref_fmt *f, int neg)
{
    uint32_t w = ((1u << f->ebits) - 1u) << f->mbits;
    return (w << f->ignore_low) | (neg ? fmt_sign_bit(f) : 0u);
}

static uint32_t mk_nan(rng *r, const ref_fmt *f)
{
    uint32_t w = ((1u << f->ebits) - 1u) << f->mbits;
    uint32_t mask = (1u << f->mbits) - 1u;
    w |= f->spec == REF_SPEC_E4M3 ? mask : (((uint32_t)rnext(r) & mask) | 1u);
    return (w << f->ignore_low) | (rpct(r, 50) ? fmt_sign_bit(f) : 0u);
}

static int random_sign(rng *r)
{
    return rpct(r, 50);
}

/* A random pattern of f that is finite (specials re-drawn, except rarely). */
static uint32_t mk_random_bits(rng *r, const ref_fmt *f)
{
    uint32_t mask = f->width >= 32 ? 0xffffffffu : (1u << f->width) - 1u;
    for (;;) {
        uint32_t w = (uint32_t)rnext(r) & mask;
        ref_num x;
        if (ref_decode(f->id, w, &x) == 0 && (x.cls == REF_FIN || rpct(r, 3)))
            return w;
    }
}

/* a*b with binade(a) + binade(b) near target t (each factor's binade kept inside
 * its format), random signs, fraction style fs. */
static void mk_product(rng *r, const ref_fmt *f, int t, frac_style fs, uint32_t *a, uint32_t *b)
{
    int lo = fmt_lo(f), hi = f->emax;
    int ea_lo = t - hi > lo ? t - hi : lo, ea_hi = t - lo < hi ? t - lo : hi;
    int ea = ea_lo <= ea_hi ? rrange(r, ea_lo, ea_hi) : (t > 0 ? hi : lo);
    int eb = clampi(t - ea, lo, hi);
    *a = mk_float(r, f, random_sign(r), ea, fs);
    *b = mk_float(r, f, random_sign(r), eb, fs);
}

static int prod_lo(const ref_fmt *f)
{
    return 2 * fmt_lo(f);
}

static int prod_hi(const ref_fmt *f)
{
    return 2 * f->emax + 1;
}

static frac_style random_style(rng *r)
{
    static const frac_style s[] = {FR_RANDOM, FR_RANDOM, FR_RANDOM, FR_ZERO, FR_ONES, FR_FEW};
    return s[rbelow(r, sizeof s / sizeof s[0])];
}

/* ------------------------------------------------------------- scales */

static uint32_t mk_scale(rng *r, const row_ctx *rc, scenario sc)
{
    if (rc->rp.scale == TC_FMT_UE8M0) {
        if (sc == SC_SPECIAL && rpct(r, 15))
            return 0xff;
        switch (sc) {
        case SC_TAME: return (uint32_t)rrange(r, 123, 131);
        case SC_SPREAD: return (uint32_t)rrange(r, 0, 254);
        case SC_OVERFLOW: return (uint32_t)rrange(r, 160, 254);
        case SC_UNDERFLOW: return (uint32_t)rrange(r, 0, 70);
        default: return (uint32_t)rrange(r, 112, 142);
        }
    }
    /* ue4m3: an e4m3 magnitude; bit 7 is ignored, so set it at random */
    const ref_fmt *e4 = ref_fmt_get(TC_FMT_E4M3);
    uint32_t w;
    if (sc == SC_SPECIAL && rpct(r, 15))
        w = 0x7f;
    else if (rpct(r, 4))
        w = 0x00;
    else if (sc == SC_SPREAD || sc == SC_UNDERFLOW || sc == SC_OVERFLOW)
        w = mk_float(r, e4, 0, sc == SC_UNDERFLOW ? rrange(r, -9, -3)
                               : sc == SC_OVERFLOW ? rrange(r, 5, 8) : rrange(r, -9, 8),
                     random_style(r));
    else
        w = mk_float(r, e4, 0, rrange(r, -2, 2), random_style(r));
    return w | (rpct(r, 50) ? 0x80u : 0u);
}

/* ------------------------------------------------------------- k */

static size_t pick_k(rng *r, const row_ctx *rc)
{
    if (rc->scaled) {
        unsigned sb = rc->rp.scale_block, steps = 3 * rc->block / sb;
        return (size_t)sb * (size_t)rrange(r, 1, (int)steps);
    }
    unsigned L = rc->block;
    switch (rbelow(r, 10)) {
    case 0: case 1: case 2: return (size_t)rrange(r, 1, (int)L);
    case 3: case 4: case 5: return (size_t)L * (size_t)rrange(r, 1, 3);
    default: return (size_t)rrange(r, 1, 3 * (int)L);
    }
}

/* ------------------------------------------------------------- c */

/* c in the output format, with binade near e (or zero now and then). */
static uint32_t mk_c(rng *r, const row_ctx *rc, int e, unsigned zero_pct)
{
    if (rpct(r, zero_pct))
        return mk_zero(rc->fout, random_sign(r));
    return mk_float(r, rc->fout, random_sign(r), e, random_style(r));
}

/* ------------------------------------------------------------- scenarios */

static void fill_products(rng *r, const row_ctx *rc, test_case *t, int tlo, int thi,
                          unsigned zero_pct)
{
    for (size_t i = 0; i < t->k; i++) {
        if (rpct(r, zero_pct)) {
            t->a[i] = mk_zero(rc->fin, random_sign(r));
            t->b[i] = mk_float(r, rc->fin, random_sign(r), rrange(r, -2, 2), FR_RANDOM);
            if (rpct(r, 50)) {
                uint32_t x = t->a[i];
                t->a[i] = t->b[i];
                t->b[i] = x;
            }
            continue;
        }
        mk_product(r, rc->fin, rrange(r, tlo, thi), random_style(r), &t->a[i], &t->b[i]);
    }
}

/* Shuffle the products inside each block of `blk` (pairs stay in one step). */
static void shuffle_blocks(rng *r, test_case *t, size_t blk)
{
    for (size_t s = 0; s < t->k; s += blk) {
        size_t n = t->k - s < blk ? t->k - s : blk;
        for (size_t i = n; i > 1; i--) {
            size_t j = rbelow(r, (uint32_t)i);
            uint32_t x = t->a[s + i - 1], y = t->b[s + i - 1];
            t->a[s + i - 1] = t->a[s + j];
            t->b[s + i - 1] = t->b[s + j];
            t->a[s + j] = x;
            t->b[s + j] = y;
        }
    }
}

int ref_run(ref_ctx *w, const row_ctx *rc, const test_case *t, uint32_t *d)
{
    if (rc->scaled)
        return ref_dot_scaled(w, &rc->rp, t->k, t->a, t->b, t->sa, t->sb, t->c, d);
    return ref_dot(w, &rc->rp, t->k, t->a, t->b, t->c, d);
}

static int out_is_finite(const row_ctx *rc, uint32_t bits)
{
    ref_num x;
    return ref_decode(rc->fout->id, bits, &x) == 0 && x.cls == REF_FIN;
}

/* c = -(the products' own result, c = 0): the exact sum is then zero or a small
 * residue (from the rounding of that result, or from chaining) - the place where
 * truncation, the +0 rule and the alignment exponent of a small c all show. */
static void c_cancels_products(ref_ctx *w, const row_ctx *rc, test_case *t)
{
    uint32_t d = 0;
    t->c = 0;
    if (ref_run(w, rc, t, &d) == 0 && out_is_finite(rc, d))
        t->c = d ^ fmt_sign_bit(rc->fout);
}

static void gen_cancel(rng *r, ref_ctx *w, const row_ctx *rc, test_case *t)
{
    int tl = prod_lo(rc->fin), th = prod_hi(rc->fin);
    int centre = rpct(r, 50) ? rrange(r, -4, 4) : rrange(r, tl, th);
    fill_products(r, rc, t, centre - 6, centre + 6, 5);
    /* every odd position cancels the even one before it */
    for (size_t i = 1; i < t->k; i += 2) {
        t->a[i] = t->a[i - 1] ^ fmt_sign_bit(rc->fin);
        t->b[i] = t->b[i - 1];
    }
    /* now and then, nudge one product by an ulp so a tiny residue remains */
    if (t->k > 1 && rpct(r, 40)) {
        size_t i = rbelow(r, (uint32_t)t->k);
        uint32_t lsb = (uint32_t)1u << rc->fin->ignore_low;
        uint32_t x = t->a[i] ^ lsb;
        ref_num v;
        if (ref_decode(rc->fin->id, x, &v) == 0 && v.cls == REF_FIN)
            t->a[i] = x;
    }
    size_t blk = rc->scaled && rc->rp.kind == TC_KIND_MXF4 ? 16 : rc->block;
    shuffle_blocks(r, t, blk);
    unsigned how = rbelow(r, 10);
    if (how < 4) {
        c_cancels_products(w, rc, t);
    } else if (how < 7) {
        t->c = mk_zero(rc->fout, random_sign(r));
    } else {
        t->c = mk_c(r, rc, centre + rrange(r, -3, 3), 0);
    }
}

static void gen_carry(rng *r, const row_ctx *rc, test_case *t)
{
    int neg = random_sign(r);
    int tl = prod_lo(rc->fin), th = prod_hi(rc->fin);
    int tgt = rpct(r, 60) ? rrange(r, -3, 3) : rrange(r, tl, th - 1);
    for (size_t i = 0; i < t->k; i++) {
        mk_product(r, rc->fin, tgt - rrange(r, 0, 2), FR_ONES, &t->a[i], &t->b[i]);
        /* both factors positive, then the sign on a: every product has sign neg */
        t->a[i] &= ~fmt_sign_bit(rc->fin);
        t->b[i] &= ~fmt_sign_bit(rc->fin);
        if (neg)
            t->a[i] |= fmt_sign_bit(rc->fin);
    }
    if (rpct(r, 70)) {
        t->c = mk_float(r, rc->fout, neg, tgt + rrange(r, 0, 4), FR_ONES);
    } else {
        t->c = mk_zero(rc->fout, random_sign(r));
    }
}

static void gen_overflow(rng *r, const row_ctx *rc, test_case *t)
{
    int oe = rc->fout->emax;
    int tgt = clampi(oe - rrange(r, 0, 3), prod_lo(rc->fin), prod_hi(rc->fin));
    int neg = random_sign(r);
    fill_products(r, rc, t, tgt - 3, tgt, 10);
    for (size_t i = 0; i < t->k; i++) { /* mostly one sign, so the sum grows */
        if (rpct(r, 85)) {
            t->a[i] &= ~fmt_sign_bit(rc->fin);
            t->b[i] &= ~fmt_sign_bit(rc->fin);
            if (neg)
                t->a[i] |= fmt_sign_bit(rc->fin);
        }
    }
    t->c = mk_float(r, rc->fout, rpct(r, 80) ? neg : !neg, oe - rrange(r, 0, 2),
                    rpct(r, 50) ? FR_ONES : FR_RANDOM);
}

static void gen_underflow(rng *r, ref_ctx *w, const row_ctx *rc, test_case *t)
{
    /* target the output's subnormal binades and just above */
    int olo = rc->fout->emin - (int)rc->out_p;
    int tgt = clampi(rrange(r, olo - 4, rc->fout->emin + 1), prod_lo(rc->fin), prod_hi(rc->fin));
    fill_products(r, rc, t, tgt - 4, tgt + 1, 15);
    unsigned how = rbelow(r, 4);
    if (how == 0)
        t->c = mk_zero(rc->fout, random_sign(r));
    else if (how == 1)
        c_cancels_products(w, rc, t);
    else
        t->c = mk_c(r, rc, rrange(r, olo, rc->fout->emin + 1), 0);
}

static void gen_tie(rng *r, const row_ctx *rc, test_case *t)
{
    /* c in a binade ec whose half ulp 2^(ec - p - 1) a product can reach */
    int p = (int)rc->out_p;
    int plo = prod_lo(rc->fin), phi = prod_hi(rc->fin);
    int ec_lo = clampi(plo + p + 1, fmt_lo(rc->fout), rc->fout->emax);
    int ec_hi = clampi(phi + p + 1, fmt_lo(rc->fout), rc->fout->emax);
    int ec = rrange(r, ec_lo, ec_hi);
    if (rpct(r, 30) && ec_lo <= 2 && ec_hi >= -2)
        ec = rrange(r, clampi(-2, ec_lo, ec_hi), clampi(2, ec_lo, ec_hi));
    else if (rpct(r, 20)) /* a subnormal or smallest-normal c */
        ec = rrange(r, clampi(fmt_lo(rc->fout), ec_lo, ec_hi),
                    clampi(rc->fout->emin, ec_lo, ec_hi));
    for (size_t i = 0; i < t->k; i++) {
        t->a[i] = mk_zero(rc->fin, random_sign(r));
        t->b[i] = mk_zero(rc->fin, random_sign(r));
    }
    t->c = mk_float(r, rc->fout, random_sign(r), ec, rpct(r, 30) ? FR_ZERO : FR_RANDOM);
    /* the half-ulp product (an exact power of two), the tiny one after it */
    int half = (ec < rc->fout->emin ? rc->fout->emin : ec) - p - 1; /* half an ulp of c */
    size_t i1 = rbelow(r, (uint32_t)t->k);
    mk_product(r, rc->fin, half, FR_ZERO, &t->a[i1], &t->b[i1]);
    if (t->k > 1) {
        size_t i2 = rbelow(r, (uint32_t)t->k);
        if (i2 == i1)
            i2 = (i1 + 1) % t->k;
        mk_product(r, rc->fin, half - rrange(r, 1, 32), rpct(r, 50) ? FR_ZERO : FR_RANDOM,
                   &t->a[i2], &t->b[i2]);
    }
    if (t->k > 2 && rpct(r, 30)) { /* a third term that moves the tie by an ulp */
        size_t i3 = rbelow(r, (uint32_t)t->k);
        mk_product(r, rc->fin, half + 1, FR_ZERO, &t->a[i3], &t->b[i3]);
    }
}

static void gen_special(rng *r, const row_ctx *rc, test_case *t)
{
    fill_products(r, rc, t, -4, 4, 15);
    t->c = mk_c(r, rc, rrange(r, -4, 4), 20);
    if (rc->scaled && rpct(r, 30)) { /* a NaN scale over products that are all zero */
        size_t sb = rc->rp.scale_block, g = rbelow(r, (uint32_t)(t->k / sb));
        for (size_t i = g * sb; i < (g + 1) * sb; i++)
            t->a[i] = mk_zero(rc->fin, random_sign(r));
        *(rpct(r, 50) ? &t->sa[g] : &t->sb[g]) = rc->rp.scale == TC_FMT_UE8M0 ? 0xffu : 0x7fu;
        return;
    }
    int n = rrange(r, 1, 3);
    for (int j = 0; j < n; j++) {
        size_t i = rbelow(r, (uint32_t)t->k);
        switch (rbelow(r, 6)) {
        case 0: /* an Inf operand */
            if (has_inf(rc->fin))
                t->a[i] = mk_inf(rc->fin, random_sign(r));
            break;
        case 1: /* Inf * 0 */
            if (has_inf(rc->fin)) {
                t->a[i] = mk_inf(rc->fin, random_sign(r));
                t->b[i] = mk_zero(rc->fin, random_sign(r));
            }
            break;
        case 2: /* a NaN operand */
            if (has_nan(rc->fin))
                *(rpct(r, 50) ? &t->a[i] : &t->b[i]) = mk_nan(r, rc->fin);
            break;
        case 3: /* an Inf c */
            t->c = mk_inf(rc->fout, random_sign(r));
            break;
        case 4: /* a NaN c */
            t->c = mk_nan(r, rc->fout);
            break;
        default: /* two Infs (maybe opposite signs) */
            if (has_inf(rc->fin)) {
                size_t i2 = rbelow(r, (uint32_t)t->k);
                t->a[i] = mk_inf(rc->fin, random_sign(r));
                t->a[i2] = mk_inf(rc->fin, random_sign(r));
            }
            break;
        }
    }
}

static void gen_zeros(rng *r, const row_ctx *rc, test_case *t)
{
    fill_products(r, rc, t, -4, 4, 90);
    if (rpct(r, 50)) { /* one product below half the smallest subnormal of the output */
        size_t i = rbelow(r, (uint32_t)t->k);
        int tiny = fmt_lo(rc->fout) - rrange(r, 2, 8);
        mk_product(r, rc->fin, clampi(tiny, prod_lo(rc->fin), prod_hi(rc->fin)), random_style(r),
                   &t->a[i], &t->b[i]);
    }
    unsigned how = rbelow(r, 3);
    t->c = how < 2 ? mk_zero(rc->fout, random_sign(r)) : mk_c(r, rc, rrange(r, -10, 10), 0);
}

static void gen_int(rng *r, const row_ctx *rc, test_case *t)
{
    /* a and b each in its own format (int8 x uint8); b1: top is 1 */
    uint32_t mask = (1u << rc->fin->width) - 1u, mask_b = (1u << rc->fin_b->width) - 1u;
    uint32_t top = rc->fin->is_signed ? 1u << (rc->fin->width - 1) : mask; /* min / max */
    uint32_t top_b = rc->fin_b->is_signed ? 1u << (rc->fin_b->width - 1) : mask_b;
    /* one case in eight all-extreme (b1: all ones) and one all zeros, the rest mixed */
    unsigned whole = rbelow(r, 8);
    for (size_t i = 0; i < t->k; i++) {
        switch (whole == 0 ? 0 : whole == 1 ? 4 : rbelow(r, 4)) {
        case 0: t->a[i] = top; t->b[i] = top_b; break;
        case 1: t->a[i] = top; t->b[i] = (uint32_t)rnext(r) & mask_b; break;
        case 4: t->a[i] = 0; t->b[i] = 0; break;
        default:
            t->a[i] = (uint32_t)rnext(r) & mask;
            t->b[i] = (uint32_t)rnext(r) & mask_b;
        }
    }
    switch (rbelow(r, 4)) {
    case 0: t->c = 0x7fffffffu - rbelow(r, 1u << 20); break;
    case 1: t->c = 0x80000000u + rbelow(r, 1u << 20); break;
    default: t->c = (uint32_t)rnext(r);
    }
}

static scenario pick_scenario(rng *r)
{
    unsigned total = 0;
    for (int i = 0; i < SC_COUNT; i++)
        total += SC_WEIGHT[i];
    unsigned x = rbelow(r, total);
    for (int i = 0; i < SC_COUNT; i++) {
        if (x < SC_WEIGHT[i])
            return (scenario)i;
        x -= SC_WEIGHT[i];
    }
    return SC_RANDOM;
}

/* The operands and c of scenario t->sc, t->k terms, a and b both in rc->fin. */
static void gen_scenario(rng *r, ref_ctx *w, const row_ctx *rc, test_case *t)
{
    if (rc->scaled) /* scales first: the cancel scenario runs the reference */
        for (size_t g = 0; g < t->k / rc->rp.scale_block; g++) {
            t->sa[g] = mk_scale(r, rc, t->sc);
            t->sb[g] = mk_scale(r, rc, t->sc);
        }
    switch (t->sc) {
    case SC_RANDOM:
        for (size_t i = 0; i < t->k; i++) {
            t->a[i] = mk_random_bits(r, rc->fin);
            t->b[i] = mk_random_bits(r, rc->fin);
        }
        t->c = mk_random_bits(r, rc->fout);
        break;
    case SC_TAME:
        fill_products(r, rc, t, -3, 3, 10);
        t->c = mk_c(r, rc, rrange(r, -3, 5), 10);
        break;
    case SC_SPREAD:
        fill_products(r, rc, t, prod_lo(rc->fin), prod_hi(rc->fin), 10);
        t->c = mk_c(r, rc, rrange(r, fmt_lo(rc->fout), rc->fout->emax), 15);
        break;
    case SC_CANCEL: gen_cancel(r, w, rc, t); break;
    case SC_CARRY: gen_carry(r, rc, t); break;
    case SC_OVERFLOW: gen_overflow(r, rc, t); break;
    case SC_UNDERFLOW: gen_underflow(r, w, rc, t); break;
    case SC_TIE: gen_tie(r, rc, t); break;
    case SC_SPECIAL: gen_special(r, rc, t); break;
    default: gen_zeros(r, rc, t); break;
    }
}

void gen_case(rng *r, ref_ctx *w, const row_ctx *rc, test_case *t)
{
    t->k = pick_k(r, rc);
    if (is_exact_kind(rc->rp.kind)) {
        t->sc = SC_RANDOM;
        gen_int(r, rc, t);
        return;
    }
    t->sc = pick_scenario(r);
    gen_scenario(r, w, rc, t);
    if (rc->fin_b == rc->fin)
        return;
    /* A mixed pair: b is drawn again by the same scenario in its own format (a row of
     * that format both sides, for the scenarios that run the reference), so that each
     * operand has the scenario's values - specials, zeros, extreme exponents - of its
     * format; the pairing of a with b that some scenarios arrange (cancelling products,
     * ties) is lost, the random and special ones keep their meaning. */
    row_ctx rb = *rc;
    rb.fin = rc->fin_b;
    rb.rp.in = rc->rp.in_b;
    test_case u;
    u.k = t->k;
    u.sc = t->sc;
    gen_scenario(r, w, &rb, &u);
    memcpy(t->b, u.b, t->k * sizeof t->b[0]);
}

