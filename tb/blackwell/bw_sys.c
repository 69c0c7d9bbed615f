/* bw_sys.c - one MMA of the Verilated rtl/tc_blackwell_sys.sv (bw_sys.h): the model
 * memory loaded through the cp port, the instruction run with the unit's tensor-memory
 * requests served by tmem.sv, the memory read back through the ld port. */
#include <stdlib.h>
#include <string.h>
#include "bw_pins.h"
#include "bw_sys.h"

/* An instruction that has not finished after this many cycles means a hung design (as
 * bw_dut.c); a cp or ld on an otherwise idle memory takes at most 2. */
#define MAX_CYCLES 1000000ull
#define MAX_REQUEST_CYCLES 4u
#define UNIT_PORTS (1u << TC_TMEM_PORT_D | 1u << TC_TMEM_PORT_A)

struct bw_sys {
    bw_sys_shim *shim;
    unsigned banks;
    bw_pins_in in;
    tc_tmem_inputs mem;       /* ports 2-4: the loader's cp / ld, or the other requester */
    bw_sys_pins_out out;      /* of the cycle clocked last, before its edge */
    uint64_t cycles;
    bw_dut_traffic traffic;   /* of the instruction started last */
    uint64_t stall_rng;       /* bw_sys_stalls: 0 never */
    uint32_t wide[TC_TMEM_WIDE_WORDS];
};

tc_status bw_sys_new(unsigned banks, bw_sys **out)
{
    if (!out)
        return TC_EINVAL;
    bw_sys *s = calloc(1, sizeof *s);
    if (!s)
        return TC_ENOMEM;
    s->shim = bw_sys_shim_new(banks);
    if (!s->shim) {
        free(s);
        return TC_EINVAL;
    }
    s->banks = banks;
    s->mem.ls_ncols = 1;
    for (int i = 0; i < 2; i++) { /* two cycles of reset */
        bw_sys_shim_set(s->shim, &s->in, &s->mem);
        bw_sys_shim_tick(s->shim);
    }
    s->in.rst_n = 1;
    *out = s;
    return TC_OK;
}

void bw_sys_free(bw_sys *s)
{
    if (s)
        bw_sys_shim_free(s->shim);
    free(s);
}

unsigned bw_sys_banks(const bw_sys *s) { return s ? s->banks : 0; }
uint64_t bw_sys_cycles(const bw_sys *s) { return s ? s->cycles : 0; }

void bw_sys_stalls(bw_sys *s, uint64_t seed)
{
    if (s)
        s->stall_rng = seed;
}

void bw_sys_traffic_get(const bw_sys *s, bw_dut_traffic *out)
{
    if (s && out)
        *out = s->traffic;
}

/* One cycle: the inputs, the outputs they give (the unit's grants counted), the edge.
 * Returns the ready bits of ports 2-4. */
static unsigned cycle(bw_sys *s)
{
    bw_sys_shim_set(s->shim, &s->in, &s->mem);
    bw_sys_shim_get(s->shim, &s->out);
    if (s->out.mem.grant & UNIT_PORTS)
        s->traffic.tmem_cycles++;
    bw_sys_shim_tick(s->shim);
    s->cycles++;
    return s->out.mem.ready;
}

/* The request on s->mem (one of ports 2-4) held until its ready, then taken off. */
static tc_status request(bw_sys *s, tc_tmem_port port)
{
    for (unsigned c = 0; c < MAX_REQUEST_CYCLES; c++)
        if (cycle(s) & 1u << port) {
            s->mem.cp_valid = s->mem.ls_valid = 0;
            return TC_OK;
        }
    return TC_EIO;
}

/* Every word of t into the RTL memory: 64 cp requests of 8 columns x 128 lanes. */
static tc_status load_tmem(bw_sys *s, const tc_tmem *t)
{
    for (unsigned col = 0; col < TC_TMEM_COLS; col += TC_TMEM_SLICE) {
        for (unsigned k = 0; k < TC_TMEM_SLICE; k++)
            for (unsigned l = 0; l < TC_TMEM_LANES; l++)
                tc_tmem_peek(t, l, col + k, &s->wide[k * TC_TMEM_LANES + l]);
        s->mem = (tc_tmem_inputs){ .cp_valid = 1, .cp_col = col, .cp_data = s->wide,
                                   .ls_ncols = 1 };
        tc_status st = request(s, TC_TMEM_PORT_CP);
        if (st != TC_OK)
            return st;
    }
    return TC_OK;
}

/* Every word of the RTL memory into t: an ld of 8 columns per group and slice, its
 * result in the registers once the edge of its ready cycle is past. */
