/* test_bw_pairs.c - tcgen05.mma with A and B in different formats (issue 33): the model's
 * tc_bw_mma against the exact GMP reference (model/test/ref, written from
 * docs/contract.md without the model's code).
 *
 * Every pair of kind::f8f6f4 (e4m3, e5m2, e3m2, e2m3, e2m1 for A and for B: 25, fp32 and
 * fp16 output in turn), of kind::mxf8f6f4 (ue8m0 scales) and of kind::i8 (int8, uint8)
 * runs as random instructions: random M, N, A source, enable-input-d and disable-output-
 * lane mask; elements mostly tame, with every pattern of the format (NaN, Inf, subnormals,
 * the largest) mixed in; scale bytes near 2^0 with the corners; C words random with
 * infinities. The test packs the rows itself (tcsim_bw.h's layout), and every D[i][j] is
 * ref_dot / ref_dot_scaled over A's row i and B's column j, each operand decoded in its
 * own format; every other word of the tensor memory must be as it was.
 * Also: tc_bw_profile_ab against tc_bw_profile and the profile table, in_b = 0 meaning
 * "as A", the pairs a kind lacks refused (TC_EUNSUPPORTED, nothing written) and the
 * element-width check of each operand against its own format (TC_EFORMAT). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "tcsim.h"
#include "ref_exact.h"

#include "bw_desc.h"
#include "check.h"
#include "bw_tmem_check.h"
#include "test_random.h"
#include "test_args.h"

/* f8f6f4, mxf8f6f4, i8: K = 32 elements of W = 8 bits */
enum { LANES = BW_LANES, COLS = BW_COLS, K = 32, W = 8 };

static const tc_fmt fp_fmts[] = {TC_FMT_E4M3, TC_FMT_E5M2, TC_FMT_E3M2, TC_FMT_E2M3,
                                 TC_FMT_E2M1};
static const tc_fmt int_fmts[] = {TC_FMT_INT8, TC_FMT_UINT8};

/* One element of format f: one in 16 any pattern of the width (NaN, Inf, subnormals and
 * the extremes among them), else sign and fraction random with the exponent field
 * within 2 of the bias, so that most sums stay finite and show their rounding. */
static uint32_t element(tc_fmt f)
{
    const ref_fmt *rf = ref_fmt_get(f);
    uint64_t r = rnd64();
    uint32_t mask = (1u << rf->width) - 1u;
    if (rf->cls == REF_CLS_INT || (r & 15u) == 0)
        return (uint32_t)(r >> 8) & mask;
    uint32_t emax = (1u << rf->ebits) - 1u;
    long e = (long)rf->bias - 2 + (long)((r >> 8) % 5);
    if (e < 0)
        e = 0;
    if ((uint32_t)e > emax)
        e = (long)emax;
    uint32_t frac = (uint32_t)(r >> 16) & ((1u << rf->mbits) - 1u);
    uint32_t sign = (uint32_t)(r >> 40) & 1u;
    return (sign << (rf->width - 1)) | ((uint32_t)e << rf->mbits) | frac;
}

/* A ue8m0 scale byte: 2^-6 .. 2^6 mostly, the corners (2^-127, 2^127, NaN) one in 8. */
static uint32_t scale_byte(void)
{
    static const uint32_t corner[] = {0x00, 0x01, 0xfe, 0xff};
    uint32_t r = (uint32_t)rnd64();
    return (r & 7) ? 127 - 6 + (r >> 8) % 13 : corner[(r >> 8) % 4];
}

static void pack(uint32_t row[8], unsigned e, uint32_t v) { row[e * W / 32] |= v << (e * W % 32); }
static unsigned lane_of(unsigned M, unsigned i) { return M == 128 ? i : i / 16 * 32 + i % 16; }

static uint32_t before[LANES][COLS], expect[LANES][COLS];
static uint32_t a_el[LANES][K], b_el[256][K], a_rows[LANES * 8], b_rows[256 * 8];
static uint32_t sa[LANES], sb[256]; /* one ue8m0 per 32 elements: one block */

typedef struct pair_case {
    tc_bw_kind kind;
    tc_fmt in, in_b, out;
} pair_case;

