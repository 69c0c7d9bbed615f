/* bench.c - the two published measurements replayed through the handle (tcsim_sim.h):
 * seed 004's mma microbenchmark (warps x ILP chains of dependent mma, Fig. 4) and
 * seed 001's cumulative cycles of one wmma's HMMAs (Table I, Figure 9). Each is a small
 * host: it decides what a warp issues and when, the handle says when the tensor cores
 * take it and when its result is readable. Cycles only. */
#include <stdlib.h>
#include <string.h>
#include "tcsim.h"
#include "volta_hmma.h"

enum { BENCH_MAX_WARPS = 64, BENCH_MAX_ILP = 16 };

typedef struct warp {
    unsigned unit;
    uint64_t pos;                      /* next mma: iteration pos / ilp, slot pos % ilp */
    unsigned slot;                     /* pos % ilp, kept: a 64-bit division per warp and
                                        * cycle was most of the benchmark's time */
    uint64_t ready[BENCH_MAX_ILP];     /* cycle slot j's accumulator is readable */
    int pending[BENCH_MAX_ILP];        /* slot j's last mma not completed yet */
    uint64_t hold;                     /* first cycle the warp issues again */
    uint64_t last_done;
    uint64_t completed;
} warp;

static tc_status new_sim(const tc_gpu_timing *g, unsigned sms, tc_sim **s)
{
    tc_sim_config cfg;
    tc_sim_config_init(&cfg);
    cfg.timing = g;
    cfg.sms = sms;
    return tc_sim_create(&cfg, s);
}

tc_status tc_bench_mma(const tc_gpu_timing *g, const tc_mma_op *op, unsigned warps,
                       unsigned ilp, unsigned iters, tc_bench_result *out)
{
    return tc_bench_mma_progress(g, op, warps, ilp, iters, NULL, NULL, out);
}

