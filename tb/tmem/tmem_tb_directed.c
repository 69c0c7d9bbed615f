/* tmem_tb_directed.c - the tensor-memory testbench's directed tests: the mapping, shifts,
 * wrapping windows, masked writes, cycle counts and port conflicts, each against
 * expectations written from seed 003, not taken from the model. */
#include <stdio.h>
#include <string.h>
#include "tmem_tb.h"

image g_img;

/* group = lane / 32, bank = col % banks, row = col / banks (seed 003, Figure 5). */
void test_map(pair *p)
{
    g_test = "map";
    for (unsigned l = 0; l < LANES; l++)
        for (unsigned c = 0; c < COLS; c++) {
            tc_tmem_loc loc;
            if (tc_tmem_map(p->banks, l, c, &loc) != TC_OK || loc.group != l / 32 ||
                loc.group_lane != l % 32 || loc.bank != c % p->banks || loc.row != c / p->banks) {
                fail(TK_B_CHECK, "tc_tmem_map(lane %u, col %u)", l, c);
                return;
            }
        }
    tc_tmem_loc loc;
    if (tc_tmem_map(p->banks, LANES, 0, &loc) != TC_EINVAL ||
        tc_tmem_map(p->banks, 0, COLS, &loc) != TC_EINVAL || tc_tmem_map(6, 0, 0, &loc) != TC_EINVAL)
        fail(TK_B_CHECK, "tc_tmem_map accepts an out-of-range argument");

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
                        fail(TK_B_WORD,
                             "group %u bank %u row %u lane %u: rtl %08x, model %08x, expected "
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
            fail(TK_B_TIMING, "A read at col %u: no rvalid right after ready", c);
            return;
        }
        for (unsigned k = 0; k < SLICE; k++)
            for (unsigned l = 0; l < LANES; l++)
                if (o.a_rdata[k * LANES + l] != g_img.w[l][(c + k) % COLS]) {
                    fail(TK_B_WORD, "A read at col %u: slot %u lane %u = %08x, expected %08x", c, k,
                         l, o.a_rdata[k * LANES + l], g_img.w[l][(c + k) % COLS]);
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

void test_shift(pair *p)
{
    static const unsigned cols[] = { 0, 8, 37, 100, 505, 508, 511 };
    g_test = "shift";
    fill_by_cp(p, &g_img, 2);
    for (size_t i = 0; i < sizeof cols / sizeof cols[0]; i++) {
        unsigned c = cols[i];
        tc_tmem_inputs in = { .shift_valid = 1, .shift_col = c };
        unsigned n = pair_request(p, &in, TC_TMEM_PORT_SHIFT, NULL);
        if (n != spec_cycles(p->banks, SLICE))
            fail(TK_B_TIMING, "shift at col %u took %u cycles, the spec says %u", c, n,
                 spec_cycles(p->banks, SLICE));
        /* the named lanes first, for a readable failure */
        for (unsigned k = 0; k < SLICE; k++) {
            unsigned cc = (c + k) % COLS;
            static const unsigned boundary[] = { 32, 64, 96 };
            for (size_t j = 0; j < 3; j++) {
                uint32_t r = 0;
                tmem_dut_peek(p->rtl, boundary[j], cc, &r);
                if (r != g_img.w[boundary[j] - 1][cc])
                    fail(TK_B_WORD,
                         "shift col %u: lane %u (group boundary) holds %08x, not lane %u's %08x",
                         cc, boundary[j], r, boundary[j] - 1, g_img.w[boundary[j] - 1][cc]);
            }
            uint32_t r0 = 0, r127 = 0;
            tmem_dut_peek(p->rtl, 0, cc, &r0);
            tmem_dut_peek(p->rtl, 127, cc, &r127);
            if (r0 != g_img.w[0][cc])
                fail(TK_B_WORD, "shift col %u: lane 0 (the last lane) changed to %08x", cc, r0);
            if (r127 != g_img.w[126][cc])
                fail(TK_B_WORD, "shift col %u: lane 127 holds %08x, not lane 126's", cc, r127);
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
        fail(TK_B_TIMING, "5 back-to-back shifts took %u cycles, expected %u", cycles,
             5 * spec_cycles(p->banks, SLICE));
    shift_image(&g_img, 3, 5);
    expect_image(p, &g_img, "after 5 back-to-back shifts");
}

/* Windows that cross column 511 -> 0 on every port. */
void test_wrap(pair *p)
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
                fail(TK_B_WORD, "ld 3 cols at 510: slot %u lane %u = %08x, expected %08x", k, i,
                     o.ls_rdata[k * GL + i], want);
                k = SLICE;
                break;
            }
        }

    /* cp at 508 and D at 511, then an A read at 505 sees both */
    fill(&r, buf, WIDE);
    tc_tmem_inputs cp = { .cp_valid = 1, .cp_col = 508, .cp_data = buf };
    pair_request(p, &cp, TC_TMEM_PORT_CP, NULL);
    img_put(508, SLICE, buf);
    static uint32_t d[WIDE];
    fill(&r, d, WIDE);
    tc_tmem_inputs dw = { .d_valid = 1, .d_col = 511, .d_data = d };
    pair_request(p, &dw, TC_TMEM_PORT_D, NULL);
    img_put(511, SLICE, d);
    expect_image(p, &g_img, "cp at 508 and D at 511");
    tc_tmem_inputs a = { .a_valid = 1, .a_col = 505 };
    pair_request(p, &a, TC_TMEM_PORT_A, &o);
    for (unsigned k = 0; k < SLICE; k++)
        for (unsigned l = 0; l < LANES; l++)
            if (o.a_rdata[k * LANES + l] != g_img.w[l][(505 + k) % COLS]) {
                fail(TK_B_WORD, "A read at 505: slot %u lane %u", k, l);
                return;
            }
}

/* disable-output-lane: a disabled lane keeps its old words, the others take D. */
void test_masked(pair *p)
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
            fail(TK_B_TIMING, "D write took %u cycles, expected %u", n,
                 spec_cycles(p->banks, SLICE));
        for (unsigned k = 0; k < SLICE; k++)
            for (unsigned l = 0; l < LANES; l++)
                if (!((dis[l / 32] >> (l % 32)) & 1u))
                    g_img.w[l][(col + k) % COLS] = d[k * LANES + l];
        expect_image(p, &g_img, "after a masked D write");
    }
}

