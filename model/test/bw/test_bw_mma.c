/* test_bw_mma.c - tcgen05.mma of the model (tc_bw_mma) against an independent path.
 *
 * For every kind and format mix, random tiles with random M, N, A source, enable-input-d
 * and disable-output-lane mask. The test packs the operand rows itself (its own bit
 * layout code, from the table of tcsim_bw.h), and computes every expected element as the
 * docs/contract.md dot product element by element: tc_fedp_step for the FEDP kinds (one step
 * of L = K terms: the step's own code, not tc_dot's fast path), exact wrap-around s32
 * sums written here for i8, tc_dot_scaled for the block-scaled kinds. Then every word
 * of the tensor memory is checked: D where a row's lane is enabled, the old contents
 * everywhere else (masked lanes, lanes outside M, other columns).
 * Also: the array model's costs for fixed shapes, and the errors. */
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "tcsim.h"

#include "check.h"
#include "bw_tmem_check.h"
#include "test_random.h"
#include "bw_desc.h"
#include "test_args.h"


typedef struct mix {
    tc_bw_kind kind;
    tc_fmt in, out, scale;
    unsigned K, W; /* written here from the header's table, not asked from the model */
} mix;

static const mix mixes[] = {
    {TC_BW_F16, TC_FMT_FP16, TC_FMT_FP32, TC_FMT_COUNT, 16, 16},
    {TC_BW_F16, TC_FMT_FP16, TC_FMT_FP16, TC_FMT_COUNT, 16, 16},
    {TC_BW_F16, TC_FMT_BF16, TC_FMT_FP32, TC_FMT_COUNT, 16, 16},
    {TC_BW_TF32, TC_FMT_TF32, TC_FMT_FP32, TC_FMT_COUNT, 8, 32},
    {TC_BW_F8F6F4, TC_FMT_E4M3, TC_FMT_FP32, TC_FMT_COUNT, 32, 8},
    {TC_BW_F8F6F4, TC_FMT_E5M2, TC_FMT_FP16, TC_FMT_COUNT, 32, 8},
    {TC_BW_F8F6F4, TC_FMT_E3M2, TC_FMT_FP32, TC_FMT_COUNT, 32, 8},
    {TC_BW_F8F6F4, TC_FMT_E2M3, TC_FMT_FP32, TC_FMT_COUNT, 32, 8},
    {TC_BW_F8F6F4, TC_FMT_E2M1, TC_FMT_FP16, TC_FMT_COUNT, 32, 8},
    {TC_BW_I8, TC_FMT_INT8, TC_FMT_S32, TC_FMT_COUNT, 32, 8},
    {TC_BW_I8, TC_FMT_UINT8, TC_FMT_S32, TC_FMT_COUNT, 32, 8},
    {TC_BW_MXF8F6F4, TC_FMT_E4M3, TC_FMT_FP32, TC_FMT_UE8M0, 32, 8},
    {TC_BW_MXF8F6F4, TC_FMT_E2M1, TC_FMT_FP32, TC_FMT_UE8M0, 32, 8},
    {TC_BW_MXF4, TC_FMT_E2M1, TC_FMT_FP32, TC_FMT_UE8M0, 64, 4},
    {TC_BW_MXF4NVF4, TC_FMT_E2M1, TC_FMT_FP32, TC_FMT_UE8M0, 64, 4},
    {TC_BW_MXF4NVF4, TC_FMT_E2M1, TC_FMT_FP32, TC_FMT_UE4M3, 64, 4},
};
#define N_MIXES (sizeof mixes / sizeof mixes[0])

/* The test's own packing: element e at bit e*W of the row's little-endian words. */
static void pack(uint32_t row[8], unsigned W, unsigned e, uint32_t v)
{
    unsigned bit = e * W;
    row[bit / 32] |= v << (bit % 32);
}

/* Lane of row i, from the header's contract. */
static unsigned lane_of(unsigned M, unsigned i) { return M == 128 ? i : i / 16 * 32 + i % 16; }

static uint32_t s32_dot(tc_fmt in, unsigned K, const uint32_t *a, const uint32_t *b, uint32_t c)
{
    uint32_t acc = c;
    for (unsigned i = 0; i < K; i++) {
        int32_t x = in == TC_FMT_INT8 ? (int32_t)(int8_t)a[i] : (int32_t)a[i];
        int32_t y = in == TC_FMT_INT8 ? (int32_t)(int8_t)b[i] : (int32_t)b[i];
        acc += (uint32_t)x * (uint32_t)y;
    }
    return acc;
}

