/* fedp.c - one FEDP step (docs/contract.md steps 1-7) and the dot products built on it:
 * k > L chains, the fp16 emulation of fp8, integer kinds and the block-scaled kinds.
 *
 * The step is written in the RTL's stage order (STYLE.md): UNPACK (fields, special
 * values), MUL (exact integer products, not renormalised), ALIGN (max exponent E,
 * Emin_align floor, truncation to F fraction bits in sign-magnitude), ADD (exact
 * signed sum), NORM/ROUND (round_pack, the model's only rounding code).
 *
 * Every exact term is sig * 2^(exp - fb): an integer significand `sig` with `fb`
 * fraction bits. A product of two formats with m fraction bits has fb = 2m and a
 * significand in [0, 4) - docs/contract.md step 2 does not renormalise it.
 */
#include <stdlib.h>
#include <string.h>
#include "tcsim.h"
#include "fmt_table.h"
#include "round.h"

/* Special values met so far in a step (docs/contract.md "Special values"). */
typedef struct special_acc {
    int nan;   /* a NaN input or Inf * 0 */
    int pinf;  /* an Inf term of sign + */
    int ninf;  /* an Inf term of sign - */
} special_acc;

/* Folds one Inf term into the accumulator. */
static void special_inf(special_acc *s, int sign)
{
    if (sign)
        s->ninf = 1;
    else
        s->pinf = 1;
}

/* The step's special result, if any: canonical NaN for NaN, Inf*0 or Inf-Inf, else
 * Inf of the Inf terms' sign. Returns 1 and sets *d when the result is special. */
static int special_result(const special_acc *s, tc_fmt out, uint32_t *d, int *code)
{
    if (s->nan || (s->pinf && s->ninf)) {
        *d = tc_canonical_nan(out);
        *code = 1;
        return 1;
    }
    if (s->pinf || s->ninf) {
        *d = fmt_inf(out, s->ninf);
        *code = s->ninf ? 3 : 2;
        return 1;
    }
    return 0;
}

/* Truncates |sig * 2^(exp - fb)| to F fraction bits relative to 2^E (step 4), for a
 * term with exp <= E. Branch-free, since exponents are data: the significand is first
 * moved up by H = max(F - fb, 0) (it stays below 2^63: sig < 2^24 and H <= 35 for every
 * term the model forms), so the remaining shift is a right shift, clamped at 63. */
static inline uint64_t align_trunc(uint64_t sig, int exp, int fb, int E, int F)
{
    const int H = F > fb ? F - fb : 0;
    int sh = (E - exp) + fb + H - F;
    /* sh < 0 only for a zero term whose exponent exceeds E (the fast paths keep zero
     * products as terms): any shift gives 0 then, but it must be a defined one */
    sh = sh < 0 ? 0 : sh > 63 ? 63 : sh;
    return (sig << H) >> sh;
}

/* The accumulator input c of a float step: unpacked, or folded into the specials. */
typedef struct c_term {
    int sign, exp, fb, nonzero;
    uint64_t sig;
} c_term;

static void unpack_c(const tc_fmt_info *fo, uint32_t c, c_term *ct, special_acc *sp)
{
    memset(ct, 0, sizeof *ct);
    ct->fb = (int)fo->man_bits;
    tc_value_kind k = fmt_unpack(fo, c, &ct->sign, &ct->sig, &ct->exp);
    if (k == TC_VAL_NAN)
        sp->nan = 1;
    else if (k == TC_VAL_INF)
        special_inf(sp, ct->sign);
    else
        ct->nonzero = ct->sig != 0;
}

/* One FEDP step over n <= L products. exp_offset is added to every product's
 * exponent (the scale exponents of mxf8f6f4; 0 otherwise). Widths are checked by
 * the callers. */
