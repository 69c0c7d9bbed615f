/* tmem_tb.c - testbench of rtl/tmem.sv against the C model (model/src/tmem.c).
 *
 * Every cycle drives the Verilated RTL and tc_tmem_clock() with the same inputs and
 * compares ready, grant, rvalid and read data; after every completed request the words
 * of its window are compared between the RTL's banks and the model's, and the whole
 * memory is compared every few thousand requests and at the end. The directed tests
 * check both engines against expectations written here from seed 003 (mapping formula,
 * shift semantics, cycle counts), not taken from the model.
 *
 *   tmem_tb [--banks 8|4|both] [--word-width 32|4] [--seed S] [--commands N] [--only NAME]
 *           [--trace DIR]
 *   tmem_tb --hold-violation
 *
 * --commands is per organization (default 100000). --word-width 4 runs the same tests on
 * the RTL built with WordW = 4: every data word the testbench makes is folded to 4 bits
 * (the xor of its 4-bit pieces) before it goes to the RTL and to the (32-bit) model, so
 * the comparison stays exact. With 32-bit words alone an index written with
 * tmem_pkg::WORD_W where the local width belongs is the same index, and passed
 * (mutation testing). --trace DIR writes DIR/tmem8.fst and DIR/tmem4.fst: a shift
 * scenario for sim/waves/tmem.gtkw.
 * Prints PASSED or FAILED; exit status 0, 1 on a mismatch, 2 on bad arguments.
 * --hold-violation breaks the handshake on purpose (hold_violation()): the RTL's
 * assertion must stop the run. */
#include <errno.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "test_args.h"
#include "tmem_dut.h"

#define LANES TC_TMEM_LANES
#define COLS TC_TMEM_COLS
#define GL TC_TMEM_GROUP_LANES
#define SLICE TC_TMEM_SLICE
#define WIDE TC_TMEM_WIDE_WORDS
#define QUARTER TC_TMEM_QUARTER_WORDS
#define MAX_REPORTS 20

static uint64_t g_seed = 1;
static unsigned long g_fail;
static const char *g_test = "";
static unsigned g_banks;
static unsigned g_word_w = 32; /* the RTL's WordW: 32 or 4 */

static void fail(const char *fmt, ...)
{
    if (++g_fail <= MAX_REPORTS) {
        va_list ap;
        va_start(ap, fmt);
        fprintf(stderr, "FAIL [%s, %u banks, %u-bit words, seed %llu] ", g_test, g_banks,
                g_word_w, (unsigned long long)g_seed);
        vfprintf(stderr, fmt, ap);
        fputc('\n', stderr);
        va_end(ap);
    }
}

/* ------------------------------------------------------------- random numbers */

typedef struct rng { uint64_t s; } rng;
static uint64_t rnd(rng *r)
{
    /* splitmix64: any seed, including 0, gives a good stream */
    uint64_t z = (r->s += 0x9e3779b97f4a7c15ull);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
    return z ^ (z >> 31);
}
static unsigned below(rng *r, unsigned n) { return (unsigned)(rnd(r) % n); }

/* A data word as the RTL holds it: g_word_w bits. The 32 bits are folded (xor of the
 * g_word_w-bit pieces) rather than cut: cut to 4 bits, a tag would be its column's low
 * bits alone, the same in every lane, and a word moved to the wrong lane would go
 * unseen. */
static uint32_t word(uint32_t x)
{
    if (g_word_w >= 32)
        return x;
    uint32_t r = 0;
    for (unsigned i = 0; i < 32; i += g_word_w)
        r ^= x >> i;
    return r & ((1u << g_word_w) - 1);
}

static void fill(rng *r, uint32_t *w, size_t n)
{
    for (size_t i = 0; i < n; i++)
        w[i] = word((uint32_t)rnd(r));
}

/* A word that names its place, so a misplaced word says where it came from. */
static uint32_t tag(unsigned lane, unsigned col, unsigned salt)
{
    return word((salt << 24) ^ (lane << 12) ^ col ^ 0x00800000u);
}

/* ------------------------------------------------------------- the pair under test */

typedef struct pair {
    tmem_dut *rtl;
    tc_tmem *model;
    unsigned banks;
    uint64_t cycle;
    /* The model's read results of the last cycle (rdata points into the model, valid until
     * its next clock): what the requester must still see during the next cycle. */
    int last_a_rvalid, last_ls_rvalid;
    const uint32_t *last_a_rdata, *last_ls_rdata;
} pair;

static int pair_open(pair *p, unsigned banks, const char *fst)
{
    p->banks = banks;
    p->cycle = 0;
    p->last_a_rvalid = p->last_ls_rvalid = 0;
    p->rtl = tmem_dut_new_word(banks, g_word_w, fst);
    if (!p->rtl || tc_tmem_new(banks, &p->model) != TC_OK) {
        fprintf(stderr, "tmem_tb: cannot build the %u-bank RTL (%u-bit words) or model\n",
                banks, g_word_w);
        tmem_dut_free(p->rtl);
        return -1;
    }
    return 0;
}

static void pair_close(pair *p)
{
    tmem_dut_free(p->rtl);
    tc_tmem_free(p->model);
}

static void pair_reset(pair *p)
{
    tmem_dut_reset(p->rtl);
    tc_tmem_reset(p->model);
    p->last_a_rvalid = p->last_ls_rvalid = 0;
}

/* The first of n words that differs, as a slot and a lane of per_slot lanes. */
static void compare_words(const pair *p, const char *when, const char *what,
                          const uint32_t *got, const uint32_t *want, unsigned n,
                          unsigned per_slot)
{
    for (unsigned i = 0; i < n; i++)
        if (got[i] != want[i]) {
            fail("cycle %" PRIu64 "%s: %s slot %u lane %u: %08x, model %08x", p->cycle, when,
                 what, i / per_slot, i % per_slot, got[i], want[i]);
            return;
        }
}

/* The read results the RTL shows (r) against the model's: the valid flags, then the
 * words of each valid result. `when` qualifies the cycle in a failure. */
static void compare_reads(const pair *p, const char *when, const tc_tmem_outputs *r,
                          int a_rvalid, const uint32_t *a_rdata, int ls_rvalid,
                          const uint32_t *ls_rdata)
{
    if (r->a_rvalid != a_rvalid || r->ls_rvalid != ls_rvalid) {
        fail("cycle %" PRIu64 "%s: a_rvalid %d ls_rvalid %d, model %d %d", p->cycle, when,
             r->a_rvalid, r->ls_rvalid, a_rvalid, ls_rvalid);
        return;
    }
    if (a_rvalid)
        compare_words(p, when, "a_rdata", r->a_rdata, a_rdata, WIDE, LANES);
    if (ls_rvalid)
        compare_words(p, when, "ls_rdata", r->ls_rdata, ls_rdata, QUARTER, GL);
}

