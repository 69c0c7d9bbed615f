/* test_tmem.c - unit tests of the tensor-memory model (model/src/tmem.c) on its own.
 *
 * Every expectation here is written from seed 003 and the contract in tcsim_tmem.h
 * (mapping formula, shift semantics, costs per organization, handshake), not read back
 * from the model. The RTL is checked against the same model in tb/tmem. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "tcsim.h"
#include "check.h"

#define LANES TC_TMEM_LANES
#define COLS TC_TMEM_COLS
#define GL TC_TMEM_GROUP_LANES
#define WIDE TC_TMEM_WIDE_WORDS
#define QUARTER TC_TMEM_QUARTER_WORDS


static uint32_t tag(unsigned lane, unsigned col) { return 0xa0000000u | (lane << 12) | col; }

/* A memory whose every word names its (lane, col), written with poke. */
static tc_tmem *tagged(unsigned banks)
{
    tc_tmem *m = NULL;
    if (tc_tmem_new(banks, &m) != TC_OK)
        return NULL;
    for (unsigned l = 0; l < LANES; l++)
        for (unsigned c = 0; c < COLS; c++)
            tc_tmem_poke(m, l, c, tag(l, c));
    return m;
}

static uint32_t peek(const tc_tmem *m, unsigned lane, unsigned col)
{
    uint32_t v = 0xdeadbeefu;
    tc_tmem_peek(m, lane, col, &v);
    return v;
}

static void test_map(unsigned banks)
{
    for (unsigned l = 0; l < LANES; l++)
        for (unsigned c = 0; c < COLS; c++) {
            tc_tmem_loc loc;
            CHECK(tc_tmem_map(banks, l, c, &loc) == TC_OK, "map %u %u", l, c);
            CHECK(loc.group == l / 32 && loc.group_lane == l % 32 && loc.bank == c % banks &&
                      loc.row == c / banks,
                  "%u banks: lane %u col %u -> g%u b%u r%u", banks, l, c, loc.group, loc.bank,
                  loc.row);
        }
    /* seed 003: bank n of a group holds columns 8*row + n */
    tc_tmem_loc loc;
    if (banks == 8) {
        tc_tmem_map(8, 37, 8 * 63 + 5, &loc);
        CHECK(loc.group == 1 && loc.bank == 5 && loc.row == 63, "column 509 of lane 37");
    }
    CHECK(tc_tmem_map(banks, LANES, 0, &loc) == TC_EINVAL, "lane 128");
    CHECK(tc_tmem_map(banks, 0, COLS, &loc) == TC_EINVAL, "col 512");
    CHECK(tc_tmem_map(banks, 0, 0, NULL) == TC_EINVAL, "NULL out");

    /* the physical view agrees: poke by (lane, col), find it in bank row(g, c%b, c/b) */
    tc_tmem *m = tagged(banks);
    uint32_t row[GL];
    for (unsigned g = 0; g < 4; g++)
        for (unsigned b = 0; b < banks; b++)
            for (unsigned r = 0; r < COLS / banks; r++) {
                CHECK(tc_tmem_bank_row(m, g, b, r, row) == TC_OK, "bank_row");
                for (unsigned i = 0; i < GL; i++)
                    CHECK(row[i] == tag(g * 32 + i, r * banks + b), "bank row g%u b%u r%u lane %u",
                          g, b, r, i);
            }
    CHECK(tc_tmem_bank_row(m, 4, 0, 0, row) == TC_EINVAL, "group 4");
    CHECK(tc_tmem_bank_row(m, 0, banks, 0, row) == TC_EINVAL, "bank out of range");
    CHECK(tc_tmem_bank_row(m, 0, 0, COLS / banks, row) == TC_EINVAL, "row out of range");
    tc_tmem_free(m);
}

static unsigned want_cycles(unsigned banks, unsigned ncols) { return (ncols + banks - 1) / banks; }

