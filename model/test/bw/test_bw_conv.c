/* test_bw_conv.c - seed 003's convolutions on the model: Algorithms 2 (one MMA per tap)
 * and 3 (tcgen05.shift reuse) give exactly the bits of Algorithm 1 (direct loops of
 * tc_dot calls, no tensor memory, no MMA), over a sweep of shapes: stride 1 and 2,
 * padding, dilation, R,S in {1,3,5}, channel counts that are not multiples of the
 * instruction's K, output channels that are not multiples of 8 or exceed 256, images
 * that share a tile, every non-scaled kind.
 *
 * The shared-memory row counts are asserted against closed forms derived by hand
 * (docs/blackwell_mma.md), not against a second run of the same logic:
 *  - Algorithm 2 copies one row per (output pixel, tap) whose input is inside the image:
 *      N * (sum over r of valid output rows) * (sum over s of valid output columns)
 *      * channel chunks * output-channel chunks;
 *  - Algorithm 3, stride 1, dilation 1, "same" padding (pad = (S-1)/2) and tiles that
 *    hold whole output rows, copies each input row's W pixels once per (r, valid p):
 *      N * (sum over r of valid output rows) * W * channel chunks * output-channel chunks;
 *  - shifts: (S-1) * dilation/stride per (tile, r, channel chunk, output-channel chunk)
 *    when stride divides dilation, else none (no input position is reusable).
 * The cycle counts of small runs are worked out by hand on the timeline of
 * docs/blackwell_mma.md (timeline_cases). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "tcsim.h"

#include "check.h"
#include "bw_conv_args.h"

typedef struct kindmix {
    tc_bw_kind kind;
    tc_fmt in, out;
    unsigned K; /* channels per instruction (tcsim_bw.h table) */
} kindmix;

static const kindmix kinds[] = {
    {TC_BW_F16, TC_FMT_FP16, TC_FMT_FP32, 16},
    {TC_BW_F16, TC_FMT_BF16, TC_FMT_FP32, 16},
    {TC_BW_F16, TC_FMT_FP16, TC_FMT_FP16, 16},
    {TC_BW_TF32, TC_FMT_TF32, TC_FMT_FP32, 8},
    {TC_BW_F8F6F4, TC_FMT_E4M3, TC_FMT_FP32, 32},
    {TC_BW_F8F6F4, TC_FMT_E2M1, TC_FMT_FP16, 32},
    {TC_BW_I8, TC_FMT_INT8, TC_FMT_S32, 32},
};

/* n h w c k r s stride pad dilation */
static const tc_conv_shape shapes[] = {
    {1, 9, 9, 16, 16, 3, 3, 1, 1, 1},    /* seed 003's example size, one image */
    {2, 9, 9, 20, 8, 3, 3, 1, 1, 1},     /* images share a tile; C not a multiple of K */
    {1, 8, 8, 24, 12, 1, 1, 1, 0, 1},    /* 1x1; K not a multiple of 8 */
    {1, 10, 11, 17, 16, 5, 5, 1, 2, 1},  /* 5x5 */
    {1, 11, 11, 16, 8, 3, 3, 2, 1, 1},   /* stride 2: no reuse */
    {1, 12, 12, 8, 8, 3, 3, 1, 2, 2},    /* dilation 2: two shifts a tap */
    {1, 13, 13, 8, 16, 3, 3, 2, 2, 2},   /* stride 2 and dilation 2: one shift a tap */
    {2, 7, 20, 40, 8, 3, 5, 1, 0, 1},    /* no padding, R != S, tiles split rows */
    {1, 5, 5, 8, 264, 1, 3, 1, 1, 1},    /* two output-channel chunks (256 + 8) */
    {1, 6, 6, 33, 8, 5, 1, 1, 2, 1},     /* S = 1 */
    {2, 16, 16, 16, 24, 3, 3, 1, 1, 1},  /* four tiles of whole rows, two images */
    {1, 13, 13, 8, 8, 3, 3, 2, 3, 3},    /* dilation 3, stride 2: not a multiple, no shift */
    /* a tile of one output row of 128 pixels: a tap step of 127 shifts reuses the row of
     * pixel 127 for pixel 0 (the most a tile keeps); 128 would move every row out */
    {1, 2, 255, 8, 8, 1, 2, 1, 0, 127},
    {1, 2, 256, 8, 8, 1, 2, 1, 0, 128},
};
#define N_SHAPES (sizeof shapes / sizeof shapes[0])
#define N_KINDS (sizeof kinds / sizeof kinds[0])