enum { LANES = BW_LANES, COLS = BW_COLS };
static uint32_t before[LANES][COLS], expect[LANES][COLS];

static void one_case(const mix *mx, unsigned banks, int iter)
{
    const tc_profile *p;
    tc_status st = tc_bw_profile(mx->kind, mx->in, mx->out, mx->scale, &p);
    CHECK(st == TC_OK, "no profile for %s", tc_bw_kind_name(mx->kind));
    if (st != TC_OK)
        return;
    unsigned M = (rnd64() & 1) ? 128 : 64;
    unsigned N = 8 * (1 + (unsigned)(rnd64() % 32));
    if (iter == 0)
        N = 256;
    tc_tmem *t;
    if (tc_tmem_new(banks, &t) != TC_OK) {
        CHECK(0, "tc_tmem_new");
        return;
    }
    /* random contents everywhere, so that untouched words are recognisable */
    for (unsigned l = 0; l < LANES; l++)
        for (unsigned c = 0; c < COLS; c++) {
            before[l][c] = (uint32_t)rnd64();
            tc_tmem_poke(t, l, c, before[l][c]);
        }
    tc_bw_mma_desc d = bw_desc_of_mix(mx->kind, mx->in, mx->out, mx->scale);
    d.M = M;
    d.N = N;
    d.d_col = 32 + (unsigned)(rnd64() % 200);
    d.a_tmem = (int)(rnd64() & 1);
    d.a_col = (unsigned)(rnd64() % 8);
    d.sfa_col = 20 + (unsigned)(rnd64() % 4);
    d.sfb_col = 24;
    d.enable_input_d = (int)(rnd64() & 1);
    for (unsigned w = 0; w < 4; w++)
        d.disable[w] = (rnd64() & 3) ? (uint32_t)(rnd64() & rnd64()) : 0;
    const tc_fmt_info *fi = tc_fmt_get(mx->in), *fo = tc_fmt_get(mx->out);
    uint32_t in_mask = fi->width >= 32 ? 0xffffffffu : (1u << fi->width) - 1u;
    uint32_t out_mask = fo->width >= 32 ? 0xffffffffu : (1u << fo->width) - 1u;
    static uint32_t a_el[128][64], b_el[256][64], asm_rows[128 * 8], b_rows[256 * 8];
    static uint32_t sa[128][4], sb[256][4];
    memset(asm_rows, 0, sizeof asm_rows);
    memset(b_rows, 0, sizeof b_rows);
    unsigned nblk = mx->scale == TC_FMT_COUNT ? 0 : mx->K / p->scale_block;
    for (unsigned i = 0; i < M; i++) {
        uint32_t row[8] = {0};
        for (unsigned e = 0; e < mx->K; e++) {
            uint32_t v;
            tc_random_fill(mx->in, rnd64(), 1, &v);
            a_el[i][e] = v & in_mask;
            pack(row, mx->W, e, a_el[i][e]);
        }
        unsigned lane = lane_of(M, i);
        for (unsigned k = 0; k < 8; k++) {
            if (d.a_tmem) {
                tc_tmem_poke(t, lane, d.a_col + k, row[k]);
                before[lane][d.a_col + k] = row[k];
            } else {
                asm_rows[i * 8 + k] = row[k];
            }
        }
        if (nblk) {
            uint32_t word = 0;
            for (unsigned g = 0; g < nblk; g++) {
                tc_random_fill(mx->scale, rnd64(), 1, &sa[i][g]);
                word |= sa[i][g] << (8 * g);
            }
            tc_tmem_poke(t, lane, d.sfa_col, word);
            before[lane][d.sfa_col] = word;
        }
    }
    for (unsigned j = 0; j < N; j++) {
        for (unsigned e = 0; e < mx->K; e++) {
            uint32_t v;
            tc_random_fill(mx->in, rnd64(), 1, &v);
            b_el[j][e] = v & in_mask;
            pack(b_rows + j * 8, mx->W, e, b_el[j][e]);
        }
        if (nblk) {
            uint32_t word = 0;
            for (unsigned g = 0; g < nblk; g++) {
                tc_random_fill(mx->scale, rnd64(), 1, &sb[j][g]);
                word |= sb[j][g] << (8 * g);
            }
            tc_tmem_poke(t, j % 128, d.sfb_col + j / 128, word);
            before[j % 128][d.sfb_col + j / 128] = word;
        }
    }
    d.a_smem.words = asm_rows;
    d.a_smem.row_stride = 8;
    d.b_smem.words = b_rows;
    d.b_smem.row_stride = 8;
    /* expected: old contents, then D on the enabled rows */
    memcpy(expect, before, sizeof expect);
    for (unsigned i = 0; i < M; i++) {
        unsigned lane = lane_of(M, i);
        if ((d.disable[lane / 32] >> (lane % 32)) & 1u)
            continue;
        for (unsigned j = 0; j < N; j++) {
            unsigned col = (d.d_col + j) % COLS;
            uint32_t c = d.enable_input_d ? before[lane][col] & out_mask : 0, dv = 0;
            if (mx->kind == TC_BW_I8)
                dv = s32_dot(mx->in, mx->K, a_el[i], b_el[j], c);
            else if (nblk)
                st = tc_dot_scaled(p, mx->K, a_el[i], b_el[j], sa[i], sb[j], c, &dv);
            else
                st = tc_fedp_step(p, mx->K, a_el[i], b_el[j], c, &dv, NULL);
            CHECK(st == TC_OK, "reference failed: %s", tc_strerror(st));
            expect[lane][col] = dv;
        }
    }
    tc_bw_cost cost;
    st = tc_bw_mma(t, &d, &cost);
    CHECK(st == TC_OK, "%s %s->%s M%u N%u: %s", tc_bw_kind_name(mx->kind), fi->name, fo->name,
          M, N, tc_strerror(st));
    char what[160];
    snprintf(what, sizeof what, "%s %s->%s M%u N%u a_tmem %d acc %d banks %u",
             tc_bw_kind_name(mx->kind), fi->name, fo->name, M, N, d.a_tmem, d.enable_input_d,
             banks);
    bw_tmem_differ(t, expect, before, what);
    /* cost: passes from the array shape; rows from the sources */
    CHECK(cost.array_passes == (uint64_t)(M / 32) * (N / 8), "passes %llu",
          (unsigned long long)cost.array_passes);
    CHECK(cost.smem_rows == N + (d.a_tmem ? 0 : M), "smem rows %llu",
          (unsigned long long)cost.smem_rows);
    tc_tmem_free(t);
}