static void test_costs(unsigned banks)
{
    unsigned c = 0;
    /* seed 003: with 8 banks a slice moves in 1 cycle, with 4 banks in 2 */
    static const tc_tmem_op wide[] = { TC_TMEM_OP_MMA_D, TC_TMEM_OP_MMA_A, TC_TMEM_OP_SHIFT,
                                       TC_TMEM_OP_CP };
    for (size_t i = 0; i < 4; i++) {
        CHECK(tc_tmem_op_cycles(banks, wide[i], 0, &c) == TC_OK && c == (banks == 8 ? 1u : 2u),
              "%s on %u banks: %u cycles", tc_tmem_op_name(wide[i]), banks, c);
        /* tcsim_tmem.h: ncols "is ignored (always 8) for the others" */
        CHECK(tc_tmem_op_cycles(banks, wide[i], 1, &c) == TC_OK && c == (banks == 8 ? 1u : 2u) &&
                  tc_tmem_op_cycles(banks, wide[i], 9, &c) == TC_OK && c == (banks == 8 ? 1u : 2u),
              "%s on %u banks with ncols 1 and 9: %u cycles", tc_tmem_op_name(wide[i]), banks, c);
    }
    for (unsigned n = 1; n <= 8; n++) {
        unsigned w = banks == 8 ? 1 : (n <= 4 ? 1 : 2);
        CHECK(tc_tmem_op_cycles(banks, TC_TMEM_OP_LD, n, &c) == TC_OK && c == w, "ld %u", n);
        CHECK(tc_tmem_op_cycles(banks, TC_TMEM_OP_ST, n, &c) == TC_OK && c == w, "st %u", n);
    }
    CHECK(tc_tmem_op_cycles(banks, TC_TMEM_OP_LD, 0, &c) == TC_EINVAL, "ld 0");
    CHECK(tc_tmem_op_cycles(banks, TC_TMEM_OP_ST, 9, &c) == TC_EINVAL, "st 9");
    CHECK(tc_tmem_op_cycles(banks, TC_TMEM_OP_COUNT, 1, &c) == TC_EINVAL, "bad op");
    CHECK(tc_tmem_op_cycles(5, TC_TMEM_OP_LD, 1, &c) == TC_EINVAL, "5 banks");

    /* .32x32b.xN: ceil(N/8) requests; N/8 cycles with 8 banks, N/4 (or 1) with 4 */
    tc_tmem *m = NULL;
    tc_tmem_new(banks, &m);
    static uint32_t buf[128 * GL], out[128 * GL];
    for (unsigned i = 0; i < 128 * GL; i++)
        buf[i] = 0x5000000u + i;
    for (unsigned num = 1; num <= 128; num *= 2) {
        unsigned cs = 0, cl = 0;
        unsigned w = banks == 8 ? (num + 7) / 8 : (num <= 4 ? 1 : num / 4);
        CHECK(tc_tmem_st_32x32b(m, 3, 500, num, buf, &cs) == TC_OK && cs == w,
              "st .x%u on %u banks: %u cycles, expected %u", num, banks, cs, w);
        memset(out, 0, sizeof out);
        CHECK(tc_tmem_ld_32x32b(m, 3, 500, num, out, &cl) == TC_OK && cl == w, "ld .x%u", num);
        CHECK(!memcmp(out, buf, (size_t)num * GL * 4), "ld .x%u reads back the st", num);
        /* and it went to lanes 96..127, columns 500.. wrapping */
        CHECK(peek(m, 96 + 5, (500 + num - 1) % COLS) == buf[(num - 1) * GL + 5], "placement .x%u", num);
    }
    CHECK(tc_tmem_ld_32x32b(m, 0, 0, 3, out, &c) == TC_EINVAL, ".x3 is not a shape");
    CHECK(tc_tmem_ld_32x32b(m, 0, 0, 256, out, &c) == TC_EINVAL, ".x256 is not a shape");
    /* tcsim.h: a count of zero and an out-of-range value are TC_EINVAL; N is 1..128 and
     * a start column 0..511 (col 512 is not column 0, though the requests wrap) */
    CHECK(tc_tmem_ld_32x32b(m, 0, 0, 0, out, &c) == TC_EINVAL &&
              tc_tmem_st_32x32b(m, 0, 0, 0, buf, &c) == TC_EINVAL, ".x0 is not a shape");
    CHECK(tc_tmem_st_32x32b(m, 0, COLS, 1, buf, &c) == TC_EINVAL &&
              tc_tmem_ld_32x32b(m, 0, COLS, 16, out, &c) == TC_EINVAL, ".32x32b at col 512");
    CHECK(peek(m, 0, 0) == 0, "a refused st .32x32b at col 512 wrote column 0");
    tc_tmem_free(m);
}

