/* conv.c - convolution on the Blackwell tensor core, seed 003 Algorithms 1-3
 * (tcsim_bw.h, docs/blackwell_mma.md).
 *
 * Activations NHWC, weights KRSC, output NPQK. Every output element is reduced in one
 * order in all three algorithms - +0, then one FEDP step per (r, channel chunk, s), the
 * chunk being one instruction's K channels - so that they give the same bits and the
 * tests can compare them exactly. (Seed 003's Algorithm 2 runs s outside the channel
 * chunks; here it runs inside, as in Algorithm 3, which changes nothing but the order of
 * the roundings.) A tap whose input position lies in the padding contributes no step:
 * Algorithms 2 and 3 disable that output lane, Algorithm 1 skips the call.
 *
 * Algorithms 2 and 3 follow seed 003's variant 3.b: the activations are A (M = 128
 * output pixels, one per tensor-memory lane), the weights B (N = up to 256 output
 * channels, from shared memory), D accumulates in tensor memory. Pixels are the
 * flattened (n, p, q) index, 128 per tile, pixel j in lane 127 - j: tcgen05.shift moves
 * lane l-1 into lane l, so after a shift pixel j holds what pixel j+1 held, which is
 * the input position of its next tap when dilation = stride; the one new row enters at
 * lane 0 (seed 003 Algorithm 3.b). Software tracks which input row each lane holds
 * (`tag`), so a row is copied from shared memory only when the lane does not hold it
 * already: at the start of a row of output pixels, of an image or of a tile, and for
 * the new lane 0. With dilation = t * stride and t < 128 a tap step is t shifts;
 * otherwise nothing is reused (t >= 128 shifts every row out of the tile) and every row
 * is copied, as in Algorithm 2.
 */
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include "tcsim.h"
#include "fmt_table.h"
#include "bw_timeline.h"
#include "splitmix64.h"

#define M_TILE 128
#define A_WIN_COLS TC_TMEM_SLICE
#define D_BASE (2 * A_WIN_COLS)   /* columns 0-7 and 8-15: the two A windows */

tc_status tc_conv_out_dims(const tc_conv_shape *sh, unsigned *P, unsigned *Q)
{
    if (!sh || !P || !Q)
        return TC_EINVAL;
    if (!sh->n || !sh->h || !sh->w || !sh->c || !sh->k || !sh->r || !sh->s || !sh->stride ||
        !sh->dilation)
        return TC_ESHAPE;
    unsigned long long er = (unsigned long long)sh->dilation * (sh->r - 1) + 1;
    unsigned long long es = (unsigned long long)sh->dilation * (sh->s - 1) + 1;
    unsigned long long hp = (unsigned long long)sh->h + 2ull * sh->pad;
    unsigned long long wp = (unsigned long long)sh->w + 2ull * sh->pad;
    if (hp < er || wp < es)
        return TC_ESHAPE;
    unsigned long long p = (hp - er) / sh->stride + 1, q = (wp - es) / sh->stride + 1;
    if (p > UINT_MAX || q > UINT_MAX) /* a pad near 2^31 makes either 2^32 */
        return TC_ESHAPE;
    *P = (unsigned)p;
    *Q = (unsigned)q;
    return TC_OK;
}

/* Input coordinate of output coordinate o at tap t, or -1 when it lies in the padding. */
static long in_coord(const tc_conv_shape *sh, unsigned o, unsigned t, unsigned size)
{
    long x = (long)o * sh->stride - (long)sh->pad + (long)t * sh->dilation;
    return x >= 0 && x < (long)size ? x : -1;
}

/* ------------------------------------------------------------- Algorithm 1 */

