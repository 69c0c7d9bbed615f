/* bw_dut.c - one MMA of the Verilated rtl/tc_blackwell.sv (bw_dut.h): the unit's
 * tensor-memory ports served by tc_tmem_clock, its shared-memory row requests answered
 * the cycle after each request. */
#include <stdlib.h>
#include <string.h>
#include "bw_pins.h"

/* An instruction that has not finished after this many cycles means a hung design (the
 * longest, N = 256 from shared memory, takes about 34,000). */
#define MAX_CYCLES 1000000ull

struct bw_dut {
    bw_shim *shim;
    bw_pins_in in;
    bw_pins_out out;
    uint32_t rdata[TC_TMEM_WIDE_WORDS];   /* the A port's read data, for the next cycle */
    uint64_t cycles;
    bw_dut_traffic traffic;               /* of the instruction started last */
    uint64_t stall_rng;                   /* bw_dut_stalls: 0 never */
    int tm_second;                        /* a request of A or D is in its second cycle */
};

tc_status bw_dut_new(bw_dut **out) { return bw_dut_open(NULL, out); }

tc_status bw_dut_open(const char *fst_path, bw_dut **out)
{
    if (!out)
        return TC_EINVAL;
    bw_dut *d = calloc(1, sizeof *d);
    if (!d)
        return TC_ENOMEM;
    d->shim = bw_shim_new(fst_path);
    if (!d->shim) {
        free(d);
        return TC_EIO;
    }
    for (int i = 0; i < 2; i++) { /* two cycles of reset */
        bw_shim_set(d->shim, &d->in);
        bw_shim_tick(d->shim);
    }
    d->in.rst_n = 1;
    *out = d;
    return TC_OK;
}

void bw_dut_free(bw_dut *d)
{
    if (d)
        bw_shim_free(d->shim);
    free(d);
}

uint64_t bw_dut_cycles(const bw_dut *d) { return d ? d->cycles : 0; }

void bw_dut_stalls(bw_dut *d, uint64_t seed)
{
    if (d)
        d->stall_rng = seed;
}

/* One cycle: the unit's requests this cycle (they depend on its state only), the tensor
 * memory's answer to them in the same cycle (ready) or the next (read data), then the
 * clock edge. */
static tc_status cycle(bw_dut *d, tc_tmem *t)
{
    bw_pins_in *in = &d->in;
    bw_pins_out *o = &d->out;
    in->tm_a_ready = in->tm_d_ready = 0;
    bw_shim_set(d->shim, in);
    bw_shim_get(d->shim, o);
    tc_tmem_inputs ti;
    memset(&ti, 0, sizeof ti);
    ti.a_valid = o->tm_a_valid;
    ti.a_col = o->tm_a_col;
    ti.d_valid = o->tm_d_valid;
    ti.d_col = o->tm_d_col;
    memcpy(ti.d_disable, o->tm_d_disable, sizeof ti.d_disable);
    ti.d_data = o->tm_d_data;
    /* another requester holds the memory: no new request this cycle. Not in a request's
     * second cycle, which the memory is already busy with (dropping valid there is
     * outside the handshake; tmem.sv asserts on it). */
    if (d->stall_rng && !d->tm_second) {
        d->stall_rng ^= d->stall_rng >> 12;
        d->stall_rng ^= d->stall_rng << 25;
        d->stall_rng ^= d->stall_rng >> 27;
        if (((d->stall_rng * 0x2545f4914f6cdd1dull) >> 62) == 0)
            ti.a_valid = ti.d_valid = 0;
    }
    tc_tmem_outputs to;
    tc_status st = tc_tmem_clock(t, &ti, &to);
    if (st != TC_OK)
        return st;
    if (to.grant & (1u << TC_TMEM_PORT_A | 1u << TC_TMEM_PORT_D))
        d->traffic.tmem_cycles++;
    d->tm_second = (to.grant & ~to.ready & (1u << TC_TMEM_PORT_A | 1u << TC_TMEM_PORT_D)) != 0;
    in->tm_a_ready = (to.ready >> TC_TMEM_PORT_A) & 1u;
    in->tm_d_ready = (to.ready >> TC_TMEM_PORT_D) & 1u;
    bw_shim_set(d->shim, in); /* ready is combinational in the memory: same cycle */
    bw_shim_tick(d->shim);
    d->cycles++;
    /* what the next cycle sees: the read data, and the shared-memory row asked for */
    in->tm_a_rvalid = to.a_rvalid;
    if (to.a_rvalid)
        memcpy(d->rdata, to.a_rdata, sizeof d->rdata);
    in->tm_a_rdata = d->rdata;
    return TC_OK;
}