static void test_shift(unsigned banks)
{
    static const unsigned cols[] = { 0, 13, 504, 509 };
    for (size_t i = 0; i < 4; i++) {
        tc_tmem *m = tagged(banks);
        unsigned c = cols[i], cyc = 0;
        CHECK(tc_tmem_shift(m, c, &cyc) == TC_OK && cyc == want_cycles(banks, 8),
              "shift on %u banks: %u cycles", banks, cyc);
        for (unsigned k = 0; k < 8; k++) {
            unsigned cc = (c + k) % COLS;
            CHECK(peek(m, 0, cc) == tag(0, cc), "lane 0 (the last lane) keeps its word");
            for (unsigned l = 1; l < LANES; l++)
                CHECK(peek(m, l, cc) == tag(l - 1, cc), "col %u lane %u", cc, l);
        }
        CHECK(peek(m, 32, c) == tag(31, c) && peek(m, 64, c) == tag(63, c) &&
                  peek(m, 96, c) == tag(95, c),
              "group boundaries");
        /* the columns next to the window do not move */
        unsigned before = (c + COLS - 1) % COLS, after = (c + 8) % COLS;
        for (unsigned l = 0; l < LANES; l++)
            CHECK(peek(m, l, before) == tag(l, before) && peek(m, l, after) == tag(l, after),
                  "outside the window, lane %u", l);
        /* back to back: three more shifts -> lane l holds old lane max(0, l-4) */
        for (int t = 0; t < 3; t++)
            tc_tmem_shift(m, c, NULL);
        for (unsigned l = 0; l < LANES; l++)
            CHECK(peek(m, l, c) == tag(l >= 4 ? l - 4 : 0, c), "4 shifts, lane %u", l);
        tc_tmem_free(m);
    }
}