static inline __attribute__((always_inline)) uint32_t
fedp_core_fmt(const tc_profile *p, const tc_fmt_info *fi, const tc_fmt_info *fo, size_t n,
              const uint32_t *a, const uint32_t *b, uint32_t c, int exp_offset,
              tc_fedp_trace *tr)
{
    const int F = (int)p->F, pfb = 2 * (int)fi->man_bits;
    special_acc sp = {0, 0, 0};
    uint64_t psig[TC_MAX_L];
    int pexp[TC_MAX_L], psign[TC_MAX_L];
    size_t pidx[TC_MAX_L]; /* term position of each non-zero product, for the trace */
    size_t np = 0;
    int E = 0, have_e = 0;

    /* ---- UNPACK + MUL: exact products; zero products take no part in E */
    for (size_t i = 0; i < n; i++) {
        int sa, sb, ea, eb;
        uint64_t ma, mb;
        tc_value_kind ka = fmt_unpack(fi, a[i], &sa, &ma, &ea);
        tc_value_kind kb = fmt_unpack(fi, b[i], &sb, &mb, &eb);
        if (ka != TC_VAL_FINITE || kb != TC_VAL_FINITE) {
            if (ka == TC_VAL_NAN || kb == TC_VAL_NAN ||
                (ka == TC_VAL_INF && kb == TC_VAL_FINITE && mb == 0) ||
                (kb == TC_VAL_INF && ka == TC_VAL_FINITE && ma == 0))
                sp.nan = 1; /* NaN input or Inf * 0 */
            else
                special_inf(&sp, sa ^ sb);
            continue;
        }
        if (ma == 0 || mb == 0) {
            if (tr)
                tr->prod_zero[i] = 1;
            continue;
        }
        psig[np] = ma * mb;
        pexp[np] = ea + eb + exp_offset;
        psign[np] = sa ^ sb;
        if (!have_e || pexp[np] > E)
            E = pexp[np];
        have_e = 1;
        pidx[np] = i;
        if (tr) {
            tr->prod_sig[i] = psig[np];
            tr->prod_exp[i] = pexp[np];
            tr->prod_sign[i] = psign[np];
        }
        np++;
    }
    c_term ct;
    unpack_c(fo, c, &ct, &sp);
    if (tr) {
        tr->n_terms = (unsigned)n + 1;
        tr->prod_sig[TC_MAX_L] = ct.sig;
        tr->prod_exp[TC_MAX_L] = ct.exp;
        tr->prod_sign[TC_MAX_L] = ct.sign;
        tr->prod_zero[TC_MAX_L] = !ct.nonzero;
    }

    uint32_t d;
    int code = 0;
    if (special_result(&sp, p->out, &d, &code)) {
        if (tr) {
            tr->special = code;
            tr->result = d;
        }
        return d;
    }

    /* ---- ALIGN: E over the non-zero terms, floored at Emin_align */
    if (ct.nonzero && (!have_e || ct.exp > E))
        E = ct.exp;
    have_e |= ct.nonzero;
    if (!have_e) { /* every term is zero: the exact sum is zero, +0 (step 7) */
        d = fmt_zero(p->out, 0);
        if (tr) {
            tr->special = 0;
            tr->add_sum = 0;
            tr->result = d;
        }
        return d;
    }
    if (E < p->emin_align)
        E = p->emin_align;

    /* ---- ADD: exact signed sum of the truncated terms */
    int64_t sum = 0;
    for (size_t i = 0; i < np; i++) {
        int64_t t = (int64_t)align_trunc(psig[i], pexp[i], pfb, E, F);
        sum += psign[i] ? -t : t;
        if (tr)
            tr->align_t[pidx[i]] = psign[i] ? -t : t;
    }
    if (ct.nonzero) {
        int64_t t = (int64_t)align_trunc(ct.sig, ct.exp, ct.fb, E, F);
        sum += ct.sign ? -t : t;
        if (tr)
            tr->align_t[TC_MAX_L] = ct.sign ? -t : t;
    }

    /* ---- NORM + ROUND: once, to the output format (or e8m13 inside fp32) */
    round_target rt = {p->out, p->out_man_bits, p->round, p->zero_plus};
    if (sum == 0)
        d = fmt_zero(p->out, 0);
    else
        d = round_pack(&rt, sum < 0, sum < 0 ? (uint64_t)-sum : (uint64_t)sum, E - F, NULL);
    if (tr) {
        tr->special = 0;
        tr->align_e = E;
        tr->add_sum = sum;
        tr->result = d;
    }
    return d;
}

