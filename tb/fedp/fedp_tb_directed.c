/* fedp_tb_directed.c - the FEDP testbench's directed cases per profile: pairs of corner
 * values, truncation at the F boundary, the Emin_align floor, overflow, the top of the
 * adder, exact cancellation and unsupported format selects. Every a is of the profile's
 * format in, every b of in_b (a mixed pair's own formats). */
#include <string.h>
#include "fedp_tb.h"

/* ------------------------------------------------------------- directed cases */

/* Every pair of corner values in the first product, against every corner c. */
static void directed_corners(tb *t, const tc_profile *p)
{
    uint32_t ci[TK_MAX_CORNERS], cb[TK_MAX_CORNERS], co[TK_MAX_CORNERS];
    size_t ni = tk_corners(p->in, ci), nb = tk_corners(p->in_b, cb), no = tk_corners(p->out, co);
    op o;
    for (size_t i = 0; i < ni; i++)
        for (size_t j = 0; j < nb; j++)
            for (size_t k = 0; k < no; k++) {
                clear_op(&o, p, "corner pair");
                o.a[0] = ci[i];
                o.b[0] = cb[j];
                o.c = co[k];
                issue(t, &o);
            }
    /* two corner products that may meet as Inf - Inf, with a corner c */
    for (size_t i = 0; i < ni && i < nb; i++)
        for (size_t j = 0; j < ni && j < nb; j++)
            for (size_t k = 0; k < no; k += 3) {
                clear_op(&o, p, "corner products");
                o.a[0] = ci[i];
                o.b[0] = cb[i];
                o.a[p->L - 1] = ci[j];
                o.b[p->L - 1] = tk_negate(p->in_b, cb[j]);
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
    const tc_fmt_info *fi = tc_fmt_get(p->in), *fb = tc_fmt_get(p->in_b), *fo = tc_fmt_get(p->out);
    int emin_in = fi->emin - (int)fi->man_bits, emin_b = fb->emin - (int)fb->man_bits;
    int emin_out = fo->emin - (int)fo->man_bits;
    op o;
    for (int big = emin_in + emin_b; big <= fi->emax + fb->emax; big++)
        for (int d = (int)p->F - 4; d <= (int)p->F + 3; d++)
            for (int role = 0; role < 4; role++) {
                int small = big - d;
                int prod_e = (role & 1) ? small : big, c_e = (role & 1) ? big : small;
                uint32_t c, x, y;
                int ex = prod_e / 2, ey = prod_e - ex;
                if (c_e < emin_out || !tk_power_of_two(p->out, c_e, &c) ||
                    !tk_power_of_two(p->in, ex, &x) || !tk_power_of_two(p->in_b, ey, &y)) {
                    /* split the product exponent unevenly when halves do not fit */
                    ex = prod_e < 0 ? emin_in : fi->emax;
                    ey = prod_e - ex;
                    if (!tk_power_of_two(p->out, c_e, &c) || !tk_power_of_two(p->in, ex, &x) ||
                        !tk_power_of_two(p->in_b, ey, &y))
                        continue;
                }
                clear_op(&o, p, "truncation");
                o.c = (role & 2) ? tk_negate(p->out, c) : c;
                if (role & 1) { /* small products, all L of them */
                    for (size_t i = 0; i < p->L; i++) {
                        o.a[i] = x;
                        o.b[i] = (role & 2) ? y : tk_negate(p->in_b, y);
                    }
                } else {
                    o.a[0] = x;
                    o.b[0] = y;
                }
                issue(t, &o);
            }
}

/* Splits 2^e into a product of two powers of two, x of p's format in (a), y of in_b
 * (b); 0 if none exists. */
static int split_power(const tc_profile *p, int e, uint32_t *x, uint32_t *y)
{
    const tc_fmt_info *fi = tc_fmt_get(p->in), *fb = tc_fmt_get(p->in_b);
    int span = fi->emax - (fi->emin - (int)fi->man_bits) + fb->emax -
               (fb->emin - (int)fb->man_bits);
    for (int ex = e / 2, k = 0; k < 2 * span + 2; k++) {
        int cand = ex + (k % 2 ? (k + 1) / 2 : -(k / 2)); /* e/2, e/2-1, e/2+1, ... */
        if (tk_power_of_two(p->in, cand, x) && tk_power_of_two(p->in_b, e - cand, y))
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
                o.c = (v & 8) ? tk_negate(p->out, 0) : 0;
                if (!split_power(p, ev, &o.a[0], &o.b[0]) ||
                    !split_power(p, s, &o.a[1], &o.b[1]))
                    continue;
                if (v & 1)
                    o.b[1] = tk_negate(p->in_b, o.b[1]);
                if ((v & 2) && !split_power(p, ulp - 1, &o.a[2], &o.b[2]))
                    continue;
                if ((v & 4) && !split_power(p, ulp, &o.a[3], &o.b[3]))
                    continue;
                issue(t, &o);
            }
}

/* The sign of a result that rounds to zero (docs/contract.md step 7): one product of
 * either sign below half the output's smallest subnormal (or at it: a tie, to even 0),
 * c = +-0. IEEE keeps the sum's sign; Hopper's fp16 results are +0 (zero_plus). */
static void directed_underflow_sign(tb *t, const tc_profile *p)
{
    const tc_fmt_info *fo = tc_fmt_get(p->out);
    int tiny = fo->emin - (int)p->out_man_bits; /* the smallest subnormal's exponent */
    op o;
    for (int e = tiny - 4; e <= tiny - 1; e++)
        for (int v = 0; v < 4; v++) {
            clear_op(&o, p, "underflow sign");
            o.c = (v & 2) ? tk_negate(p->out, 0) : 0;
            if (!split_power(p, e, &o.a[0], &o.b[0]))
                continue;
            if (v & 1)
                o.b[0] = tk_negate(p->in_b, o.b[0]);
            issue(t, &o);
        }
}

/* The largest finite value of a format (S.1111.110 where all ones is NaN). */
static uint32_t largest(const tc_fmt_info *fi)
{
    uint32_t m = tk_mask32(fi->man_bits);
    return tk_pack(fi, 0, tk_max_finite_field(fi), fi->nan_style == 2 ? m - 1u : m, 0);
}

/* Sums near the largest finite output: every product the largest input squared, or c
 * the largest output plus products around half its ulp (Inf or not, by rounding). */
static void directed_overflow(tb *t, const tc_profile *p)
{
    const tc_fmt_info *fi = tc_fmt_get(p->in), *fb = tc_fmt_get(p->in_b), *fo = tc_fmt_get(p->out);
    uint32_t big = largest(fi), big_b = largest(fb);
    uint32_t cmax = tk_pack(fo, 0, tk_max_finite_field(fo), tk_mask32(fo->man_bits), 0);
    op o;
    for (int s = 0; s < 2; s++) {
        clear_op(&o, p, "overflow");
        for (size_t i = 0; i < p->L; i++) {
            o.a[i] = big;
            o.b[i] = s ? tk_negate(p->in_b, big_b) : big_b;
        }
        issue(t, &o);
        o.c = s ? tk_negate(p->out, cmax) : cmax;
        issue(t, &o);
    }
    /* c = largest finite, plus 2^e for e around the half ulp of the output */
    int half_ulp = fo->emax - (int)(p->out == TC_FMT_FP32 ? p->out_man_bits : fo->man_bits) - 1;
    for (int e = half_ulp - 3; e <= half_ulp + 2; e++)
        for (int k = 1; k <= 3 && (size_t)k <= p->L; k++) {
            uint32_t x, y;
            int ex = e / 2, ey = e - ex;
            if (!tk_power_of_two(p->in, ex, &x) || !tk_power_of_two(p->in_b, ey, &y)) {
                ex = e < 0 ? fi->emin : fi->emax;
                ey = e - ex;
                if (!tk_power_of_two(p->in, ex, &x) || !tk_power_of_two(p->in_b, ey, &y))
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
    const tc_fmt_info *fi = tc_fmt_get(p->in), *fb = tc_fmt_get(p->in_b), *fo = tc_fmt_get(p->out);
    uint32_t x = tk_pack(fi, 0, (uint32_t)fi->bias, tk_mask32(fi->man_bits), 0);
    uint32_t y = tk_pack(fb, 0, (uint32_t)fb->bias, tk_mask32(fb->man_bits), 0);
    uint32_t c = tk_pack(fo, 0, (uint32_t)fo->bias, tk_mask32(fo->man_bits), 0);
    op o;
    for (int v = 0; v < 4; v++) {
        clear_op(&o, p, "adder top");
        for (size_t i = 0; i < p->L; i++) {
            o.a[i] = (v & 1) ? tk_negate(p->in, x) : x;
            o.b[i] = y;
        }
        o.c = (v & 2) ? ((v & 1) ? tk_negate(p->out, c) : c) : 0;
        issue(t, &o);
    }
}

/* Exact cancellation: pairs of equal and opposite products, with c zero, -0, tiny or
 * far below E (truncated away: the exact sum is then zero, +0). */
static void directed_cancellation(tb *t, const tc_profile *p)
{
    const tc_fmt_info *fo = tc_fmt_get(p->out);
    uint32_t cs[6] = {0, tk_negate(p->out, 0), tk_pack(fo, 0, 0, 1, 0), tk_pack(fo, 1, 0, 1, 0),
                      tk_pack(fo, 0, 1, 0, 0), 0};
    tk_power_of_two(p->out, -(int)p->F - 3, &cs[5]);
    op o;
    for (int rep = 0; rep < 200; rep++)
        for (size_t k = 0; k < 6; k++) {
            clear_op(&o, p, "cancellation");
            const tc_fmt_info *fi = tc_fmt_get(p->in), *fb = tc_fmt_get(p->in_b);
            for (size_t i = 0; i + 1 < p->L; i += 2) {
                o.a[i] = tk_finite(&t->r, fi, fi->bias - 4, fi->bias + 4);
                o.b[i] = tk_finite(&t->r, fb, fb->bias - 4, fb->bias + 4);
                o.a[i + 1] = tk_negate(p->in, o.a[i]);
                o.b[i + 1] = o.b[i];
            }
            o.c = cs[k];
            issue(t, &o);
        }
}

/* One operation of random elements whose a and b select (b_only: b's alone, a's in the
 * set) format f, outside the instance's set: the result is the canonical NaN. */
static void unsupported_in(tb *t, const tc_profile *p, unsigned f, int b_only)
{
    op o;
    clear_op(&o, p, b_only ? "unsupported b format" : "unsupported input format");
    for (size_t i = 0; i < p->L; i++)
        o.a[i] = o.b[i] = tk_bits(&t->r, t->q->elem_bits);
    if (b_only)
        o.in_b = f;
    else
        o.in = f;
    o.valid = 1;
    o.index = t->issued;
    o.expect = tc_canonical_nan(p->out);
    cycle(t, &o);
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
        unsupported_in(t, p, f, 0);
        if (t->q->in_pairs)
            unsupported_in(t, p, f, 1);
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

void directed(tb *t, const tc_profile *p)
{
    directed_corners(t, p);
    directed_truncation(t, p);
    directed_overflow(t, p);
    directed_adder_top(t, p);
    directed_cancellation(t, p);
    directed_floor(t, p);
    directed_underflow_sign(t, p);
    directed_unsupported(t, p);
}