/* The read results of the last cycle once this cycle's inputs are driven: rvalid and
 * rdata are the requester's for the whole cycle after ready ("a_rvalid_o / ls_rvalid_o
 * pulse for one cycle, the cycle after ready_o"), whatever it now presents (typically
 * its valid low, another port's request). The samples after the edge alone are taken
 * with the old inputs still applied, where a combinational path from the request (an
 * rvalid or rdata gated by the grant instead of a register) shows the same values as the
 * register: an a_rdata_o or ls_rdata_o gated by the grant escaped every 8-bank test
 * (mutation testing; only the 4-bank random stream, where the busy flag changes at the
 * edge, caught it). */
static void check_reads_held(pair *p)
{
    tc_tmem_outputs h;
    tmem_dut_sample_read(p->rtl, &h);
    compare_reads(p, " (new inputs, before the edge)", &h, p->last_a_rvalid, p->last_a_rdata,
                  p->last_ls_rvalid, p->last_ls_rdata);
}

/* One cycle on both; compares what the ports show. Returns the RTL's outputs. The RTL
 * cycle is tmem_dut_cycle()'s, with the held read results checked between drive and
 * ready. */
static tc_tmem_outputs pair_cycle(pair *p, const tc_tmem_inputs *in)
{
    tc_tmem_outputs r, m = { 0 };
    tmem_dut_drive(p->rtl, in);
    check_reads_held(p);
    tmem_dut_sample_ready(p->rtl, &r);
    tmem_dut_step(p->rtl);
    tmem_dut_sample_read(p->rtl, &r);
    if (tc_tmem_clock(p->model, in, &m) != TC_OK)
        fail("cycle %" PRIu64 ": the model rejected the inputs", p->cycle);
    if (r.ready != m.ready || r.grant != m.grant)
        fail("cycle %" PRIu64 ": ready %#x grant %#x, model ready %#x grant %#x", p->cycle,
             r.ready, r.grant, m.ready, m.grant);
    compare_reads(p, "", &r, m.a_rvalid, m.a_rdata, m.ls_rvalid, m.ls_rdata);
    p->last_a_rvalid = m.a_rvalid;
    p->last_ls_rvalid = m.ls_rvalid;
    p->last_a_rdata = m.a_rdata;
    p->last_ls_rdata = m.ls_rdata;
    p->cycle++;
    return r;
}

/* Present one request until it completes; the number of cycles it took. */
static unsigned pair_request(pair *p, const tc_tmem_inputs *in, tc_tmem_port port,
                             tc_tmem_outputs *last)
{
    unsigned n = 0;
    tc_tmem_outputs o;
    do {
        o = pair_cycle(p, in);
        n++;
    } while (!(o.ready & (1u << port)) && n < 100);
    if (n == 100)
        fail("port %s never became ready", tc_tmem_port_name(port));
    if (last)
        *last = o;
    return n;
}

/* Word by word, RTL storage against model storage. */
static void compare_cols(pair *p, unsigned col, unsigned ncols, const char *what)
{
    for (unsigned k = 0; k < ncols; k++) {
        unsigned c = (col + k) % COLS;
        for (unsigned l = 0; l < LANES; l++) {
            uint32_t r = 0, m = 0;
            tmem_dut_peek(p->rtl, l, c, &r);
            tc_tmem_peek(p->model, l, c, &m);
            if (r != m) {
                fail("%s: lane %u col %u: rtl %08x, model %08x", what, l, c, r, m);
                return;
            }
        }
    }
}

static void compare_all(pair *p, const char *what) { compare_cols(p, 0, COLS, what); }

/* Expected contents, written by the tests themselves: the RTL and the model are both
 * checked against it. */
typedef struct image { uint32_t w[LANES][COLS]; } image;

static void expect_image(pair *p, const image *e, const char *what)
{
    for (unsigned c = 0; c < COLS; c++)
        for (unsigned l = 0; l < LANES; l++) {
            uint32_t r = 0, m = 0;
            tmem_dut_peek(p->rtl, l, c, &r);
            tc_tmem_peek(p->model, l, c, &m);
            if (r != e->w[l][c] || m != e->w[l][c]) {
                fail("%s: lane %u col %u: rtl %08x, model %08x, expected %08x", what, l, c, r,
                     m, e->w[l][c]);
                return;
            }
        }
}

/* Fill the whole memory through the cp port (64 slices), recording the image. */
static void fill_by_cp(pair *p, image *e, unsigned salt)
{
    static uint32_t src[WIDE];
    for (unsigned s = 0; s < COLS / SLICE; s++) {
        for (unsigned k = 0; k < SLICE; k++)
            for (unsigned l = 0; l < LANES; l++) {
                src[k * LANES + l] = tag(l, s * SLICE + k, salt);
                e->w[l][s * SLICE + k] = src[k * LANES + l];
            }
        tc_tmem_inputs in = { .cp_valid = 1, .cp_col = s * SLICE, .cp_data = src };
        pair_request(p, &in, TC_TMEM_PORT_CP, NULL);
    }
}

/* Cycles the spec gives a request: ceil(columns / banks), one bank access per cycle. */
static unsigned spec_cycles(unsigned banks, unsigned ncols) { return (ncols + banks - 1) / banks; }

/* ------------------------------------------------------------- directed tests */

static image g_img;

/* group = lane / 32, bank = col % banks, row = col / banks (seed 003, Figure 5). */
static void test_map(pair *p)
{
    g_test = "map";
    for (unsigned l = 0; l < LANES; l++)
        for (unsigned c = 0; c < COLS; c++) {
            tc_tmem_loc loc;
            if (tc_tmem_map(p->banks, l, c, &loc) != TC_OK || loc.group != l / 32 ||
                loc.group_lane != l % 32 || loc.bank != c % p->banks || loc.row != c / p->banks) {
                fail("tc_tmem_map(lane %u, col %u)", l, c);
                return;
            }
        }
    tc_tmem_loc loc;
    if (tc_tmem_map(p->banks, LANES, 0, &loc) != TC_EINVAL ||
        tc_tmem_map(p->banks, 0, COLS, &loc) != TC_EINVAL || tc_tmem_map(6, 0, 0, &loc) != TC_EINVAL)
        fail("tc_tmem_map accepts an out-of-range argument");

    fill_by_cp(p, &g_img, 1);
    /* The RTL's physical bank rows hold what the formula says, word for word. */
    uint32_t row_rtl[GL], row_model[GL];
    for (unsigned g = 0; g < TC_TMEM_GROUPS; g++)
        for (unsigned b = 0; b < p->banks; b++)
            for (unsigned r = 0; r < COLS / p->banks; r++) {
                tmem_dut_bank_row(p->rtl, g, b, r, row_rtl);
                tc_tmem_bank_row(p->model, g, b, r, row_model);
                unsigned col = r * p->banks + b;
                for (unsigned i = 0; i < GL; i++) {
                    uint32_t want = tag(g * GL + i, col, 1);
                    if (row_rtl[i] != want || row_model[i] != want) {
                        fail("group %u bank %u row %u lane %u: rtl %08x, model %08x, expected "
                             "lane %u col %u = %08x",
                             g, b, r, i, row_rtl[i], row_model[i], g * GL + i, col, want);
                        return;
                    }
                }
            }
    /* And every window reads back through the A port, aligned or not. */
    for (unsigned c = 0; c < COLS; c += 7) {
        tc_tmem_inputs in = { .a_valid = 1, .a_col = c };
        tc_tmem_outputs o;
        pair_request(p, &in, TC_TMEM_PORT_A, &o);
        if (!o.a_rvalid) {
            fail("A read at col %u: no rvalid right after ready", c);
            return;
        }
        for (unsigned k = 0; k < SLICE; k++)
            for (unsigned l = 0; l < LANES; l++)
                if (o.a_rdata[k * LANES + l] != g_img.w[l][(c + k) % COLS]) {
                    fail("A read at col %u: slot %u lane %u = %08x, expected %08x", c, k, l,
                         o.a_rdata[k * LANES + l], g_img.w[l][(c + k) % COLS]);
                    return;
                }
    }
}