/* The common case of fedp_core_fmt, without special values: every word finite and
 * within its width. It keeps zero products as zero terms (they truncate to 0 and do
 * not raise E) instead of dropping them, which gives the same sum with fewer branches.
 * Returns 1, without a result, when the step needs the general path: a word with an
 * all-ones exponent field (Inf, NaN or, for e4m3, large finite values) or too wide. */
static inline __attribute__((always_inline)) int
fedp_fast_fmt(const tc_profile *p, tc_fmt in, tc_fmt out, size_t n, const uint32_t *a,
              const uint32_t *b, uint32_t c, int exp_offset, uint32_t *d, tc_round rmode,
              unsigned rman)
{
    const tc_fmt_info *fi = &fmt_table[in], *fo = &fmt_table[out];
    enum { EMPTY = -1000000 };
    const unsigned MB = fi->man_bits, EM = (1u << fi->exp_bits) - 1u, IGN = fi->ignore_low;
    const int F = (int)p->F, pfb = 2 * (int)MB;
    const uint32_t wide = fi->width >= 32 ? 0u : ~((1u << fi->width) - 1u);
    uint64_t prod[TC_MAX_L];
    int pexp[TC_MAX_L];
    uint32_t psign[TC_MAX_L];
    uint32_t bad = 0;
    int E = EMPTY;
#pragma GCC unroll 16
    for (size_t i = 0; i < n; i++) {
        uint32_t ua = a[i], ub = b[i];
        bad |= (ua | ub) & wide;
        uint32_t va = ua >> IGN, vb = ub >> IGN;
        uint32_t efa = (va >> MB) & EM, efb = (vb >> MB) & EM;
        bad |= (uint32_t)(fi->nan_style != TC_NAN_NONE && (efa == EM || efb == EM));
        uint64_t ma = (va & ((1u << MB) - 1u)) | ((uint32_t)(efa != 0) << MB);
        uint64_t mb = (vb & ((1u << MB) - 1u)) | ((uint32_t)(efb != 0) << MB);
        int e = (int)(efa + efb + (efa == 0) + (efb == 0)) - 2 * fi->bias + exp_offset;
        prod[i] = ma * mb;
        pexp[i] = e;
        psign[i] = ((va ^ vb) >> (fi->exp_bits + MB)) & (uint32_t)fi->is_signed;
        E = (prod[i] != 0 && e > E) ? e : E;
    }
    /* c, in the output format */
    const unsigned MC = fo->man_bits, EMC = (1u << fo->exp_bits) - 1u;
    const uint32_t cwide = fo->width >= 32 ? 0u : ~((1u << fo->width) - 1u);
    uint32_t efc = (c >> MC) & EMC;
    bad |= (c & cwide) | (uint32_t)(efc == EMC);
    if (bad)
        return 1;
    uint64_t mc = (c & ((1u << MC) - 1u)) | ((uint32_t)(efc != 0) << MC);
    int ec = (int)(efc + (efc == 0)) - fo->bias;
    uint32_t sc = (c >> (fo->exp_bits + MC)) & 1u;
    E = (mc != 0 && ec > E) ? ec : E;
    if (E == EMPTY) { /* every term is zero: +0 (step 7) */
        *d = fmt_zero(out, 0);
        return 0;
    }
    E = E < p->emin_align ? p->emin_align : E;
    int64_t sum = 0;
#pragma GCC unroll 16
    for (size_t i = 0; i < n; i++) {
        int64_t t = (int64_t)align_trunc(prod[i], pexp[i], pfb, E, F);
        sum += psign[i] ? -t : t;
    }
    int64_t tc = (int64_t)align_trunc(mc, ec, (int)MC, E, F);
    sum += sc ? -tc : tc;
    round_target rt = {out, rman, rmode, p->zero_plus};
    *d = sum == 0 ? fmt_zero(out, 0)
                  : round_pack(&rt, sum < 0, sum < 0 ? (uint64_t)-sum : (uint64_t)sum, E - F,
                               NULL);
    return 0;
}

/* The fast path specialised for the formats of the hot profiles and their step widths:
 * with the format rows constant, the compiler folds every mask and shift of the
 * unpacking and packing, and with n constant it unrolls both loops (about 1.4x the
 * rate of the loop form for an 8-term step); the usual rounding (RZ to the output's own
 * width) is a constant too, so round_pack drops its RNE and narrowing branches. */