static unsigned valid_outputs(unsigned out, unsigned taps, unsigned size, const tc_conv_shape *sh,
                              unsigned *per_tap_sum)
{
    /* sum over taps of the output coordinates whose input lies inside [0, size) */
    unsigned sum = 0;
    for (unsigned t = 0; t < taps; t++)
        for (unsigned o = 0; o < out; o++) {
            long x = (long)o * sh->stride - (long)sh->pad + (long)t * sh->dilation;
            sum += x >= 0 && x < (long)size;
        }
    *per_tap_sum = sum;
    return sum;
}

static void run_shape(const tc_conv_shape *sh, const kindmix *km, uint64_t seed)
{
    unsigned P, Q;
    if (tc_conv_out_dims(sh, &P, &Q) != TC_OK) {
        CHECK(0, "out dims");
        return;
    }
    size_t na = (size_t)sh->n * sh->h * sh->w * sh->c, nw = (size_t)sh->k * sh->r * sh->s * sh->c;
    size_t no = (size_t)sh->n * P * Q * sh->k;
    /* GUARD words past each output (a whole output pixel and more): an algorithm
     * writing beyond N*P*Q*K is caught here, not by whatever the heap does with it */
    const size_t GUARD = 2 * (size_t)sh->k + 64;
    uint32_t *act = malloc(na * 4), *wgt = malloc(nw * 4), *o[4];
    for (int a = 1; a <= 3; a++) {
        o[a] = malloc((no + GUARD) * 4);
        memset(o[a], 0xa5, (no + GUARD) * 4);
    }
    tc_random_fill(km->in, seed, na, act);
    tc_random_fill(km->in, seed ^ 0x5555, nw, wgt);
    tc_conv_args ca;
    memset(&ca, 0, sizeof ca);
    ca.shape = *sh;
    ca.kind = km->kind;
    ca.in = km->in;
    ca.out = km->out;
    tc_conv_stats st[4];
    const tc_fmt_info *fin = tc_fmt_get(km->in);
    for (int a = 1; a <= 3; a++) {
        ca.algo = (tc_conv_algo)a;
        ca.banks = a == 3 ? 4 : 8;
        if (fin->width < 32) {
            /* A word wider than `in`: refused by every algorithm alike (2 and 3 once
             * cut it to the format's width and went on). */
            uint32_t keep = wgt[nw - 1];
            wgt[nw - 1] |= 1u << fin->width;
            tc_status s = tc_conv(&ca, act, wgt, o[a], NULL);
            CHECK(s == TC_EFORMAT, "algo %d, a too-wide weight: %s", a, tc_strerror(s));
            wgt[nw - 1] = keep;
            /* and the same for an activation */
            keep = act[na - 1];
            act[na - 1] |= 1u << fin->width;
            s = tc_conv(&ca, act, wgt, o[a], NULL);
            CHECK(s == TC_EFORMAT, "algo %d, a too-wide activation: %s", a, tc_strerror(s));
            act[na - 1] = keep;
        }
        tc_status s = tc_conv(&ca, act, wgt, o[a], &st[a]);
        CHECK(s == TC_OK, "algo %d: %s", a, tc_strerror(s));
    }
    const char *kn = tc_bw_kind_name(km->kind);
    for (int a = 1; a <= 3; a++)
        for (size_t i = no; i < no + GUARD; i++)
            if (o[a][i] != 0xa5a5a5a5u) {
                CHECK(0, "%s n%u h%u w%u c%u k%u: algo %d wrote past its %zu outputs, at [%zu]",
                      kn, sh->n, sh->h, sh->w, sh->c, sh->k, a, no, i);
                break;
            }
    for (int a = 2; a <= 3; a++) {
        size_t bad = 0, first = 0;
        for (size_t i = 0; i < no; i++)
            if (o[a][i] != o[1][i] && !bad++)
                first = i;
        CHECK(!bad, "%s %s->%s n%u h%u w%u c%u k%u r%u s%u st%u pad%u dil%u: algo %d differs "
              "in %zu of %zu outputs, first [%zu] %08x vs %08x", kn, tc_fmt_get(km->in)->name,
              tc_fmt_get(km->out)->name, sh->n, sh->h, sh->w, sh->c, sh->k, sh->r, sh->s,
              sh->stride, sh->pad, sh->dilation, a, bad, no, first, o[a][first], o[1][first]);
    }
    /* counts */
    unsigned cc = (sh->c + km->K - 1) / km->K, kc = (sh->k + 255) / 256;
    unsigned sum_p, sum_q;
    valid_outputs(P, sh->r, sh->h, sh, &sum_p);
    valid_outputs(Q, sh->s, sh->w, sh, &sum_q);
    uint64_t alg2_rows = (uint64_t)sh->n * sum_p * sum_q * cc * kc;
    CHECK(st[2].smem_row_loads == alg2_rows, "algo 2 rows %llu, expected %llu",
          (unsigned long long)st[2].smem_row_loads, (unsigned long long)alg2_rows);
    CHECK(st[2].shifts == 0, "algo 2 shifts");
    CHECK(st[1].mmas == 0 && st[1].cycles == 0, "algo 1 counts");
    uint64_t tiles = ((uint64_t)sh->n * P * Q + 127) / 128;
    /* t = dilation / stride shifts a tap step, while the 128 lanes keep a row to reuse */
    uint64_t t = sh->dilation / sh->stride;
    uint64_t per_tap = sh->dilation % sh->stride == 0 && t < 128 ? t : 0;
    CHECK(st[3].shifts == tiles * sh->r * cc * kc * (sh->s - 1) * per_tap, "algo 3 shifts %llu",
          (unsigned long long)st[3].shifts);
    int whole_rows = 128 % Q == 0 || (uint64_t)sh->n * P * Q <= 128;
    if (sh->stride == 1 && sh->dilation == 1 && sh->pad == (sh->s - 1) / 2 && sh->s % 2 &&
        whole_rows) {
        uint64_t alg3_rows = (uint64_t)sh->n * sum_p * sh->w * cc * kc;
        /* sum_p counts (r, p) pairs with a valid input row, as the form needs */
        CHECK(st[3].smem_row_loads == alg3_rows, "algo 3 rows %llu, expected %llu",
              (unsigned long long)st[3].smem_row_loads, (unsigned long long)alg3_rows);
    }
    CHECK(st[3].smem_row_loads <= st[2].smem_row_loads, "algo 3 loads more rows");
    if (sh->s > 1 && per_tap)
        CHECK(st[3].smem_row_loads < st[2].smem_row_loads, "algo 3 reuses nothing");
    CHECK(st[2].mmas == st[3].mmas, "mma counts %llu %llu", (unsigned long long)st[2].mmas,
          (unsigned long long)st[3].mmas);
    /* every MMA of an output-channel chunk reads that chunk's width rounded up to 8 weight
     * rows (its N) and computes (128 / 4 / 8) * (N / 8) = N / 2 array passes; each chunk
     * takes the same number of MMAs (the lanes enabled do not depend on the chunk) */
    uint64_t n_cols = 0; /* sum over chunks of N */
    for (unsigned k0 = 0; k0 < sh->k; k0 += 256)
        n_cols += ((sh->k - k0 < 256 ? sh->k - k0 : 256) + 7) / 8 * 8;
    for (int a = 2; a <= 3; a++) {
        CHECK(st[a].mmas % kc == 0 && st[a].weight_rows == st[a].mmas / kc * n_cols,
              "algo %d: %llu weight rows for %llu MMAs, expected %llu per %u", a,
              (unsigned long long)st[a].weight_rows, (unsigned long long)st[a].mmas,
              (unsigned long long)n_cols, kc);
        CHECK(st[a].array_passes == st[a].mmas / kc * (n_cols / 2),
              "algo %d: %llu array passes for %llu MMAs", a,
              (unsigned long long)st[a].array_passes, (unsigned long long)st[a].mmas);
    }
    CHECK(st[3].cycles > 0 && st[3].array_passes > 0 && st[3].array_passes <= st[3].cycles,
          "cycles");
    free(act);
    free(wgt);
    for (int a = 1; a <= 3; a++)
        free(o[a]);
}

