/* bw_tb.c - rtl/tc_blackwell.sv (on rtl/tmem.sv) against the model's tc_bw_mma, bit for
 * bit, for every kind and format mix of tcsim_bw.h: f16, tf32, f8f6f4, i8 and the block-
 * scaled mxf8f6f4, mxf4 and mxf4nvf4 (ue8m0 and ue4m3 scales).
 *
 * Each case fills two tensor memories with the same random words - one for the model's
 * instruction, one serving the RTL unit's ports cycle by cycle (bw_dut.h) - draws M, N,
 * the organization, the A source, the columns, enable-input-d and a disable-output-lane
 * mask, writes random operand rows (A in tensor memory or shared memory, B in shared
 * memory), runs the instruction on both, and compares all 128 x 512 words: D, the
 * masked lanes, the lanes outside M and every other column. Scale factors are drawn
 * mostly near 2^0 with the corners mixed in (the extremes, ue8m0 0xff and ue4m3
 * S.1111.111 NaN, ue4m3 zero and subnormals), so that most results stay finite; one
 * tensor-memory word in 32 is an infinity (see fill). e2m1 rows and columns have, one in
 * 8, a group of 16 elements all +-0 or all +-6 (see structured_group). Three directed
 * mxf4nvf4 cases put the alignment exponent at and near its floor, each D word checked
 * against a value worked out by hand as well (see floor_cases); two more check the same
 * way that a group with one zero ue4m3 scale drops out (see zero_scale_cases_run).
 * Every A/B pair of f8f6f4 and mxf8f6f4 (A in one of e4m3 e5m2 e3m2 e2m3 e2m1, B in
 * another) and of i8 (int8 x uint8 both ways) runs too, with one element in 16 any
 * pattern of its format (NaN, Inf, subnormals; see pair_mixes).
 * Every instruction's tensor-memory cycles (A-read and D-write ports) and shared-memory
 * rows must be those the model's cost charges (see run_both), busy_o high from start to
 * done_o and done_o one cycle; half the random cases run with the tensor memory taken by
 * another requester about one cycle in four (bw_dut_stalls). Five more cases abandon an
 * instruction by a reset in mid-flight before running their own (see reset_cuts).
 * --design sys runs every instruction on rtl/tc_blackwell_sys.sv instead: the unit joined
 * to rtl/tmem.sv, the memory of the case loaded through its cp port and read back through
 * its ld port (bw_sys.h); the other requester is then a stream of ld requests on that port
 * (bw_sys_stalls), and a case without it must also take exactly the cycles of the unit
 * on the C model's memory (bw_design_ref_cycles).
 * Usage: bw_tb [--seed S] [--count C] [--kind K] [--design unit|sys] [-v] [--fst FILE]
 * (C cases per mix; --kind: only the mixes of kind K; -v: a line per case; --fst:
 * instead, one short mxf4nvf4 instruction (ue4m3 scales, M 128, N 8, A and C from tensor
 * memory) checked the same way and written to FILE for sim/waves/tc_blackwell.gtkw; the
 * unit only). Prints PASSED or FAILED, with the seed and the design. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "bw_design.h"
#include "bw_desc.h"
#include "scoreboard.h"
#include "test_args.h"
#include "test_random.h"   /* testkit: the stream the model's tests use */


typedef struct mix {
    tc_bw_kind kind;
    tc_fmt in, out;
    tc_fmt scale;   /* block-scaled kinds; else TC_FMT_COUNT */
} mix;
#define NS TC_FMT_COUNT

static const mix mixes[] = {
    {TC_BW_F16, TC_FMT_FP16, TC_FMT_FP32, NS},    {TC_BW_F16, TC_FMT_FP16, TC_FMT_FP16, NS},
    {TC_BW_F16, TC_FMT_BF16, TC_FMT_FP32, NS},    {TC_BW_TF32, TC_FMT_TF32, TC_FMT_FP32, NS},
    {TC_BW_F8F6F4, TC_FMT_E4M3, TC_FMT_FP32, NS}, {TC_BW_F8F6F4, TC_FMT_E5M2, TC_FMT_FP16, NS},
    {TC_BW_F8F6F4, TC_FMT_E3M2, TC_FMT_FP32, NS}, {TC_BW_F8F6F4, TC_FMT_E2M3, TC_FMT_FP16, NS},
    {TC_BW_F8F6F4, TC_FMT_E2M1, TC_FMT_FP32, NS}, {TC_BW_I8, TC_FMT_INT8, TC_FMT_S32, NS},
    {TC_BW_I8, TC_FMT_UINT8, TC_FMT_S32, NS},
    {TC_BW_MXF8F6F4, TC_FMT_E4M3, TC_FMT_FP32, TC_FMT_UE8M0},
    {TC_BW_MXF8F6F4, TC_FMT_E5M2, TC_FMT_FP32, TC_FMT_UE8M0},
    {TC_BW_MXF8F6F4, TC_FMT_E3M2, TC_FMT_FP32, TC_FMT_UE8M0},
    {TC_BW_MXF8F6F4, TC_FMT_E2M3, TC_FMT_FP32, TC_FMT_UE8M0},
    {TC_BW_MXF8F6F4, TC_FMT_E2M1, TC_FMT_FP32, TC_FMT_UE8M0},
    {TC_BW_MXF4, TC_FMT_E2M1, TC_FMT_FP32, TC_FMT_UE8M0},
    {TC_BW_MXF4NVF4, TC_FMT_E2M1, TC_FMT_FP32, TC_FMT_UE8M0},
    {TC_BW_MXF4NVF4, TC_FMT_E2M1, TC_FMT_FP32, TC_FMT_UE4M3},
};
#define N_MIXES (sizeof mixes / sizeof mixes[0])

