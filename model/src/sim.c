/* sim.c - the cycle-level handle (tcsim_sim.h): sub-cores that take one instruction
 * per issue interval, and the results in flight, ordered by the cycle they become
 * readable. The timing of an instruction comes from tc_op_timing_of; the arithmetic,
 * when the op carries data, from tc_mma_tile. This file adds no timing rule of its own.
 */
#include <stdlib.h>
#include <string.h>
#include "tcsim.h"
#include "timing_check.h"

/* A result in flight: a min-heap on (ready, ticket). */
typedef struct flight {
    uint64_t ready, ticket, tag, issued;
    unsigned unit;
} flight;

/* The last instruction's timing, per unit: a host issues the same kind again and again,
 * and this keeps tc_sim_issue off the formulas (the issue rate the benchmark needs). */
typedef struct op_cache {
    int valid;
    tc_mma_op op;
    tc_op_timing t;
} op_cache;

struct tc_sim {
    tc_gpu_timing g;
    unsigned units;
    uint64_t now;
    uint64_t next_ticket;
    tc_unit_state *unit;       /* per unit: when its stages take an instruction */
    op_cache *cache;           /* per unit */
    flight *heap;
    size_t n_flight, cap_flight;
    tc_tmem *tmem;
    tc_sim_stats st;
};

void tc_sim_config_init(tc_sim_config *cfg)
{
    if (!cfg)
        return;
    memset(cfg, 0, sizeof *cfg);
    cfg->size = sizeof *cfg;
    cfg->gpu = "a100";
    cfg->sms = 1;
}

void tc_sim_op_init(tc_sim_op *op)
{
    if (!op)
        return;
    memset(op, 0, sizeof *op);
    op->size = sizeof *op;
}

void tc_sim_stats_init(tc_sim_stats *st)
{
    if (!st)
        return;
    memset(st, 0, sizeof *st);
    st->size = sizeof *st;
}

tc_status tc_sim_create(const tc_sim_config *cfg, tc_sim **out)
{
    if (!cfg || !out || cfg->size < sizeof *cfg)
        return TC_EINVAL;
    if (cfg->sms == 0 || cfg->sms > 4096 || cfg->max_in_flight > (1u << 24))
        return TC_EINVAL;
    if (cfg->tmem_banks != 0 && cfg->tmem_banks != 4 && cfg->tmem_banks != 8)
        return TC_EINVAL;
    tc_gpu_timing g;
    if (cfg->timing) {
        g = *cfg->timing;
        if (tc_gpu_timing_check(&g) != TC_OK)
            return TC_EINVAL;
        g.name[TC_GPU_NAME_MAX - 1] = 0;
    } else {
        if (!cfg->gpu)
            return TC_EINVAL;
        tc_status st = tc_gpu_timing_find(cfg->gpu, &g);
        if (st != TC_OK)
            return st;
    }
    tc_sim *s = calloc(1, sizeof *s);
    if (!s)
        return TC_ENOMEM;
    s->g = g;
    s->units = cfg->sms * g.subcores;
    s->cap_flight = cfg->max_in_flight ? cfg->max_in_flight : 1024;
    s->unit = calloc(s->units, sizeof *s->unit);
    s->cache = calloc(s->units, sizeof *s->cache);
    s->heap = malloc(s->cap_flight * sizeof *s->heap);
    tc_status st = TC_OK;
    if (!s->unit || !s->cache || !s->heap)
        st = TC_ENOMEM;
    else if (cfg->tmem_banks)
        st = tc_tmem_new(cfg->tmem_banks, &s->tmem);
    if (st != TC_OK) {
        tc_sim_destroy(s);
        return st;
    }
    s->next_ticket = 1;
    s->st.size = sizeof s->st;
    s->st.units = s->units;
    *out = s;
    return TC_OK;
}

void tc_sim_destroy(tc_sim *s)
{
    if (!s)
        return;
    tc_tmem_free(s->tmem);
    free(s->unit);
    free(s->cache);
    free(s->heap);
    free(s);
}

/* ------------------------------------------------------------ the heap */