#define FAST_N(IN, OUT, N)                                                            \
    (p->round == TC_RZ && p->out_man_bits == fmt_table[OUT].man_bits                      \
         ? fedp_fast_fmt(p, IN, OUT, N, a, b, c, exp_offset, d, TC_RZ,                    \
                         fmt_table[OUT].man_bits)                                         \
         : fedp_fast_fmt(p, IN, OUT, N, a, b, c, exp_offset, d, p->round, p->out_man_bits))
#define FAST_CASE(IN, OUT)                         \
    if (p->in == IN && p->out == OUT) {            \
        switch (n) {                               \
        case 4: return FAST_N(IN, OUT, 4);         \
        case 8: return FAST_N(IN, OUT, 8);         \
        case 16: return FAST_N(IN, OUT, 16);       \
        default: return FAST_N(IN, OUT, n);        \
        }                                          \
    }

static int fedp_fast(const tc_profile *p, size_t n, const uint32_t *a, const uint32_t *b,
                     uint32_t c, int exp_offset, uint32_t *d)
{
    FAST_CASE(TC_FMT_FP16, TC_FMT_FP32)
    FAST_CASE(TC_FMT_FP16, TC_FMT_FP16)
    FAST_CASE(TC_FMT_BF16, TC_FMT_FP32)
    FAST_CASE(TC_FMT_TF32, TC_FMT_FP32)
    FAST_CASE(TC_FMT_E4M3, TC_FMT_FP32)
    FAST_CASE(TC_FMT_E5M2, TC_FMT_FP32)
    return fedp_fast_fmt(p, p->in, p->out, n, a, b, c, exp_offset, d, p->round,
                         p->out_man_bits);
}

/* One step on words already checked against their widths: the fast path, or the
 * general one when a special value is present. */
static uint32_t fedp_core(const tc_profile *p, size_t n, const uint32_t *a, const uint32_t *b,
                          uint32_t c, int exp_offset)
{
    uint32_t d;
    if (fedp_fast(p, n, a, b, c, exp_offset, &d) == 0)
        return d;
    return fedp_core_fmt(p, &fmt_table[p->in], &fmt_table[p->out], n, a, b, c, exp_offset, NULL);
}

static uint32_t fedp_core_traced(const tc_profile *p, size_t n, const uint32_t *a,
                                 const uint32_t *b, uint32_t c, tc_fedp_trace *tr)
{
    return fedp_core_fmt(p, &fmt_table[p->in], &fmt_table[p->out], n, a, b, c, 0, tr);
}


tc_status tc_fedp_step(const tc_profile *p, size_t n, const uint32_t *a, const uint32_t *b,
                       uint32_t c, uint32_t *d, tc_fedp_trace *trace)
{
    if (!p || !d || (n && (!a || !b)))
        return TC_EINVAL;
    if (p->kind != TC_KIND_FEDP)
        return TC_EUNSUPPORTED;
    if (n > p->L)
        return TC_ESHAPE;
    if (!fmt_all_fit(p->in, n, a) || !fmt_all_fit(p->in, n, b) || !fmt_all_fit(p->out, 1, &c))
        return TC_EFORMAT;
    if (trace)
        memset(trace, 0, sizeof *trace);
    *d = trace ? fedp_core_traced(p, n, a, b, c, trace) : fedp_core(p, n, a, b, c, 0);
    return TC_OK;
}

/* ------------------------------------------------------------ IEEE addition */

