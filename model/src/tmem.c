/* tmem.c - the tensor memory of seed 003 (banks, ld/st, cp, MMA ports, shift) and its
 * cycle costs; the golden model of rtl/tmem.sv (see tcsim_tmem.h for the contract).
 *
 * The storage is kept physically, bank by bank, as the RTL holds it, so the address
 * map is exercised by every access rather than assumed: a wrong map shows up as data
 * in the wrong place when the testbench compares the Verilated banks with this one.
 *
 * Everything clocked goes through tmem_cycle(), which mirrors the RTL's arbitration,
 * per-cycle bank accesses and registers; the operation-level calls only feed it one
 * request at a time, so the costs they report are those of the same engine. */
#include <stdlib.h>
#include <string.h>
#include "tcsim.h"
#include "tmem_ctl.h"

#define GL TC_TMEM_GROUP_LANES
#define N_DIS (TC_TMEM_LANES / 32)

struct tc_tmem {
    unsigned banks;      /* per group: 8 or 4 */
    unsigned depth;      /* rows per bank: 512 / banks */
    unsigned bank_bits;  /* log2(banks) */
    uint32_t *mem;       /* [group][bank][row][group lane] */
    tmem_ctl ctl;        /* everything a request changes but the words */
};

static int banks_ok(unsigned banks) { return banks == 8 || banks == 4; }

static uint32_t *bank_row_ptr(const tc_tmem *m, unsigned g, unsigned b, unsigned row)
{
    return m->mem + (((size_t)g * m->banks + b) * m->depth + row) * GL;
}

/* ------------------------------------------------------------- address map */

tc_status tc_tmem_map(unsigned banks, unsigned lane, unsigned col, tc_tmem_loc *out)
{
    if (!banks_ok(banks) || lane >= TC_TMEM_LANES || col >= TC_TMEM_COLS || !out)
        return TC_EINVAL;
    out->group = lane / GL;
    out->group_lane = lane % GL;
    out->bank = col % banks;
    out->row = col / banks;
    return TC_OK;
}

/* ------------------------------------------------------------- names and costs */

const char *tc_tmem_port_name(tc_tmem_port p)
{
    static const char *const names[TC_TMEM_PORT_COUNT] = { "d", "a", "shift", "cp", "ls" };
    return (unsigned)p < TC_TMEM_PORT_COUNT ? names[p] : NULL;
}

const char *tc_tmem_op_name(tc_tmem_op op)
{
    static const char *const names[TC_TMEM_OP_COUNT] = {
        "mma-d", "mma-a", "shift", "cp", "ld", "st"
    };
    return (unsigned)op < TC_TMEM_OP_COUNT ? names[op] : NULL;
}

/* Each bank serves one column per cycle and a window of n columns puts ceil(n/banks)
 * of them in the busiest bank. */
static unsigned steps_for(unsigned banks, unsigned ncols) { return (ncols + banks - 1) / banks; }

tc_status tc_tmem_op_cycles(unsigned banks, tc_tmem_op op, unsigned ncols, unsigned *cycles)
{
    if (!banks_ok(banks) || (unsigned)op >= TC_TMEM_OP_COUNT || !cycles)
        return TC_EINVAL;
    if (op == TC_TMEM_OP_LD || op == TC_TMEM_OP_ST) {
        if (ncols < 1 || ncols > TC_TMEM_SLICE)
            return TC_EINVAL;
    } else {
        ncols = TC_TMEM_SLICE;
    }
    *cycles = steps_for(banks, ncols);
    return TC_OK;
}

/* ------------------------------------------------------------- the memory */

tc_status tc_tmem_new(unsigned banks, tc_tmem **out)
{
    if (!banks_ok(banks) || !out)
        return TC_EINVAL;
    tc_tmem *m = calloc(1, sizeof *m);
    if (!m)
        return TC_ENOMEM;
    m->banks = banks;
    m->depth = TC_TMEM_COLS / banks;
    m->bank_bits = banks == 8 ? 3 : 2;
    m->mem = calloc((size_t)TC_TMEM_LANES * TC_TMEM_COLS, sizeof *m->mem);
    if (!m->mem) {
        free(m);
        return TC_ENOMEM;
    }
    *out = m;
    return TC_OK;
}

void tc_tmem_free(tc_tmem *m)
{
    if (m) {
        free(m->mem);
        free(m);
    }
}

unsigned tc_tmem_banks(const tc_tmem *m) { return m ? m->banks : 0; }
uint64_t tc_tmem_cycle_count(const tc_tmem *m) { return m ? m->ctl.cycles : 0; }