/* The A/B pairs (issue 33): every ordered pair of two different formats of f8f6f4 (fp32
 * and fp16 output in turn) and of mxf8f6f4, and i8's two; filled by main. */
static const tc_fmt f8_fmts[] = {TC_FMT_E4M3, TC_FMT_E5M2, TC_FMT_E3M2, TC_FMT_E2M3,
                                 TC_FMT_E2M1};
typedef struct pair_mix {
    mix mx;         /* A's format in mx.in */
    tc_fmt in_b;
} pair_mix;
static pair_mix pair_mixes[2 * 5 * 4 + 2];
static size_t n_pairs;

static void pair_mixes_fill(void)
{
    for (size_t a = 0; a < 5; a++)
        for (size_t b = 0; b < 5; b++)
            if (a != b) {
                tc_fmt out = (a + b) % 2 ? TC_FMT_FP16 : TC_FMT_FP32;
                pair_mixes[n_pairs++] = (pair_mix){{TC_BW_F8F6F4, f8_fmts[a], out, NS},
                                                   f8_fmts[b]};
                pair_mixes[n_pairs++] = (pair_mix){
                    {TC_BW_MXF8F6F4, f8_fmts[a], TC_FMT_FP32, TC_FMT_UE8M0}, f8_fmts[b]};
            }
    pair_mixes[n_pairs++] = (pair_mix){{TC_BW_I8, TC_FMT_INT8, TC_FMT_S32, NS}, TC_FMT_UINT8};
    pair_mixes[n_pairs++] = (pair_mix){{TC_BW_I8, TC_FMT_UINT8, TC_FMT_S32, NS}, TC_FMT_INT8};
}

/* One element of f, tame (tc_random_fill); in a pair's case (wild) one in 16 is any
 * pattern of f's width instead, so that NaN, Inf, subnormals and the largest values of
 * each side of the pair meet the other side's. */
static uint32_t element(tc_fmt f, int wild)
{
    uint32_t el;
    tc_random_fill(f, rnd64(), 1, &el);
    if (wild) {
        uint64_t r = rnd64();
        if ((r & 15u) == 0)
            el = (uint32_t)(r >> 8) & ((1u << tc_fmt_get(f)->width) - 1u);
    }
    return el;
}

static tk_score score = {.print_max = 50}; /* testkit scoreboard: failed cases by bucket */
static int verbose;
static int wave_case;   /* --fst: one short instruction */

/* The same word into both memories: the model's and the one serving the RTL. */
static void poke_both(tc_tmem *t, tc_tmem *rt, unsigned lane, unsigned col, uint32_t w)
{
    tc_tmem_poke(t, lane, col, w);
    tc_tmem_poke(rt, lane, col, w);
}

/* Random words everywhere, in both memories. One word in 32 is an infinity instead
 * (+-Inf of fp32, and of fp16 in the low half), which a uniform word almost never is:
 * an Inf accumulator must come out as that Inf, or NaN against an opposite Inf. */
static void fill(tc_tmem *a, tc_tmem *b)
{
    static const uint32_t inf[4] = {0x7f800000u, 0xff800000u, 0x00007c00u, 0x0000fc00u};
    for (unsigned l = 0; l < TC_TMEM_LANES; l++)
        for (unsigned c = 0; c < TC_TMEM_COLS; c++) {
            uint32_t w = (uint32_t)rnd64();
            if ((w & 31u) == 0)
                w = inf[(w >> 5) & 3u];
            poke_both(a, b, l, c, w);
        }
}

/* Every word of both memories; returns the mismatches (the first few printed). */
static unsigned compare(const tc_tmem *rtl, const tc_tmem *model, const char *what)
{
    unsigned bad = 0;
    for (unsigned l = 0; l < TC_TMEM_LANES; l++)
        for (unsigned c = 0; c < TC_TMEM_COLS; c++) {
            uint32_t x, y;
            tc_tmem_peek(rtl, l, c, &x);
            tc_tmem_peek(model, l, c, &y);
            if (x != y && bad++ < 4)
                printf("  %s: lane %u col %u: rtl %08x model %08x\n", what, l, c, x, y);
        }
    return bad;
}