tc_status tc_add(tc_fmt f, uint32_t x, uint32_t y, tc_round r, uint32_t *out)
{
    const tc_fmt_info *fi = tc_fmt_get(f);
    if (!out || !fi || fi->cls != TC_CLASS_FLOAT || fi->nan_style != TC_NAN_IEEE ||
        (r != TC_RZ && r != TC_RNE))
        return TC_EINVAL;
    if (!fmt_fits(fi, x) || !fmt_fits(fi, y))
        return TC_EFORMAT;
    int sx, sy, ex, ey;
    uint64_t mx, my;
    tc_value_kind kx = fmt_unpack(fi, x, &sx, &mx, &ex);
    tc_value_kind ky = fmt_unpack(fi, y, &sy, &my, &ey);
    if (kx == TC_VAL_NAN || ky == TC_VAL_NAN ||
        (kx == TC_VAL_INF && ky == TC_VAL_INF && sx != sy)) {
        *out = tc_canonical_nan(f);
        return TC_OK;
    }
    if (kx == TC_VAL_INF || ky == TC_VAL_INF) {
        *out = fmt_inf(f, kx == TC_VAL_INF ? sx : sy);
        return TC_OK;
    }
    if (mx == 0 && my == 0) { /* IEEE: -0 + -0 = -0, any other sum of zeros is +0 */
        *out = fmt_zero(f, sx & sy);
        return TC_OK;
    }
    /* Order by magnitude: the larger, X, keeps GUARD extra low bits; a Y too small to
     * reach them only matters as a sticky unit far below X's half-ulp. */
    enum { GUARD = 38 };
    if (my > mx ? ey >= ex : ey > ex) {
        int ts = sx; sx = sy; sy = ts;
        int te = ex; ex = ey; ey = te;
        uint64_t tm = mx; mx = my; my = tm;
    }
    int dist = ex - ey;
    uint64_t X = mx << GUARD;
    uint64_t Y = my == 0 ? 0 : dist <= GUARD ? my << (GUARD - dist) : 1u;
    uint64_t mag;
    int sign;
    if (sx == sy) {
        mag = X + Y;
        sign = sx;
    } else {
        mag = X - Y; /* X >= Y in magnitude */
        sign = sx;
    }
    if (mag == 0) { /* exact cancellation: +0 in round-to-nearest and toward zero */
        *out = fmt_zero(f, 0);
        return TC_OK;
    }
    round_target t = {f, fi->man_bits, r, 0}; /* an IEEE addition */
    *out = round_pack(&t, sign, mag, ex - (int)fi->man_bits - GUARD, NULL);
    return TC_OK;
}

/* --------------------------------------------------------- chained dot products */

/* The model's own step, as a tc_step_fn. */
static tc_status model_step(void *ctx, const tc_profile *sp, size_t n, const uint32_t *a,
                            const uint32_t *b, uint32_t c, uint32_t *d)
{
    (void)ctx;
    *d = fedp_core(sp, n, a, b, c, 0);
    return TC_OK;
}

/* fp8 through mma on hopper/blackwell (docs/contract.md): per block of 32 k, the two
 * halves k mod 4 in {0,1} then {2,3} through the fp16 path, then c added by one
 * IEEE RNE addition. */
static tc_status dot_fp8_emu(const tc_profile *p, size_t k, const uint32_t *a,
                             const uint32_t *b, uint32_t c, uint32_t *d, tc_step_fn step,
                             void *ctx)
{
    const tc_profile *sp;
    tc_status st = tc_profile_step_of(p, &sp);
    if (st != TC_OK)
        return st;
    enum { BLOCK = 32, HALF = 16 };
    uint32_t acc = c;
    for (size_t base = 0; base < k; base += BLOCK) {
        uint32_t ha[2][HALF], hb[2][HALF];
        size_t nh[2] = {0, 0};
        for (size_t j = 0; j < BLOCK; j++) {
            size_t h = (j % 4) >= 2; /* k mod 4 in {2,3}: second half */
            uint32_t xa = 0, xb = 0; /* a short block is padded with +0 */
            if (base + j < k) {
                if (tc_convert_exact(p->in, a[base + j], TC_FMT_FP16, &xa) != TC_OK ||
                    tc_convert_exact(p->in, b[base + j], TC_FMT_FP16, &xb) != TC_OK)
                    return TC_EFORMAT;
            }
            ha[h][nh[h]] = xa;
            hb[h][nh[h]++] = xb;
        }
        uint32_t d1, d2;
        if ((st = step(ctx, sp, HALF, ha[0], hb[0], fmt_zero(p->out, 0), &d1)) != TC_OK ||
            (st = step(ctx, sp, HALF, ha[1], hb[1], d1, &d2)) != TC_OK ||
            (st = tc_add(p->out, d2, acc, TC_RNE, &acc)) != TC_OK)
            return st;
    }
    *d = acc;
    return TC_OK;
}