static void cost_cases(void)
{
    tc_bw_cost c;
    /* M=128 N=256 with A in tmem, accumulating, 8 banks: 1 A read + 32 C reads + 32 D
     * writes = 65 tmem cycles; 256 B rows = 64 smem cycles; 4*32 = 128 array passes */
    CHECK(tc_bw_mma_cost(128, 256, 256, 65, &c) == TC_OK && c.array_passes == 128 &&
          c.smem_cycles == 64 && c.cycles == 128, "cost 128x256");
    CHECK(tc_bw_mma_cost(64, 8, 8, 3, &c) == TC_OK && c.array_passes == 2 && c.smem_cycles == 2 &&
          c.cycles == 3, "cost 64x8");
    CHECK(tc_bw_mma_cost(128, 64, 192, 17, &c) == TC_OK && c.cycles == 48, "cost smem-bound");
    CHECK(tc_bw_mma_cost(96, 64, 0, 0, &c) == TC_ESHAPE, "M 96");
    /* the ceiling of smem rows / 4 near 2^64 (its rounding addition wrapped to 0) */
    CHECK(tc_bw_mma_cost(128, 8, UINT64_MAX, 0, &c) == TC_OK &&
          c.smem_cycles == UINT64_MAX / 4 + 1 && c.cycles == UINT64_MAX / 4 + 1,
          "cost of 2^64 - 1 smem rows");
    CHECK(tc_bw_mma_cost(128, 12, 0, 0, &c) == TC_ESHAPE, "N 12");
    CHECK(tc_bw_mma_cost(128, 264, 0, 0, &c) == TC_ESHAPE, "N 264");

    /* the tmem cycles the instruction charges, 8 and 4 banks */
    static const unsigned banks[2] = {8, 4};
    for (int bi = 0; bi < 2; bi++) {
        tc_tmem *t;
        tc_tmem_new(banks[bi], &t);
        static uint32_t b_rows[256 * 8];
        memset(b_rows, 0, sizeof b_rows);
        tc_bw_mma_desc d = {.kind = TC_BW_F16, .in = TC_FMT_FP16, .out = TC_FMT_FP32,
                            .M = 128, .N = 256, .d_col = 8, .a_tmem = 1,
                            .b_smem = {.words = b_rows, .row_stride = 8},
                            .enable_input_d = 1};
        tc_bw_cost cost;
        CHECK(tc_bw_mma(t, &d, &cost) == TC_OK, "f16 256");
        uint64_t per = banks[bi] == 8 ? 1 : 2;
        CHECK(cost.tmem_cycles == per * 65, "banks %u: tmem cycles %llu", banks[bi],
              (unsigned long long)cost.tmem_cycles);
        CHECK(cost.cycles == (banks[bi] == 8 ? 128u : 130u), "banks %u: cycles %llu", banks[bi],
              (unsigned long long)cost.cycles);
        d.enable_input_d = 0;
        CHECK(tc_bw_mma(t, &d, &cost) == TC_OK && cost.tmem_cycles == per * 33,
              "no C reads without enable_input_d");
        /* docs/blackwell_mma.md: "+ 1 read each for the scale-factor columns". mxf8f6f4
         * M=128 N=8, A in tmem, not accumulating: 1 A read + 1 sfa + 1 sfb + 1 D write =
         * 4 requests, 4 cycles with 8 banks and 8 with 4 */
        tc_bw_mma_desc ds = {.kind = TC_BW_MXF8F6F4, .in = TC_FMT_E4M3, .out = TC_FMT_FP32,
                             .scale = TC_FMT_UE8M0, .M = 128, .N = 8, .d_col = 8, .a_tmem = 1,
                             .b_smem = d.b_smem, .sfa_col = 300, .sfb_col = 308};
        CHECK(tc_bw_mma(t, &ds, &cost) == TC_OK && cost.tmem_cycles == per * 4,
              "banks %u: mxf8f6f4 tmem cycles %llu, expected %llu", banks[bi],
              (unsigned long long)cost.tmem_cycles, (unsigned long long)(per * 4));
        tc_tmem_free(t);
    }
}