static void error_cases(void)
{
    tc_conv_args ca = bw_f16_conv(&shapes[0], TC_CONV_SHIFT, 0);
    uint32_t x[4] = {0};
    unsigned P, Q;
    tc_conv_shape sh = {1, 2, 2, 1, 1, 3, 3, 1, 0, 1};
    CHECK(tc_conv_out_dims(&sh, &P, &Q) == TC_ESHAPE, "filter larger than the input");
    sh.pad = 1;
    CHECK(tc_conv_out_dims(&sh, &P, &Q) == TC_OK && P == 2 && Q == 2, "padded 2x2");
    sh = (tc_conv_shape){1, 9, 9, 1, 1, 3, 3, 2, 0, 2};
    CHECK(tc_conv_out_dims(&sh, &P, &Q) == TC_OK && P == 3 && Q == 3, "stride 2 dilation 2");
    /* tcsim_bw.h: TC_ESHAPE if a size is 0; a dilation of 0 would put all R x S taps
     * at one input position */
    sh.dilation = 0;
    CHECK(tc_conv_out_dims(&sh, &P, &Q) == TC_ESHAPE, "dilation 0");
    /* P and Q past an unsigned: a shape error, not P = Q = 0 (2^32 truncated) */
    tc_conv_shape big = {1, 2, 2, 1, 1, 1, 1, 1, 0x7fffffff, 1};
    P = Q = 77;
    CHECK(tc_conv_out_dims(&big, &P, &Q) == TC_ESHAPE && P == 77 && Q == 77,
          "pad 2^31 - 1 gives P = 2^32");
    big.pad = 0x7ffffffe; /* P = 2^32 - 2: fits */
    CHECK(tc_conv_out_dims(&big, &P, &Q) == TC_OK && P == 0xfffffffeu, "P = 2^32 - 2");
    /* the largest that fits: H = W = 1, pad 2^31 - 1, so H + 2 pad = 2^32 - 1 and
     * P = Q = (2^32 - 1 - 1) / 1 + 1 = 2^32 - 1 = UINT_MAX */
    tc_conv_shape top = {1, 1, 1, 1, 1, 1, 1, 1, 0x7fffffff, 1};
    CHECK(tc_conv_out_dims(&top, &P, &Q) == TC_OK && P == 0xffffffffu && Q == 0xffffffffu,
          "P = Q = 2^32 - 1");
    ca.kind = TC_BW_MXF4;
    CHECK(tc_conv(&ca, x, x, x, NULL) == TC_EUNSUPPORTED, "block-scaled conv");
    ca.kind = TC_BW_F16;
    ca.algo = (tc_conv_algo)4;
    CHECK(tc_conv(&ca, x, x, x, NULL) == TC_EINVAL, "algo 4");
    ca.algo = TC_CONV_SHIFT;
    ca.shape.k = 600; /* D of a tile does not fit beside the A windows */
    CHECK(tc_conv(&ca, x, x, x, NULL) == TC_ESHAPE, "K 600");
    ca.shape.k = TC_CONV_MMA_MAX_K + 1;
    CHECK(tc_conv(&ca, x, x, x, NULL) == TC_ESHAPE, "K 497");
    /* the checksum is FNV-1a: the empty input gives the offset basis */
    CHECK(tc_checksum_words(x, 0) == 0xcbf29ce484222325ull, "fnv basis");
    CHECK(tc_checksum_words(x, 1) != tc_checksum_words(x, 2), "fnv length");
}