void tc_tmem_reset(tc_tmem *m)
{
    if (!m)
        return;
    m->ctl.busy = 0;
    m->ctl.busy_port = 0;
    m->ctl.a_rvalid = 0;
    m->ctl.ls_rvalid = 0;
}

tc_status tc_tmem_peek(const tc_tmem *m, unsigned lane, unsigned col, uint32_t *out)
{
    tc_tmem_loc l;
    if (!m || !out || tc_tmem_map(m->banks, lane, col, &l) != TC_OK)
        return TC_EINVAL;
    *out = bank_row_ptr(m, l.group, l.bank, l.row)[l.group_lane];
    return TC_OK;
}

tc_status tc_tmem_poke(tc_tmem *m, unsigned lane, unsigned col, uint32_t value)
{
    tc_tmem_loc l;
    if (!m || tc_tmem_map(m->banks, lane, col, &l) != TC_OK)
        return TC_EINVAL;
    bank_row_ptr(m, l.group, l.bank, l.row)[l.group_lane] = value;
    return TC_OK;
}

tc_status tc_tmem_bank_row(const tc_tmem *m, unsigned group, unsigned bank, unsigned row,
                           uint32_t out[TC_TMEM_GROUP_LANES])
{
    if (!m || !out || group >= TC_TMEM_GROUPS || bank >= m->banks || row >= m->depth)
        return TC_EINVAL;
    memcpy(out, bank_row_ptr(m, group, bank, row), GL * sizeof *out);
    return TC_OK;
}

/* ------------------------------------------------------------- the clocked engine */

/* The request a port presents, reduced to what a bank access needs. */
typedef struct tmem_req {
    unsigned port;
    unsigned col, ncols;
    int store;                 /* ls: st rather than ld */
    unsigned group;            /* ls */
    const uint32_t *data;      /* D, cp: wide; st: quarter */
    const uint32_t *disable;   /* D */
} tmem_req;

static tc_status port_req(const tc_tmem_inputs *in, unsigned port, tmem_req *r)
{
    memset(r, 0, sizeof *r);
    r->port = port;
    r->ncols = TC_TMEM_SLICE;
    switch (port) {
    case TC_TMEM_PORT_D:
        r->col = in->d_col;
        r->data = in->d_data;
        r->disable = in->d_disable;
        break;
    case TC_TMEM_PORT_A:
        r->col = in->a_col;
        break;
    case TC_TMEM_PORT_SHIFT:
        r->col = in->shift_col;
        break;
    case TC_TMEM_PORT_CP:
        r->col = in->cp_col;
        r->data = in->cp_data;
        break;
    default:
        r->col = in->ls_col;
        r->ncols = in->ls_ncols;
        r->store = in->ls_store != 0;
        r->group = in->ls_group;
        r->data = r->store ? in->ls_data : NULL;
        if (r->group >= TC_TMEM_GROUPS || r->ncols < 1 || r->ncols > TC_TMEM_SLICE)
            return TC_EINVAL;
        break;
    }
    if (r->col >= TC_TMEM_COLS)
        return TC_EINVAL;
    if ((port == TC_TMEM_PORT_D || port == TC_TMEM_PORT_CP || r->store) && !r->data)
        return TC_EINVAL;
    return TC_OK;
}

/* One cycle of request r: every bank serves the slot of the window that falls in it in
 * this step, as the RTL's gen_bank_addr does. */