/* Integer kinds: exact products, s32 accumulation with wrap-around. */
static uint32_t dot_int(const tc_profile *p, size_t k, const uint32_t *a, const uint32_t *b,
                        uint32_t c)
{
    const tc_fmt_info *fi = tc_fmt_get(p->in);
    uint32_t acc = c;
    for (size_t i = 0; i < k; i++)
        acc += (uint32_t)fmt_int_value(fi, a[i]) * (uint32_t)fmt_int_value(fi, b[i]);
    return acc;
}

tc_status tc_dot_engine(const tc_profile *p, size_t k, const uint32_t *a, const uint32_t *b,
                        uint32_t c, uint32_t *d, tc_step_fn step, void *ctx)
{
    if (!p || !a || !b || !d || k == 0)
        return TC_EINVAL;
    if (p->kind == TC_KIND_MX || p->kind == TC_KIND_MXF4)
        return TC_EUNSUPPORTED; /* needs scales: tc_dot_scaled */
    if (!fmt_all_fit(p->in, k, a) || !fmt_all_fit(p->in, k, b) || !fmt_all_fit(p->out, 1, &c))
        return TC_EFORMAT;
    if (!step)
        step = model_step;
    switch (p->kind) {
    case TC_KIND_INT:
        *d = dot_int(p, k, a, b, c);
        return TC_OK;
    case TC_KIND_FP8_EMU:
        return dot_fp8_emu(p, k, a, b, c, d, step, ctx);
    default:
        break;
    }
    uint32_t acc = c;
    for (size_t base = 0; base < k; base += p->L) {
        size_t n = k - base < p->L ? k - base : p->L;
        tc_status st = step(ctx, p, n, a + base, b + base, acc, &acc);
        if (st != TC_OK)
            return st;
    }
    *d = acc;
    return TC_OK;
}

tc_status tc_dot(const tc_profile *p, size_t k, const uint32_t *a, const uint32_t *b,
                 uint32_t c, uint32_t *d)
{
    if (p && p->kind == TC_KIND_FEDP && a && b && d && k && k <= p->L) {
        /* one step: the common case, without the chaining machinery; the fast path
         * checks the widths itself and declines anything unusual */
        if (fedp_fast(p, k, a, b, c, 0, d) == 0)
            return TC_OK;
        if (!fmt_all_fit(p->in, k, a) || !fmt_all_fit(p->in, k, b) || !fmt_all_fit(p->out, 1, &c))
            return TC_EFORMAT;
        *d = fedp_core(p, k, a, b, c, 0);
        return TC_OK;
    }
    return tc_dot_engine(p, k, a, b, c, d, NULL, NULL);
}

/* ------------------------------------------------------------ block-scaled kinds */

/* mxf4 / mxf4nvf4: one instruction step of L = 64 e2m1 products in four groups of
 * 16, each summed exactly and scaled; a group's alignment exponent is its scales'
 * exponents alone; one fused step keeps F bits, then RZ to fp32. */