/* tcgen05.shift: new[l] = old[l-1] for l >= 1, lane 0 keeps its word, lane 127's old word
 * is lost; across every group boundary; nothing outside the window moves. */
static void shift_image(image *e, unsigned col, unsigned times)
{
    for (unsigned t = 0; t < times; t++)
        for (unsigned k = 0; k < SLICE; k++) {
            unsigned c = (col + k) % COLS;
            for (unsigned l = LANES - 1; l >= 1; l--)
                e->w[l][c] = e->w[l - 1][c];
        }
}

static void test_shift(pair *p)
{
    static const unsigned cols[] = { 0, 8, 37, 100, 505, 508, 511 };
    g_test = "shift";
    fill_by_cp(p, &g_img, 2);
    for (size_t i = 0; i < sizeof cols / sizeof cols[0]; i++) {
        unsigned c = cols[i];
        tc_tmem_inputs in = { .shift_valid = 1, .shift_col = c };
        unsigned n = pair_request(p, &in, TC_TMEM_PORT_SHIFT, NULL);
        if (n != spec_cycles(p->banks, SLICE))
            fail("shift at col %u took %u cycles, the spec says %u", c, n,
                 spec_cycles(p->banks, SLICE));
        /* the named lanes first, for a readable failure */
        for (unsigned k = 0; k < SLICE; k++) {
            unsigned cc = (c + k) % COLS;
            static const unsigned boundary[] = { 32, 64, 96 };
            for (size_t j = 0; j < 3; j++) {
                uint32_t r = 0;
                tmem_dut_peek(p->rtl, boundary[j], cc, &r);
                if (r != g_img.w[boundary[j] - 1][cc])
                    fail("shift col %u: lane %u (group boundary) holds %08x, not lane %u's %08x",
                         cc, boundary[j], r, boundary[j] - 1, g_img.w[boundary[j] - 1][cc]);
            }
            uint32_t r0 = 0, r127 = 0;
            tmem_dut_peek(p->rtl, 0, cc, &r0);
            tmem_dut_peek(p->rtl, 127, cc, &r127);
            if (r0 != g_img.w[0][cc])
                fail("shift col %u: lane 0 (the last lane) changed to %08x", cc, r0);
            if (r127 != g_img.w[126][cc])
                fail("shift col %u: lane 127 holds %08x, not lane 126's", cc, r127);
        }
        shift_image(&g_img, c, 1);
        expect_image(p, &g_img, "after shift");
    }
    /* Back to back: the request is renewed in the cycle after each ready, so n shifts
     * take n * cycles and compose. */
    g_test = "shift back-to-back";
    tc_tmem_inputs in = { .shift_valid = 1, .shift_col = 3 };
    unsigned done = 0, cycles = 0;
    while (done < 5 && cycles < 100) {
        tc_tmem_outputs o = pair_cycle(p, &in);
        cycles++;
        if (o.ready & (1u << TC_TMEM_PORT_SHIFT))
            done++;
    }
    if (cycles != 5 * spec_cycles(p->banks, SLICE))
        fail("5 back-to-back shifts took %u cycles, expected %u", cycles,
             5 * spec_cycles(p->banks, SLICE));
    shift_image(&g_img, 3, 5);
    expect_image(p, &g_img, "after 5 back-to-back shifts");
}

/* Windows that cross column 511 -> 0 on every port. */
static void test_wrap(pair *p)
{
    static uint32_t buf[WIDE];
    rng r = { g_seed ^ 0x77 };
    g_test = "wrap";
    fill_by_cp(p, &g_img, 3);

    /* st of 8 columns at 509: 509, 510, 511, 0..4 */
    fill(&r, buf, QUARTER);
    tc_tmem_inputs st = { .ls_valid = 1, .ls_store = 1, .ls_group = 2, .ls_col = 509,
                          .ls_ncols = 8, .ls_data = buf };
    pair_request(p, &st, TC_TMEM_PORT_LS, NULL);
    for (unsigned k = 0; k < 8; k++)
        for (unsigned i = 0; i < GL; i++)
            g_img.w[2 * GL + i][(509 + k) % COLS] = buf[k * GL + i];
    expect_image(p, &g_img, "st across column 511");

    /* ld of 3 columns at 510: slots 3..7 read zero. An 8-column ld of the stored data
     * first, so that those slots of the read register hold words the short ld must clear
     * (they start at zero: an ld that left them alone passed here). */
    tc_tmem_inputs ld8 = { .ls_valid = 1, .ls_store = 0, .ls_group = 2, .ls_col = 509, .ls_ncols = 8 };
    tc_tmem_inputs ld = { .ls_valid = 1, .ls_store = 0, .ls_group = 2, .ls_col = 510, .ls_ncols = 3 };
    tc_tmem_outputs o;
    pair_request(p, &ld8, TC_TMEM_PORT_LS, NULL);
    pair_request(p, &ld, TC_TMEM_PORT_LS, &o);
    for (unsigned k = 0; k < SLICE; k++)
        for (unsigned i = 0; i < GL; i++) {
            uint32_t want = k < 3 ? g_img.w[2 * GL + i][(510 + k) % COLS] : 0;
            if (!o.ls_rvalid || o.ls_rdata[k * GL + i] != want) {
                fail("ld 3 cols at 510: slot %u lane %u = %08x, expected %08x", k, i,
                     o.ls_rdata[k * GL + i], want);
                k = SLICE;
                break;
            }
        }

    /* cp at 508 and D at 511, then an A read at 505 sees both */
    fill(&r, buf, WIDE);
    tc_tmem_inputs cp = { .cp_valid = 1, .cp_col = 508, .cp_data = buf };
    pair_request(p, &cp, TC_TMEM_PORT_CP, NULL);
    for (unsigned k = 0; k < SLICE; k++)
        for (unsigned l = 0; l < LANES; l++)
            g_img.w[l][(508 + k) % COLS] = buf[k * LANES + l];
    static uint32_t d[WIDE];
    fill(&r, d, WIDE);
    tc_tmem_inputs dw = { .d_valid = 1, .d_col = 511, .d_data = d };
    pair_request(p, &dw, TC_TMEM_PORT_D, NULL);
    for (unsigned k = 0; k < SLICE; k++)
        for (unsigned l = 0; l < LANES; l++)
            g_img.w[l][(511 + k) % COLS] = d[k * LANES + l];
    expect_image(p, &g_img, "cp at 508 and D at 511");
    tc_tmem_inputs a = { .a_valid = 1, .a_col = 505 };
    pair_request(p, &a, TC_TMEM_PORT_A, &o);
    for (unsigned k = 0; k < SLICE; k++)
        for (unsigned l = 0; l < LANES; l++)
            if (o.a_rdata[k * LANES + l] != g_img.w[l][(505 + k) % COLS]) {
                fail("A read at 505: slot %u lane %u", k, l);
                return;
            }
}