/* D and C windows that wrap from column 511 to 0 (docs/blackwell_mma.md: "D[i][j] in
 * the word (lane(i), d_col + j); columns wrap at 512"). i8, so the expected values are
 * exact integers worked out here: A row i is (1, 0, ..., 0) and B column j is
 * (j + 1, 0, ..., 0), so (A*B)[i][j] = 1 * (j + 1); with enable_input_d the C word of
 * (lane l, column c), l = i for M = 128, was poked as 1000 * l + c, so
 * D[i][j] = 1000 * i + (508 + j) % 512 + j + 1, e.g. i = 2, j = 5: column 1,
 * 2000 + 1 + 6 = 2007. */
static void wrap_cases(void)
{
    static const unsigned banks[2] = {8, 4};
    static uint32_t a_rows[128 * 8], b_rows[16 * 8];
    memset(a_rows, 0, sizeof a_rows);
    memset(b_rows, 0, sizeof b_rows);
    for (unsigned i = 0; i < 128; i++)
        a_rows[i * 8] = 1;       /* int8 element 0 in bits 0-7 of word 0 */
    for (unsigned j = 0; j < 16; j++)
        b_rows[j * 8] = j + 1;
    for (int bi = 0; bi < 2; bi++) {
        tc_tmem *t;
        tc_tmem_new(banks[bi], &t);
        for (unsigned l = 0; l < LANES; l++)
            for (unsigned c = 0; c < COLS; c++)
                tc_tmem_poke(t, l, c, 1000 * l + c);
        tc_bw_mma_desc d;
        memset(&d, 0, sizeof d);
        d.kind = TC_BW_I8;
        d.in = TC_FMT_INT8;
        d.out = TC_FMT_S32;
        d.M = 128;
        d.N = 16;
        d.d_col = 508;           /* columns 508..511 then 0..11 */
        d.a_smem.words = a_rows;
        d.a_smem.row_stride = 8;
        d.b_smem.words = b_rows;
        d.b_smem.row_stride = 8;
        d.enable_input_d = 1;
        tc_status st = tc_bw_mma(t, &d, NULL);
        CHECK(st == TC_OK, "banks %u: D at column 508, N 16: %s", banks[bi], tc_strerror(st));
        unsigned bad = 0;
        for (unsigned i = 0; i < 128; i++)
            for (unsigned j = 0; j < 16; j++) {
                unsigned col = (508 + j) % COLS;
                uint32_t got = 0, want = 1000 * i + col + j + 1;
                tc_tmem_peek(t, i, col, &got);
                if (got != want && bad++ < 3)
                    CHECK(0, "banks %u: wrapped D lane %u col %u: got %u want %u", banks[bi], i,
                          col, got, want);
            }
        tc_tmem_free(t);
    }
}