/* Channels past C in an instruction's K are zero in both operands, never a neighbour's
 * values: a row of C = 1 channel next to an infinite activation (the next pixel) and an
 * infinite weight (the next output channel) must not see the Inf in its empty slots
 * (0 x Inf would make it NaN). fp16 1.0 and Inf: out[q][k] = act[q] x wgt[k], fp32 1.0
 * for q = 0, k = 0 and Inf for the other three, in all three algorithms. */
static void padding_channel_case(void)
{
    const tc_conv_shape sh = {1, 1, 2, 1, 2, 1, 1, 1, 0, 1};
    const uint32_t act[2] = {0x3c00, 0x7c00}, wgt[2] = {0x3c00, 0x7c00};
    const uint32_t want[4] = {0x3f800000, 0x7f800000, 0x7f800000, 0x7f800000};
    tc_conv_args ca = bw_f16_conv(&sh, TC_CONV_DIRECT, 0);
    for (int a = TC_CONV_DIRECT; a <= TC_CONV_SHIFT; a++) {
        uint32_t out[4] = {0};
        ca.algo = (tc_conv_algo)a;
        tc_status s = tc_conv(&ca, act, wgt, out, NULL);
        CHECK(s == TC_OK && !memcmp(out, want, sizeof want),
              "algo %d, Inf beside the channels: %s, %08x %08x %08x %08x", a, tc_strerror(s),
              out[0], out[1], out[2], out[3]);
    }
}