/* disable-output-lane: a disabled lane keeps its old words, the others take D. */
static void test_masked(pair *p)
{
    static uint32_t d[WIDE];
    rng r = { g_seed ^ 0x55 };
    g_test = "masked D write";
    fill_by_cp(p, &g_img, 4);
    for (unsigned t = 0; t < 7; t++) {
        uint32_t dis[4] = { 0, 0, 0, 0 };
        switch (t) {
        case 0: break;                                                   /* all written */
        case 1: dis[0] = dis[1] = dis[2] = dis[3] = 0xffffffffu; break;  /* none written */
        case 2: dis[0] = dis[1] = dis[2] = dis[3] = 0x55555555u; break;  /* every other lane */
        case 3:                                                          /* group edges */
            dis[0] = 0x80000001u; dis[1] = 0x80000001u; dis[2] = 0x80000001u; dis[3] = 0x80000001u;
            break;
        case 4: dis[3] = 0x80000000u; break;                             /* lane 127 only */
        default:
            for (int i = 0; i < 4; i++)
                dis[i] = (uint32_t)rnd(&r);
            break;
        }
        unsigned col = t == 6 ? 509 : below(&r, COLS);
        fill(&r, d, WIDE);
        tc_tmem_inputs in = { .d_valid = 1, .d_col = col, .d_data = d };
        memcpy(in.d_disable, dis, sizeof dis);
        unsigned n = pair_request(p, &in, TC_TMEM_PORT_D, NULL);
        if (n != spec_cycles(p->banks, SLICE))
            fail("D write took %u cycles, expected %u", n, spec_cycles(p->banks, SLICE));
        for (unsigned k = 0; k < SLICE; k++)
            for (unsigned l = 0; l < LANES; l++)
                if (!((dis[l / 32] >> (l % 32)) & 1u))
                    g_img.w[l][(col + k) % COLS] = d[k * LANES + l];
        expect_image(p, &g_img, "after a masked D write");
    }
}

/* Costs measured on an idle memory: the spec's table, the model's table, the model's
 * operation calls and the RTL must all agree; read data comes the cycle after ready. */
static void test_cycles(pair *p)
{
    static uint32_t buf[WIDE], out[WIDE];
    rng r = { g_seed ^ 0x33 };
    g_test = "cycle counts";
    fill(&r, buf, WIDE);
    for (unsigned op = 0; op < TC_TMEM_OP_COUNT; op++) {
        int ls = op == TC_TMEM_OP_LD || op == TC_TMEM_OP_ST;
        for (unsigned n = ls ? 1 : SLICE; n <= SLICE; n++) {
            unsigned want = spec_cycles(p->banks, n), table = 0, measured, model_op = 0;
            tc_tmem_inputs in = { 0 };
            tc_tmem_port port;
            unsigned col = below(&r, COLS);
            switch (op) {
            case TC_TMEM_OP_MMA_D:
                in = (tc_tmem_inputs){ .d_valid = 1, .d_col = col, .d_data = buf };
                port = TC_TMEM_PORT_D;
                break;
            case TC_TMEM_OP_MMA_A:
                in = (tc_tmem_inputs){ .a_valid = 1, .a_col = col };
                port = TC_TMEM_PORT_A;
                break;
            case TC_TMEM_OP_SHIFT:
                in = (tc_tmem_inputs){ .shift_valid = 1, .shift_col = col };
                port = TC_TMEM_PORT_SHIFT;
                break;
            case TC_TMEM_OP_CP:
                in = (tc_tmem_inputs){ .cp_valid = 1, .cp_col = col, .cp_data = buf };
                port = TC_TMEM_PORT_CP;
                break;
            default:
                in = (tc_tmem_inputs){ .ls_valid = 1, .ls_store = op == TC_TMEM_OP_ST,
                                       .ls_group = below(&r, 4), .ls_col = col, .ls_ncols = n,
                                       .ls_data = buf };
                port = TC_TMEM_PORT_LS;
                break;
            }
            tc_tmem_outputs o;
            measured = pair_request(p, &in, port, &o);
            tc_tmem_op_cycles(p->banks, (tc_tmem_op)op, n, &table);
            /* the operation-level call on a separate model */
            tc_tmem *m2;
            tc_tmem_new(p->banks, &m2);
            switch (op) {
            case TC_TMEM_OP_MMA_D: tc_tmem_mma_d(m2, col, buf, NULL, &model_op); break;
            case TC_TMEM_OP_MMA_A: tc_tmem_mma_a(m2, col, out, &model_op); break;
            case TC_TMEM_OP_SHIFT: tc_tmem_shift(m2, col, &model_op); break;
            case TC_TMEM_OP_CP: tc_tmem_cp(m2, col, buf, &model_op); break;
            case TC_TMEM_OP_LD: tc_tmem_ld(m2, 0, col, n, out, &model_op); break;
            default: tc_tmem_st(m2, 0, col, n, buf, &model_op); break;
            }
            tc_tmem_free(m2);
            if (measured != want || table != want || model_op != want)
                fail("%s n=%u: rtl %u cycles, model table %u, model op %u; spec %u",
                     tc_tmem_op_name((tc_tmem_op)op), n, measured, table, model_op, want);
            int reads = op == TC_TMEM_OP_MMA_A || op == TC_TMEM_OP_LD;
            int rvalid = op == TC_TMEM_OP_MMA_A ? o.a_rvalid : o.ls_rvalid;
            if (rvalid != reads)
                fail("%s n=%u: rvalid %d in the cycle after ready", tc_tmem_op_name((tc_tmem_op)op),
                     n, rvalid);
            /* and it drops the cycle after */
            tc_tmem_inputs idle = { 0 };
            o = pair_cycle(p, &idle);
            if (o.a_rvalid || o.ls_rvalid)
                fail("%s: rvalid held for more than one cycle", tc_tmem_op_name((tc_tmem_op)op));
        }
    }
    if (tc_tmem_op_cycles(p->banks, TC_TMEM_OP_LD, 0, &(unsigned){ 0 }) != TC_EINVAL ||
        tc_tmem_op_cycles(p->banks, TC_TMEM_OP_ST, 9, &(unsigned){ 0 }) != TC_EINVAL)
        fail("tc_tmem_op_cycles accepts ncols 0 or 9");
}

/* Same-cycle requests: granted in priority order D, A, shift, cp, ld/st, each after the
 * previous one's cycles; nothing dropped; a two-cycle request is not interrupted. */
