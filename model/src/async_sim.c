/* async_sim.c - one SM's asynchronous tensor-core operations (tcsim_timing.h,
 * tc_async_*): wgmma with fence / commit_group / wait_group per warpgroup, tcgen05.mma
 * with tcgen05.commit to mbarriers, and the seed-004 benchmark replayed over them
 * (tc_bench_async). The cost of each instruction comes from async_timing.c, the sub-cores'
 * taking rule from tc_unit_next_take / tc_unit_take: this file adds only the ordering
 * that the PTX instructions define. Cycles only. */
#include <stdlib.h>
#include <string.h>
#include "tcsim.h"
#include "timing_check.h"

#define MAX_CYCLE (UINT64_C(1) << 62)

/* Committed groups (or barrier phases) in flight: a ring of the cycles each completes. */
typedef struct ring {
    uint64_t at[TC_ASYNC_GROUPS];
    unsigned head, count;
} ring;

typedef struct warpgroup {
    int fenced;               /* a wgmma.fence since the last wait */
    uint64_t blocked_until;   /* the cycle its last wait returned */
    uint64_t open_ready;      /* latest ready of its uncommitted wgmmas (0: none) */
    ring groups;
} warpgroup;

struct tc_async {
    tc_gpu_timing g;
    uint64_t now;
    tc_unit_state unit[64];   /* the sub-cores (subcores <= 64, tc_gpu_timing_check) */
    warpgroup wg[TC_ASYNC_WARPGROUPS];
    tc_unit_state array;      /* Blackwell's tensor core, one stage */
    uint64_t tc05_ready;      /* latest ready of the tcgen05.mma issued so far */
    ring bar[TC_ASYNC_BARRIERS];
};

static uint64_t max2(uint64_t a, uint64_t b) { return a > b ? a : b; }

static int ring_push(ring *r, uint64_t at)
{
    if (r->count == TC_ASYNC_GROUPS)
        return -1;
    r->at[(r->head + r->count++) % TC_ASYNC_GROUPS] = at;
    return 0;
}

tc_status tc_async_create(const tc_gpu_timing *g, tc_async **out)
{
    if (!g || !out || tc_gpu_timing_check(g) != TC_OK)
        return TC_EINVAL;
    tc_async *a = calloc(1, sizeof *a);
    if (!a)
        return TC_ENOMEM;
    a->g = *g;
    *out = a;
    return TC_OK;
}

void tc_async_destroy(tc_async *a)
{
    free(a);
}

tc_status tc_async_tick(tc_async *a, uint64_t cycles, uint64_t *now)
{
    /* the clock stops at 2^62: a ready cycle (now + a queue of intervals) cannot wrap */
    if (!a || cycles > MAX_CYCLE - a->now)
        return TC_EINVAL;
    a->now += cycles;
    if (now)
        *now = a->now;
    return TC_OK;
}

/* The warpgroup wg, if it may act this cycle (TC_OK), else why not. */
static tc_status wg_get(tc_async *a, unsigned wg, warpgroup **out)
{
    if (!a || wg >= TC_ASYNC_WARPGROUPS)
        return TC_EINVAL;
    if (a->wg[wg].blocked_until > a->now)
        return TC_EBUSY;
    *out = &a->wg[wg];
    return TC_OK;
}

tc_status tc_async_wgmma_fence(tc_async *a, unsigned wg)
{
    warpgroup *w;
    tc_status st = wg_get(a, wg, &w);
    if (st == TC_OK)
        w->fenced = 1;
    return st;
}

tc_status tc_async_wgmma(tc_async *a, unsigned wg, const tc_mma_op *op, uint64_t *ready)
{
    warpgroup *w;
    tc_status st = wg_get(a, wg, &w);
    if (st != TC_OK)
        return st;
    tc_op_timing t;
    if ((st = tc_wgmma_timing_of(&a->g, op, &t)) != TC_OK)
        return st;
    if (!w->fenced)
        return TC_EINVAL;
    /* Every sub-core runs its warp's share: the wgmma starts when all of them take it. */
    unsigned n = a->g.subcores;
    uint64_t take = a->now, done = 0;
    for (unsigned i = 0; i < n; i++)
        take = max2(take, tc_unit_next_take(&a->unit[i], &t, a->now));
    for (unsigned i = 0; i < n; i++)
        done = max2(done, tc_unit_take(&a->unit[i], &t, take));
    w->open_ready = max2(w->open_ready, done);
    if (ready)
        *ready = done;
    return TC_OK;
}

tc_status tc_async_wgmma_commit(tc_async *a, unsigned wg)
{
    warpgroup *w;
    tc_status st = wg_get(a, wg, &w);
    if (st != TC_OK)
        return st;
    /* An empty group is complete at once (0 is before any cycle). */
    if (ring_push(&w->groups, w->open_ready))
        return TC_EBUSY;
    w->open_ready = 0;
    return TC_OK;
}