static void test_ops(unsigned banks)
{
    static uint32_t src[WIDE], a[WIDE], q[QUARTER], out[QUARTER];
    tc_tmem *m = tagged(banks);
    unsigned c = 0;
    for (unsigned i = 0; i < WIDE; i++)
        src[i] = 0x70000000u + i;
    /* cp across the wrap, read back by A at the same and a shifted start */
    CHECK(tc_tmem_cp(m, 506, src, &c) == TC_OK && c == want_cycles(banks, 8), "cp");
    CHECK(tc_tmem_mma_a(m, 506, a, &c) == TC_OK && c == want_cycles(banks, 8), "A read");
    CHECK(!memcmp(a, src, sizeof a), "A read returns the cp data");
    CHECK(tc_tmem_mma_a(m, 502, a, NULL) == TC_OK, "A read at 502");
    for (unsigned k = 0; k < 8; k++)
        for (unsigned l = 0; l < LANES; l++) {
            unsigned col = 502 + k;
            uint32_t w = col >= 506 ? src[(col - 506) * LANES + l] : tag(l, col);
            CHECK(a[k * LANES + l] == w, "A at 502 slot %u lane %u", k, l);
        }
    CHECK(peek(m, 7, 505) == tag(7, 505) && peek(m, 7, 6) == tag(7, 6), "cp stays in its window");

    /* masked D: lanes 0, 31, 32 and 127 disabled */
    uint32_t dis[4] = { 0x80000001u, 0x00000001u, 0, 0x80000000u };
    CHECK(tc_tmem_mma_d(m, 100, src, dis, &c) == TC_OK && c == want_cycles(banks, 8), "D");
    for (unsigned l = 0; l < LANES; l++) {
        int off = l == 0 || l == 31 || l == 32 || l == 127;
        CHECK(peek(m, l, 103) == (off ? tag(l, 103) : src[3 * LANES + l]), "D lane %u", l);
    }
    CHECK(tc_tmem_mma_d(m, 100, src, NULL, NULL) == TC_OK && peek(m, 0, 100) == src[0],
          "D with no mask writes every lane");

    /* ld/st of n columns; ld slots past n read 0 */
    for (unsigned i = 0; i < QUARTER; i++)
        q[i] = 0x30000000u + i;
    const uint32_t group0 = peek(m, 0, 510);
    for (unsigned n = 1; n <= 8; n++) {
        CHECK(tc_tmem_st(m, 1, 510, n, q, &c) == TC_OK && c == want_cycles(banks, n), "st %u", n);
        memset(out, 0xff, sizeof out);
        CHECK(tc_tmem_ld(m, 1, 510, n, out, &c) == TC_OK && c == want_cycles(banks, n), "ld %u", n);
        CHECK(!memcmp(out, q, (size_t)n * GL * 4), "ld %u reads the st", n);
        CHECK(peek(m, 32, (510 + n - 1) % COLS) == q[(n - 1) * GL], "st %u lands in group 1", n);
        CHECK(peek(m, 0, 510) == group0, "st of group 1 leaves group 0 alone");
    }
    tc_tmem_inputs ld = { .ls_valid = 1, .ls_group = 1, .ls_col = 510, .ls_ncols = 3 };
    tc_tmem_outputs o;
    for (int i = 0; i < 2; i++)
        tc_tmem_clock(m, &ld, &o);
    CHECK(o.ls_rvalid, "ld of 3 done");
    for (unsigned k = 3; k < 8; k++)
        CHECK(o.ls_rdata[k * GL] == 0 && o.ls_rdata[k * GL + 31] == 0, "ld slot %u reads 0", k);

    CHECK(tc_tmem_st(m, 4, 0, 1, q, NULL) == TC_EINVAL, "group 4");
    CHECK(tc_tmem_st(m, 0, 512, 1, q, NULL) == TC_EINVAL, "col 512");
    CHECK(tc_tmem_ld(m, 0, 0, 0, out, NULL) == TC_EINVAL, "ld of 0 columns");
    CHECK(tc_tmem_ld(m, 0, 0, 9, out, NULL) == TC_EINVAL, "ld of 9 columns");
    CHECK(tc_tmem_cp(m, 0, NULL, NULL) == TC_EINVAL, "cp from NULL");
    CHECK(tc_tmem_peek(m, 128, 0, &c) == TC_EINVAL && tc_tmem_poke(m, 0, 512, 1) == TC_EINVAL,
          "peek/poke range");
    CHECK(tc_tmem_peek(m, 0, 0, NULL) == TC_EINVAL && tc_tmem_peek(NULL, 0, 0, &c) == TC_EINVAL,
          "peek with a NULL pointer (tcsim.h: TC_EINVAL)");
    tc_tmem_free(m);
}