static void test_conflicts(pair *p)
{
    static uint32_t d[WIDE], cpd[WIDE], st[QUARTER];
    rng r = { g_seed ^ 0x99 };
    g_test = "conflicts";
    fill_by_cp(p, &g_img, 5);
    fill(&r, d, WIDE);
    fill(&r, cpd, WIDE);
    fill(&r, st, QUARTER);

    /* All five at once, on overlapping windows: D at 16, A at 16 (sees D), shift at 16,
     * cp at 20, then a ld at 16 of group 1 that must see all of it. */
    tc_tmem_inputs in = { .d_valid = 1, .d_col = 16, .d_data = d, .a_valid = 1, .a_col = 16,
                          .shift_valid = 1, .shift_col = 16, .cp_valid = 1, .cp_col = 20,
                          .cp_data = cpd, .ls_valid = 1, .ls_store = 0, .ls_group = 1,
                          .ls_col = 16, .ls_ncols = 8 };
    unsigned order[TC_TMEM_PORT_COUNT], at[TC_TMEM_PORT_COUNT], n_done = 0, cyc = 0;
    tc_tmem_outputs o, a_out = { 0 };
    static uint32_t a_seen[WIDE], ld_seen[QUARTER];
    int ld_rvalid = 0;
    while (n_done < TC_TMEM_PORT_COUNT && cyc < 50) {
        o = pair_cycle(p, &in);
        cyc++;
        unsigned waiting = (unsigned)in.d_valid << TC_TMEM_PORT_D |
                           (unsigned)in.a_valid << TC_TMEM_PORT_A |
                           (unsigned)in.shift_valid << TC_TMEM_PORT_SHIFT |
                           (unsigned)in.cp_valid << TC_TMEM_PORT_CP |
                           (unsigned)in.ls_valid << TC_TMEM_PORT_LS;
        if (o.ready & ~waiting) /* a grant nobody asked for: recorded, it would overrun */
            fail("cycle %u: ready %#x on ports without a request (waiting %#x)", cyc,
                 o.ready, waiting);
        for (unsigned q = 0; q < TC_TMEM_PORT_COUNT; q++)
            if (o.ready & waiting & (1u << q)) {
                order[n_done] = q;
                at[n_done++] = cyc;
                switch (q) {
                case TC_TMEM_PORT_D: in.d_valid = 0; break;
                case TC_TMEM_PORT_A: in.a_valid = 0; break;
                case TC_TMEM_PORT_SHIFT: in.shift_valid = 0; break;
                case TC_TMEM_PORT_CP: in.cp_valid = 0; break;
                default: in.ls_valid = 0; break;
                }
            }
        if (o.a_rvalid) {
            a_out = o;
            memcpy(a_seen, o.a_rdata, sizeof a_seen);
        }
        if (o.ls_rvalid) {
            ld_rvalid = 1;
            memcpy(ld_seen, o.ls_rdata, sizeof ld_seen);
        }
    }
    unsigned c1 = spec_cycles(p->banks, SLICE), t = 0;
    for (unsigned q = 0; q < TC_TMEM_PORT_COUNT; q++) {
        t += c1;
        if (n_done <= q || order[q] != q || at[q] != t) {
            fail("ready #%u: port %s at cycle %u, expected port %s at cycle %u", q,
                 q < n_done ? tc_tmem_port_name((tc_tmem_port)order[q]) : "none",
                 q < n_done ? at[q] : 0, tc_tmem_port_name((tc_tmem_port)q), t);
            break;
        }
    }
    (void)a_out;
    /* the effects in priority order, from the spec's rules alone */
    for (unsigned k = 0; k < SLICE; k++)
        for (unsigned l = 0; l < LANES; l++)
            g_img.w[l][16 + k] = d[k * LANES + l];
    for (unsigned k = 0; k < SLICE; k++)
        for (unsigned l = 0; l < LANES; l++)
            if (a_seen[k * LANES + l] != g_img.w[l][16 + k]) {
                fail("A read granted after D does not see D's data (slot %u lane %u)", k, l);
                k = SLICE;
                break;
            }
    shift_image(&g_img, 16, 1);
    for (unsigned k = 0; k < SLICE; k++)
        for (unsigned l = 0; l < LANES; l++)
            g_img.w[l][20 + k] = cpd[k * LANES + l];
    if (!ld_rvalid)
        fail("the ld was dropped");
    for (unsigned k = 0; k < SLICE; k++)
        for (unsigned i = 0; i < GL; i++)
            if (ld_seen[k * GL + i] != g_img.w[GL + i][16 + k]) {
                fail("ld after D, shift and cp: slot %u lane %u = %08x, expected %08x", k, i,
                     ld_seen[k * GL + i], g_img.w[GL + i][16 + k]);
                k = SLICE;
                break;
            }
    expect_image(p, &g_img, "after five same-cycle requests");

    /* A stream of D writes holds off a store until it ends (fixed priority, no drop). */
    tc_tmem_inputs s = { .d_valid = 1, .d_col = 40, .d_data = d, .ls_valid = 1, .ls_store = 1,
                         .ls_group = 3, .ls_col = 40, .ls_ncols = 8, .ls_data = st };
    unsigned d_count = 0, ls_at = 0;
    for (cyc = 1; cyc <= 40 && !ls_at; cyc++) {
        o = pair_cycle(p, &s);
        if (o.ready & (1u << TC_TMEM_PORT_D) && ++d_count == 6)
            s.d_valid = 0;
        if (o.ready & (1u << TC_TMEM_PORT_LS))
            ls_at = cyc;
    }
    if (ls_at != 6 * c1 + spec_cycles(p->banks, 8))
        fail("st behind 6 D writes finished at cycle %u, expected %u", ls_at,
             6 * c1 + spec_cycles(p->banks, 8));
    for (unsigned k = 0; k < SLICE; k++) {
        for (unsigned l = 0; l < LANES; l++)
            g_img.w[l][40 + k] = d[k * LANES + l];
        for (unsigned i = 0; i < GL; i++)
            g_img.w[3 * GL + i][40 + k] = st[k * GL + i];
    }
    expect_image(p, &g_img, "st after a D stream");

    /* 4 banks: D arriving in the second cycle of a cp waits for the cp to finish. */
    if (p->banks == 4) {
        tc_tmem_inputs c = { .cp_valid = 1, .cp_col = 64, .cp_data = cpd };
        o = pair_cycle(p, &c);
        if (o.grant != 1u << TC_TMEM_PORT_CP || o.ready)
            fail("cp alone: grant %#x ready %#x in its first cycle", o.grant, o.ready);
        c.d_valid = 1;
        c.d_col = 64;
        c.d_data = d;
        o = pair_cycle(p, &c);
        if (o.grant != 1u << TC_TMEM_PORT_CP || o.ready != 1u << TC_TMEM_PORT_CP)
            fail("D interrupted the second cycle of a cp: grant %#x ready %#x", o.grant, o.ready);
        c.cp_valid = 0;
        pair_request(p, &c, TC_TMEM_PORT_D, NULL);
        for (unsigned k = 0; k < SLICE; k++)
            for (unsigned l = 0; l < LANES; l++)
                g_img.w[l][64 + k] = d[k * LANES + l];
        expect_image(p, &g_img, "cp then D");
    }
}