static int before(const flight *a, const flight *b)
{
    return a->ready < b->ready || (a->ready == b->ready && a->ticket < b->ticket);
}

static void heap_push(tc_sim *s, flight f)
{
    size_t i = s->n_flight++;
    while (i > 0) {
        size_t p = (i - 1) / 2;
        if (!before(&f, &s->heap[p]))
            break;
        s->heap[i] = s->heap[p];
        i = p;
    }
    s->heap[i] = f;
}

static flight heap_pop(tc_sim *s)
{
    flight top = s->heap[0];
    flight last = s->heap[--s->n_flight];
    size_t i = 0, n = s->n_flight;
    for (;;) {
        size_t c = 2 * i + 1;
        if (c >= n)
            break;
        if (c + 1 < n && before(&s->heap[c + 1], &s->heap[c]))
            c++;
        if (!before(&s->heap[c], &last))
            break;
        s->heap[i] = s->heap[c];
        i = c;
    }
    if (n)
        s->heap[i] = last;
    return top;
}

/* ------------------------------------------------------------ issue */

static int same_op(const tc_mma_op *a, const tc_mma_op *b)
{
    return a->m == b->m && a->n == b->n && a->k == b->k && a->in == b->in &&
           a->acc == b->acc && !a->sparse == !b->sparse;
}

/* The op's timing on its unit (TC_OK), or why the op is bad. */
static tc_status op_check(const tc_sim *s, const tc_sim_op *op, tc_op_timing *t)
{
    if (!s || !op || op->size < sizeof *op)
        return TC_EINVAL;
    if (op->code != TC_SIM_MMA || op->unit >= s->units)
        return TC_EINVAL;
    int data = (op->A != NULL) + (op->B != NULL) + (op->C != NULL) + (op->D != NULL);
    if (data != 0 && data != 4)
        return TC_EINVAL;
    if (data && op->mma.sparse)
        return TC_EUNSUPPORTED; /* 2:4 operands have no data path in the model yet */
    const op_cache *c = &s->cache[op->unit];
    if (c->valid && same_op(&c->op, &op->mma)) {
        *t = c->t;
        return TC_OK;
    }
    return tc_op_timing_of(&s->g, &op->mma, t);
}

static int is_busy(const tc_sim *s, unsigned unit, const tc_op_timing *t)
{
    return tc_unit_next_take(&s->unit[unit], t, s->now) > s->now ||
           s->n_flight >= s->cap_flight;
}

/* What tc_sim_can_issue and tc_sim_issue both ask first: the result pointer (out) is
 * given, the operation is valid (its timing in *t), and whether its unit is busy. */
static tc_status op_ready(const tc_sim *s, const tc_sim_op *op, const void *out,
                          tc_op_timing *t, int *busy)
{
    if (!out)
        return TC_EINVAL;
    tc_status st = op_check(s, op, t);
    if (st == TC_OK)
        *busy = is_busy(s, op->unit, t);
    return st;
}

tc_status tc_sim_can_issue(const tc_sim *s, const tc_sim_op *op, int *ok)
{
    tc_op_timing t;
    int busy;
    tc_status st = op_ready(s, op, ok, &t, &busy);
    if (st == TC_OK)
        *ok = !busy;
    return st;
}

tc_status tc_sim_issue(tc_sim *s, const tc_sim_op *op, uint64_t *ticket)
{
    tc_op_timing t;
    int busy;
    tc_status st = op_ready(s, op, ticket, &t, &busy);
    if (st != TC_OK)
        return st;
    if (busy) {
        s->st.busy_rejects++;
        return TC_EBUSY;
    }
    if (op->A) {
        /* The arithmetic first: a bad pattern leaves the handle as it was. */
        const tc_profile *p;
        st = tc_profile_find(s->g.arch, TC_INSTR_MMA, op->mma.in, op->mma.acc, &p);
        if (st != TC_OK)
            return st;
        st = tc_mma_tile(p, op->mma.m, op->mma.n, op->mma.k, op->A, op->B, op->C, op->D);
        if (st != TC_OK)
            return st;
    }
    op_cache *c = &s->cache[op->unit];
    c->valid = 1;
    c->op = op->mma;
    c->t = t;
    uint64_t ready = tc_unit_take(&s->unit[op->unit], &t, s->now);
    flight f = {ready, s->next_ticket++, op->tag, s->now, op->unit};
    heap_push(s, f);
    s->st.issued++;
    s->st.fmas += t.fmas;
    s->st.busy_cycles += t.issue_interval;
    *ticket = f.ticket;
    return TC_OK;
}