/* Instruction d on the model (memory t) and on the RTL (memory rt, its cycles into
 * *cycles); the words of the two memories that differ, or 1 if either refused it, plus
 * 1 if the RTL's requests are not those the model's cost charges: as many tensor-memory
 * cycles on the A and D ports (A, C, scale-factor reads, D writes, each once) and as
 * many shared-memory rows (A's M when it is there, B's N). */
static unsigned run_both(bw_design *dut, tc_tmem *t, tc_tmem *rt, const tc_bw_mma_desc *d,
                         uint64_t *cycles, const char *what)
{
    tc_bw_cost cost;
    tc_status sm = tc_bw_mma(t, d, &cost), sr = bw_design_mma(dut, rt, d, cycles);
    if (sm != TC_OK || sr != TC_OK) {
        printf("  %s: model %s, rtl %s\n", what, tc_strerror(sm), tc_strerror(sr));
        return 1;
    }
    bw_dut_traffic tr;
    bw_design_traffic_get(dut, &tr);
    unsigned bad = tr.tmem_cycles != cost.tmem_cycles || tr.smem_rows != cost.smem_rows;
    if (bad)
        printf("  %s: rtl %llu tmem cycles, %llu smem rows; model %llu, %llu\n", what,
               (unsigned long long)tr.tmem_cycles, (unsigned long long)tr.smem_rows,
               (unsigned long long)cost.tmem_cycles, (unsigned long long)cost.smem_rows);
    /* busy_o and done_o as a requester relies on them: idle when start_i is taken, busy
     * from the next cycle up to and including done_o's, idle after it, done_o one cycle.
     * Nothing else looked at busy_o except after a reset (reset_cuts): busy_o low in the
     * done cycle, or high with start_i in an idle cycle, passed (mutation audit). */
    /* the joined design with the memory to itself against the unit on the C model's
     * memory (bw_design.h): the same instruction, the same cycles */
    uint64_t ref = bw_design_ref_cycles(dut);
    if (ref && cycles && *cycles != ref) {
        printf("  %s: %llu cycles on tc_blackwell_sys, %llu on the unit with the model's "
               "memory\n", what, (unsigned long long)*cycles, (unsigned long long)ref);
        bad++;
    }
    if (tr.busy_at_start || tr.busy_gaps || tr.busy_after || tr.done_after) {
        printf("  %s: busy_o %d in the start cycle, low in %llu cycle(s) up to done_o, %d "
               "after it; done_o %d after it\n", what, tr.busy_at_start,
               (unsigned long long)tr.busy_gaps, tr.busy_after, tr.done_after);
        bad++;
    }
    return bad + compare(rt, t, what);
}

/* One scale factor: near 2^0 mostly; the corners one time in eight. */
static uint32_t scale_byte(tc_fmt f)
{
    uint32_t r = (uint32_t)rnd64();
    if (f == TC_FMT_UE8M0) {
        static const uint32_t corner[] = {0x00, 0x01, 0xfe, 0xff, 127 - 100, 127 + 100};
        return (r & 7) ? 127 - 6 + (r >> 8) % 13 : corner[(r >> 8) % 6];
    }
    /* ue4m3: the sign bit is ignored, so it is random; zero, subnormals, the largest
     * value and NaN (x.1111.111) among the corners */
    static const uint32_t corner[] = {0x00, 0x01, 0x05, 0x7e, 0x7f, 0x08};
    uint32_t sign = (r >> 20) & 0x80;
    return sign | ((r & 7) ? (uint32_t)((7 - 2 + (r >> 8) % 5) << 3 | ((r >> 12) & 7))
                           : corner[(r >> 8) % 6]);
}

/* Whether column c is one of the n columns from first (wrapping at 512). */
static int in_window(unsigned c, unsigned first, unsigned n)
{
    return (c + TC_TMEM_COLS - first) % TC_TMEM_COLS < n;
}

/* A first column for `cols` columns of scale-factor words clear of A's window, of D and
 * of `avoid_n` columns at avoid: an A element must stay an element of its format (the
 * model refuses anything else), and one scale word must not replace another. */
static unsigned scale_col(const tc_bw_mma_desc *d, unsigned cols, unsigned avoid,
                          unsigned avoid_n)
{
    for (;;) {
        unsigned c = (unsigned)(rnd64() % TC_TMEM_COLS), ok = 1;
        for (unsigned k = 0; k < cols; k++) {
            unsigned x = (c + k) % TC_TMEM_COLS;
            if ((d->a_tmem && in_window(x, d->a_col, 8)) || in_window(x, d->d_col, d->N) ||
                in_window(x, avoid, avoid_n))
                ok = 0;
        }
        if (ok)
            return c;
    }
}

