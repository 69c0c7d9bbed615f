/* bw_timing.c - the array model of the Blackwell tensor core (tcsim_bw.h): what one
 * tcgen05.mma costs, and the timeline that sums a sequence of operations
 * (bw_timeline.h). No arithmetic here: the costs depend only on shapes and on the
 * cycles the tensor-memory model charged. docs/blackwell_mma.md derives the numbers. */
#include <string.h>
#include "tcsim.h"
#include "bw_timeline.h"

#define ROW_BYTES (TC_BW_ROW_WORDS * 4)
#define ROWS_PER_CYCLE (TC_BW_SMEM_BYTES_PER_CYCLE / ROW_BYTES)

static uint64_t max2(uint64_t a, uint64_t b) { return a > b ? a : b; }

/* ceil(rows / ROWS_PER_CYCLE), without the rounding addition that wraps near 2^64 */
static uint64_t smem_cycles(uint64_t rows)
{
    return rows / ROWS_PER_CYCLE + (rows % ROWS_PER_CYCLE != 0);
}

tc_status tc_bw_mma_cost(unsigned M, unsigned N, uint64_t smem_rows, uint64_t tmem_cycles,
                         tc_bw_cost *out)
{
    if (!out)
        return TC_EINVAL;
    if ((M != 64 && M != 128) || N < 8 || N > TC_BW_MAX_N || N % 8)
        return TC_ESHAPE;
    /* each sub-core holds M / 4 rows of D and covers 8 x 8 of them per cycle */
    uint64_t passes = (uint64_t)(M / TC_BW_SUBCORES / TC_BW_ARRAY_ROWS) * (N / TC_BW_ARRAY_COLS);
    out->array_passes = passes;
    out->tmem_cycles = tmem_cycles;
    out->smem_rows = smem_rows;
    out->smem_cycles = smem_cycles(smem_rows);
    out->cycles = max2(passes, max2(tmem_cycles, out->smem_cycles));
    return TC_OK;
}

/* ------------------------------------------------------------- timeline */

void tc_bwt_init(bw_timeline *t) { memset(t, 0, sizeof *t); }

/* Move the port's window to start at new_base; the cycles left behind count as taken. */
static void port_slide(bw_port *p, uint64_t new_base)
{
    if (new_base <= p->base)
        return;
    uint64_t k = new_base - p->base;
    if (k >= BW_PORT_WINDOW) {
        memset(p->busy, 0, sizeof p->busy);
    } else {
        memmove(p->busy, p->busy + k, BW_PORT_WINDOW - k);
        memset(p->busy + BW_PORT_WINDOW - k, 0, k);
    }
    p->base = new_base;
}

/* `cycles` idle cycles of the port from `from` on; returns the cycle after the last. */
static uint64_t port_take(bw_port *p, uint64_t from, uint64_t cycles)
{
    uint64_t c = max2(from, p->base);
    while (cycles) {
        if (c >= p->base + BW_PORT_WINDOW)
            port_slide(p, c - BW_PORT_WINDOW / 2);
        if (!p->busy[c - p->base]) {
            p->busy[c - p->base] = 1;
            cycles--;
        }
        c++;
    }
    uint64_t k = 0;
    while (k < BW_PORT_WINDOW && p->busy[k])
        k++;
    port_slide(p, p->base + k);
    return max2(c, from);
}

static void note_end(bw_timeline *t, uint64_t end) { t->end = max2(t->end, end); }

void tc_bwt_copy_rows(bw_timeline *t, unsigned win, uint64_t rows)
{
    uint64_t start = max2(t->win_read[win], t->win_ready[win]);
    t->win_ready[win] = port_take(&t->smem, start, smem_cycles(rows));
    note_end(t, t->win_ready[win]);
}

void tc_bwt_shift(bw_timeline *t, unsigned win, uint64_t cycles)
{
    uint64_t start = max2(t->win_read[win], t->win_ready[win]);
    t->win_ready[win] = port_take(&t->tmem, start, cycles);
    note_end(t, t->win_ready[win]);
}

void tc_bwt_mma(bw_timeline *t, unsigned win, unsigned dreg, const tc_bw_cost *c)
{
    uint64_t start = max2(t->array, max2(t->win_ready[win], t->d_ready[dreg]));
    /* B rows stream from shared memory and A/C/D through the tensor-memory port while the
     * array computes: the instruction ends when the slowest of the three does */
    uint64_t smem_end = port_take(&t->smem, start, c->smem_cycles);
    uint64_t tmem_end = port_take(&t->tmem, start, c->tmem_cycles);
    uint64_t end = max2(start + c->array_passes, max2(smem_end, tmem_end));
    t->array = t->win_read[win] = t->d_done[dreg] = end;
    note_end(t, end);
}

void tc_bwt_d_zero(bw_timeline *t, unsigned dreg, uint64_t cycles)
{
    uint64_t start = max2(t->d_done[dreg], t->d_drained[dreg]);
    t->d_ready[dreg] = port_take(&t->tmem, start, cycles);
    note_end(t, t->d_ready[dreg]);
}

void tc_bwt_d_read(bw_timeline *t, unsigned dreg, uint64_t cycles)
{
    t->d_drained[dreg] = port_take(&t->tmem, t->d_done[dreg], cycles);
    note_end(t, t->d_drained[dreg]);
}

uint64_t tc_bwt_total(const bw_timeline *t)
{
    return t->end + TC_FEDP_LATENCY;
}
