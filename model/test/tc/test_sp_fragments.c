/*
 * test_sp_fragments.c - the mma.sp.m16n8kK fragments (tcsim_sparse.h) against the PTX
 * ISA's text: the shapes' register counts and sparsity selectors (9.7.14.6.1), lanes and
 * A elements worked by hand from the row/col formulas of 9.7.14.6.2, the metadata words
 * of m16n8k16 f16 (one thread per group: rows g and g+8), m16n8k32 f16 (a thread pair)
 * and m16n8k64 8-bit (all four threads) worked by hand, every stored element held by
 * exactly one (lane, index), and pack/unpack round trips for every selector.
 */
#include <stdio.h>
#include <string.h>
#include "check.h"
#include "splitmix.h"
#include "tcsim.h"

/* E for (in, K): 16 rows of W words, random valid nibbles. */
static void random_e(tk_rng *r, tc_fmt in, unsigned K, uint32_t *E)
{
    static const uint8_t pairs[6] = {0x4, 0x8, 0x9, 0xc, 0xd, 0xe};
    size_t W = tc_sp_meta_words(in, K), chunks = K / tc_sp_chunk(in);
    memset(E, 0, 16 * W * sizeof *E);
    for (unsigned row = 0; row < 16; row++)
        for (size_t q = 0; q < chunks; q++) {
            uint32_t nib = in == TC_FMT_TF32 ? (tk_mod(r, 2) ? 0xe : 0x4) : pairs[tk_mod(r, 6)];
            E[row * W + q / 8] |= nib << (4 * (q % 8));
        }
}

static void shapes(void)
{
    /* in, K, a_regs, per_reg, meta_threads, selectors (PTX 9.7.14.6.1-2) */
    static const struct { tc_fmt in; unsigned K, regs, per, threads, sels; } want[] = {
        {TC_FMT_FP16, 16, 2, 2, 1, 4}, {TC_FMT_BF16, 32, 4, 2, 2, 2},
        {TC_FMT_TF32, 8, 2, 1, 1, 4},  {TC_FMT_TF32, 16, 4, 1, 2, 2},
        {TC_FMT_INT8, 32, 2, 4, 2, 2}, {TC_FMT_UINT8, 64, 4, 4, 4, 1},
        {TC_FMT_E4M3, 64, 4, 4, 4, 1}, {TC_FMT_E5M2, 64, 4, 4, 4, 1},
        {TC_FMT_INT4, 64, 2, 8, 2, 2}, {TC_FMT_UINT4, 128, 4, 8, 4, 1},
    };
    for (size_t i = 0; i < sizeof want / sizeof want[0]; i++) {
        tc_sp_frag_info f;
        tc_status st = tc_sp_frag_shape(want[i].in, want[i].K, &f);
        CHECK(st == TC_OK && f.a_regs == want[i].regs && f.per_reg == want[i].per &&
                  f.meta_threads == want[i].threads && f.selectors == want[i].sels,
              "%s k%u: %s, regs %u per %u threads %u selectors %u", tc_fmt_get(want[i].in)->name,
              want[i].K, tc_strerror(st), f.a_regs, f.per_reg, f.meta_threads, f.selectors);
    }
    tc_sp_frag_info f;
    CHECK_COND(tc_sp_frag_shape(TC_FMT_FP16, 8, &f) == TC_EUNSUPPORTED);  /* no m16n8k8.sp */
    CHECK_COND(tc_sp_frag_shape(TC_FMT_E4M3, 32, &f) == TC_EUNSUPPORTED); /* fp8: k64 only */
    CHECK_COND(tc_sp_frag_shape(TC_FMT_FP32, 16, &f) == TC_EUNSUPPORTED);
}