/* e2m1 operands (the FP4 kinds' fedp_grouped.sv sums 16 products exactly per group):
 * one row or column in 8 has a group of 16 elements all +-0 (a group of zero products
 * drops out and must not raise the alignment exponent, whatever its scales) or all +-6
 * (the largest group sums, +-16 x 36), which uniform elements almost never are. */
static void structured_group(const mix *mx, uint32_t *row, unsigned K, unsigned W)
{
    static const uint32_t pattern[] = {0x0, 0x8, 0x7, 0xf};
    if (mx->in != TC_FMT_E2M1 || (rnd64() & 7) != 0)
        return;
    uint64_t r = rnd64();
    unsigned g = (unsigned)(r % (K / 16));
    for (unsigned e = 16 * g; e < 16 * g + 16; e++)
        tc_bw_row_set(row, W, e, pattern[(r >> 8) & 3]);
}

/* An instruction abandoned by a reset (rst_ni low for `hold` cycles after `run` cycles)
 * before the case's own instruction: the unit must be idle once rst_ni is high again and
 * then run the case's instruction as if nothing had happened. The instruction (and the
 * case's) is M 128, N 16, A from shared memory, enable-input-d 1, so that the counters
 * of rows and slices, the operation index and the results in flight all hold something
 * when the reset comes (the phases are the unit's at those cycles). */
typedef struct reset_cut {
    mix mx;
    uint64_t run;
    unsigned hold;
    const char *where;
} reset_cut;

