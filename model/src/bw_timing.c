/* bw_timing.c - the array model of the Blackwell tensor core (tcsim_bw.h): what one
 * tcgen05.mma costs, and the timeline that sums a sequence of operations
 * (bw_timeline.h). No arithmetic here: the costs depend only on shapes and on the
 * cycles the tensor-memory model charged. docs/blackwell_mma.md derives the numbers. */
#include <stdlib.h>
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

static uint64_t min2(uint64_t a, uint64_t b) { return a < b ? a : b; }

void tc_bwt_init(bw_timeline *t, unsigned dregions)
{
    memset(t, 0, sizeof *t);
    t->dregions = dregions;
}

void tc_bwt_free(bw_timeline *t)
{
    free(t->smem.gap);
    free(t->tmem.gap);
    t->smem.gap = t->tmem.gap = NULL;
    t->smem.head = t->smem.n = t->smem.cap = 0;
    t->tmem.head = t->tmem.n = t->tmem.cap = 0;
}

/* Gap g becomes gap[i] (head <= i <= n), the ones from i on move up. */
static tc_status gap_insert(bw_port *p, size_t i, bw_gap g)
{
    if (p->n == p->cap) {
        if (p->head >= p->cap / 2 && p->head) { /* the forgotten front makes the room */
            memmove(p->gap, p->gap + p->head, (p->n - p->head) * sizeof *p->gap);
            p->n -= p->head;
            i -= p->head;
            p->head = 0;
        } else {
            size_t cap = p->cap ? 2 * p->cap : 64;
            bw_gap *grown = realloc(p->gap, cap * sizeof *grown);
            if (!grown)
                return TC_ENOMEM;
            p->gap = grown;
            p->cap = cap;
        }
    }
    memmove(p->gap + i + 1, p->gap + i, (p->n - i) * sizeof *p->gap);
    p->gap[i] = g;
    p->n++;
    return TC_OK;
}

static void gap_remove(bw_port *p, size_t i)
{
    memmove(p->gap + i, p->gap + i + 1, (p->n - i - 1) * sizeof *p->gap);
    p->n--;
}

/* Takes the port's first `cycles` idle cycles from `from` on; *end is the cycle after the
 * last of them (`from` when there are none). */
static tc_status port_take(bw_port *p, uint64_t from, uint64_t cycles, uint64_t *end)
{
    *end = from;
    size_t lo = p->head, hi = p->n; /* the first gap that ends after `from` */
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        if (p->gap[mid].to <= from)
            lo = mid + 1;
        else
            hi = mid;
    }
    for (size_t i = lo; cycles && i < p->n;) {
        bw_gap *g = &p->gap[i];
        uint64_t s = max2(g->from, from), k = min2(g->to - s, cycles);
        cycles -= k;
        *end = s + k;
        if (s == g->from && s + k == g->to) {
            gap_remove(p, i);
        } else if (s == g->from) {
            g->from += k;
            i++;
        } else if (s + k == g->to) {
            g->to = s;
            i++;
        } else { /* taken from the middle: the gap splits, and `cycles` is spent */
            bw_gap rest = {s + k, g->to};
            g->to = s;
            return gap_insert(p, i + 1, rest);
        }
    }
    if (cycles) {
        uint64_t s = max2(p->frontier, from);
        if (s > p->frontier) {
            tc_status st = gap_insert(p, p->n, (bw_gap){p->frontier, s});
            if (st != TC_OK)
                return st;
        }
        p->frontier = s + cycles;
        *end = p->frontier;
    }
    return TC_OK;
}

/* Gaps that end by `before` can serve no later operation. */
static void port_forget(bw_port *p, uint64_t before)
{
    while (p->head < p->n && p->gap[p->head].to <= before)
        p->head++;
    if (p->head == p->n)
        p->head = p->n = 0;
}

/* Every operation's earliest start is a maximum of times that only grow: the array's,
 * the windows', the D regions'. Their minimum bounds every later start on a port. */
static void forget(bw_timeline *t)
{
    uint64_t f = t->array; /* an MMA starts at the array's next free cycle or later */
    for (unsigned w = 0; w < BW_WINDOWS; w++) /* copies and shifts */
        f = min2(f, max2(t->win_read[w], t->win_ready[w]));
    port_forget(&t->smem, f);
    for (unsigned r = 0; r < t->dregions; r++) /* zeroing and read-out: from d_done on */
        f = min2(f, t->d_done[r]);
    port_forget(&t->tmem, f);
}

/* After an operation that ended at `end`: the run's end, and the gaps it can forget. */
static void op_done(bw_timeline *t, uint64_t end)
{
    t->end = max2(t->end, end);
    forget(t);
}

static tc_status window_write(bw_timeline *t, bw_port *p, unsigned win, uint64_t cycles)
{
    if (win >= BW_WINDOWS)
        return TC_EINVAL;
    uint64_t start = max2(t->win_read[win], t->win_ready[win]);
    tc_status st = port_take(p, start, cycles, &t->win_ready[win]);
    if (st == TC_OK)
        op_done(t, t->win_ready[win]);
    return st;
}

tc_status tc_bwt_copy_rows(bw_timeline *t, unsigned win, uint64_t rows)
{
    return window_write(t, &t->smem, win, smem_cycles(rows));
}

tc_status tc_bwt_shift(bw_timeline *t, unsigned win, uint64_t cycles)
{
    return window_write(t, &t->tmem, win, cycles);
}

tc_status tc_bwt_mma(bw_timeline *t, unsigned win, unsigned dreg, const tc_bw_cost *c)
{
    if (win >= BW_WINDOWS || dreg >= t->dregions)
        return TC_EINVAL;
    uint64_t start = max2(t->array, max2(t->win_ready[win], t->d_ready[dreg]));
    /* B rows stream from shared memory and A/C/D through the tensor-memory port while the
     * array computes: the instruction ends when the slowest of the three does */
    uint64_t smem_end, tmem_end;
    tc_status st = port_take(&t->smem, start, c->smem_cycles, &smem_end);
    if (st == TC_OK)
        st = port_take(&t->tmem, start, c->tmem_cycles, &tmem_end);
    if (st != TC_OK)
        return st;
    uint64_t end = max2(start + c->array_passes, max2(smem_end, tmem_end));
    t->array = t->win_read[win] = t->d_done[dreg] = end;
    op_done(t, end);
    return TC_OK;
}

tc_status tc_bwt_d_zero(bw_timeline *t, unsigned dreg, uint64_t cycles)
{
    if (dreg >= t->dregions)
        return TC_EINVAL;
    uint64_t start = max2(t->d_done[dreg], t->d_drained[dreg]);
    tc_status st = port_take(&t->tmem, start, cycles, &t->d_ready[dreg]);
    if (st == TC_OK)
        op_done(t, t->d_ready[dreg]);
    return st;
}

tc_status tc_bwt_d_read(bw_timeline *t, unsigned dreg, uint64_t cycles)
{
    if (dreg >= t->dregions)
        return TC_EINVAL;
    tc_status st = port_take(&t->tmem, t->d_done[dreg], cycles, &t->d_drained[dreg]);
    if (st == TC_OK)
        op_done(t, t->d_drained[dreg]);
    return st;
}

uint64_t tc_bwt_total(const bw_timeline *t)
{
    return t->end + TC_FEDP_LATENCY;
}