/* The clocked interface: priority, lock, read timing, reset, bad payloads. */
static void test_clock(unsigned banks)
{
    static uint32_t d[WIDE], cpd[WIDE];
    tc_tmem *m = tagged(banks);
    const unsigned w = want_cycles(banks, 8);
    for (unsigned i = 0; i < WIDE; i++) {
        d[i] = 0xd0000000u + i;
        cpd[i] = 0xc0000000u + i;
    }
    /* all five at once: D, A, shift, cp, ls in that order, back to back */
    tc_tmem_inputs in = { .d_valid = 1, .d_col = 0, .d_data = d, .a_valid = 1, .a_col = 0,
                          .shift_valid = 1, .shift_col = 0, .cp_valid = 1, .cp_col = 8,
                          .cp_data = cpd, .ls_valid = 1, .ls_group = 0, .ls_col = 0, .ls_ncols = 8 };
    tc_tmem_outputs o;
    unsigned cycle = 0, next = 0;
    while (next < TC_TMEM_PORT_COUNT && cycle < 40) {
        CHECK(tc_tmem_clock(m, &in, &o) == TC_OK, "clock");
        cycle++;
        CHECK(o.grant == 1u << next, "cycle %u: grant %#x, expected port %u", cycle, o.grant, next);
        if (cycle % w == 0) {
            CHECK(o.ready == 1u << next, "cycle %u: ready %#x", cycle, o.ready);
            if (next == TC_TMEM_PORT_A) {
                CHECK(o.a_rvalid && o.a_rdata[5] == d[5], "A after D sees D, and rvalid is set");
            }
            switch (next) {
            case 0: in.d_valid = 0; break;
            case 1: in.a_valid = 0; break;
            case 2: in.shift_valid = 0; break;
            case 3: in.cp_valid = 0; break;
            default: in.ls_valid = 0; break;
            }
            next++;
        } else {
            CHECK(o.ready == 0, "cycle %u: ready before the last cycle", cycle);
            /* tcsim_tmem.h: rvalid says a read completed in this cycle, so not in the
             * first cycle of a two-cycle A read or ld (4 banks) */
            CHECK(!o.a_rvalid && !o.ls_rvalid, "cycle %u: rvalid before the last cycle",
                  cycle);
        }
    }
    CHECK(next == TC_TMEM_PORT_COUNT && cycle == 5 * w, "5 requests in %u cycles", cycle);
    CHECK(o.ls_rvalid && o.ls_rdata[1] == d[0], "ld sees D's lane 0 shifted into lane 1");
    CHECK(tc_tmem_cycle_count(m) == cycle, "cycle count");
    tc_tmem_inputs idle = { 0 };
    tc_tmem_clock(m, &idle, &o);
    CHECK(!o.a_rvalid && !o.ls_rvalid && !o.grant && !o.ready, "idle after");
    CHECK(tc_tmem_cycle_count(m) == cycle + 1, "tcsim_tmem.h: clocks since tc_tmem_new, "
          "an idle one too");
    /* tcsim_tmem.h: ls_rvalid says an ld completed; a st of 4 columns is one cycle on
     * either organization (ceil(4 / banks)) and completes with ready, no rvalid */
    tc_tmem_inputs st4 = { .ls_valid = 1, .ls_store = 1, .ls_group = 2, .ls_col = 60,
                           .ls_ncols = 4, .ls_data = d };
    CHECK(tc_tmem_clock(m, &st4, &o) == TC_OK && o.ready == 1u << TC_TMEM_PORT_LS &&
              !o.ls_rvalid && !o.a_rvalid,
          "st: ready %#x, ls_rvalid %d", o.ready, o.ls_rvalid);
    CHECK(peek(m, 64 + 9, 63) == d[3 * GL + 9], "clocked st lands in group 2");

    if (banks == 4) {
        /* a two-cycle cp keeps the memory in its second cycle even against D */
        tc_tmem_inputs c2 = { .cp_valid = 1, .cp_col = 40, .cp_data = cpd };
        tc_tmem_clock(m, &c2, &o);
        CHECK(o.grant == 1u << TC_TMEM_PORT_CP && !o.ready, "cp first cycle");
        CHECK(tc_tmem_shift(m, 0, NULL) == TC_EINVAL, "an operation call on a half-done request");
        /* ... a cp too, though its payload is what the half-done cp's second cycle would
         * read (tcsim_tmem.h: TC_EINVAL if a two-cycle request is half done) */
        CHECK(tc_tmem_cp(m, 40, cpd, NULL) == TC_EINVAL, "a cp call on a half-done cp");
        c2.d_valid = 1;
        c2.d_col = 40;
        c2.d_data = d;
        tc_tmem_clock(m, &c2, &o);
        CHECK(o.grant == 1u << TC_TMEM_PORT_CP && o.ready == 1u << TC_TMEM_PORT_CP, "cp second cycle");
        c2.cp_valid = 0;
        tc_tmem_clock(m, &c2, &o);
        CHECK(o.grant == 1u << TC_TMEM_PORT_D && !o.ready, "then D");
        tc_tmem_clock(m, &c2, &o);
        CHECK(o.ready == 1u << TC_TMEM_PORT_D && peek(m, 9, 47) == d[7 * LANES + 9], "D done");

        /* reset after the first cycle: columns of slots 0-3 written, 4-7 not */
        tc_tmem_inputs c3 = { .cp_valid = 1, .cp_col = 200, .cp_data = d };
        tc_tmem_clock(m, &c3, &o);
        tc_tmem_reset(m);
        CHECK(peek(m, 3, 203) == d[3 * LANES + 3] && peek(m, 3, 204) == tag(3, 204),
              "reset abandons the second half");
        tc_tmem_clock(m, &idle, &o);
        CHECK(!o.grant, "idle after reset");
    }

    /* bad payloads are refused and change nothing */
    uint64_t before = tc_tmem_cycle_count(m);
    tc_tmem_inputs bad = { .cp_valid = 1, .cp_col = 512, .cp_data = cpd };
    CHECK(tc_tmem_clock(m, &bad, &o) == TC_EINVAL, "col 512");
    bad = (tc_tmem_inputs){ .d_valid = 1, .d_col = 0, .d_data = NULL };
    CHECK(tc_tmem_clock(m, &bad, &o) == TC_EINVAL, "D without data");
    bad = (tc_tmem_inputs){ .ls_valid = 1, .ls_col = 0, .ls_ncols = 0 };
    CHECK(tc_tmem_clock(m, &bad, &o) == TC_EINVAL, "ld of 0 columns");
    /* tcsim_tmem.h: a NULL data pointer on a port whose payload is read is refused, for
     * cp and st as for D (the operation calls check their own pointers first, so only
     * the clocked interface reaches these) */
    bad = (tc_tmem_inputs){ .cp_valid = 1, .cp_col = 0, .cp_data = NULL };
    CHECK(tc_tmem_clock(m, &bad, &o) == TC_EINVAL, "cp without data");
    bad = (tc_tmem_inputs){ .ls_valid = 1, .ls_store = 1, .ls_group = 0, .ls_col = 0,
                            .ls_ncols = 1, .ls_data = NULL };
    CHECK(tc_tmem_clock(m, &bad, &o) == TC_EINVAL, "st without data");
    CHECK(tc_tmem_cycle_count(m) == before, "refused cycles are not clocked");
    /* a bad payload on a port that loses arbitration is not looked at */
    bad = (tc_tmem_inputs){ .a_valid = 1, .a_col = 3, .cp_col = 999 };
    CHECK(tc_tmem_clock(m, &bad, &o) == TC_OK, "idle port's payload ignored");
    CHECK(tc_tmem_clock(NULL, &bad, &o) == TC_EINVAL && tc_tmem_clock(m, NULL, &o) == TC_EINVAL,
          "NULL arguments");
    tc_tmem_free(m);
}