/* An A-port read (ld 0) or an 8-column ld of group `group` (ld 1) at column col. */
static tc_tmem_inputs read_at(unsigned ld, unsigned group, unsigned col)
{
    return ld ? (tc_tmem_inputs){ .ls_valid = 1, .ls_group = group, .ls_col = col,
                                  .ls_ncols = 8 }
              : (tc_tmem_inputs){ .a_valid = 1, .a_col = col };
}

/* rst_ni in the middle of a two-cycle request: its first half stays written. */
static void test_reset(pair *p)
{
    static uint32_t buf[WIDE];
    rng r = { g_seed ^ 0x11 };
    g_test = "reset";
    fill_by_cp(p, &g_img, 6);
    fill(&r, buf, WIDE);
    tc_tmem_inputs in = { .cp_valid = 1, .cp_col = 128, .cp_data = buf };
    pair_cycle(p, &in);
    pair_reset(p);
    /* the first cycle wrote one column per bank: all 8 with 8 banks, slots 0-3 with 4 */
    for (unsigned k = 0; k < p->banks; k++)
        for (unsigned l = 0; l < LANES; l++)
            g_img.w[l][128 + k] = buf[k * LANES + l];
    expect_image(p, &g_img, "reset after the first cycle of a cp");
    tc_tmem_inputs idle = { 0 };
    tc_tmem_outputs o = pair_cycle(p, &idle);
    if (o.grant || o.ready)
        fail("after reset the memory still works on the cp (grant %#x)", o.grant);

    /* rst_ni while a read's rvalid is high (the cycle after its ready): the flag must drop
     * with the reset, or the requester takes a second, unasked-for result at the first
     * edge after it. Only visible before that edge, which pair_cycle() never samples (it
     * reads rvalid after the edge, where a new request's flag has replaced it), so the
     * registers are read right after the reset; the expectation is the header's "rst_ni
     * clears the read-valid flags". A read-valid register left out of the reset passed
     * every other test on seeds 1-4 (mutation testing). */
    g_test = "reset after a read";
    for (unsigned ld = 0; ld < 2; ld++) {
        tc_tmem_inputs rd = read_at(ld, 1, 130);
        pair_request(p, &rd, ld ? TC_TMEM_PORT_LS : TC_TMEM_PORT_A, &o);
        if (!(ld ? o.ls_rvalid : o.a_rvalid))
            fail("%s read: no rvalid to reset", ld ? "ld" : "A");
        pair_reset(p);
        tmem_dut_sample_read(p->rtl, &o);
        if (o.a_rvalid || o.ls_rvalid)
            fail("%s read: rvalid (a %d, ls %d) after a reset in its rvalid cycle",
                 ld ? "ld" : "A", o.a_rvalid, o.ls_rvalid);
    }

    /* rst_ni is synchronous (header, docs/rtl_conventions.md): between edges it grants
     * nothing, but the registers keep their state until an edge samples it low. So an
     * rvalid stays high with rst_ni low before an edge, and rst_ni pulsed low and high
     * again without an edge leaves a two-cycle request to finish. Both fail with an
     * asynchronous reset; tmem_dut_reset() holds rst_ni over an edge, where either policy
     * has the same effect. The expectations are the RTL's alone (the model has no time
     * between edges). */
    g_test = "synchronous reset";
    for (unsigned ld = 0; ld < 2; ld++) {
        tc_tmem_inputs rd = read_at(ld, 2, 300);
        pair_request(p, &rd, ld ? TC_TMEM_PORT_LS : TC_TMEM_PORT_A, &o);
        tmem_dut_set_reset(p->rtl, 1);
        tmem_dut_sample_read(p->rtl, &o);
        if (!(ld ? o.ls_rvalid : o.a_rvalid))
            fail("%s read: rvalid (a %d, ls %d) dropped with rst_ni low, before an edge",
                 ld ? "ld" : "A", o.a_rvalid, o.ls_rvalid);
        pair_reset(p);
    }
    /* the first cycle of a cp, then rst_ni falls and the requester goes idle: in reset
     * no port may be granted (the cp's second half would be written at the edge) */
    in = (tc_tmem_inputs){ .cp_valid = 1, .cp_col = 200, .cp_data = buf };
    pair_cycle(p, &in);
    tmem_dut_set_reset(p->rtl, 1);
    tmem_dut_drive(p->rtl, &idle);
    tmem_dut_sample_ready(p->rtl, &o);
    if (o.grant || o.ready)
        fail("a cp holds the memory with rst_ni low (grant %#x ready %#x)", o.grant,
             o.ready);
    if (p->banks == 4) {
        /* rst_ni high again before any edge: the cp's second cycle goes on */
        tmem_dut_set_reset(p->rtl, 0);
        tmem_dut_drive(p->rtl, &in);
        tmem_dut_sample_ready(p->rtl, &o);
        if (o.grant != 1u << TC_TMEM_PORT_CP || o.ready != 1u << TC_TMEM_PORT_CP)
            fail("a cp's second cycle lost to rst_ni low without an edge (grant %#x ready "
                 "%#x)", o.grant, o.ready);
        tmem_dut_set_reset(p->rtl, 1);
    }
    pair_reset(p);
    for (unsigned k = 0; k < p->banks; k++)
        for (unsigned l = 0; l < LANES; l++)
            g_img.w[l][200 + k] = buf[k * LANES + l];
    expect_image(p, &g_img, "synchronous reset after the first cycle of a cp");
}

/* ------------------------------------------------------------- random streams */

typedef struct stream_stats {
    unsigned long commands, per_port[TC_TMEM_PORT_COUNT], waited, wraps, two_cycle, resets;
} stream_stats;

static unsigned pick_col(rng *r)
{
    /* half near the wrap so windows overlap and cross 511 -> 0 */
    return below(r, 2) ? (496 + below(r, 32)) % COLS : below(r, COLS);
}