/* One random case of mix mx, B in in_b (TC_FMT_FP32: in mx->in, as tc_bw_mma_desc's). */
static int one_case(bw_design *dut, const mix *mx, tc_fmt in_b_sel, int directed,
                    const reset_cut *cut)
{
    /* t: the model's instruction; rt: the memory serving the RTL's ports */
    tc_tmem *t, *rt;
    unsigned banks = (rnd64() & 1) ? 8 : 4;
    if (bw_design_banks(dut)) /* the joined design has one organization */
        banks = bw_design_banks(dut);
    if (tc_tmem_new(banks, &t) != TC_OK || tc_tmem_new(banks, &rt) != TC_OK)
        return -1;
    fill(t, rt);
    unsigned K, W;
    tc_bw_kind_dims(mx->kind, &K, &W);
    tc_bw_mma_desc d = bw_desc_of_mix(mx->kind, mx->in, mx->out, mx->scale);
    d.in_b = in_b_sel;
    const tc_fmt in_b = tc_bw_mma_in_b(&d);
    const int wild = in_b != mx->in;
    d.M = (rnd64() & 1) ? 128 : 64;
    d.N = 8 * (1 + (unsigned)(rnd64() % (directed ? 32 : 6)));
    if (directed)
        d.N = 256;
    d.a_tmem = (int)(rnd64() & 1);
    if (wave_case) {
        d.M = 128;
        d.N = 8;
        d.a_tmem = 1;
    }
    if (cut) {
        d.M = 128;
        d.N = 16;
        d.a_tmem = 0;
    }
    d.a_col = (unsigned)(rnd64() % TC_TMEM_COLS); /* any column: windows wrap at 512 */
    d.d_col = (d.a_col + 8 + (unsigned)(rnd64() % (TC_TMEM_COLS - 8 - d.N + 1))) % TC_TMEM_COLS;
    d.enable_input_d = wave_case || cut || (rnd64() & 1);
    for (unsigned w = 0; w < 4; w++)
        d.disable[w] = (rnd64() & 1) ? (uint32_t)(rnd64() & rnd64()) : 0;
    static uint32_t a_rows[128 * 8], b_rows[256 * 8];
    memset(a_rows, 0, sizeof a_rows);
    memset(b_rows, 0, sizeof b_rows);
    for (unsigned i = 0; i < d.M; i++) {
        for (unsigned e = 0; e < K; e++)
            tc_bw_row_set(a_rows + i * 8, W, e, element(mx->in, wild));
        structured_group(mx, a_rows + i * 8, K, W);
        if (d.a_tmem) { /* the same row in both memories */
            for (unsigned k = 0; k < 8; k++) {
                unsigned lane = tc_bw_lane_of_row(d.M, i), col = (d.a_col + k) % TC_TMEM_COLS;
                poke_both(t, rt, lane, col, a_rows[i * 8 + k]);
            }
        }
    }
    for (unsigned j = 0; j < d.N; j++) {
        for (unsigned e = 0; e < K; e++)
            tc_bw_row_set(b_rows + j * 8, W, e, element(in_b, wild));
        structured_group(mx, b_rows + j * 8, K, W);
    }
    if (mx->scale != NS) { /* four scale bytes per word: all K-blocks the kind has */
        unsigned sfb_cols = (d.N + TC_TMEM_LANES - 1) / TC_TMEM_LANES;
        d.sfb_col = scale_col(&d, sfb_cols, 0, 0);
        d.sfa_col = scale_col(&d, 1, d.sfb_col, sfb_cols);

        for (unsigned l = 0; l < TC_TMEM_LANES; l++) {
            uint32_t w = 0;
            for (unsigned g = 0; g < 4; g++)
                w |= scale_byte(mx->scale) << (8 * g);
            poke_both(t, rt, l, d.sfa_col, w);
        }
        for (unsigned n = 0; n < d.N; n++) {
            uint32_t w = 0;
            for (unsigned g = 0; g < 4; g++)
                w |= scale_byte(mx->scale) << (8 * g);
            unsigned col = (d.sfb_col + n / TC_TMEM_LANES) % TC_TMEM_COLS;
            poke_both(t, rt, n % TC_TMEM_LANES, col, w);
        }
    }
    d.a_smem.words = a_rows;
    d.a_smem.row_stride = 8;
    d.b_smem.words = b_rows;
    d.b_smem.row_stride = 8;
    /* Half the random cases lose about one cycle in four of the tensor memory to another
     * requester (bw_dut_stalls), so that a request must wait for its ready: with the
     * unit alone on the memory, D-write ready comes in the first cycle (8 banks) or the
     * second, so a C read that went on to wait for its data without its ready passed
     * (and a D write without its ready failed only by a hang after a reset). The
     * directed N = 256 cases are among them: 32 C reads. (Mutation audit.) */
    int stalls = !wave_case && !cut && (rnd64() & 1);
    bw_design_stalls(dut, stalls ? rnd64() | 1 : 0);
    uint64_t cycles = 0;
    char what[200];
    int n = snprintf(what, sizeof what, "%s %s%s%s->%s%s%s M%u N%u a_%s enable_d %d%s",
             tc_bw_kind_name(mx->kind), tc_fmt_get(mx->in)->name, wild ? " x " : "",
             wild ? tc_fmt_get(in_b)->name : "", tc_fmt_get(mx->out)->name,
             mx->scale != NS ? " scale " : "", mx->scale != NS ? tc_fmt_get(mx->scale)->name : "",
             d.M, d.N, d.a_tmem ? "tmem" : "smem", d.enable_input_d, stalls ? " stalls" : "");
    unsigned bad = 0;
    if (cut) { /* the abandoned instruction, on a memory of its own */
        snprintf(what + n, sizeof what - (size_t)n, " after a reset at cycle %llu (%s, %u)",
                 (unsigned long long)cut->run, cut->where, cut->hold);
        tc_tmem *s;
        int busy = -1;
        if (tc_tmem_new(banks, &s) != TC_OK) {
            tc_tmem_free(t);
            tc_tmem_free(rt);
            return -1;
        }
        tc_status st = bw_design_mma_reset(dut, s, &d, cut->run, cut->hold, &busy);
        tc_tmem_free(s);
        if (st != TC_OK || busy != 0) {
            printf("  %s: %s, busy %d after the reset\n", what, tc_strerror(st), busy);
            bad++;
        }
    }
    bad += run_both(dut, t, rt, &d, &cycles, what);
    if (bad) {
        tk_fail(&score, TK_B_WORD, "%s: %u word(s) or request count(s) differ (seed as given)",
                what, bad);
    } else if (verbose) {
        printf("ok %s: %llu cycles\n", what, (unsigned long long)cycles);
        fflush(stdout);
    }
    tc_tmem_free(t);
    tc_tmem_free(rt);
    return 0;
}

/* Where the alignment exponent E of the FP4 kinds' fused step sits when every term is
 * tiny and c is zero (docs/contract.md: E = max(Emin_align = -133, the group terms' scale
 * exponents, c's only when c != 0)). Random scales near 2^0 never go there. Each case is
 * one mxf4nvf4 instruction with ue8m0 scales and enable-input-d 0 whose only non-zero
 * element is D[0][0] = a big term (+1 x 2^big) plus a small one (-1 x 2^small): the small
 * one survives the truncation to F = 35 fraction bits of 2^E or it does not, and the sum
 * is rounded toward zero to an fp32 subnormal. `expect` is worked out by hand from
 * docs/contract.md; the whole D block and every other word must also agree with the RTL. */
typedef struct floor_case {
    int big, small;     /* scale exponents of groups 0 and 1: sa = 2^-127, sb = the rest */
    uint32_t expect;    /* D[0][0] as fp32 bits */
    const char *why;
} floor_case;