static void a_elements(void)
{
    unsigned row = 0, col = 0;
    /* f16 k32, lane 5 (g 1, t 1), a4: row g, dense firstcol 4t + 16 = 20: stored col 10 */
    CHECK_COND(tc_sp_frag_a_map(TC_FMT_FP16, 32, 5, 4, &row, &col) == TC_OK && row == 1 &&
               col == 10);
    /* f16 k32, lane 5, a3: row g + 8, dense 4t = 4: stored col 3 (the second of chunk 1) */
    CHECK_COND(tc_sp_frag_a_map(TC_FMT_FP16, 32, 5, 3, &row, &col) == TC_OK && row == 9 &&
               col == 3);
    /* tf32 k16, lane 30 (g 7, t 2), a3: row g + 8, dense 2t + 8 = 12: stored col 6 */
    CHECK_COND(tc_sp_frag_a_map(TC_FMT_TF32, 16, 30, 3, &row, &col) == TC_OK && row == 15 &&
               col == 6);
    /* s8 k64, lane 7 (g 1, t 3), a13: row g + 8, dense 8t + 32 = 56 (+1): stored col 29 */
    CHECK_COND(tc_sp_frag_a_map(TC_FMT_INT8, 64, 7, 13, &row, &col) == TC_OK && row == 9 &&
               col == 29);
    /* s4 k128, lane 6 (g 1, t 2), a20: row g, dense 16t + 64 = 96 (+8): stored col 52 */
    CHECK_COND(tc_sp_frag_a_map(TC_FMT_INT4, 128, 6, 20, &row, &col) == TC_OK && row == 1 &&
               col == 52);
    CHECK_COND(tc_sp_frag_a_map(TC_FMT_FP16, 16, 32, 0, &row, &col) == TC_EINVAL);
    CHECK_COND(tc_sp_frag_a_map(TC_FMT_FP16, 16, 0, 4, &row, &col) == TC_EINVAL);

    /* every stored element of every shape held once */
    tc_ptx_instr r;
    for (size_t i = 0; tc_ptx_instr_get(i, &r) == TC_OK; i++) {
        tc_sp_frag_info f;
        if (r.form != TC_PTX_MMA_SP || tc_sp_frag_shape(r.in, r.k, &f) != TC_OK)
            continue;
        static unsigned char seen[16 * 64];
        memset(seen, 0, sizeof seen);
        unsigned bad = 0;
        for (unsigned lane = 0; lane < 32; lane++)
            for (unsigned e = 0; e < f.a_regs * f.per_reg; e++) {
                bad += tc_sp_frag_a_map(r.in, r.k, lane, e, &row, &col) != TC_OK ||
                       row >= 16 || col >= r.k / 2 || seen[row * (r.k / 2) + col]++;
            }
        CHECK(bad == 0, "%s k%u: %u elements held twice or out of range",
              tc_fmt_get(r.in)->name, r.k, bad);
    }
}

static void meta_by_hand(void)
{
    uint32_t E[16 * 2] = {0}, meta[32];
    tk_rng r = {3};
    random_e(&r, TC_FMT_FP16, 16, E); /* every row valid; the rows below by hand */
    /* f16 m16n8k16: one holding lane a group; bits 15:0 row g, 31:16 row g + 8, chunk
     * (thread) t in bits 4t+3:4t */
    E[0] = 0xc984;  /* row 0: chunks 0..3 keep (0,1) (0,2) (1,2) (0,3) */
    E[8] = 0x84ed;  /* row 8 */
    E[1] = 0x4444;
    E[9] = 0xeeee;
    CHECK_COND(tc_sp_meta_pack(TC_FMT_FP16, 16, 2, E, meta) == TC_OK);
    CHECK(meta[2] == 0x84edc984u && meta[6] == 0xeeee4444u && meta[0] == 0 && meta[3] == 0,
          "f16 k16 selector 2: lane 2 %08x, lane 6 %08x", meta[2], meta[6]);
    CHECK_COND(tc_sp_meta_pack(TC_FMT_FP16, 16, 4, E, meta) == TC_EINVAL);

    /* f16 m16n8k32, selector 1: lanes T2 (dense k 0..15 of rows g, g+8) and T3 (k 16..31) */
    random_e(&r, TC_FMT_FP16, 32, E);
    E[0] = 0xeeee4444u; /* row 0: chunks 0..3 0x4, chunks 4..7 0xe */
    E[8] = 0xdddd8888u;
    CHECK_COND(tc_sp_meta_pack(TC_FMT_FP16, 32, 1, E, meta) == TC_OK);
    CHECK(meta[2] == 0x88884444u && meta[3] == 0xddddeeeeu && meta[0] == 0 && meta[1] == 0,
          "f16 k32 selector 1: lane 2 %08x, lane 3 %08x", meta[2], meta[3]);

    /* s8 m16n8k64: lane T holds register T of the four lanes: row 0 chunks 0..7 (lane 0),
     * row 8 chunks 0..7 (lane 1), row 0 chunks 8..15 (lane 2), row 8 chunks 8..15 */
    memset(E, 0, sizeof E);
    E[0] = 0x489cde48u;
    E[1] = 0xe4e4e4e4u;
    E[16] = 0x99999999u;
    E[17] = 0xcccccccc;
    CHECK_COND(tc_sp_meta_pack(TC_FMT_INT8, 64, 0, E, meta) == TC_EINVAL); /* rows of 0s */
    random_e(&r, TC_FMT_INT8, 64, E);
    E[0] = 0x489cde48u;
    E[1] = 0xe4e4e4e4u;
    E[16] = 0x99999999u;
    E[17] = 0xccccccccu;
    CHECK_COND(tc_sp_meta_pack(TC_FMT_INT8, 64, 0, E, meta) == TC_OK);
    CHECK(meta[0] == E[0] && meta[1] == E[16] && meta[2] == E[1] && meta[3] == E[17],
          "s8 k64: %08x %08x %08x %08x", meta[0], meta[1], meta[2], meta[3]);
    CHECK_COND(tc_sp_meta_pack(TC_FMT_INT8, 64, 1, E, meta) == TC_EINVAL);
}