static void test_random(pair *p, unsigned long n_commands)
{
    static uint32_t d[WIDE], cpd[WIDE], st[QUARTER];
    rng r = { g_seed * 0x2545f4914f6cdd1dull + p->banks };
    stream_stats s = { 0 };
    g_test = "random";
    fill_by_cp(p, &g_img, 7);

    tc_tmem_inputs in = { 0 };
    in.d_data = d;
    in.cp_data = cpd;
    in.ls_data = st;
    in.ls_ncols = 1;
    /* Phases of 1024 cycles, each with its own set of active ports and request rate per
     * idle port (1/8 .. 8/8): from sparse to saturated, and with the high-priority ports
     * sometimes quiet so that the low-priority ones are not starved for the whole run.
     * Every fourth phase has the two lowest-priority ports (cp, ld/st) alone: left to the
     * random sets, ld/st got under the n/20 checked below on some seeds (seed 13 of
     * 100,000 requests: 4,249 with 8 banks), and sim/regress draws its seeds at random. */
    unsigned rate[TC_TMEM_PORT_COUNT] = { 0 };
    const unsigned long fails_before = g_fail;
    while (s.commands < n_commands && g_fail == fails_before) {
        if ((p->cycle & 1023) == 0) {
            unsigned active = (p->cycle >> 10) % 4 == 3
                                  ? (1u << TC_TMEM_PORT_CP) | (1u << TC_TMEM_PORT_LS)
                                  : 1 + below(&r, 31);
            for (unsigned q = 0; q < TC_TMEM_PORT_COUNT; q++)
                rate[q] = (active >> q) & 1u ? 1 + below(&r, 8) : 0;
        }
        if (below(&r, 20000) == 0) {            /* rst_ni: requesters start over too */
            pair_reset(p);
            in.d_valid = in.a_valid = in.shift_valid = in.cp_valid = in.ls_valid = 0;
            s.resets++;
            compare_all(p, "after reset");
        }
        if (!in.d_valid && below(&r, 8) < rate[TC_TMEM_PORT_D]) {
            in.d_valid = 1;
            in.d_col = pick_col(&r);
            fill(&r, d, WIDE);
            unsigned kind = below(&r, 4);
            for (int i = 0; i < 4; i++)
                in.d_disable[i] = kind == 0 ? 0 : kind == 1 ? (uint32_t)rnd(&r)
                                : kind == 2 ? (uint32_t)(rnd(&r) & rnd(&r) & rnd(&r)) : ~0u;
        }
        if (!in.a_valid && below(&r, 8) < rate[TC_TMEM_PORT_A]) {
            in.a_valid = 1;
            in.a_col = pick_col(&r);
        }
        if (!in.shift_valid && below(&r, 8) < rate[TC_TMEM_PORT_SHIFT]) {
            in.shift_valid = 1;
            in.shift_col = pick_col(&r);
        }
        if (!in.cp_valid && below(&r, 8) < rate[TC_TMEM_PORT_CP]) {
            in.cp_valid = 1;
            in.cp_col = pick_col(&r);
            fill(&r, cpd, WIDE);
        }
        if (!in.ls_valid && below(&r, 8) < rate[TC_TMEM_PORT_LS]) {
            in.ls_valid = 1;
            in.ls_store = (int)below(&r, 2);
            in.ls_group = below(&r, 4);
            in.ls_col = pick_col(&r);
            in.ls_ncols = 1 + below(&r, 8);
            if (in.ls_store)
                fill(&r, st, QUARTER);
        }
        unsigned valid = (in.d_valid ? 1u : 0) | (in.a_valid ? 2u : 0) |
                         (in.shift_valid ? 4u : 0) | (in.cp_valid ? 8u : 0) |
                         (in.ls_valid ? 16u : 0);
        tc_tmem_outputs o = pair_cycle(p, &in);
        if (valid & ~o.grant)
            s.waited++;
        if (o.grant && !o.ready)
            s.two_cycle++;
        for (unsigned q = 0; q < TC_TMEM_PORT_COUNT; q++) {
            if (!(o.ready & (1u << q)))
                continue;
            unsigned col, ncols = SLICE;
            switch (q) {
            case TC_TMEM_PORT_D: col = in.d_col; in.d_valid = 0; break;
            case TC_TMEM_PORT_A: col = in.a_col; in.a_valid = 0; break;
            case TC_TMEM_PORT_SHIFT: col = in.shift_col; in.shift_valid = 0; break;
            case TC_TMEM_PORT_CP: col = in.cp_col; in.cp_valid = 0; break;
            default: col = in.ls_col; ncols = in.ls_ncols; in.ls_valid = 0; break;
            }
            if (col + ncols > COLS)
                s.wraps++;
            s.commands++;
            s.per_port[q]++;
            compare_cols(p, col, ncols, "after a request");
            if (s.commands % 4096 == 0)
                compare_all(p, "periodic full compare");
        }
    }
    compare_all(p, "end of the stream");
    printf("  random, %u banks: %lu requests (d %lu, a %lu, shift %lu, cp %lu, ld/st %lu) in "
           "%" PRIu64 " cycles; %lu cycles with a port waiting, %lu second cycles, %lu windows "
           "across 511, %lu resets\n",
           p->banks, s.commands, s.per_port[0], s.per_port[1], s.per_port[2], s.per_port[3],
           s.per_port[4], p->cycle, s.waited, s.two_cycle, s.wraps, s.resets);
    /* the stream must have exercised what it claims to: every port at least 2% of the
     * requests, checked from 50,000 requests, some fifty phases (the shares then range
     * from 7% up over seeds; ten phases leave a port's share to chance: 3% for shift on
     * some seeds of 10,000) */
    if (g_fail == fails_before && n_commands >= 50000) {
        for (unsigned q = 0; q < TC_TMEM_PORT_COUNT; q++)
            if (s.per_port[q] < n_commands / 50)
                fail("port %s got only %lu requests", tc_tmem_port_name((tc_tmem_port)q),
                     s.per_port[q]);
        if (!s.waited || !s.wraps || (p->banks == 4 && !s.two_cycle))
            fail("the stream had no conflicts, wraps or two-cycle requests");
    }
}

/* ------------------------------------------------------------- waveform scenario */

/* Tagged column 0 (word 0xc00k00ll: slot k, lane ll), then shifts with an A read after
 * each: in sim/waves/tmem.gtkw the words of a_rdata_o's slot 0 walk one lane per shift,
 * across the group boundaries. tmem_waves.sh checks the view against this story. */
static void wave_scenario(pair *p)
{
    static uint32_t src[WIDE], d[WIDE];
    g_test = "waves";
    for (unsigned k = 0; k < SLICE; k++)
        for (unsigned l = 0; l < LANES; l++)
            src[k * LANES + l] = 0xc0000000u | (k << 16) | l; /* lane number in the low bits */
    tc_tmem_inputs idle = { 0 };
    idle.ls_ncols = 1;
    pair_cycle(p, &idle);
    tc_tmem_inputs cp = { .cp_valid = 1, .cp_col = 0, .cp_data = src, .ls_ncols = 1 };
    pair_request(p, &cp, TC_TMEM_PORT_CP, NULL);
    pair_cycle(p, &idle);
    for (int i = 0; i < 4; i++) {
        tc_tmem_inputs sh = { .shift_valid = 1, .shift_col = 0, .ls_ncols = 1 };
        pair_request(p, &sh, TC_TMEM_PORT_SHIFT, NULL);
        tc_tmem_inputs a = { .a_valid = 1, .a_col = 0, .ls_ncols = 1 };
        pair_request(p, &a, TC_TMEM_PORT_A, NULL);
        pair_cycle(p, &idle);
    }
    /* two back-to-back shifts, then a masked D write that spares lanes 0-63 */
    tc_tmem_inputs sh = { .shift_valid = 1, .shift_col = 0, .ls_ncols = 1 };
    tc_tmem_inputs a = { .a_valid = 1, .a_col = 0, .ls_ncols = 1 };
    pair_request(p, &sh, TC_TMEM_PORT_SHIFT, NULL);
    pair_request(p, &sh, TC_TMEM_PORT_SHIFT, NULL);
    pair_request(p, &a, TC_TMEM_PORT_A, NULL);
    pair_cycle(p, &idle);
    for (unsigned i = 0; i < WIDE; i++)
        d[i] = 0xd0000000u | i;
    tc_tmem_inputs dw = { .d_valid = 1, .d_col = 0, .d_data = d, .ls_ncols = 1,
                          .d_disable = { 0xffffffffu, 0xffffffffu, 0, 0 } };
    pair_request(p, &dw, TC_TMEM_PORT_D, NULL);
    pair_request(p, &a, TC_TMEM_PORT_A, NULL);
    for (int i = 0; i < 3; i++)
        pair_cycle(p, &idle);
    compare_all(p, "waves");
}