/* The case's instruction with every other field zero: ue8m0 scales for mxf8f6f4. */
static tc_bw_mma_desc pair_desc(const pair_case *pc)
{
    tc_bw_mma_desc d = bw_desc_of_mix(pc->kind, pc->in, pc->out, pc->kind == TC_BW_MXF8F6F4
                                                                     ? TC_FMT_UE8M0
                                                                     : TC_FMT_COUNT);
    d.in_b = pc->in_b;
    return d;
}

/* The words of t that differ from want (the first three reported, naming the case). */
static unsigned differ(const tc_tmem *t, uint32_t want[LANES][COLS], const char *what)
{
    return bw_tmem_differ(t, want, before, what);
}

/* The reference's row of a case; integer rows need only kind, in, in_b and out. */
static const ref_profile *ref_row(const pair_case *pc, ref_profile *int_row)
{
    if (pc->kind == TC_BW_I8) {
        memset(int_row, 0, sizeof *int_row);
        int_row->kind = TC_KIND_INT;
        int_row->in = pc->in;
        int_row->in_b = pc->in_b;
        int_row->out = TC_FMT_S32;
        return int_row;
    }
    if (pc->kind == TC_BW_MXF8F6F4)
        return ref_profile_lookup_ab(TC_ARCH_BLACKWELL, TC_INSTR_TCGEN05, pc->in, pc->in_b,
                                     TC_FMT_FP32, TC_KIND_MX, TC_FMT_UE8M0, 32);
    return ref_profile_lookup_ab(TC_ARCH_BLACKWELL, TC_INSTR_TCGEN05, pc->in, pc->in_b,
                                 pc->out, TC_KIND_FEDP, TC_FMT_COUNT, 0);
}

static void one_case(ref_ctx *rw, const pair_case *pc)
{
    const char *kn = tc_bw_kind_name(pc->kind), *an = tc_fmt_get(pc->in)->name,
               *bn = tc_fmt_get(pc->in_b)->name, *on = tc_fmt_get(pc->out)->name;
    ref_profile int_row;
    const ref_profile *rp = ref_row(pc, &int_row);
    CHECK(rp != NULL, "the reference has no row for %s %s x %s -> %s", kn, an, bn, on);
    const tc_profile *p;
    tc_status st = tc_bw_profile_ab(pc->kind, pc->in, pc->in_b, pc->out,
                                    pc->kind == TC_BW_MXF8F6F4 ? TC_FMT_UE8M0 : TC_FMT_COUNT, &p);
    CHECK(st == TC_OK && p->in == pc->in && p->in_b == pc->in_b && p->out == pc->out,
          "tc_bw_profile_ab %s %s x %s -> %s: %s", kn, an, bn, on, tc_strerror(st));
    tc_tmem *t;
    if (!rp || st != TC_OK || tc_tmem_new((rnd64() & 1) ? 8 : 4, &t) != TC_OK)
        return;
    for (unsigned l = 0; l < LANES; l++)
        for (unsigned c = 0; c < COLS; c++) {
            uint32_t w = (uint32_t)rnd64();
            if ((w & 31u) == 0) /* an infinite accumulator now and then (fp32, fp16) */
                w = (w & 32u) ? 0xff800000u : 0x00007c00u;
            before[l][c] = w;
            tc_tmem_poke(t, l, c, w);
        }
    tc_bw_mma_desc d = pair_desc(pc);
    d.M = (rnd64() & 1) ? 128 : 64;
    d.N = 8 * (1 + (unsigned)(rnd64() % 4));
    d.d_col = 40 + (unsigned)(rnd64() % 400);
    d.a_tmem = (int)(rnd64() & 1);
    d.a_col = (unsigned)(rnd64() % 12);  /* its 8 columns clear of the scale words */
    d.sfa_col = 20;
    d.sfb_col = 21;
    d.enable_input_d = (int)(rnd64() & 1);
    for (unsigned w = 0; w < 4; w++)
        d.disable[w] = (rnd64() & 1) ? (uint32_t)(rnd64() & rnd64()) : 0;
    memset(a_rows, 0, sizeof a_rows);
    memset(b_rows, 0, sizeof b_rows);
    for (unsigned i = 0; i < d.M; i++) {
        unsigned lane = lane_of(d.M, i);
        for (unsigned e = 0; e < K; e++)
            pack(a_rows + i * 8, e, a_el[i][e] = element(pc->in));
        for (unsigned k = 0; d.a_tmem && k < 8; k++)
            tc_tmem_poke(t, lane, d.a_col + k, before[lane][d.a_col + k] = a_rows[i * 8 + k]);
        sa[i] = scale_byte();
        tc_tmem_poke(t, lane, d.sfa_col, before[lane][d.sfa_col] = sa[i]);
    }
    for (unsigned j = 0; j < d.N; j++) {
        for (unsigned e = 0; e < K; e++)
            pack(b_rows + j * 8, e, b_el[j][e] = element(pc->in_b));
        sb[j] = scale_byte();
        tc_tmem_poke(t, j, d.sfb_col, before[j][d.sfb_col] = sb[j]);
    }
    d.a_smem = (tc_bw_smem){a_rows, 8};
    d.b_smem = (tc_bw_smem){b_rows, 8};
    memcpy(expect, before, sizeof expect);
    uint32_t c_mask = pc->out == TC_FMT_FP16 ? 0xffffu : 0xffffffffu;
    for (unsigned i = 0; i < d.M; i++) {
        unsigned lane = lane_of(d.M, i);
        if ((d.disable[lane / 32] >> (lane % 32)) & 1u)
            continue;
        for (unsigned j = 0; j < d.N; j++) {
            unsigned col = d.d_col + j;
            uint32_t c = d.enable_input_d ? before[lane][col] & c_mask : 0, dv = 0;
            int bad = pc->kind == TC_BW_MXF8F6F4
                          ? ref_dot_scaled(rw, rp, K, a_el[i], b_el[j], &sa[i], &sb[j], c, &dv)
                          : ref_dot(rw, rp, K, a_el[i], b_el[j], c, &dv);
            CHECK(!bad, "the reference refused %s %s x %s", kn, an, bn);
            expect[lane][col] = dv;
        }
    }
    st = tc_bw_mma(t, &d, NULL);
    char what[160];
    snprintf(what, sizeof what, "%s %s x %s -> %s M%u N%u a_tmem %d acc %d", kn, an, bn, on,
             d.M, d.N, d.a_tmem, d.enable_input_d);
    CHECK(st == TC_OK, "%s: %s", what, tc_strerror(st));
    differ(t, expect, what);
    tc_tmem_free(t);
}