static const floor_case floor_cases[] = {
    /* E = -130: 2^35 - trunc(2^-162 * 2^165 = 8) units of 2^-165, RZ to 2^-130 - 2^-149.
     * A zero c that raised E to fp32's -126 would truncate the small term to 0. */
    {-130, -162, 0x0007ffffu, "a zero c does not raise E above the terms'"},
    /* E = -133 (the floor, above -140): trunc(2^-170 * 2^168) = 0, so exactly 2^-140.
     * Without the floor E = -140 and the small term (32 units) would be kept. */
    {-140, -170, 0x00000200u, "E stops at the floor -133"},
    /* E = -133: trunc(2^-168 * 2^168) = 1 unit survives, so 2^-140 - 2^-149 after RZ.
     * A floor of -132 would truncate it to 0. */
    {-140, -168, 0x000001ffu, "the floor is -133, not -132"},
};

/* One directed mxf4nvf4 instruction (M 128, N 8): A and B rows from shared memory,
 * holding only the elements a case sets; scale words per lane at columns 200 (A) and
 * 201 (B); with c, enable-input-d 1 and D[0][0] = *c. It runs on the model and on the
 * RTL, which must agree on the whole memory, and then both must hold `expect` at D[0][0]
 * and, without c (no other products, no accumulator), +0 in the rest of the D block.
 * Returns 1 after printing what differs, else 0. */
typedef struct fp4_directed {
    tc_fmt scale;
    uint32_t a_rows[128 * 8], b_rows[8 * 8];
    uint32_t sfa[TC_TMEM_LANES], sfb[TC_TMEM_LANES];
    const uint32_t *c;
    uint32_t expect;
} fp4_directed;

static unsigned fp4_directed_run(bw_design *dut, const fp4_directed *x, const char *what)
{
    tc_bw_mma_desc d;
    memset(&d, 0, sizeof d);
    d.kind = TC_BW_MXF4NVF4;
    d.in = TC_FMT_E2M1;
    d.out = TC_FMT_FP32;
    d.scale = x->scale;
    d.M = 128;
    d.N = 8;
    d.d_col = 40;
    d.sfa_col = 200;
    d.sfb_col = 201;
    d.enable_input_d = x->c != NULL;
    d.a_smem.words = x->a_rows;
    d.a_smem.row_stride = 8;
    d.b_smem.words = x->b_rows;
    d.b_smem.row_stride = 8;
    tc_tmem *t = NULL, *rt = NULL;
    unsigned banks = bw_design_banks(dut) ? bw_design_banks(dut) : 8;
    if (tc_tmem_new(banks, &t) != TC_OK || tc_tmem_new(banks, &rt) != TC_OK) {
        printf("  %s: out of memory\n", what);
        tc_tmem_free(t);
        return 1;
    }
    fill(t, rt);
    bw_design_stalls(dut, 0);   /* the memory to itself, as the random cases without stalls */
    for (unsigned l = 0; l < TC_TMEM_LANES; l++) {
        poke_both(t, rt, l, d.sfa_col, x->sfa[l]);
        poke_both(t, rt, l, d.sfb_col, x->sfb[l]);
    }
    if (x->c)
        poke_both(t, rt, tc_bw_lane_of_row(d.M, 0), d.d_col, *x->c);
    uint64_t cycles;
    unsigned bad = run_both(dut, t, rt, &d, &cycles, what);
    for (unsigned i = 0; !bad && i < d.M; i++)   /* the RTL equals the model: both */
        for (unsigned j = 0; j < d.N; j++) {     /* against the hand-worked value */
            if (x->c && (i || j))
                continue;
            uint32_t want = i == 0 && j == 0 ? x->expect : 0, m, r;
            unsigned lane = tc_bw_lane_of_row(d.M, i);
            tc_tmem_peek(t, lane, d.d_col + j, &m);
            tc_tmem_peek(rt, lane, d.d_col + j, &r);
            if ((m != want || r != want) && bad++ < 4)
                printf("  %s: D[%u][%u]: model %08x rtl %08x, expected %08x\n", what, i, j, m,
                       r, want);
        }
    tc_tmem_free(t);
    tc_tmem_free(rt);
    return bad != 0;
}

static void floor_cases_run(bw_design *dut)
{
    enum { ONE = 0x2, MINUS_ONE = 0xa };   /* e2m1 */
    static fp4_directed x;
    for (size_t c = 0; c < sizeof floor_cases / sizeof floor_cases[0]; c++) {
        const floor_case *fc = &floor_cases[c];
        unsigned K, W;
        tc_bw_kind_dims(TC_BW_MXF4NVF4, &K, &W);
        memset(&x, 0, sizeof x);
        x.scale = TC_FMT_UE8M0;
        tc_bw_row_set(x.a_rows, W, 0, ONE);        /* group 0: +1 x +1 */
        tc_bw_row_set(x.b_rows, W, 0, ONE);
        tc_bw_row_set(x.a_rows, W, 16, ONE);       /* group 1: +1 x -1 */
        tc_bw_row_set(x.b_rows, W, 16, MINUS_ONE);
        /* scale bytes: 2^-127 for A everywhere; B column 0: 2^(big+127), 2^(small+127) */
        for (unsigned l = 0; l < TC_TMEM_LANES; l++)
            x.sfb[l] = 0x7f7f7f7fu;
        x.sfb[0] = (uint32_t)(fc->big + 254) | (uint32_t)(fc->small + 254) << 8;
        x.expect = fc->expect;
        char what[48];
        snprintf(what, sizeof what, "floor case %zu", c);
        if (fp4_directed_run(dut, &x, what)) {
            tk_fail(&score, tk_bucket_of(TC_FMT_FP32, fc->expect),
                    "floor case %zu (%s): terms 2^%d and -2^%d", c, fc->why, fc->big, fc->small);
        } else if (verbose) {
            printf("ok floor case %zu: %s\n", c, fc->why);
        }
    }
}