/* An engine (tc_conv_args.mma) that runs tc_bw_mma and fails its second call. */
static tc_status failing_mma(void *ctx, tc_tmem *t, const tc_bw_mma_desc *d, tc_bw_cost *cost)
{
    unsigned *calls = ctx;
    if (++*calls == 2)
        return TC_EUNSUPPORTED;
    return tc_bw_mma(t, d, cost);
}

/* tcsim.h: out-pointers are left untouched on failure. 129 pixels, 1x1: two tiles of one
 * MMA each; the engine fails on tile 1's, after tile 0 has been read out of tensor memory.
 * tc_conv must give the engine's status and leave the output and the stats as they were
 * (it wrote tile 0's 128 x 8 outputs). */
static void engine_failure_case(void)
{
    const tc_conv_shape sh = {1, 1, 129, 16, 8, 1, 1, 1, 0, 1};
    static uint32_t act[129 * 16], wgt[8 * 16], out[129 * 8];
    tc_random_fill(TC_FMT_FP16, 3, 129 * 16, act);
    tc_random_fill(TC_FMT_FP16, 4, 8 * 16, wgt);
    tc_conv_args ca = bw_f16_conv(&sh, TC_CONV_PER_TAP, 0);
    ca.mma = failing_mma;
    for (int a = TC_CONV_PER_TAP; a <= TC_CONV_SHIFT; a++) {
        unsigned calls = 0;
        tc_conv_stats st;
        memset(&st, 0x5a, sizeof st);
        memset(out, 0xa5, sizeof out);
        ca.algo = (tc_conv_algo)a;
        ca.mma_ctx = &calls;
        tc_status s = tc_conv(&ca, act, wgt, out, &st);
        size_t touched = 0;
        for (size_t i = 0; i < 129 * 8; i++)
            touched += out[i] != 0xa5a5a5a5u;
        const unsigned char *b = (const unsigned char *)&st;
        size_t st_touched = 0;
        for (size_t i = 0; i < sizeof st; i++)
            st_touched += b[i] != 0x5a;
        CHECK(s == TC_EUNSUPPORTED && calls == 2 && !touched && !st_touched,
              "algo %d, engine failing on tile 1: %s after %u calls, %zu outputs and %zu "
              "stats bytes written", a, tc_strerror(s), calls, touched, st_touched);
    }
}

/* Stats of one convolution (f16 kind, fp16 in, fp32 out) on a memory of `banks`. */
static tc_conv_stats conv_stats_banks(const tc_conv_shape *sh, tc_conv_algo algo,
                                      unsigned banks)
{
    unsigned P = 0, Q = 0;
    tc_conv_stats st;
    memset(&st, 0, sizeof st);
    CHECK(tc_conv_out_dims(sh, &P, &Q) == TC_OK, "out dims");
    size_t na = (size_t)sh->n * sh->h * sh->w * sh->c, nw = (size_t)sh->k * sh->r * sh->s * sh->c;
    uint32_t *act = malloc(na * 4), *wgt = malloc(nw * 4);
    uint32_t *out = malloc((size_t)sh->n * P * Q * sh->k * 4);
    tc_random_fill(TC_FMT_FP16, 7, na, act);
    tc_random_fill(TC_FMT_FP16, 8, nw, wgt);
    tc_conv_args ca = bw_f16_conv(sh, algo, banks);
    tc_status s = tc_conv(&ca, act, wgt, out, &st);
    CHECK(s == TC_OK, "algo %d: %s", (int)algo, tc_strerror(s));
    free(act);
    free(wgt);
    free(out);
    return st;
}