static void tmem_step(tc_tmem *m, const tmem_req *r, unsigned step)
{
    const unsigned nb = m->banks;
    unsigned g0 = 0, g1 = TC_TMEM_GROUPS;
    if (r->port == TC_TMEM_PORT_LS) {
        g0 = r->group;
        g1 = r->group + 1;
    }
    /* ld: slots past the count read as zero, in every cycle of the request */
    if (r->port == TC_TMEM_PORT_LS && !r->store)
        for (unsigned k = r->ncols; k < TC_TMEM_SLICE; k++)
            memset(m->ctl.ls_rdata + k * GL, 0, GL * sizeof(uint32_t));

    for (unsigned b = 0; b < nb; b++) {
        unsigned k = ((b - r->col) & (nb - 1)) + step * nb;
        if (k >= r->ncols)
            continue;
        unsigned row = ((r->col + k) % TC_TMEM_COLS) >> m->bank_bits;

        if (r->port == TC_TMEM_PORT_SHIFT) {
            /* All reads of the cycle happen before its writes: gather the 128 lanes of
             * this column first, then write them back one lane further. */
            uint32_t old[TC_TMEM_LANES];
            for (unsigned g = 0; g < TC_TMEM_GROUPS; g++)
                memcpy(old + g * GL, bank_row_ptr(m, g, b, row), GL * sizeof *old);
            for (unsigned l = 1; l < TC_TMEM_LANES; l++)
                bank_row_ptr(m, l / GL, b, row)[l % GL] = old[l - 1];
            continue;
        }
        for (unsigned g = g0; g < g1; g++) {
            uint32_t *p = bank_row_ptr(m, g, b, row);
            switch (r->port) {
            case TC_TMEM_PORT_D:
                for (unsigned i = 0; i < GL; i++) {
                    unsigned l = g * GL + i;
                    if (!((r->disable[l / 32] >> (l % 32)) & 1u))
                        p[i] = r->data[k * TC_TMEM_LANES + l];
                }
                break;
            case TC_TMEM_PORT_CP:
                memcpy(p, r->data + k * TC_TMEM_LANES + g * GL, GL * sizeof *p);
                break;
            case TC_TMEM_PORT_A:
                memcpy(m->ctl.a_rdata + k * TC_TMEM_LANES + g * GL, p, GL * sizeof *p);
                break;
            default:
                if (r->store)
                    memcpy(p, r->data + k * GL, GL * sizeof *p);
                else
                    memcpy(m->ctl.ls_rdata + k * GL, p, GL * sizeof *p);
                break;
            }
        }
    }
}

static tc_status tmem_cycle(tc_tmem *m, const tc_tmem_inputs *in, tc_tmem_outputs *out)
{
    const unsigned valid = (in->d_valid ? 1u << TC_TMEM_PORT_D : 0) |
                           (in->a_valid ? 1u << TC_TMEM_PORT_A : 0) |
                           (in->shift_valid ? 1u << TC_TMEM_PORT_SHIFT : 0) |
                           (in->cp_valid ? 1u << TC_TMEM_PORT_CP : 0) |
                           (in->ls_valid ? 1u << TC_TMEM_PORT_LS : 0);
    int granted = 0;
    unsigned port = 0, step = 0;
    if (m->ctl.busy) {
        granted = 1;
        port = m->ctl.busy_port;
        step = 1;
    } else if (valid) {
        granted = 1;
        while (!(valid & (1u << port)))  /* lowest port number wins */
            port++;
    }

    tmem_req r = { 0 };
    unsigned steps = 0;
    if (granted) {
        if (port_req(in, port, &r) != TC_OK)
            return TC_EINVAL;
        steps = steps_for(m->banks, r.ncols);
    }
    const int last = granted && step + 1 == steps;

    if (granted)
        tmem_step(m, &r, step);
    m->ctl.busy = granted && !last;
    m->ctl.busy_port = port;
    m->ctl.a_rvalid = last && port == TC_TMEM_PORT_A;
    m->ctl.ls_rvalid = last && port == TC_TMEM_PORT_LS && !r.store;
    m->ctl.cycles++;

    if (out) {
        out->grant = granted ? 1u << port : 0;
        out->ready = last ? 1u << port : 0;
        out->a_rvalid = m->ctl.a_rvalid;
        out->a_rdata = m->ctl.a_rdata;
        out->ls_rvalid = m->ctl.ls_rvalid;
        out->ls_rdata = m->ctl.ls_rdata;
    }
    return TC_OK;
}

tc_status tc_tmem_clock(tc_tmem *m, const tc_tmem_inputs *in, tc_tmem_outputs *out)
{
    if (!m || !in)
        return TC_EINVAL;
    return tmem_cycle(m, in, out);
}

/* ------------------------------------------------------------- operation level */

/* Present one request until its ready; the worker behind every operation call. */
static tc_status run_request(tc_tmem *m, const tc_tmem_inputs *in, unsigned port, unsigned *cycles)
{
    if (m->ctl.busy)
        return TC_EINVAL;
    tmem_req r;
    tc_status s = port_req(in, port, &r);
    if (s != TC_OK)
        return s;
    unsigned n = 0;
    tc_tmem_outputs o;
    do {
        s = tmem_cycle(m, in, &o);
        if (s != TC_OK)
            return s;
        n++;
    } while (!(o.ready & (1u << port)));
    if (cycles)
        *cycles = n;
    return TC_OK;
}

tc_status tc_tmem_ld(tc_tmem *m, unsigned group, unsigned col, unsigned ncols,
                     uint32_t *out, unsigned *cycles)
{
    if (!m || !out)
        return TC_EINVAL;
    tc_tmem_inputs in = { .ls_valid = 1, .ls_store = 0, .ls_group = group, .ls_col = col,
                          .ls_ncols = ncols };
    tc_status s = run_request(m, &in, TC_TMEM_PORT_LS, cycles);
    if (s == TC_OK)
        memcpy(out, m->ctl.ls_rdata, (size_t)ncols * GL * sizeof *out);
    return s;
}