/* A group whose scale product is zero drops out even when only one of its two scales is
 * zero (docs/contract.md "mxf4 / nvf4"): it must not raise E to e(sa) + e(sb) though its term
 * is 0. Random scales are zero only one time in 48 and near 2^0, where the raised E
 * truncates nothing that shows. Each case is one mxf4nvf4 instruction with ue4m3 scales
 * and enable-input-d 1 whose D[0][0] has one non-zero product (+1 x +1, group 0), scales
 * zero and 448 = 1.75 x 2^8 (either way round; B's zero is 0x80, its ignored sign set),
 * and c = 2^-60. Dropped, group 0 leaves E at c's -60 and D[0][0] = c exactly; counted,
 * its E = -6 + 8 = 2 would truncate c (below 2^(2-35)) away and give +0. */
static void zero_scale_cases_run(bw_design *dut)
{
    static const uint32_t sa0[2] = {0x00, 0x7e}, sb0[2] = {0x7e, 0x80}; /* group 0 */
    enum { ONE = 0x2, ONE_UE4M3 = 0x38 };
    static const uint32_t c_word = 0x21800000u; /* 2^-60 */
    static fp4_directed x;
    for (int c = 0; c < 2; c++) {
        unsigned K, W;
        tc_bw_kind_dims(TC_BW_MXF4NVF4, &K, &W);
        memset(&x, 0, sizeof x);
        x.scale = TC_FMT_UE4M3;
        tc_bw_row_set(x.a_rows, W, 0, ONE);
        tc_bw_row_set(x.b_rows, W, 0, ONE);
        unsigned lane0 = tc_bw_lane_of_row(128, 0);
        for (unsigned l = 0; l < TC_TMEM_LANES; l++) {
            uint32_t ones = ONE_UE4M3 * 0x01010101u; /* the groups without products */
            x.sfa[l] = l == lane0 ? (ones & ~0xffu) | sa0[c] : ones;
            x.sfb[l] = l == lane0 ? (ones & ~0xffu) | sb0[c] : ones;
        }
        x.c = &c_word;
        x.expect = c_word;
        char what[48];
        snprintf(what, sizeof what, "zero scale case %d", c);
        if (fp4_directed_run(dut, &x, what)) {
            tk_fail(&score, tk_bucket_of(TC_FMT_FP32, c_word),
                    "zero scale case %d: sa %02x sb %02x", c, sa0[c], sb0[c]);
        } else if (verbose) {
            printf("ok zero scale case %d\n", c);
        }
    }
}

/* Cycle 0 raises start_i; A's 128 rows are asked for in cycles 1-128, B's first 8 from
 * cycle 131, the first slice's 1024 operations from about cycle 145, the second slice's
 * B rows from about cycle 1175 (i8: the unit's latency is 1, fedp.sv's 4). */
static const reset_cut reset_cuts[] = {
    {{TC_BW_I8, TC_FMT_INT8, TC_FMT_S32, NS}, 60, 2, "A rows"},
    {{TC_BW_I8, TC_FMT_INT8, TC_FMT_S32, NS}, 600, 1, "slice 0 operations"},
    {{TC_BW_I8, TC_FMT_UINT8, TC_FMT_S32, NS}, 1178, 2, "slice 1 B rows"},
    {{TC_BW_F16, TC_FMT_FP16, TC_FMT_FP32, NS}, 700, 2, "slice 0 operations"},
    {{TC_BW_F16, TC_FMT_BF16, TC_FMT_FP32, NS}, 135, 1, "slice 0 B rows"},
};