/* ------------------------------------------------------------- handshake violation */

/* A requester that drops valid in the second cycle of a two-cycle request (4 banks):
 * tmem.sv's check_hold assertion must report it ("valid dropped before ready"), which
 * under Verilator --assert stops the process; ctest tmem_tb_hold_violation looks for the
 * message. Nothing else checks the assertion: disabled, it passed every other test
 * (mutation testing). Returning at all is the failure. */
static int hold_violation(void)
{
    static uint32_t buf[WIDE];
    g_banks = 4;
    g_test = "hold violation";
    tmem_dut *d = tmem_dut_new(4, NULL);
    if (!d) {
        fprintf(stderr, "tmem_tb: cannot build the 4-bank RTL\n");
        return 1;
    }
    tc_tmem_inputs cp = { .cp_valid = 1, .cp_col = 0, .cp_data = buf }, idle = { 0 };
    tc_tmem_outputs o;
    tmem_dut_cycle(d, &cp, &o);
    if (o.grant != 1u << TC_TMEM_PORT_CP || o.ready)
        fail("cp: grant %#x ready %#x in its first cycle, not a two-cycle request", o.grant,
             o.ready);
    for (int i = 0; i < 3; i++)
        tmem_dut_cycle(d, &idle, &o); /* the assertion fires at the first of these edges */
    tmem_dut_free(d);
    fprintf(stderr, "tmem_tb: cp_valid dropped before cp_ready, and no assertion stopped the "
                    "RTL\n");
    printf("FAILED\n");
    return 1;
}

/* ------------------------------------------------------------- main */

static int run_org(unsigned banks, unsigned long n_commands, const char *only)
{
    static const struct { const char *name; void (*fn)(pair *); } tests[] = {
        { "map", test_map },         { "shift", test_shift },   { "wrap", test_wrap },
        { "masked", test_masked },   { "cycles", test_cycles }, { "conflicts", test_conflicts },
        { "reset", test_reset },
    };
    g_banks = banks;
    unsigned long before = g_fail;
    for (size_t i = 0; i < sizeof tests / sizeof tests[0]; i++) {
        if (only && strcmp(only, tests[i].name))
            continue;
        pair p;
        if (pair_open(&p, banks, NULL))
            return -1;
        unsigned long f = g_fail;
        tests[i].fn(&p);
        printf("  %-10s %u banks: %s\n", tests[i].name, banks, g_fail == f ? "ok" : "FAILED");
        pair_close(&p);
    }
    if (!only || !strcmp(only, "random")) {
        pair p;
        if (pair_open(&p, banks, NULL))
            return -1;
        test_random(&p, n_commands);
        pair_close(&p);
    }
    return g_fail == before ? 0 : 1;
}

static int usage(FILE *f)
{
    fprintf(f, "usage: tmem_tb [--banks 8|4|both] [--word-width 32|4] [--seed S] [--commands N] "
               "[--only TEST] [--trace DIR]\n       tmem_tb --hold-violation\n"
               "  TEST: map shift wrap masked cycles conflicts reset random\n"
               "  --word-width 4: the RTL built with WordW = 4 (no --trace), its\n"
               "  data folded to 4 bits for the RTL and the model alike (default 32)\n");
    return f == stdout ? 0 : 2;
}

int main(int argc, char **argv)
{
    uint64_t commands = 100000;
    const char *banks = "both", *only = NULL, *trace = NULL;
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        if (!strcmp(a, "-h") || !strcmp(a, "--help"))
            return usage(stdout);
        if (!strcmp(a, "--hold-violation"))
            return hold_violation();
        static const char *const opts[] = {"--banks", "--seed", "--commands", "--only",
                                           "--trace", "--word-width", NULL};
        const char *v = test_option("tmem_tb", argc, argv, &i, opts);
        if (!v)
            return usage(stderr);
        if (!strcmp(a, "--banks")) {
            if (strcmp(v, "8") && strcmp(v, "4") && strcmp(v, "both")) {
                fprintf(stderr, "tmem_tb: bad value for --banks '%s' (8, 4 or both)\n", v);
                return 2;
            }
            banks = v;
        } else if (!strcmp(a, "--word-width")) {
            if (strcmp(v, "32") && strcmp(v, "4")) {
                fprintf(stderr, "tmem_tb: bad value for --word-width '%s' (32 or 4)\n", v);
                return 2;
            }
            g_word_w = (unsigned)atoi(v);
        } else if (!strcmp(a, "--seed")) {
            if (test_parse_u64("tmem_tb", a, v, UINT64_MAX, &g_seed))
                return 2;
        } else if (!strcmp(a, "--commands")) {
            if (test_parse_u64("tmem_tb", a, v, UINT64_MAX, &commands))
                return 2;
        } else if (!strcmp(a, "--only")) {
            only = v;
        } else {
            trace = v;
        }
    }
    if (g_word_w != 32 && trace) {
        fprintf(stderr, "tmem_tb: --word-width %u has no waveform build (no --trace)\n",
                g_word_w);
        return 2;
    }
    printf("tmem_tb: seed %llu, %llu random requests per organization, %u-bit words\n",
           (unsigned long long)g_seed, (unsigned long long)commands, g_word_w);
    int rc = 0;
    for (unsigned b = 8; b >= 4; b -= 4) {
        if (strcmp(banks, "both") && (unsigned)atoi(banks) != b)
            continue;
        if (trace) {
            if (!tmem_dut_has_trace()) {
                fprintf(stderr, "tmem_tb: the RTL was built without --trace-fst\n");
                return 2;
            }
            char path[4096];
            snprintf(path, sizeof path, "%s/tmem%u.fst", trace, b);
            pair p;
            g_banks = b;
            FILE *probe = fopen(path, "wb"); /* the shim cannot say why it failed */
            if (!probe) {
                fprintf(stderr, "tmem_tb: --trace: cannot write '%s': %s\n", path,
                        strerror(errno));
                return 1;
            }
            fclose(probe);
            if (pair_open(&p, b, path))
                return 1;
            wave_scenario(&p);
            pair_close(&p);
            printf("  waves      %u banks: %s\n", b, path);
            continue;
        }
        if (run_org(b, (unsigned long)commands, only))
            rc = 1;
    }
    if (g_fail)
        rc = 1;
    printf("%s\n", rc ? "FAILED" : "PASSED");
    return rc;
}