static tc_status read_tmem(bw_sys *s, tc_tmem *t)
{
    for (unsigned g = 0; g < TC_TMEM_GROUPS; g++)
        for (unsigned col = 0; col < TC_TMEM_COLS; col += TC_TMEM_SLICE) {
            s->mem = (tc_tmem_inputs){ .ls_valid = 1, .ls_group = g, .ls_col = col,
                                       .ls_ncols = TC_TMEM_SLICE };
            tc_status st = request(s, TC_TMEM_PORT_LS);
            if (st != TC_OK)
                return st;
            bw_sys_shim_set(s->shim, &s->in, &s->mem);
            bw_sys_shim_get(s->shim, &s->out);
            if (!s->out.mem.ls_rvalid)
                return TC_EIO;
            for (unsigned k = 0; k < TC_TMEM_SLICE; k++)
                for (unsigned l = 0; l < TC_TMEM_GROUP_LANES; l++)
                    tc_tmem_poke(t, g * TC_TMEM_GROUP_LANES + l, col + k,
                                 s->out.mem.ls_rdata[k * TC_TMEM_GROUP_LANES + l]);
        }
    return TC_OK;
}

/* The other requester (bw_sys_stalls): when its port is free, about one cycle in four
 * an ld of 8 columns somewhere, held until ready (its data are not looked at). */
static void other_requester(bw_sys *s)
{
    if (!s->stall_rng || s->mem.ls_valid)
        return;
    s->stall_rng ^= s->stall_rng >> 12;
    s->stall_rng ^= s->stall_rng << 25;
    s->stall_rng ^= s->stall_rng >> 27;
    uint64_t r = s->stall_rng * 0x2545f4914f6cdd1dull;
    if ((r >> 62) == 0)
        s->mem = (tc_tmem_inputs){ .ls_valid = 1, .ls_group = (unsigned)(r >> 40) & 3u,
                                   .ls_col = (unsigned)(r >> 20) % TC_TMEM_COLS,
                                   .ls_ncols = TC_TMEM_SLICE };
}

/* One cycle of instruction m: the other requester, the clock edge, then the shared-
 * memory row the unit asked for in that cycle onto the port for the next one. */
static tc_status step(bw_sys *s, const tc_bw_mma_desc *m, int others)
{
    if (others)
        other_requester(s);
    if (cycle(s) & 1u << TC_TMEM_PORT_LS)
        s->mem.ls_valid = 0;
    s->in.start = 0;
    if (s->out.smem_req) {
        tc_status st = bw_pins_smem_row(&s->in, m, s->out.smem_sel, s->out.smem_row);
        if (st != TC_OK)
            return st;
        s->traffic.smem_rows++;
    }
    return TC_OK;
}

/* t loaded into the RTL memory, then instruction m on the pins with its counters
 * cleared (m checked first: nothing is clocked for a refused instruction). */
static tc_status start(bw_sys *s, const tc_tmem *t, const tc_bw_mma_desc *m)
{
    bw_pins_in check = s->in;
    tc_status st = bw_pins_load(&check, m);
    if (st != TC_OK)
        return st;
    if (tc_tmem_banks(t) != s->banks)
        return TC_EINVAL;
    if ((st = load_tmem(s, t)) != TC_OK)
        return st;
    s->in = check;
    memset(&s->traffic, 0, sizeof s->traffic);
    return TC_OK;
}

tc_status bw_sys_mma(bw_sys *s, tc_tmem *t, const tc_bw_mma_desc *m, uint64_t *cycles)
{
    if (!s || !t || !m)
        return TC_EINVAL;
    tc_status st = start(s, t, m);
    if (st != TC_OK)
        return st;
    uint64_t first = s->cycles;
    do {
        if ((st = step(s, m, 1)) != TC_OK)
            return st;
        /* s->out: the outputs of the cycle just clocked (the first is start_i's) */
        if (s->cycles - first == 1)
            s->traffic.busy_at_start = s->out.busy;
        else if (!s->out.busy)
            s->traffic.busy_gaps++;
    } while (!s->out.done && s->cycles - first < MAX_CYCLES);
    if (cycles)
        *cycles = s->cycles - first;
    if (!s->out.done)
        return TC_EIO;
    /* the outputs after the done cycle's edge, before the next one */
    bw_sys_shim_set(s->shim, &s->in, &s->mem);
    bw_sys_shim_get(s->shim, &s->out);
    s->traffic.busy_after = s->out.busy;
    s->traffic.done_after = s->out.done;
    /* the other requester's ld, if one is on the port, runs to its ready */
    if (s->mem.ls_valid && (st = request(s, TC_TMEM_PORT_LS)) != TC_OK)
        return st;
    return read_tmem(s, t);
}

tc_status bw_sys_mma_reset(bw_sys *s, tc_tmem *t, const tc_bw_mma_desc *m, uint64_t run,
                           unsigned hold, int *busy)
{
    if (!s || !t || !m || !busy || !hold)
        return TC_EINVAL;
    tc_status st = start(s, t, m);
    if (st != TC_OK)
        return st;
    for (uint64_t c = 0; c < run; c++) {
        if ((st = step(s, m, 1)) != TC_OK)
            return st;
        if (s->out.done)
            break;
    }
    s->in.rst_n = 0;
    s->mem.ls_valid = 0;   /* the other requester is reset too */
    for (unsigned c = 0; c < hold; c++)
        if ((st = step(s, m, 0)) != TC_OK)
            return st;
    s->in.rst_n = 1;
    bw_sys_shim_set(s->shim, &s->in, &s->mem);   /* after the reset, before any edge */
    bw_sys_shim_get(s->shim, &s->out);
    *busy = s->out.busy;
    return TC_OK;
}