static tc_conv_stats conv_stats(const tc_conv_shape *sh, tc_conv_algo algo)
{
    return conv_stats_banks(sh, algo, 8);
}

/* The double buffering of docs/blackwell_mma.md, held to what it must buy. Closed forms
 * of the cycle count would restate the timeline; these are bounds that any schedule with
 * the two A windows and the two D regions meets and one without them misses. */
static void overlap_cases(void)
{
    /* Algorithm 2 is bound by shared memory: per MMA 128 activation rows and N weight
     * rows through a port of 4 rows a cycle, against N/2 array passes. With two A windows
     * the next tap's rows are copied while the current MMA runs, so the port is busy but
     * for the run's ends: at least 95% of the cycles (measured 98%). Copying into the
     * window an MMA is still reading waits for that MMA and idles the port each tap. */
    const tc_conv_shape smem_bound = {1, 16, 16, 64, 64, 3, 3, 1, 1, 1};
    const uint64_t rows_per_cycle = TC_BW_SMEM_BYTES_PER_CYCLE / (TC_BW_ROW_WORDS * 4);
    tc_conv_stats st = conv_stats(&smem_bound, TC_CONV_PER_TAP);
    uint64_t port = (st.smem_row_loads + rows_per_cycle - 1) / rows_per_cycle +
                    (st.weight_rows + rows_per_cycle - 1) / rows_per_cycle;
    CHECK(st.cycles > 0 && port * 100 >= st.cycles * 95,
          "algo 2: shared memory busy %llu of %llu cycles, under 95%%",
          (unsigned long long)port, (unsigned long long)st.cycles);

    /* K = 248 is the last K whose two D regions fit beside the A windows (2 * 248 + 16 =
     * 512 columns), so the read-out of a tile still hides behind the next tile's MMAs as
     * at K = 240. Both are array-bound (N/2 = 120 or 124 passes per MMA against at most
     * 94 shared-memory and 63 tensor-memory cycles), so the run scales with N: 248/240,
     * within 1%. One D region would add every tile's read-out and zeroing. */
    tc_conv_shape wide = {1, 32, 32, 16, 240, 3, 3, 1, 1, 1};
    for (int a = TC_CONV_PER_TAP; a <= TC_CONV_SHIFT; a++) {
        uint64_t c240 = conv_stats(&wide, (tc_conv_algo)a).cycles;
        wide.k = 248;
        uint64_t c248 = conv_stats(&wide, (tc_conv_algo)a).cycles;
        wide.k = 240;
        CHECK(c240 > 0 && c248 * 240 * 100 <= c240 * 248 * 101,
              "algo %d: K 248 takes %llu cycles, K 240 %llu: more than 248/240 + 1%%", a,
              (unsigned long long)c248, (unsigned long long)c240);
    }
}

/* The timeline of docs/blackwell_mma.md on runs small enough to follow by hand, cycle by
 * cycle. Each operation takes the first idle cycles of its port from its earliest start on
 * and the run ends 4 (the FEDP latency) after the last. Costs, f16 kind, N = 8, fp32 D,
 * 8 banks (4 banks in brackets): D zeroing one cp of 8 columns, 1 [2] tmem cycle; a row
 * copy 1/4 smem cycle, rounded up per copy; an MMA 4 array passes (128/4/8 * 8/8), 2 smem
 * cycles (8 B rows) and 3 [6] tmem cycles (A read, C read, D write); a shift 1 [2] tmem
 * cycle; read-out one ld of 8 columns per lane group, 4 [8] tmem cycles. "sm" is the
 * shared-memory port, "tm" the tensor-memory port; "a..b" takes cycles a to b.
 * (Cross-checked with a separate sketch of these rules, ports as sets of busy cycles.) */