int main(void)
{
    tc_tmem *m = NULL;
    CHECK(tc_tmem_new(6, &m) == TC_EINVAL && m == NULL, "6 banks");
    CHECK(tc_tmem_new(8, NULL) == TC_EINVAL, "NULL out");
    CHECK(tc_tmem_banks(NULL) == 0, "banks(NULL)");
    tc_tmem_free(NULL);
    CHECK(tc_tmem_port_name(TC_TMEM_PORT_SHIFT) && !strcmp(tc_tmem_port_name(TC_TMEM_PORT_SHIFT), "shift") &&
              tc_tmem_port_name(TC_TMEM_PORT_COUNT) == NULL,
          "port names");
    CHECK(tc_tmem_op_name(TC_TMEM_OP_ST) && !strcmp(tc_tmem_op_name(TC_TMEM_OP_ST), "st") &&
              tc_tmem_op_name(TC_TMEM_OP_COUNT) == NULL,
          "op names");
    for (unsigned banks = 8; banks >= 4; banks -= 4) {
        test_map(banks);
        test_costs(banks);
        test_shift(banks);
        test_ops(banks);
        test_clock(banks);
    }
    printf("test_tmem: %lu checks, %d failed: %s\n", checks, failures, failures ? "FAILED" : "PASSED");
    return failures ? 1 : 0;
}