tc_status tc_bench_mma_progress(const tc_gpu_timing *g, const tc_mma_op *op, unsigned warps,
                                unsigned ilp, unsigned iters, tc_bench_progress_fn progress,
                                void *ctx, tc_bench_result *out)
{
    if (!g || !op || !out || warps == 0 || warps > BENCH_MAX_WARPS || ilp == 0 ||
        ilp > BENCH_MAX_ILP || iters == 0 || iters > 1000000)
        return TC_EINVAL;
    tc_op_timing t;
    tc_status st = tc_op_timing_of(g, op, &t);
    if (st != TC_OK)
        return st;
    tc_sim *s;
    st = new_sim(g, 1, &s);
    if (st != TC_OK)
        return st;
    warp w[BENCH_MAX_WARPS];
    memset(w, 0, sizeof w);
    for (unsigned i = 0; i < warps; i++)
        w[i].unit = i % g->subcores;
    tc_sim_op sop;
    tc_sim_op_init(&sop);
    sop.mma = *op;
    uint64_t total = (uint64_t)iters * ilp, done_warps = 0;
    uint64_t now = 0;
    /* progress: mma completed of all, in hundredths last reported (all <= 2^30: no overflow) */
    uint64_t all = total * warps, completed = 0, reported = 0;
    while (done_warps < warps) {
        tc_sim_completion c[64];
        size_t n;
        do {
            st = tc_sim_poll(s, c, 64, &n);
            for (size_t i = 0; st == TC_OK && i < n; i++) {
                warp *x = &w[c[i].tag / ilp];
                unsigned j = (unsigned)(c[i].tag % ilp);
                x->pending[j] = 0;
                x->ready[j] = c[i].ready;
                x->last_done = c[i].ready;
                if (++x->completed == total)
                    done_warps++;
            }
            completed += st == TC_OK ? n : 0;
            if (progress && completed * 100 / all > reported) {
                reported = completed * 100 / all;
                progress(ctx, completed, all);
            }
        } while (st == TC_OK && n == 64);
        if (st != TC_OK)
            break;
        /* Each sub-core's scheduler issues at most one mma a cycle: the ready warp
         * furthest behind first (ties: lowest warp), which is what keeps warps of one
         * sub-core in step in the measurement. */
        int issued = 0;
        unsigned char taking[BENCH_MAX_WARPS];   /* sub-core u can take an mma now */
        for (unsigned u = 0; u < g->subcores && u < warps; u++) {
            int ok;
            sop.unit = u;
            if ((st = tc_sim_can_issue(s, &sop, &ok)) != TC_OK)
                break;
            taking[u] = (unsigned char)ok;
            if (!ok)    /* its warps wait: no need to look at them */
                continue;
            warp *best = NULL;
            for (unsigned i = u; i < warps; i += g->subcores) {
                warp *x = &w[i];
                unsigned j = x->slot;
                if (x->pos == total || x->pending[j] || x->ready[j] > now || x->hold > now)
                    continue;
                if (!best || x->pos < best->pos)
                    best = x;
            }
            if (!best)
                continue;
            unsigned j = best->slot;
            sop.tag = (uint64_t)(best - w) * ilp + j;
            uint64_t ticket;
            st = tc_sim_issue(s, &sop, &ticket);
            if (st == TC_EBUSY)
                continue;
            if (st != TC_OK)
                break;
            best->pending[j] = 1;
            best->pos++;
            best->slot = j + 1 == ilp ? 0 : j + 1;
            issued = 1;
            /* The loop's own instructions follow the iteration's last mma. */
            best->hold = now + 1 + (j + 1 == ilp ? g->warp_overhead : 0);
        }
        if (st != TC_OK && st != TC_EBUSY)
            break;
        st = TC_OK;
        if (done_warps < warps) {
            /* A cycle that issued nothing is followed by none that does until a warp
             * wakes (its loop overhead ends, a result it waits for is readable) or a
             * sub-core frees: jump there (large instructions run for millions of cycles).
             * A busy sub-core's warps wait at least for the event of its freeing. */
            uint64_t next = now + 1;
            if (!issued) {
                if ((st = tc_sim_next_event(s, &next)) != TC_OK)
                    break;
                for (unsigned i = 0; i < warps; i++) {
                    const warp *x = &w[i];
                    unsigned j = x->slot;
                    if (x->pos == total || x->pending[j] || !taking[x->unit])
                        continue;
                    uint64_t wake = x->ready[j] > x->hold ? x->ready[j] : x->hold;
                    if (wake > now && wake < next)
                        next = wake;
                }
                if (next <= now || next == UINT64_MAX) {
                    st = TC_EINVAL; /* nothing can move: cannot happen */
                    break;
                }
            }
            st = tc_sim_tick(s, next - now);
            now = next;
            if (st != TC_OK)
                break;
        }
    }
    tc_sim_destroy(s);
    if (st != TC_OK)
        return st;
    uint64_t end = 0;
    for (unsigned i = 0; i < warps; i++)
        if (w[i].last_done > end)
            end = w[i].last_done;
    out->cycles = end;
    out->latency_x10 = (end * 10 + iters / 2) / iters;
    uint64_t fmas = t.fmas * warps * total;
    out->fma_per_clk_x10 = end ? (fmas * 10 + end / 2) / end : 0;
    return TC_OK;
}

/* ------------------------------------------------------------ wmma (seed 001) */

enum { WMMA_MAX = 64 };

/* Completions the handle has: each marks its HMMA (its tag) done at its ready cycle. */
static tc_status collect(tc_sim *s, int *pending, uint64_t *ready, size_t *outstanding,
                         size_t *got)
{
    tc_sim_completion c[WMMA_MAX];
    size_t nc;
    tc_status st = tc_sim_poll(s, c, WMMA_MAX, &nc);
    for (size_t j = 0; st == TC_OK && j < nc; j++) {
        pending[c[j].tag] = 0;
        ready[c[j].tag] = c[j].ready;
        (*outstanding)--;
    }
    if (got)
        *got = st == TC_OK ? nc : 0;
    return st;
}