static void error_cases(void)
{
    tc_tmem *t;
    tc_tmem_new(8, &t);
    static uint32_t rows[256 * 8];
    memset(rows, 0, sizeof rows);
    tc_bw_mma_desc d = {.kind = TC_BW_F8F6F4, .in = TC_FMT_E2M1, .out = TC_FMT_FP32,
                        .M = 128, .N = 8, .d_col = 100,
                        .b_smem = {.words = rows, .row_stride = 8},
                        .a_smem = {.words = rows, .row_stride = 8}};
    CHECK(tc_bw_mma(t, &d, NULL) == TC_OK, "plain");
    d.M = 96;
    CHECK(tc_bw_mma(t, &d, NULL) == TC_ESHAPE, "M 96");
    d.M = 128;
    d.N = 20;
    CHECK(tc_bw_mma(t, &d, NULL) == TC_ESHAPE, "N 20");
    d.N = 8;
    d.in = TC_FMT_FP16;
    CHECK(tc_bw_mma(t, &d, NULL) == TC_EUNSUPPORTED, "fp16 through f8f6f4");
    d.in = TC_FMT_E2M1;
    d.kind = TC_BW_MXF4;
    d.scale = TC_FMT_UE4M3;
    CHECK(tc_bw_mma(t, &d, NULL) == TC_EUNSUPPORTED, "mxf4 with ue4m3");
    d.kind = TC_BW_F8F6F4;
    /* an e2m1 element with bits above its 4 in the 8-bit container: nothing written */
    uint32_t w0;
    tc_tmem_peek(t, 5, 100, &w0);
    rows[8 * 3] = 0x30;
    tc_tmem_poke(t, 5, 100, 0x12345678u);
    CHECK(tc_bw_mma(t, &d, NULL) == TC_EFORMAT, "fp4 container");
    tc_tmem_peek(t, 5, 100, &w0);
    CHECK(w0 == 0x12345678u, "tmem written despite the error");
    /* A from tensor memory, a bad word in B: A's read ran the tensor memory's clock
     * before the word was met; the failed instruction must leave the clock as it was. */
    {
        uint64_t before = tc_tmem_cycle_count(t);
        tc_bw_mma_desc da = d;
        da.a_tmem = 1;
        da.a_col = 200;
        static uint32_t brows[8 * 8];
        memcpy(brows, rows, sizeof brows);
        brows[8 * 3] = 0x30;
        da.b_smem.words = brows;
        CHECK(tc_bw_mma(t, &da, NULL) == TC_EFORMAT, "fp4 container in B, A in tmem");
        CHECK(tc_tmem_cycle_count(t) == before, "a failed mma ran the tensor memory %llu cycles",
              (unsigned long long)(tc_tmem_cycle_count(t) - before));
    }
    rows[8 * 3] = 0;
    /* tcsim_bw.h: B's rows are always read, a row of A only for an enabled lane (a
     * disabled lane's D is not computed). An e2m1 element with bit 4 alone set in its
     * container: in a disabled lane's row of A it is never read (TC_OK); in B it is
     * TC_EFORMAT even with every lane disabled, when no dot product would meet it. */
    {
        static uint32_t arows[128 * 8], brows[8 * 8];
        tc_bw_mma_desc dm = d;
        dm.a_smem.words = arows;
        dm.b_smem.words = brows;
        arows[8 * 5] = 0x10;
        dm.disable[0] = 1u << 5;
        CHECK(tc_bw_mma(t, &dm, NULL) == TC_OK, "a bad element in a disabled lane's row of A");
        arows[8 * 5] = 0;
        brows[8 * 2] = 0x10;
        for (unsigned g = 0; g < TC_TMEM_LANES / 32; g++)
            dm.disable[g] = 0xffffffffu;
        CHECK(tc_bw_mma(t, &dm, NULL) == TC_EFORMAT, "a bad element in B, every lane disabled");
    }
    /* tcsim_bw.h: N is 8..256 in steps of 8 (0 is none of them); the D and A columns
     * are tensor-memory columns 0..511 (tcsim_tmem.h), so 512 is refused, not read as
     * column 0; B's rows are required (tcsim.h: a NULL pointer is TC_EINVAL) */
    d.N = 0;
    CHECK(tc_bw_mma(t, &d, NULL) == TC_ESHAPE, "N 0");
    d.N = 264;
    CHECK(tc_bw_mma(t, &d, NULL) == TC_ESHAPE, "N 264");
    d.N = 8;
    d.d_col = COLS;
    CHECK(tc_bw_mma(t, &d, NULL) == TC_EINVAL, "d_col 512");
    d.d_col = 100;
    d.a_tmem = 1;
    d.a_col = COLS;
    CHECK(tc_bw_mma(t, &d, NULL) == TC_EINVAL, "a_col 512");
    d.a_tmem = 0;
    d.a_col = 0;
    d.b_smem.words = NULL;
    CHECK(tc_bw_mma(t, &d, NULL) == TC_EINVAL, "B rows NULL");
    d.b_smem.words = rows;
    CHECK(tc_bw_mma(t, &d, NULL) == TC_OK, "plain again");
    CHECK(tc_bw_mma(t, NULL, NULL) == TC_EINVAL && tc_bw_mma(NULL, &d, NULL) == TC_EINVAL, "NULL");
    d.b_smem.row_stride = 4;
    CHECK(tc_bw_mma(t, &d, NULL) == TC_EINVAL, "stride");
    /* tcsim_bw.h: row_stride >= TC_BW_ROW_WORDS, for A from shared memory as for B */
    d.b_smem.row_stride = 8;
    d.a_tmem = 0;
    d.a_smem.row_stride = 4;
    CHECK(tc_bw_mma(t, &d, NULL) == TC_EINVAL, "A stride");
    d.a_smem.row_stride = 8;
    /* a scale-factor column is a tensor-memory column: 0..511 (tcsim_tmem.h), so 512 is
     * refused, not read as column 0 */
    d.kind = TC_BW_MXF8F6F4;
    d.in = TC_FMT_E4M3;
    d.scale = TC_FMT_UE8M0;
    CHECK(tc_bw_mma(t, &d, NULL) == TC_OK, "mxf8f6f4 plain");
    d.sfa_col = COLS;
    CHECK(tc_bw_mma(t, &d, NULL) == TC_EINVAL, "sfa_col 512");
    d.sfa_col = 0;
    d.sfb_col = COLS;
    CHECK(tc_bw_mma(t, &d, NULL) == TC_EINVAL, "sfb_col 512");
    d.sfb_col = 0;
    tc_tmem_free(t);
    /* the kind table */
    unsigned K, W;
    CHECK(tc_bw_kind_dims(TC_BW_MXF4, &K, &W) == TC_OK && K == 64 && W == 4, "mxf4 dims");
    tc_bw_kind k;
    CHECK(tc_bw_kind_parse("tf32", &k) == TC_OK && k == TC_BW_TF32, "parse");
    CHECK(tc_bw_kind_parse("f32", &k) != TC_OK, "parse bad");
    CHECK(tc_bw_lane_of_row(64, 17) == 33 && tc_bw_lane_of_row(128, 17) == 17 &&
          tc_bw_lane_of_row(64, 64) == 128, "lanes");
    /* tcsim_bw.h: "128 (no lane) if bad": a row past M, or an M other than 64 and 128 */
    CHECK(tc_bw_lane_of_row(128, 128) == 128 && tc_bw_lane_of_row(128, 200) == 128 &&
              tc_bw_lane_of_row(96, 0) == 128 && tc_bw_lane_of_row(64, 100) == 128,
          "no lane for a bad row");
}

int main(int argc, char **argv)
{
    uint64_t iters = 6;
    if (test_one_number("test_bw_mma", "ITERS", argc, argv, INT_MAX, &iters))
        return 2;
    rng = 0x2545f4914f6cdd1du;
    cost_cases();
    wrap_cases();
    error_cases();
    for (size_t m = 0; m < N_MIXES; m++)
        for (uint64_t it = 0; it < iters; it++)
            one_case(&mixes[m], (it & 1) ? 4 : 8, (int)it);
    printf("%s: %d failure(s)\n", failures ? "FAILED" : "PASSED", failures);
    return failures ? 1 : 0;
}