/* Instruction m on the pins (bw_pins_load), its traffic counters cleared. */
static tc_status load(bw_dut *d, const tc_bw_mma_desc *m)
{
    tc_status st = bw_pins_load(&d->in, m);
    if (st == TC_OK)
        memset(&d->traffic, 0, sizeof d->traffic);
    return st;
}

/* One cycle of instruction m: the clock edge, then the shared-memory row the unit asked
 * for in that cycle onto the port for the next one. */
static tc_status step(bw_dut *d, tc_tmem *t, const tc_bw_mma_desc *m)
{
    tc_status st = cycle(d, t);
    if (st != TC_OK)
        return st;
    d->in.start = 0;
    if (d->out.smem_req) {
        if ((st = bw_pins_smem_row(&d->in, m, d->out.smem_sel, d->out.smem_row)) != TC_OK)
            return st;
        d->traffic.smem_rows++;
    }
    return TC_OK;
}

tc_status bw_dut_mma(bw_dut *d, tc_tmem *t, const tc_bw_mma_desc *m, uint64_t *cycles)
{
    if (!d || !t || !m)
        return TC_EINVAL;
    tc_status st = load(d, m);
    if (st != TC_OK)
        return st;
    uint64_t start = d->cycles;
    do {
        if ((st = step(d, t, m)) != TC_OK)
            return st;
        /* d->out: the outputs of the cycle just clocked (the first is start_i's) */
        if (d->cycles - start == 1)
            d->traffic.busy_at_start = d->out.busy;
        else if (!d->out.busy)
            d->traffic.busy_gaps++;
    } while (!d->out.done && d->cycles - start < MAX_CYCLES);
    if (cycles)
        *cycles = d->cycles - start;
    if (!d->out.done)
        return TC_EIO;
    /* the outputs after the done cycle's edge, before the next one (as bw_dut_mma_reset
     * reads busy_o): the unit must be idle again and done_o a single cycle */
    bw_shim_set(d->shim, &d->in);
    bw_shim_get(d->shim, &d->out);
    d->traffic.busy_after = d->out.busy;
    d->traffic.done_after = d->out.done;
    return TC_OK;
}

tc_status bw_dut_mma_reset(bw_dut *d, tc_tmem *t, const tc_bw_mma_desc *m, uint64_t run,
                           unsigned hold, int *busy)
{
    if (!d || !t || !m || !busy || !hold)
        return TC_EINVAL;
    tc_status st = load(d, m);
    if (st != TC_OK)
        return st;
    for (uint64_t c = 0; c < run; c++) {
        if ((st = step(d, t, m)) != TC_OK)
            return st;
        if (d->out.done)
            break;
    }
    d->in.rst_n = 0;
    for (unsigned c = 0; c < hold; c++)
        if ((st = step(d, t, m)) != TC_OK)
            return st;
    d->in.rst_n = 1;
    bw_shim_set(d->shim, &d->in);   /* the outputs after the reset, before any edge */
    bw_shim_get(d->shim, &d->out);
    *busy = d->out.busy;
    return TC_OK;
}

void bw_dut_traffic_get(const bw_dut *d, bw_dut_traffic *out)
{
    if (d && out)
        *out = d->traffic;
}
