/* tmem_tb_pair.c - the tensor-memory testbench's scoreboard: the Verilated tmem and the
 * model side by side, driven with the same inputs every cycle, their ready, grant,
 * rvalid and read data compared, and their banks compared word for word. */
#include <inttypes.h>
#include <stdio.h>
#include "tmem_tb.h"

/* ------------------------------------------------------------- data words */


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

void fill(rng *r, uint32_t *w, size_t n)
{
    for (size_t i = 0; i < n; i++)
        w[i] = word((uint32_t)rnd(r));
}

/* A word that names its place, so a misplaced word says where it came from. */
uint32_t tag(unsigned lane, unsigned col, unsigned salt)
{
    return word((salt << 24) ^ (lane << 12) ^ col ^ 0x00800000u);
}

/* ------------------------------------------------------------- the pair under test */


int pair_open(pair *p, unsigned banks, const char *fst)
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

void pair_close(pair *p)
{
    tmem_dut_free(p->rtl);
    tc_tmem_free(p->model);
}

void pair_reset(pair *p)
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
            fail(TK_B_WORD, "cycle %" PRIu64 "%s: %s slot %u lane %u: %08x, model %08x", p->cycle,
                 when, what, i / per_slot, i % per_slot, got[i], want[i]);
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
        fail(TK_B_TIMING, "cycle %" PRIu64 "%s: a_rvalid %d ls_rvalid %d, model %d %d", p->cycle,
             when, r->a_rvalid, r->ls_rvalid, a_rvalid, ls_rvalid);
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
tc_tmem_outputs pair_cycle(pair *p, const tc_tmem_inputs *in)
{
    tc_tmem_outputs r, m = { 0 };
    tmem_dut_drive(p->rtl, in);
    check_reads_held(p);
    tmem_dut_sample_ready(p->rtl, &r);
    tmem_dut_step(p->rtl);
    tmem_dut_sample_read(p->rtl, &r);
    if (tc_tmem_clock(p->model, in, &m) != TC_OK)
        fail(TK_B_CHECK, "cycle %" PRIu64 ": the model rejected the inputs", p->cycle);
    if (r.ready != m.ready || r.grant != m.grant)
        fail(TK_B_TIMING, "cycle %" PRIu64 ": ready %#x grant %#x, model ready %#x grant %#x",
             p->cycle, r.ready, r.grant, m.ready, m.grant);
    compare_reads(p, "", &r, m.a_rvalid, m.a_rdata, m.ls_rvalid, m.ls_rdata);
    p->last_a_rvalid = m.a_rvalid;
    p->last_ls_rvalid = m.ls_rvalid;
    p->last_a_rdata = m.a_rdata;
    p->last_ls_rdata = m.ls_rdata;
    p->cycle++;
    return r;
}

/* Present one request until it completes; the number of cycles it took. */
unsigned pair_request(pair *p, const tc_tmem_inputs *in, tc_tmem_port port,
                      tc_tmem_outputs *last)
{
    unsigned n = 0;
    tc_tmem_outputs o;
    do {
        o = pair_cycle(p, in);
        n++;
    } while (!(o.ready & (1u << port)) && n < 100);
    if (n == 100)
        fail(TK_B_TIMING, "port %s never became ready", tc_tmem_port_name(port));
    if (last)
        *last = o;
    return n;
}

/* Word by word, RTL storage against model storage. */
void compare_cols(pair *p, unsigned col, unsigned ncols, const char *what)
{
    for (unsigned k = 0; k < ncols; k++) {
        unsigned c = (col + k) % COLS;
        for (unsigned l = 0; l < LANES; l++) {
            uint32_t r = 0, m = 0;
            tmem_dut_peek(p->rtl, l, c, &r);
            tc_tmem_peek(p->model, l, c, &m);
            if (r != m) {
                fail(TK_B_WORD, "%s: lane %u col %u: rtl %08x, model %08x", what, l, c, r, m);
                return;
            }
        }
    }
}

void compare_all(pair *p, const char *what) { compare_cols(p, 0, COLS, what); }


void expect_image(pair *p, const image *e, const char *what)
{
    for (unsigned c = 0; c < COLS; c++)
        for (unsigned l = 0; l < LANES; l++) {
            uint32_t r = 0, m = 0;
            tmem_dut_peek(p->rtl, l, c, &r);
            tc_tmem_peek(p->model, l, c, &m);
            if (r != e->w[l][c] || m != e->w[l][c]) {
                fail(TK_B_WORD, "%s: lane %u col %u: rtl %08x, model %08x, expected %08x", what, l,
                     c, r, m, e->w[l][c]);
                return;
            }
        }
}

/* Fill the whole memory through the cp port (64 slices), recording the image. */
void fill_by_cp(pair *p, image *e, unsigned salt)
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
unsigned spec_cycles(unsigned banks, unsigned ncols) { return (ncols + banks - 1) / banks; }