static uint32_t mxf4_step(const tc_profile *p, size_t n, const uint32_t *a, const uint32_t *b,
                          const uint32_t *sa, const uint32_t *sb, size_t scale0, uint32_t c)
{
    enum { GROUP = TC_MXF4_GROUP, MAX_GROUPS = 4 };
    const tc_fmt_info *fi = tc_fmt_get(p->in), *fs = tc_fmt_get(p->scale);
    const tc_fmt_info *fo = tc_fmt_get(p->out);
    /* group sums in units of 2^(2*emin - 2*man) of the input format (exact integers) */
    const int unit_fb = 2 * (int)fi->man_bits - 2 * fi->emin;
    const int gfb = unit_fb + 2 * (int)fs->man_bits;
    special_acc sp = {0, 0, 0};
    uint64_t gsig[MAX_GROUPS];
    int gexp[MAX_GROUPS], gsign[MAX_GROUPS];
    size_t ng = 0;
    int E = 0, have_e = 0;

    for (size_t g = 0; g * GROUP < n; g++) {
        int64_t gsum = 0;
        int any = 0;
        for (size_t i = g * GROUP; i < n && i < (g + 1) * GROUP; i++) {
            int s1, s2, e1, e2;
            uint64_t m1, m2;
            fmt_unpack(fi, a[i], &s1, &m1, &e1); /* e2m1: no Inf/NaN */
            fmt_unpack(fi, b[i], &s2, &m2, &e2);
            if (!m1 || !m2)
                continue;
            int64_t prod = (int64_t)((m1 * m2) << (e1 + e2 - 2 * fi->emin));
            gsum += (s1 ^ s2) ? -prod : prod;
            any = 1;
        }
        size_t si = (scale0 + g * GROUP) / p->scale_block;
        int ss1, ss2, es1, es2;
        uint64_t ms1, ms2;
        if (fmt_unpack(fs, sa[si], &ss1, &ms1, &es1) == TC_VAL_NAN ||
            fmt_unpack(fs, sb[si], &ss2, &ms2, &es2) == TC_VAL_NAN) {
            sp.nan = 1;
            continue;
        }
        if (!any || !ms1 || !ms2)
            continue; /* all products zero, or a zero scale: the group drops out */
        uint64_t mag = (uint64_t)(gsum < 0 ? -gsum : gsum);
        gsig[ng] = mag * ms1 * ms2;
        gexp[ng] = es1 + es2;
        gsign[ng] = gsum < 0;
        if (!have_e || gexp[ng] > E)
            E = gexp[ng];
        have_e = 1;
        ng++;
    }
    c_term ct;
    unpack_c(fo, c, &ct, &sp);
    uint32_t d;
    int code;
    if (special_result(&sp, p->out, &d, &code))
        return d;
    if (ct.nonzero && (!have_e || ct.exp > E))
        E = ct.exp;
    if (!have_e && !ct.nonzero)
        return fmt_zero(p->out, 0);
    if (E < p->emin_align)
        E = p->emin_align;
    int64_t sum = 0;
    for (size_t g = 0; g < ng; g++) {
        int64_t t = (int64_t)align_trunc(gsig[g], gexp[g], gfb, E, (int)p->F);
        sum += gsign[g] ? -t : t;
    }
    if (ct.nonzero) {
        int64_t t = (int64_t)align_trunc(ct.sig, ct.exp, ct.fb, E, (int)p->F);
        sum += ct.sign ? -t : t;
    }
    if (sum == 0)
        return fmt_zero(p->out, 0);
    round_target rt = {p->out, p->out_man_bits, p->round, p->zero_plus};
    return round_pack(&rt, sum < 0, sum < 0 ? (uint64_t)-sum : (uint64_t)sum, E - (int)p->F,
                      NULL);
}

tc_status tc_dot_scaled(const tc_profile *p, size_t k, const uint32_t *a, const uint32_t *b,
                        const uint32_t *scale_a, const uint32_t *scale_b, uint32_t c,
                        uint32_t *d)
{
    if (!p || !a || !b || !scale_a || !scale_b || !d || k == 0)
        return TC_EINVAL;
    if (p->kind != TC_KIND_MX && p->kind != TC_KIND_MXF4)
        return TC_EUNSUPPORTED;
    if (k % p->scale_block)
        return TC_ESHAPE;
    size_t ns = k / p->scale_block;
    if (!fmt_all_fit(p->in, k, a) || !fmt_all_fit(p->in, k, b) || !fmt_all_fit(p->out, 1, &c) ||
        !fmt_all_fit(p->scale, ns, scale_a) || !fmt_all_fit(p->scale, ns, scale_b))
        return TC_EFORMAT;
    const tc_fmt_info *fs = tc_fmt_get(p->scale);
    uint32_t acc = c;
    for (size_t base = 0; base < k; base += p->L) {
        size_t n = k - base < p->L ? k - base : p->L;
        if (p->kind == TC_KIND_MXF4) {
            acc = mxf4_step(p, n, a + base, b + base, scale_a, scale_b, base, acc);
            continue;
        }
        /* mxf8f6f4: L = scale_block, one scale pair per step */
        size_t si = base / p->scale_block;
        int s1, s2, e1, e2;
        uint64_t m1, m2;
        if (fmt_unpack(fs, scale_a[si], &s1, &m1, &e1) == TC_VAL_NAN ||
            fmt_unpack(fs, scale_b[si], &s2, &m2, &e2) == TC_VAL_NAN) {
            acc = tc_canonical_nan(p->out);
            continue;
        }
        acc = fedp_core(p, n, a + base, b + base, acc, e1 + e2);
    }
    *d = acc;
    return TC_OK;
}