int main(int argc, char **argv)
{
    uint64_t seed = 1, count = 3;
    const char *only = NULL, *fst = NULL, *design = "unit";
    const test_opt opts[] = {{"--seed", &seed, UINT64_MAX, NULL, NULL},
                             {"--count", &count, UINT64_MAX, NULL, NULL},
                             {"--kind", NULL, 0, &only, NULL},
                             {"--fst", NULL, 0, &fst, NULL},
                             {"--design", NULL, 0, &design, NULL},
                             {"-v", NULL, 0, NULL, &verbose},
                             {NULL, NULL, 0, NULL, NULL}};
    int st = test_parse_opts("bw_tb", argc, argv, opts,
                             "usage: bw_tb [--seed S] [--count C] [--kind K] [--design unit|sys] "
                             "[-v] [--fst FILE]\n");
    if (st != TEST_RUN)
        return st;
    tc_bw_kind only_kind = TC_BW_KIND_COUNT;
    if (only && tc_bw_kind_parse(only, &only_kind) != TC_OK) {
        fprintf(stderr, "bw_tb: unknown kind '%s'\n", only);
        return 2;
    }
    int sys = !strcmp(design, "sys");
    if (!sys && strcmp(design, "unit")) {
        fprintf(stderr, "bw_tb: unknown design '%s' (unit or sys)\n", design);
        return 2;
    }
    if (sys && fst) {
        fprintf(stderr, "bw_tb: --fst is the unit's waveform (--design unit)\n");
        return 2;
    }
    rng = seed * 0x9e3779b97f4a7c15ull + 1;
    bw_design *dut;
    if (bw_design_open(sys ? BW_DESIGN_SYS : BW_DESIGN_UNIT, fst, &dut) != TC_OK) {
        fprintf(stderr, "bw_tb: cannot start the model%s%s\n", fst ? " or write " : "",
                fst ? fst : "");
        return 1;
    }
    if (fst) {
        static const mix wave = {TC_BW_MXF4NVF4, TC_FMT_E2M1, TC_FMT_FP32, TC_FMT_UE4M3};
        wave_case = verbose = 1;
        one_case(dut, &wave, TC_FMT_FP32, 0, NULL);
        printf("the waveform case, %llu RTL cycles, in %s\n",
               (unsigned long long)bw_design_cycles(dut), fst);
        bw_design_free(dut);
        tk_score_print(&score);
        return tk_verdict(tk_score_total(&score));
    }
    unsigned cases = 0;
    for (size_t m = 0; m < N_MIXES; m++)
        for (uint64_t c = 0; c < count && (!only || mixes[m].kind == only_kind);
             c++, cases++)
            if (one_case(dut, &mixes[m], TC_FMT_FP32, c == 0, NULL) != 0)
                tk_fail(&score, TK_B_TIMING, "the RTL hung (%s case %llu)",
                        tc_bw_kind_name(mixes[m].kind), (unsigned long long)c);
    pair_mixes_fill();
    for (size_t m = 0; m < n_pairs; m++)  /* one case each (two from --count 4), N <= 48 */
        for (uint64_t c = 0;
             c < (count + 2) / 3 && (!only || pair_mixes[m].mx.kind == only_kind); c++, cases++)
            if (one_case(dut, &pair_mixes[m].mx, pair_mixes[m].in_b, 0, NULL) != 0)
                tk_fail(&score, TK_B_TIMING, "the RTL hung (%s pair case %llu)",
                        tc_bw_kind_name(pair_mixes[m].mx.kind), (unsigned long long)c);
    if (!only || only_kind == TC_BW_MXF4NVF4) {
        floor_cases_run(dut);
        zero_scale_cases_run(dut);
    }
    for (size_t c = 0; c < sizeof reset_cuts / sizeof reset_cuts[0]; c++)
        if (!only || reset_cuts[c].mx.kind == only_kind)
            if (one_case(dut, &reset_cuts[c].mx, TC_FMT_FP32, 0, &reset_cuts[c]) != 0)
                tk_fail(&score, TK_B_TIMING, "the RTL hung (reset cut %zu)", c);
    /* a mix the table does not list (mxf4 scales with ue8m0 only) is refused, not run */
    tc_bw_mma_desc d;
    memset(&d, 0, sizeof d);
    d.kind = TC_BW_MXF4;
    d.in = TC_FMT_E2M1;
    d.out = TC_FMT_FP32;
    d.scale = TC_FMT_UE4M3;
    d.M = 128;
    d.N = 8;
    d.b_smem.words = (const uint32_t[8]){0};
    d.b_smem.row_stride = 8;
    tc_tmem *t;
    tc_tmem_new(bw_design_banks(dut) ? bw_design_banks(dut) : 8, &t);
    if (bw_design_mma(dut, t, &d, NULL) != TC_EUNSUPPORTED) {
        tk_fail(&score, TK_B_CHECK, "mxf4 with ue4m3 scales not refused");
    }
    tc_tmem_free(t);
    printf("%u case(s), %llu RTL cycles (seed %llu, design %s)\n", cases,
           (unsigned long long)bw_design_cycles(dut), (unsigned long long)seed, design);
    bw_design_free(dut);
    tk_score_print(&score);
    return tk_verdict(tk_score_total(&score));
}