static tc_status conv_direct(const tc_conv_args *ca, const tc_profile *p, unsigned K_el,
                             unsigned P, unsigned Q, const uint32_t *act, const uint32_t *wgt,
                             uint32_t *out)
{
    const tc_conv_shape *sh = &ca->shape;
    for (unsigned n = 0; n < sh->n; n++)
        for (unsigned pp = 0; pp < P; pp++)
            for (unsigned q = 0; q < Q; q++)
                for (unsigned k = 0; k < sh->k; k++) {
                    uint32_t acc = 0; /* +0 in every output format */
                    for (unsigned r = 0; r < sh->r; r++) {
                        long h = in_coord(sh, pp, r, sh->h);
                        if (h < 0)
                            continue;
                        for (unsigned c0 = 0; c0 < sh->c; c0 += K_el) {
                            unsigned cnt = sh->c - c0 < K_el ? sh->c - c0 : K_el;
                            for (unsigned s = 0; s < sh->s; s++) {
                                long w = in_coord(sh, q, s, sh->w);
                                if (w < 0)
                                    continue;
                                const uint32_t *a =
                                    act + (((size_t)n * sh->h + (size_t)h) * sh->w + (size_t)w) * sh->c + c0;
                                const uint32_t *b =
                                    wgt + (((size_t)k * sh->r + r) * sh->s + s) * sh->c + c0;
                                tc_status st = tc_dot(p, cnt, a, b, acc, &acc);
                                if (st != TC_OK)
                                    return st;
                            }
                        }
                    }
                    out[(((size_t)n * P + pp) * Q + q) * sh->k + k] = acc;
                }
    return TC_OK;
}

/* ------------------------------------------------------------- Algorithms 2 and 3 */

typedef struct conv_mma {
    const tc_conv_args *ca;
    const uint32_t *act, *wgt;
    unsigned P, Q, K_el, W_el;
    unsigned n_kc;               /* output-channel chunks of up to 256 */
    unsigned d_cols;             /* D columns of a tile: every chunk rounded up to 8 */
    unsigned n_dreg;             /* D regions: 2 when they fit, else 1 */
    tc_tmem *tm;
    bw_timeline tl;
    tc_conv_stats st;
    long tag[TC_TMEM_LANES];     /* input row (pixel index * chunk) each lane holds, or -1 */
    uint32_t *wtile;             /* B: 256 rows of 8 words */
} conv_mma;

static unsigned kc_width(const conv_mma *cm, unsigned kc)
{
    unsigned k0 = kc * TC_BW_MAX_N, left = cm->ca->shape.k - k0;
    return left < TC_BW_MAX_N ? left : TC_BW_MAX_N;
}

static unsigned kc_cols(const conv_mma *cm, unsigned kc) { return (kc_width(cm, kc) + 7) / 8 * 8; }

/* Pixel j of tile base: its (n, p, q), or 0 if past the last pixel. */
static int pixel(const conv_mma *cm, size_t idx, unsigned *n, unsigned *pp, unsigned *q)
{
    size_t per_img = (size_t)cm->P * cm->Q;
    if (idx >= per_img * cm->ca->shape.n)
        return 0;
    *n = (unsigned)(idx / per_img);
    *pp = (unsigned)(idx % per_img / cm->Q);
    *q = (unsigned)(idx % cm->Q);
    return 1;
}

/* Copy input row `pos` (pixel n,h,w), channels c0.., into lane `lane` of window a_col. */
static tc_status copy_row(conv_mma *cm, size_t pos, unsigned c0, unsigned lane, unsigned a_col)
{
    const tc_conv_shape *sh = &cm->ca->shape;
    uint32_t row[TC_BW_ROW_WORDS] = {0};
    for (unsigned e = 0; e < cm->K_el && c0 + e < sh->c; e++)
        tc_bw_row_set(row, cm->W_el, e, cm->act[pos * sh->c + c0 + e]);
    for (unsigned k = 0; k < TC_BW_ROW_WORDS; k++) {
        tc_status st = tc_tmem_poke(cm->tm, lane, a_col + k, row[k]);
        if (st != TC_OK)
            return st;
    }
    return TC_OK;
}

/* B of one MMA: row n is the weights of output channel k0+n at tap (r, s), channels c0..;
 * zero beyond K and C. */