/* M 64 N 8, A and B from shared memory, every element +0 but those a case sets. */
static tc_status run_small(tc_tmem *t, tc_bw_kind kind, tc_fmt in, tc_fmt in_b, tc_fmt out)
{
    tc_bw_mma_desc d = pair_desc(&(pair_case){kind, in, in_b, out});
    d.M = 64;
    d.N = 8;
    d.d_col = 100;
    d.sfa_col = 20;
    d.sfb_col = 21;
    d.a_smem = (tc_bw_smem){a_rows, 8};
    d.b_smem = (tc_bw_smem){b_rows, 8};
    return tc_bw_mma(t, &d, NULL);
}

/* Whether the tensor memory still holds `before` everywhere (what differs reported). */
static int unchanged(const tc_tmem *t) { return differ(t, before, "a refused instruction") == 0; }

static void refusals(void)
{
    tc_tmem *t;
    if (tc_tmem_new(8, &t) != TC_OK) {
        CHECK(0, "tc_tmem_new");
        return;
    }
    for (unsigned l = 0; l < LANES; l++)
        for (unsigned c = 0; c < COLS; c++)
            tc_tmem_poke(t, l, c, before[l][c] = (uint32_t)rnd64());
    memset(a_rows, 0, sizeof a_rows);
    memset(b_rows, 0, sizeof b_rows);
    /* pairs the kinds lack: nothing is written */
    static const pair_case lacking[] = {
        /* the kinds of one format */
        {TC_BW_F16, TC_FMT_FP16, TC_FMT_BF16, TC_FMT_FP32},
        {TC_BW_F16, TC_FMT_BF16, TC_FMT_FP16, TC_FMT_FP32},
        {TC_BW_MXF4, TC_FMT_E2M1, TC_FMT_E4M3, TC_FMT_FP32},
        {TC_BW_MXF4NVF4, TC_FMT_E2M1, TC_FMT_E5M2, TC_FMT_FP32},
        /* f8f6f4 and mxf8f6f4: B outside their five formats */
        {TC_BW_F8F6F4, TC_FMT_E4M3, TC_FMT_INT8, TC_FMT_FP32},
        {TC_BW_F8F6F4, TC_FMT_E2M1, TC_FMT_FP16, TC_FMT_FP32},
        {TC_BW_MXF8F6F4, TC_FMT_E4M3, TC_FMT_TF32, TC_FMT_FP32},
        /* i8: B neither int8 nor uint8 */
        {TC_BW_I8, TC_FMT_INT8, TC_FMT_E4M3, TC_FMT_S32},
        {TC_BW_I8, TC_FMT_UINT8, TC_FMT_INT4, TC_FMT_S32},
        /* no format at all */
        {TC_BW_F8F6F4, TC_FMT_E4M3, TC_FMT_COUNT, TC_FMT_FP32},
        {TC_BW_F8F6F4, TC_FMT_E4M3, (tc_fmt)99, TC_FMT_FP32},
    };
    for (size_t i = 0; i < sizeof lacking / sizeof lacking[0]; i++) {
        const pair_case *pc = &lacking[i];
        const tc_profile *p = NULL;
        tc_status st = run_small(t, pc->kind, pc->in, pc->in_b, pc->out);
        CHECK(st == TC_EUNSUPPORTED && unchanged(t), "%s in %d in_b %d: %s, not refused",
              tc_bw_kind_name(pc->kind), pc->in, pc->in_b, tc_strerror(st));
        st = tc_bw_profile_ab(pc->kind, pc->in, pc->in_b, pc->out, TC_FMT_UE8M0, &p);
        CHECK(st == TC_EUNSUPPORTED && !p, "tc_bw_profile_ab %s in %d in_b %d: %s",
              tc_bw_kind_name(pc->kind), pc->in, pc->in_b, tc_strerror(st));
    }
    /* each operand's width is its own format's: 0x1f fits e4m3 (A) but not e2m1 (B) */
    a_rows[0] = 0x1fu;
    tc_status st = run_small(t, TC_BW_F8F6F4, TC_FMT_E4M3, TC_FMT_E2M1, TC_FMT_FP32);
    CHECK(st == TC_OK, "e4m3 A element 0x1f beside an e2m1 B: %s", tc_strerror(st));
    for (unsigned l = 0; l < LANES; l++)
        for (unsigned c = 0; c < COLS; c++)
            tc_tmem_peek(t, l, c, &before[l][c]);
    a_rows[0] = 0;
    b_rows[3 * 8 + 5] = 0x10u << 16; /* B column 3, element 22: 5 bits of an e2m1 */
    st = run_small(t, TC_BW_F8F6F4, TC_FMT_E4M3, TC_FMT_E2M1, TC_FMT_FP32);
    CHECK(st == TC_EFORMAT && unchanged(t), "e2m1 B element 0x10: %s", tc_strerror(st));
    b_rows[3 * 8 + 5] = 0x40u << 16; /* 7 bits: too wide for e2m3 and e3m2 alike */
    st = run_small(t, TC_BW_MXF8F6F4, TC_FMT_E4M3, TC_FMT_E2M3, TC_FMT_FP32);
    CHECK(st == TC_EFORMAT && unchanged(t), "e2m3 B element 0x40: %s", tc_strerror(st));
    b_rows[3 * 8 + 5] = 0;
    a_rows[9 * 8 + 7] = 0x40u << 24; /* A row 9 (lane 9, enabled), an e3m2 A */
    st = run_small(t, TC_BW_F8F6F4, TC_FMT_E3M2, TC_FMT_E4M3, TC_FMT_FP16);
    CHECK(st == TC_EFORMAT && unchanged(t), "e3m2 A element 0x40: %s", tc_strerror(st));
    tc_tmem_free(t);
}