/* ------------------------------------------------------------ time */

tc_status tc_sim_tick(tc_sim *s, uint64_t cycles)
{
    if (!s)
        return TC_EINVAL;
    /* An instruction issued at now is readable before now + 2^37 (latency and intervals
     * are unsigned, the accumulator backlog at most acc32_buffer <= 16 front intervals):
     * a clock that stops at 2^63 keeps every ready cycle from wrapping. */
    if (cycles > TC_SIM_MAX_CYCLE - s->now)
        return TC_EINVAL;
    s->now += cycles;
    return TC_OK;
}

tc_status tc_sim_now(const tc_sim *s, uint64_t *cycle)
{
    if (!s || !cycle)
        return TC_EINVAL;
    *cycle = s->now;
    return TC_OK;
}

tc_status tc_sim_next_event(const tc_sim *s, uint64_t *cycle)
{
    if (!s || !cycle)
        return TC_EINVAL;
    uint64_t next = UINT64_MAX;
    if (s->n_flight && s->heap[0].ready > s->now)
        next = s->heap[0].ready;
    else if (s->n_flight)
        next = s->now; /* a result is already readable: poll it */
    for (unsigned u = 0; u < s->units; u++) {
        /* A unit changes when its front end frees, when its accumulator frees (which
         * is when any instruction without slack can go), and when its last kind of
         * instruction can go again (earlier, into a lagging fp32 accumulator). Each
         * counts on its own: the last kind being takeable already does not mean the
         * others are. */
        uint64_t at[3] = {s->unit[u].front_free, s->unit[u].acc_free, 0};
        if (s->cache[u].valid)
            at[2] = tc_unit_next_take(&s->unit[u], &s->cache[u].t, s->now);
        for (int i = 0; i < 3; i++)
            if (at[i] > s->now && at[i] < next)
                next = at[i];
    }
    *cycle = next;
    return TC_OK;
}

tc_status tc_sim_poll(tc_sim *s, tc_sim_completion *out, size_t cap, size_t *n)
{
    if (!s || !n || (cap && !out))
        return TC_EINVAL;
    size_t k = 0;
    if (!out) {
        /* Count only: the heap's readable prefix is not contiguous, so walk it. */
        for (size_t i = 0; i < s->n_flight; i++)
            k += s->heap[i].ready <= s->now;
        *n = k;
        return TC_OK;
    }
    while (k < cap && s->n_flight && s->heap[0].ready <= s->now) {
        flight f = heap_pop(s);
        out[k++] = (tc_sim_completion){f.ticket, f.tag, f.unit, f.issued, f.ready};
    }
    s->st.completed += k;
    *n = k;
    return TC_OK;
}

tc_status tc_sim_stats_get(const tc_sim *s, tc_sim_stats *out)
{
    if (!s || !out || out->size < sizeof(size_t))
        return TC_EINVAL;
    tc_sim_stats st = s->st;
    st.cycles = s->now;
    size_t size = out->size < sizeof st ? out->size : sizeof st;
    st.size = out->size;
    memcpy(out, &st, size);
    return TC_OK;
}

tc_status tc_sim_timing(const tc_sim *s, const tc_gpu_timing **out)
{
    if (!s || !out)
        return TC_EINVAL;
    *out = &s->g;
    return TC_OK;
}

tc_status tc_sim_tmem(tc_sim *s, tc_tmem **out)
{
    if (!s || !out)
        return TC_EINVAL;
    if (!s->tmem)
        return TC_EUNSUPPORTED;
    *out = s->tmem;
    return TC_OK;
}