static void weight_tile(conv_mma *cm, unsigned kc, unsigned r, unsigned s, unsigned c0)
{
    const tc_conv_shape *sh = &cm->ca->shape;
    unsigned k0 = kc * TC_BW_MAX_N, nk = kc_width(cm, kc), ncols = kc_cols(cm, kc);
    memset(cm->wtile, 0, (size_t)ncols * TC_BW_ROW_WORDS * sizeof *cm->wtile);
    for (unsigned n = 0; n < nk; n++) {
        const uint32_t *src = cm->wgt + (((size_t)(k0 + n) * sh->r + r) * sh->s + s) * sh->c;
        for (unsigned e = 0; e < cm->K_el && c0 + e < sh->c; e++)
            tc_bw_row_set(cm->wtile + (size_t)n * TC_BW_ROW_WORDS, cm->W_el, e, src[c0 + e]);
    }
}

/* One tap: shifts (Algorithm 3), row copies for the lanes that need them, the MMA. */
static tc_status conv_tap(conv_mma *cm, size_t base, unsigned active, unsigned dreg,
                          unsigned win, unsigned kc, unsigned r, unsigned c0, unsigned s,
                          unsigned shifts)
{
    const tc_conv_shape *sh = &cm->ca->shape;
    const unsigned a_col = win * A_WIN_COLS;
    tc_status st;
    for (unsigned i = 0; i < shifts; i++) {
        unsigned cyc = 0;
        if ((st = tc_tmem_shift(cm->tm, a_col, &cyc)) != TC_OK)
            return st;
        /* as the memory does: lane l takes lane l-1's word, lane 0 keeps its own */
        memmove(cm->tag + 1, cm->tag, (TC_TMEM_LANES - 1) * sizeof cm->tag[0]);
        if ((st = tc_bwt_shift(&cm->tl, win, cyc)) != TC_OK)
            return st;
        cm->st.shifts++;
    }
    tc_bw_mma_desc d;
    memset(&d, 0, sizeof d);
    for (unsigned l = 0; l < TC_TMEM_LANES / 32; l++)
        d.disable[l] = 0xffffffffu;
    uint64_t rows = 0;
    unsigned enabled = 0;
    for (unsigned j = 0; j < active; j++) {
        unsigned n = 0, pp = 0, q = 0;
        if (!pixel(cm, base + j, &n, &pp, &q))
            break;
        long h = in_coord(sh, pp, r, sh->h), w = in_coord(sh, q, s, sh->w);
        if (h < 0 || w < 0)
            continue; /* padding: this output takes no step for the tap */
        unsigned lane = M_TILE - 1 - j;
        size_t pos = ((size_t)n * sh->h + (size_t)h) * sh->w + (size_t)w;
        if (cm->tag[lane] != (long)pos) {
            if ((st = copy_row(cm, pos, c0, lane, a_col)) != TC_OK)
                return st;
            cm->tag[lane] = (long)pos;
            rows++;
        }
        d.disable[lane / 32] &= ~(1u << (lane % 32));
        enabled++;
    }
    if (rows) {
        if ((st = tc_bwt_copy_rows(&cm->tl, win, rows)) != TC_OK)
            return st;
        cm->st.smem_row_loads += rows;
    }
    if (!enabled)
        return TC_OK; /* every lane disabled: the instruction would change nothing */
    unsigned d_off = 0;
    for (unsigned i = 0; i < kc; i++)
        d_off += kc_cols(cm, i);
    weight_tile(cm, kc, r, s, c0);
    d.kind = cm->ca->kind;
    d.in = cm->ca->in;
    d.in_b = cm->ca->in_b;   /* the same convention: 0 is "as in" */
    d.out = cm->ca->out;
    d.M = M_TILE;
    d.N = kc_cols(cm, kc);
    d.d_col = D_BASE + dreg * cm->d_cols + d_off;
    d.a_tmem = 1;
    d.a_col = a_col;
    d.b_smem.words = cm->wtile;
    d.b_smem.row_stride = TC_BW_ROW_WORDS;
    d.enable_input_d = 1;
    tc_bw_cost cost;
    memset(&cost, 0, sizeof cost);
    st = cm->ca->mma ? cm->ca->mma(cm->ca->mma_ctx, cm->tm, &d, &cost) : tc_bw_mma(cm->tm, &d, &cost);
    if (st != TC_OK)
        return st;
    if ((st = tc_bwt_mma(&cm->tl, win, dreg, &cost)) != TC_OK)
        return st;
    cm->st.mmas++;
    cm->st.array_passes += cost.array_passes;
    cm->st.weight_rows += d.N;
    return TC_OK;
}