/* tc_bw_profile_ab with one format is tc_bw_profile; in_b 0 is "as in"; the profile of a
 * pair is the table's row for it. */
static void api(void)
{
    for (tc_bw_kind k = 0; k < TC_BW_KIND_COUNT; k++)
        for (tc_fmt f = 0; f < TC_FMT_COUNT; f++)
            for (tc_fmt o = 0; o < TC_FMT_COUNT; o++) {
                tc_fmt sc = k >= TC_BW_MXF8F6F4 ? TC_FMT_UE8M0 : TC_FMT_COUNT;
                const tc_profile *p = NULL, *q = NULL;
                tc_status s1 = tc_bw_profile(k, f, o, sc, &p);
                tc_status s2 = tc_bw_profile_ab(k, f, f, o, sc, &q);
                CHECK(s1 == s2 && p == q, "kind %d fmt %d out %d: one format and the pair differ",
                      k, f, o);
            }
    tc_bw_mma_desc d;
    memset(&d, 0, sizeof d);
    d.in = TC_FMT_E2M3;
    CHECK(tc_bw_mma_in_b(&d) == TC_FMT_E2M3, "in_b 0 is not \"as in\"");
    d.in_b = TC_FMT_E5M2;
    CHECK(tc_bw_mma_in_b(&d) == TC_FMT_E5M2, "in_b not taken");
    const tc_profile *p, *q;
    CHECK(tc_bw_profile_ab(TC_BW_F8F6F4, TC_FMT_E2M1, TC_FMT_E4M3, TC_FMT_FP16, TC_FMT_COUNT,
                           &p) == TC_OK &&
              tc_profile_find_ab(TC_ARCH_BLACKWELL, TC_INSTR_TCGEN05, TC_FMT_E2M1, TC_FMT_E4M3,
                                 TC_FMT_FP16, &q) == TC_OK && p == q,
          "f8f6f4 e2m1 x e4m3 -> fp16 is not the table's row");
    CHECK(tc_bw_profile_ab(TC_BW_MXF8F6F4, TC_FMT_E5M2, TC_FMT_E3M2, TC_FMT_FP32, TC_FMT_UE8M0,
                           &p) == TC_OK &&
              tc_profile_find_scaled_ab(TC_ARCH_BLACKWELL, TC_INSTR_TCGEN05, "mxf8f6f4",
                                        TC_FMT_E5M2, TC_FMT_E3M2, TC_FMT_UE8M0, 0, &q) == TC_OK &&
              p == q,
          "mxf8f6f4 e5m2 x e3m2 is not the table's row");
    CHECK(tc_bw_profile_ab(TC_BW_F8F6F4, TC_FMT_E4M3, TC_FMT_E5M2, TC_FMT_FP32, TC_FMT_COUNT,
                           NULL) == TC_EINVAL, "a NULL out_profile");
}