/* Costs measured on an idle memory: the spec's table, the model's table, the model's
 * operation calls and the RTL must all agree; read data comes the cycle after ready. */
void test_cycles(pair *p)
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
                fail(TK_B_TIMING, "%s n=%u: rtl %u cycles, model table %u, model op %u; spec %u",
                     tc_tmem_op_name((tc_tmem_op)op), n, measured, table, model_op, want);
            int reads = op == TC_TMEM_OP_MMA_A || op == TC_TMEM_OP_LD;
            int rvalid = op == TC_TMEM_OP_MMA_A ? o.a_rvalid : o.ls_rvalid;
            if (rvalid != reads)
                fail(TK_B_TIMING, "%s n=%u: rvalid %d in the cycle after ready",
                     tc_tmem_op_name((tc_tmem_op)op), n, rvalid);
            /* and it drops the cycle after */
            tc_tmem_inputs idle = { 0 };
            o = pair_cycle(p, &idle);
            if (o.a_rvalid || o.ls_rvalid)
                fail(TK_B_TIMING, "%s: rvalid held for more than one cycle",
                     tc_tmem_op_name((tc_tmem_op)op));
        }
    }
    if (tc_tmem_op_cycles(p->banks, TC_TMEM_OP_LD, 0, &(unsigned){ 0 }) != TC_EINVAL ||
        tc_tmem_op_cycles(p->banks, TC_TMEM_OP_ST, 9, &(unsigned){ 0 }) != TC_EINVAL)
        fail(TK_B_CHECK, "tc_tmem_op_cycles accepts ncols 0 or 9");
}

/* Same-cycle requests: granted in priority order D, A, shift, cp, ld/st, each after the
 * previous one's cycles; nothing dropped; a two-cycle request is not interrupted. */
void test_conflicts(pair *p)
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
            fail(TK_B_TIMING, "cycle %u: ready %#x on ports without a request (waiting %#x)", cyc,
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
            fail(TK_B_TIMING, "ready #%u: port %s at cycle %u, expected port %s at cycle %u", q,
                 q < n_done ? tc_tmem_port_name((tc_tmem_port)order[q]) : "none",
                 q < n_done ? at[q] : 0, tc_tmem_port_name((tc_tmem_port)q), t);
            break;
        }
    }
    (void)a_out;
    /* the effects in priority order, from the spec's rules alone */
    img_put(16, SLICE, d);
    for (unsigned k = 0; k < SLICE; k++)
        for (unsigned l = 0; l < LANES; l++)
            if (a_seen[k * LANES + l] != g_img.w[l][16 + k]) {
                fail(TK_B_WORD, "A read granted after D does not see D's data (slot %u lane %u)", k,
                     l);
                k = SLICE;
                break;
            }
    shift_image(&g_img, 16, 1);
    for (unsigned k = 0; k < SLICE; k++)
        for (unsigned l = 0; l < LANES; l++)
            g_img.w[l][20 + k] = cpd[k * LANES + l];
    if (!ld_rvalid)
        fail(TK_B_TIMING, "the ld was dropped");
    for (unsigned k = 0; k < SLICE; k++)
        for (unsigned i = 0; i < GL; i++)
            if (ld_seen[k * GL + i] != g_img.w[GL + i][16 + k]) {
                fail(TK_B_WORD, "ld after D, shift and cp: slot %u lane %u = %08x, expected %08x",
                     k, i, ld_seen[k * GL + i], g_img.w[GL + i][16 + k]);
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
        fail(TK_B_TIMING, "st behind 6 D writes finished at cycle %u, expected %u", ls_at,
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
            fail(TK_B_TIMING, "cp alone: grant %#x ready %#x in its first cycle", o.grant, o.ready);
        c.d_valid = 1;
        c.d_col = 64;
        c.d_data = d;
        o = pair_cycle(p, &c);
        if (o.grant != 1u << TC_TMEM_PORT_CP || o.ready != 1u << TC_TMEM_PORT_CP)
            fail(TK_B_TIMING, "D interrupted the second cycle of a cp: grant %#x ready %#x",
                 o.grant, o.ready);
        c.cp_valid = 0;
        pair_request(p, &c, TC_TMEM_PORT_D, NULL);
        for (unsigned k = 0; k < SLICE; k++)
            for (unsigned l = 0; l < LANES; l++)
                g_img.w[l][64 + k] = d[k * LANES + l];
        expect_image(p, &g_img, "cp then D");
    }
}