/* Zero the D region of a tile (cp of zero slices) before its first MMA. */
static tc_status d_zero(conv_mma *cm, unsigned dreg)
{
    static const uint32_t zeros[TC_TMEM_WIDE_WORDS];
    uint64_t cycles = 0;
    for (unsigned c = 0; c < cm->d_cols; c += TC_TMEM_SLICE) {
        unsigned cyc = 0;
        tc_status st = tc_tmem_cp(cm->tm, D_BASE + dreg * cm->d_cols + c, zeros, &cyc);
        if (st != TC_OK)
            return st;
        cycles += cyc;
    }
    return tc_bwt_d_zero(&cm->tl, dreg, cycles);
}

/* Read a tile's D out (tcgen05.ld per warp quarter) into the output tensor. */
static tc_status d_read(conv_mma *cm, unsigned dreg, size_t base, unsigned active, uint32_t *out)
{
    const unsigned K = cm->ca->shape.k;
    uint32_t buf[TC_TMEM_QUARTER_WORDS];
    uint64_t cycles = 0;
    for (unsigned g = 0; g < TC_TMEM_GROUPS; g++) {
        unsigned col = 0, k0 = 0;
        for (unsigned kc = 0; kc < cm->n_kc; kc++) {
            for (unsigned c = 0; c < kc_cols(cm, kc); c += TC_TMEM_SLICE) {
                unsigned cyc = 0;
                tc_status st = tc_tmem_ld(cm->tm, g, D_BASE + dreg * cm->d_cols + col + c,
                                          TC_TMEM_SLICE, buf, &cyc);
                if (st != TC_OK)
                    return st;
                cycles += cyc;
                for (unsigned gl = 0; gl < TC_TMEM_GROUP_LANES; gl++) {
                    unsigned j = M_TILE - 1 - (g * TC_TMEM_GROUP_LANES + gl);
                    for (unsigned e = 0; e < TC_TMEM_SLICE; e++) {
                        unsigned k = k0 + c + e;
                        if (j < active && c + e < kc_width(cm, kc))
                            out[(base + j) * K + k] = buf[e * TC_TMEM_GROUP_LANES + gl];
                    }
                }
            }
            col += kc_cols(cm, kc);
            k0 += kc_width(cm, kc);
        }
    }
    return tc_bwt_d_read(&cm->tl, dreg, cycles);
}