tc_status tc_wmma_cumulative(const tc_gpu_timing *g, const tc_mma_op *op, uint64_t *cum,
                             size_t cap, size_t *n)
{
    if (!g || !op || !cum || !n)
        return TC_EINVAL;
    if (g->arch == TC_ARCH_VOLTA) {
        if (!(op->m == 16 && op->n == 16 && op->k == 16)) /* wmma's one Volta shape */
            return TC_ESHAPE;
        tc_volta_events e;
        tc_status st = tc_volta_events_of(g, op, &e);
        if (st != TC_OK)
            return st;
        if (cap < e.n)
            return TC_ESHAPE;
        for (size_t i = 0; i < e.n; i++)
            cum[i] = e.ev[i].cumulative;
        *n = e.n;
        return TC_OK;
    }
    /* The HMMAs of one wmma: m16n8k8 for 16-bit inputs (two per 16x16 accumulator
     * slice in k), m8n8k16 for 8-bit, m8n8k32 for 4-bit; k-major, so the second k
     * slice of an accumulator follows the first. */
    tc_mma_op h = *op;
    unsigned bits = op->in == TC_FMT_FP16 || op->in == TC_FMT_BF16 ? 16
                  : op->in == TC_FMT_INT8 || op->in == TC_FMT_UINT8 ? 8
                  : op->in == TC_FMT_INT4 || op->in == TC_FMT_UINT4 ? 4 : 0;
    if (!bits || op->sparse)
        return TC_EUNSUPPORTED;
    h.m = bits == 16 ? 16 : 8;
    h.n = 8;
    h.k = bits == 16 ? 8 : 128 / bits;
    if (op->m * op->n % (h.m * h.n) || op->k % h.k)
        return TC_ESHAPE;
    size_t accs = op->m * op->n / (h.m * h.n), total = accs * (op->k / h.k);
    if (total == 0 || total > WMMA_MAX)
        return TC_ESHAPE;
    if (cap < total)
        return TC_ESHAPE;
    tc_sim *s;
    tc_status st = new_sim(g, 1, &s);
    if (st != TC_OK)
        return st;
    tc_sim_op sop;
    tc_sim_op_init(&sop);
    sop.mma = h;
    uint64_t issue[WMMA_MAX + 1], ready[WMMA_MAX];
    int pending[WMMA_MAX] = {0};
    size_t outstanding = 0;
    uint64_t now = 0, done = 0;
    for (size_t i = 0; i < total && st == TC_OK;) {
        /* The handle says when each HMMA's result is readable. */
        if ((st = collect(s, pending, ready, &outstanding, NULL)) != TC_OK)
            break;
        /* In order: HMMA i waits for the one before it in its accumulator, and for the
         * cycle after the previous issue. */
        int dep_ok = i < accs || !pending[i - accs];
        int order_ok = i == 0 || issue[i - 1] < now;
        if (dep_ok && order_ok) {
            uint64_t ticket;
            sop.tag = i;
            st = tc_sim_issue(s, &sop, &ticket);
            if (st == TC_OK) {
                issue[i] = now;
                pending[i] = 1;
                outstanding++;
                i++;
                continue;
            }
            if (st != TC_EBUSY)
                break;
            st = TC_OK;
        }
        st = tc_sim_tick(s, 1);
        now++;
    }
    /* The last results: run the handle until every HMMA has completed. */
    while (st == TC_OK && outstanding) {
        size_t got;
        st = collect(s, pending, ready, &outstanding, &got);
        if (st == TC_OK && got == 0)
            st = tc_sim_tick(s, 1);
    }
    tc_sim_destroy(s);
    if (st != TC_OK)
        return st;
    for (size_t i = 0; i < total; i++)
        if (ready[i] > done)
            done = ready[i];
    for (size_t i = 0; i < total; i++)
        cum[i] = g->measure_offset + (i + 1 < total ? issue[i + 1] : done) - issue[0];
    *n = total;
    return TC_OK;
}