int main(int argc, char **argv)
{
    uint64_t seed = 1;
    const test_opt opts[] = {{"--seed", &seed, UINT64_MAX, NULL, NULL},
                             {NULL, NULL, 0, NULL, NULL}};
    int st = test_parse_opts("test_bw_pairs", argc, argv, opts,
                             "usage: test_bw_pairs [--seed S]\n");
    if (st != TEST_RUN)
        return st;
    const unsigned count = 2; /* instructions per pair */
    rng = seed * 0x9e3779b97f4a7c15ull + 1;
    ref_ctx *rw = ref_ctx_new();
    if (!rw) {
        printf("FAILED: ref_ctx_new\n");
        return 1;
    }
    unsigned cases = 0;
    for (unsigned n = 0; n < count; n++) {
        for (size_t a = 0; a < 5; a++)
            for (size_t b = 0; b < 5; b++) {
                pair_case f8 = {TC_BW_F8F6F4, fp_fmts[a], fp_fmts[b],
                                (a + b + n) % 2 ? TC_FMT_FP16 : TC_FMT_FP32};
                pair_case mx = {TC_BW_MXF8F6F4, fp_fmts[a], fp_fmts[b], TC_FMT_FP32};
                one_case(rw, &f8);
                one_case(rw, &mx);
                cases += 2;
            }
        for (size_t a = 0; a < 2; a++)
            for (size_t b = 0; b < 2; b++, cases++)
                one_case(rw, &(pair_case){TC_BW_I8, int_fmts[a], int_fmts[b], TC_FMT_S32});
    }
    refusals();
    api();
    ref_ctx_free(rw);
    printf("%u instruction(s), %lu checks, %d failure(s) (seed %llu)\n", cases, checks,
           failures, (unsigned long long)seed);
    printf("%s\n", failures ? "FAILED" : "PASSED");
    return failures != 0;
}