static tc_status conv_tiles(conv_mma *cm, uint32_t *out)
{
    const tc_conv_shape *sh = &cm->ca->shape;
    const int shift_algo = cm->ca->algo == TC_CONV_SHIFT;
    /* a tap step moves every input position by `dilation`, a shift by `stride` */
    unsigned shifts = 0;
    if (shift_algo && sh->dilation % sh->stride == 0 && sh->dilation / sh->stride < M_TILE)
        shifts = sh->dilation / sh->stride;
    size_t npix = (size_t)sh->n * cm->P * cm->Q;
    unsigned win = 0;
    tc_status st;
    for (size_t base = 0, tile = 0; base < npix; base += M_TILE, tile++) {
        unsigned active = npix - base < M_TILE ? (unsigned)(npix - base) : M_TILE;
        unsigned dreg = (unsigned)(tile % cm->n_dreg);
        if ((st = d_zero(cm, dreg)) != TC_OK)
            return st;
        for (unsigned r = 0; r < sh->r; r++)
            for (unsigned kc = 0; kc < cm->n_kc; kc++)
                for (unsigned c0 = 0; c0 < sh->c; c0 += cm->K_el) {
                    /* a new group of taps: a fresh window, no row reusable yet */
                    win ^= 1u;
                    for (unsigned l = 0; l < TC_TMEM_LANES; l++)
                        cm->tag[l] = -1;
                    for (unsigned s = 0; s < sh->s; s++) {
                        if (!shift_algo) {
                            if (s) /* Algorithm 2: every tap on its own window, reloaded */
                                win ^= 1u;
                            for (unsigned l = 0; l < TC_TMEM_LANES; l++)
                                cm->tag[l] = -1;
                        }
                        st = conv_tap(cm, base, active, dreg, win, kc, r, c0, s, s ? shifts : 0);
                        if (st != TC_OK)
                            return st;
                    }
                }
        if ((st = d_read(cm, dreg, base, active, out)) != TC_OK)
            return st;
    }
    return TC_OK;
}

static tc_status conv_mma_run(const tc_conv_args *ca, unsigned P, unsigned Q, unsigned K_el,
                              unsigned W_el, const uint32_t *act, const uint32_t *wgt,
                              uint32_t *out, tc_conv_stats *stats)
{
    conv_mma *cm = calloc(1, sizeof *cm);
    if (!cm)
        return TC_ENOMEM;
    cm->ca = ca;
    cm->act = act;
    cm->wgt = wgt;
    cm->P = P;
    cm->Q = Q;
    cm->K_el = K_el;
    cm->W_el = W_el;
    cm->n_kc = (ca->shape.k + TC_BW_MAX_N - 1) / TC_BW_MAX_N;
    for (unsigned kc = 0; kc < cm->n_kc; kc++)
        cm->d_cols += kc_cols(cm, kc);
    tc_status st = TC_ESHAPE; /* the D of a tile must fit beside the two A windows */
    cm->n_dreg = D_BASE + 2 * cm->d_cols <= TC_TMEM_COLS ? 2 : 1;
    cm->wtile = malloc((size_t)TC_BW_MAX_N * TC_BW_ROW_WORDS * sizeof *cm->wtile);
    /* the tiles are read out here and copied to out only when all succeeded: an engine
     * failing in a later tile leaves out untouched (tcsim.h) */
    size_t n_out = (size_t)ca->shape.n * P * Q * ca->shape.k;
    uint32_t *res = malloc(n_out * sizeof *res);
    if (!cm->wtile || !res)
        st = TC_ENOMEM;
    else if (D_BASE + cm->d_cols <= TC_TMEM_COLS &&
             (st = tc_tmem_new(ca->banks ? ca->banks : 8, &cm->tm)) == TC_OK) {
        tc_bwt_init(&cm->tl, cm->n_dreg);
        st = conv_tiles(cm, res);
        cm->st.cycles = tc_bwt_total(&cm->tl);
        tc_bwt_free(&cm->tl);
        if (st == TC_OK) {
            memcpy(out, res, n_out * sizeof *res);
            if (stats)
                *stats = cm->st;
        }
    }
    tc_tmem_free(cm->tm);
    free(res);
    free(cm->wtile);
    free(cm);
    return st;
}