static void timeline_case(const tc_conv_shape *sh, tc_conv_algo algo, unsigned banks,
                          uint64_t cycles, const char *what)
{
    tc_conv_stats st = conv_stats_banks(sh, algo, banks);
    CHECK(st.cycles == cycles, "%s: algo %d, %u banks: %llu cycles, expected %llu", what,
          (int)algo, banks, (unsigned long long)st.cycles, (unsigned long long)cycles);
}

static void timeline_cases(void)
{
    /* One pixel, a 1x1 filter, 16 channels: one MMA. 8 banks: zero D tm 0 (ready 1); copy
     * sm 0 (ready 1); MMA from max(array 0, window 1, D 1) = 1: sm 1..2, tm 1..3, array
     * 1..4, ends max(5, 3, 4) = 5; read-out waits for it: tm 5..8; 9 + 4 = 13.
     * 4 banks: zero tm 0..1 (ready 2); copy sm 0; MMA from 2: sm 2..3, tm 2..7, ends
     * max(6, 4, 8) = 8; read-out tm 8..15; 16 + 4 = 20. */
    const tc_conv_shape one = {1, 1, 1, 16, 8, 1, 1, 1, 0, 1};
    for (int a = TC_CONV_PER_TAP; a <= TC_CONV_SHIFT; a++) {
        timeline_case(&one, (tc_conv_algo)a, 8, 13, "one MMA");
        timeline_case(&one, (tc_conv_algo)a, 4, 20, "one MMA");
    }

    /* One pixel, 1x3 filter: three taps, one row each.
     * Algorithm 3 (one window, a shift a tap): zero tm 0; copy sm 0; MMA 1: sm 1..2,
     * tm 1..3, ends 5. Tap 1: the shift waits for the MMA reading the window: tm 5; the
     * new row waits for the shift: sm 6; MMA from 7: sm 7..8, tm 7..9, ends 11. Tap 2:
     * shift tm 11, copy sm 12, MMA from 13 ends 17; read-out tm 17..20; 21 + 4 = 25.
     * 4 banks: zero tm 0..1; copy sm 0; MMA from 2: tm 2..7, ends 8; shift tm 8..9; copy
     * sm 10; MMA from 11: tm 11..16, ends 17; shift 17..18; copy sm 19; MMA from 20:
     * tm 20..25, ends 26; read-out tm 26..33; 34 + 4 = 38.
     * Algorithm 2 (the windows alternate, no shift): zero tm 0; copy (window 1) sm 0;
     * MMA 1 ends 5 (sm 1..2, tm 1..3); copy (window 0) from 0: sm 3; MMA from 5: sm 5..6,
     * tm 5..7, ends 9; copy (window 1) waits for the first MMA, from 5: sm 7; MMA from 9
     * ends 13; read-out tm 13..16; 17 + 4 = 21. */
    const tc_conv_shape row3 = {1, 1, 3, 16, 8, 1, 3, 1, 0, 1};
    timeline_case(&row3, TC_CONV_SHIFT, 8, 25, "1x3, shifts");
    timeline_case(&row3, TC_CONV_SHIFT, 4, 38, "1x3, shifts");
    timeline_case(&row3, TC_CONV_PER_TAP, 8, 21, "1x3, two windows");

    /* Stride 2, dilation 1: no shift, Algorithm 3 copies every tap's row into its one
     * window, each copy waiting for the MMA reading it: zero tm 0; copy sm 0; MMA from 1
     * ends 5; copy from 5: sm 5; MMA from 6: sm 6..7, tm 6..8, ends 10; copy sm 10; MMA
     * from 11 ends 15; read-out tm 15..18; 19 + 4 = 23. Algorithm 2 runs as for row3: 21.
     * 4 banks, where each MMA ends with its tmem requests, after its array passes: zero
     * tm 0..1; copy sm 0; MMA from 2: tm 2..7, ends 8; copy sm 8; MMA from 9: tm 9..14,
     * ends 15; copy sm 15; MMA from 16: tm 16..21, ends 22; read-out tm 22..29;
     * 30 + 4 = 34. */
    const tc_conv_shape stride2 = {1, 1, 3, 16, 8, 1, 3, 2, 0, 1};
    timeline_case(&stride2, TC_CONV_SHIFT, 8, 23, "1x3 stride 2, one window");
    timeline_case(&stride2, TC_CONV_SHIFT, 4, 34, "1x3 stride 2, one window");
    timeline_case(&stride2, TC_CONV_PER_TAP, 8, 21, "1x3 stride 2, two windows");

    /* 257 pixels, 1x1: tiles of 128, 128 and 1 pixel in D regions 0, 1, 0, windows 1, 0,
     * 1. Tile 0: zero tm 0; copy of 128 rows sm 0..31; MMA from 32: sm 32..33, tm 32..34,
     * ends 36; read-out tm 36..39 (drained 40). Tile 1: zero region 1 from 0: tm 1 (ready
     * 2); copy from 0 into the idle cycles: sm 34..65; MMA from 66: sm 66..67, tm 66..68,
     * ends 70; read-out tm 70..73. Tile 2: zero region 0 after its read-out, from 40:
     * tm 40 (ready 41); copy of one row waits for tile 0's MMA on window 1, from 36: sm 68;
     * MMA from max(array 70, 69, 41) = 70: sm 70..71, tm 74..76 (70..73 taken), ends 77;
     * read-out tm 77..80; 81 + 4 = 85. (One D region: tile 1's zeroing waits for tile 0's
     * read-out, tile 2's MMA for tile 1's: 87.) */
    const tc_conv_shape tiles3 = {1, 1, 257, 16, 8, 1, 1, 1, 0, 1};
    timeline_case(&tiles3, TC_CONV_PER_TAP, 8, 85, "three tiles, two D regions");

    /* One pixel, K = 256 (one D region: 16 + 2 * 256 > 512 columns). Zero 32 slices:
     * tm 0..31 (ready 32); copy sm 0; the MMA waits for the zeroing: from 32, 128 array
     * passes, 64 smem cycles (256 B rows), 65 tmem cycles (A, 32 C reads, 32 D writes):
     * ends max(160, 96, 97) = 160; read-out 4 groups x 32 slices: tm 160..287;
     * 288 + 4 = 292. */
    const tc_conv_shape k256 = {1, 1, 1, 16, 256, 1, 1, 1, 0, 1};
    timeline_case(&k256, TC_CONV_SHIFT, 8, 292, "K 256");

    /* 128 pixels in one output row, 1x3, 32 channels: two tap groups (channel chunks), in
     * windows 1 and 0. Group 0: zero tm 0; 128 rows sm 0..31; MMA from 32: sm 32..33,
     * tm 32..34, ends 36; shift tm 36; lane 0's new row sm 37; MMA from 38: sm 38..39,
     * tm 38..40, ends 42; shift tm 42; row sm 43; MMA from 44: sm 44..45, tm 44..46,
     * ends 48. Group 1's 128 rows fill the shared-memory port's idle cycles from 0: 34,
     * 35, 36, 40, 41, 42 and 46..71 (ready 72), which a shift on that port would have
     * taken; MMA from 72: tm 72..74, ends 76; shift tm 76; row sm 77; MMA from 78 ends
     * 82; shift tm 82; row sm 83; MMA from 84 ends 88; read-out tm 88..91; 92 + 4 = 96. */
    const tc_conv_shape groups2 = {1, 1, 130, 32, 8, 1, 3, 1, 0, 1};
    timeline_case(&groups2, TC_CONV_SHIFT, 8, 96, "two tap groups");
}

int main(void)
{
    error_cases();
    overlap_cases();
    timeline_cases();
    padding_channel_case();
    engine_failure_case();
    for (size_t s = 0; s < N_SHAPES; s++)
        for (size_t k = 0; k < N_KINDS; k++)
            run_shape(&shapes[s], &kinds[k], 1000 + s * 31 + k);
    printf("%s: %d failure(s)\n", failures ? "FAILED" : "PASSED", failures);
    return failures ? 1 : 0;
}