tc_status tc_async_wgmma_wait(tc_async *a, unsigned wg, unsigned n, uint64_t *at)
{
    warpgroup *w;
    tc_status st = wg_get(a, wg, &w);
    if (st != TC_OK)
        return st;
    if (!at)
        return TC_EINVAL;
    uint64_t t = a->now;
    /* The oldest groups beyond the newest n; they complete in issue order on the same
     * sub-cores, but the maximum does not assume it. */
    while (w->groups.count > n) {
        t = max2(t, w->groups.at[w->groups.head]);
        w->groups.head = (w->groups.head + 1) % TC_ASYNC_GROUPS;
        w->groups.count--;
    }
    w->blocked_until = t;
    w->fenced = 0; /* the warpgroup may now touch its accumulators */
    *at = t;
    return TC_OK;
}

tc_status tc_async_tcgen05_mma(tc_async *a, const tc_mma_op *op, unsigned cta_group,
                               int a_tmem, uint64_t *ready)
{
    if (!a)
        return TC_EINVAL;
    tc_op_timing t;
    tc_status st = tc_tcgen05_timing_of(&a->g, op, cta_group, a_tmem, &t);
    if (st != TC_OK)
        return st;
    uint64_t take = tc_unit_next_take(&a->array, &t, a->now);
    uint64_t done = tc_unit_take(&a->array, &t, take);
    a->tc05_ready = max2(a->tc05_ready, done);
    if (ready)
        *ready = done;
    return TC_OK;
}

tc_status tc_async_tcgen05_commit(tc_async *a, unsigned bar)
{
    if (!a || bar >= TC_ASYNC_BARRIERS)
        return TC_EINVAL;
    /* The phase tracks every tcgen05.mma issued before it: the latest of them. */
    return ring_push(&a->bar[bar], a->tc05_ready) ? TC_EBUSY : TC_OK;
}

tc_status tc_async_mbarrier_wait(tc_async *a, unsigned bar, uint64_t *at)
{
    if (!a || !at || bar >= TC_ASYNC_BARRIERS || a->bar[bar].count == 0)
        return TC_EINVAL;
    ring *r = &a->bar[bar];
    *at = max2(a->now, r->at[r->head]);
    r->head = (r->head + 1) % TC_ASYNC_GROUPS;
    r->count--;
    return TC_OK;
}

/* ------------------------------------------------------------ the benchmark */

/* One iteration of issuer i (a warpgroup or a CTA) at the current cycle: fence, ilp
 * instructions, commit, wait for all; *at the cycle the wait returns. */
static tc_status iteration(tc_async *a, const tc_mma_op *op, tc_instr instr, unsigned i,
                           unsigned ilp, uint64_t *at)
{
    tc_status st = TC_OK;
    if (instr == TC_INSTR_WGMMA) {
        st = tc_async_wgmma_fence(a, i);
        for (unsigned j = 0; st == TC_OK && j < ilp; j++)
            st = tc_async_wgmma(a, i, op, NULL);
        if (st == TC_OK)
            st = tc_async_wgmma_commit(a, i);
        return st == TC_OK ? tc_async_wgmma_wait(a, i, 0, at) : st;
    }
    for (unsigned j = 0; st == TC_OK && j < ilp; j++)
        st = tc_async_tcgen05_mma(a, op, 1, 0, NULL);
    if (st == TC_OK)
        st = tc_async_tcgen05_commit(a, i);
    return st == TC_OK ? tc_async_mbarrier_wait(a, i, at) : st;
}

tc_status tc_bench_async(const tc_gpu_timing *g, const tc_mma_op *op, tc_instr instr,
                         unsigned warps, unsigned ilp, unsigned iters, tc_bench_result *out)
{
    if (!g || !op || !out || warps == 0 || warps > 64 || warps % 4 || ilp == 0 ||
        ilp > 16 || iters == 0 || iters > 1000000 ||
        (instr != TC_INSTR_WGMMA && instr != TC_INSTR_TCGEN05))
        return TC_EINVAL;
    tc_op_timing t;
    tc_status st = instr == TC_INSTR_WGMMA ? tc_wgmma_timing_of(g, op, &t)
                                           : tc_tcgen05_timing_of(g, op, 1, 0, &t);
    if (st != TC_OK)
        return st;
    tc_async *a;
    if ((st = tc_async_create(g, &a)) != TC_OK)
        return st;
    unsigned n = warps / 4;
    uint64_t next[16] = {0}, end[16] = {0};
    unsigned done[16] = {0}, finished = 0;
    while (st == TC_OK && finished < n) {
        /* The issuer that can go first (the lowest index on a tie): the clock only
         * moves forward. */
        unsigned i = n;
        for (unsigned j = 0; j < n; j++)
            if (done[j] < iters && (i == n || next[j] < next[i]))
                i = j;
        st = tc_async_tick(a, next[i] - a->now, NULL);
        uint64_t at = 0;
        if (st == TC_OK)
            st = iteration(a, op, instr, i, ilp, &at);
        end[i] = at;
        next[i] = at + g->warp_overhead;
        if (++done[i] == iters)
            finished++;
    }
    tc_async_destroy(a);
    if (st != TC_OK)
        return st;
    uint64_t cycles = 0;
    for (unsigned j = 0; j < n; j++)
        cycles = max2(cycles, end[j]);
    uint64_t fmas = t.fmas * ilp * iters * n;
    out->cycles = cycles;
    out->latency_x10 = (cycles * 10 + iters / 2) / iters;
    out->fma_per_clk_x10 = cycles ? (fmas * 10 + cycles / 2) / cycles : 0;
    return TC_OK;
}