tc_status tc_conv(const tc_conv_args *ca, const uint32_t *act, const uint32_t *wgt,
                  uint32_t *out, tc_conv_stats *stats)
{
    if (!ca || !act || !wgt || !out)
        return TC_EINVAL;
    unsigned P, Q, K_el, W_el;
    tc_status st = tc_conv_out_dims(&ca->shape, &P, &Q);
    if (st != TC_OK)
        return st;
    if (ca->kind != TC_BW_F16 && ca->kind != TC_BW_TF32 && ca->kind != TC_BW_F8F6F4 &&
        ca->kind != TC_BW_I8)
        return TC_EUNSUPPORTED; /* block-scaled kinds would need scale tensors */
    const tc_profile *p;
    /* the weights' format: in_b, or in where it is 0 (tcsim_bw.h) */
    const tc_fmt in_b = ca->in_b == TC_FMT_FP32 ? ca->in : ca->in_b;
    if ((st = tc_bw_profile_ab(ca->kind, ca->in, in_b, ca->out, TC_FMT_COUNT, &p)) != TC_OK ||
        (st = tc_bw_kind_dims(ca->kind, &K_el, &W_el)) != TC_OK)
        return st;
    if (ca->banks && ca->banks != 8 && ca->banks != 4)
        return TC_EINVAL;
    const tc_conv_shape *sh = &ca->shape;
    if (ca->algo != TC_CONV_DIRECT && ca->algo != TC_CONV_PER_TAP && ca->algo != TC_CONV_SHIFT)
        return TC_EINVAL;
    if (ca->algo != TC_CONV_DIRECT && sh->k > TC_CONV_MMA_MAX_K)
        return TC_ESHAPE;
    /* Every word before any arithmetic, for all three algorithms alike: the MMA ones
     * place words in rows that keep only a format's width, so without this a too-wide
     * word was an error in Algorithm 1 and silently cut down in 2 and 3. */
    if (!fmt_all_fit(ca->in, (size_t)sh->n * sh->h * sh->w * sh->c, act) ||
        !fmt_all_fit(in_b, (size_t)sh->k * sh->r * sh->s * sh->c, wgt))
        return TC_EFORMAT;
    tc_conv_stats zero;
    memset(&zero, 0, sizeof zero);
    switch (ca->algo) {
    case TC_CONV_DIRECT:
        st = conv_direct(ca, p, K_el, P, Q, act, wgt, out);
        if (st == TC_OK && stats)
            *stats = zero;
        return st;
    case TC_CONV_PER_TAP:
    case TC_CONV_SHIFT:
        return conv_mma_run(ca, P, Q, K_el, W_el, act, wgt, out, stats);
    default:
        return TC_EINVAL;
    }
}

/* ------------------------------------------------------------- inputs and checksum */

tc_status tc_random_fill(tc_fmt f, uint64_t seed, size_t n, uint32_t *out)
{
    const tc_fmt_info *fi = tc_fmt_get(f);
    if (!fi || (!out && n))
        return TC_EINVAL;
    uint64_t s = seed;
    for (size_t i = 0; i < n; i++) {
        uint64_t x = tc_splitmix64(&s);
        uint32_t mask = fi->width >= 32 ? 0xffffffffu : (1u << fi->width) - 1u;
        if (fi->cls == TC_CLASS_INT || fi->exp_bits <= 2) {
            out[i] = (uint32_t)x & mask; /* every pattern is finite */
            continue;
        }
        if ((x & 15u) == 0) { /* some zeros: products that drop out */
            out[i] = 0;
            continue;
        }
        /* exponent field within 2 of the bias: finite, no Inf or NaN in any format */
        unsigned ef = (unsigned)(fi->bias - 2 + (int)((x >> 4) % 4));
        uint32_t man = (uint32_t)(x >> 8) & ((1u << fi->man_bits) - 1u);
        uint32_t sign = fi->is_signed ? (uint32_t)(x >> 40) & 1u : 0;
        uint32_t v = (sign << (fi->exp_bits + fi->man_bits)) | (ef << fi->man_bits) | man;
        out[i] = v << fi->ignore_low;
    }
    return TC_OK;
}

uint64_t tc_checksum_words(const uint32_t *w, size_t n)
{
    uint64_t h = 0xcbf29ce484222325ull;
    for (size_t i = 0; w && i < n; i++)
        for (unsigned b = 0; b < 4; b++) {
            h ^= (w[i] >> (8 * b)) & 0xffu;
            h *= 0x100000001b3ull;
        }
    return h;
}