tc_status tc_tmem_st(tc_tmem *m, unsigned group, unsigned col, unsigned ncols,
                     const uint32_t *in_data, unsigned *cycles)
{
    if (!m || !in_data)
        return TC_EINVAL;
    tc_tmem_inputs in = { .ls_valid = 1, .ls_store = 1, .ls_group = group, .ls_col = col,
                          .ls_ncols = ncols, .ls_data = in_data };
    return run_request(m, &in, TC_TMEM_PORT_LS, cycles);
}

static int shape_ok(unsigned num)
{
    return num >= 1 && num <= 128 && (num & (num - 1)) == 0;
}

/* The .32x32b.xN shapes, split into requests of up to a slice each. A st reads only
 * `ncols` slots, so the caller's columns can be passed in place. */
static tc_status shape_32x32b(tc_tmem *m, int store, unsigned group, unsigned col, unsigned num,
                              uint32_t *out, const uint32_t *in_data, unsigned *cycles)
{
    if (!m || !shape_ok(num) || col >= TC_TMEM_COLS || group >= TC_TMEM_GROUPS ||
        (store ? !in_data : !out) || m->ctl.busy)
        return TC_EINVAL;
    unsigned total = 0;
    for (unsigned done = 0; done < num; done += TC_TMEM_SLICE) {
        unsigned n = num - done < TC_TMEM_SLICE ? num - done : TC_TMEM_SLICE, c;
        unsigned at = (col + done) % TC_TMEM_COLS;
        tc_status s = store ? tc_tmem_st(m, group, at, n, in_data + (size_t)done * GL, &c)
                            : tc_tmem_ld(m, group, at, n, out + (size_t)done * GL, &c);
        if (s != TC_OK)
            return s;
        total += c;
    }
    if (cycles)
        *cycles = total;
    return TC_OK;
}

tc_status tc_tmem_ld_32x32b(tc_tmem *m, unsigned group, unsigned col, unsigned num,
                            uint32_t *out, unsigned *cycles)
{
    return shape_32x32b(m, 0, group, col, num, out, NULL, cycles);
}

tc_status tc_tmem_st_32x32b(tc_tmem *m, unsigned group, unsigned col, unsigned num,
                            const uint32_t *in, unsigned *cycles)
{
    return shape_32x32b(m, 1, group, col, num, NULL, in, cycles);
}

tc_status tc_tmem_mma_d(tc_tmem *m, unsigned col, const uint32_t *d,
                        const uint32_t disable[N_DIS], unsigned *cycles)
{
    if (!m || !d)
        return TC_EINVAL;
    tc_tmem_inputs in = { .d_valid = 1, .d_col = col, .d_data = d };
    if (disable)
        memcpy(in.d_disable, disable, sizeof in.d_disable);
    return run_request(m, &in, TC_TMEM_PORT_D, cycles);
}

tc_status tc_tmem_mma_a(tc_tmem *m, unsigned col, uint32_t *a, unsigned *cycles)
{
    if (!m || !a)
        return TC_EINVAL;
    tc_tmem_inputs in = { .a_valid = 1, .a_col = col };
    tc_status s = run_request(m, &in, TC_TMEM_PORT_A, cycles);
    if (s == TC_OK)
        memcpy(a, m->ctl.a_rdata, sizeof m->ctl.a_rdata);
    return s;
}

tc_status tc_tmem_cp(tc_tmem *m, unsigned col, const uint32_t *src, unsigned *cycles)
{
    if (!m || !src)
        return TC_EINVAL;
    tc_tmem_inputs in = { .cp_valid = 1, .cp_col = col, .cp_data = src };
    return run_request(m, &in, TC_TMEM_PORT_CP, cycles);
}

tc_status tc_tmem_shift(tc_tmem *m, unsigned col, unsigned *cycles)
{
    if (!m)
        return TC_EINVAL;
    tc_tmem_inputs in = { .shift_valid = 1, .shift_col = col };
    return run_request(m, &in, TC_TMEM_PORT_SHIFT, cycles);
}

void tc_tmem_ctl_get(const tc_tmem *m, tmem_ctl *out) { *out = m->ctl; }
void tc_tmem_ctl_set(tc_tmem *m, const tmem_ctl *ctl) { m->ctl = *ctl; }