static void round_trips(void)
{
    tk_rng r = {11};
    tc_ptx_instr pi;
    unsigned shapes = 0;
    for (size_t i = 0; tc_ptx_instr_get(i, &pi) == TC_OK; i++) {
        tc_sp_frag_info f;
        if (pi.form != TC_PTX_MMA_SP || tc_sp_frag_shape(pi.in, pi.k, &f) != TC_OK)
            continue;
        /* the pair rows (int8 x uint8, e4m3 x e5m2) share their A format's layout: the
         * 18 are the one-format rows */
        shapes += pi.in_b == pi.in;
        size_t W = tc_sp_meta_words(pi.in, pi.k);
        for (unsigned sel = 0; sel < f.selectors; sel++)
            for (int rep = 0; rep < 20; rep++) {
                uint32_t E[32], back[32], meta[32];
                random_e(&r, pi.in, pi.k, E);
                memset(back, 0xff, sizeof back);
                CHECK_COND(tc_sp_meta_pack(pi.in, pi.k, sel, E, meta) == TC_OK);
                CHECK_COND(tc_sp_meta_unpack(pi.in, pi.k, sel, meta, back) == TC_OK);
                CHECK(!memcmp(E, back, 16 * W * sizeof *E), "%s k%u selector %u: round trip",
                      tc_fmt_get(pi.in)->name, pi.k, sel);
                unsigned holders = 0;
                for (unsigned lane = 0; lane < 32; lane++) {
                    unsigned t = lane % 4;
                    int holds = t / f.meta_threads == sel;
                    holders += holds;
                    if (!holds)
                        CHECK(meta[lane] == 0, "lane %u holds nothing but %08x", lane,
                              meta[lane]);
                }
                CHECK_COND(holders == 8 * f.meta_threads);
                meta[f.meta_threads * sel] ^= 0xfu; /* corrupt a holding lane's nibble */
                uint32_t keep = back[0];
                tc_status st = tc_sp_meta_unpack(pi.in, pi.k, sel, meta, back);
                /* x ^ 0xf flips both indices: ascending becomes descending, tf32's
                 * 0x4 / 0xe become 0xb / 0x1: always invalid */
                CHECK(st == TC_EINVAL && back[0] == keep, "%s k%u: corrupt metadata %s",
                      tc_fmt_get(pi.in)->name, pi.k, tc_strerror(st));
            }
    }
    CHECK(shapes == 18, "%u mma.sp rows in the PTX table, expected 18", shapes);
}

int main(void)
{
    shapes();
    a_elements();
    meta_by_hand();
    round_trips();
    printf("test_sp_fragments: %lu checks, %d failures: %s\n", checks, failures,
           failures ? "FAILED" : "PASSED");
    return failures != 0;
}
