/* test_api - the handle API (tcsim_sim.h), function by function, with every error path:
 * NULL handle and pointers, bad configs, bad ops and shapes, issuing while busy, tensor
 * memory out of range. After each error the handle must be unchanged and later calls
 * must still work; results must match the timing formulas and the arithmetic. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "tcsim.h"
#include "check.h"


static tc_sim *make(const char *gpu, unsigned sms, unsigned banks)
{
    tc_sim_config cfg;
    tc_sim_config_init(&cfg);
    cfg.gpu = gpu;
    cfg.sms = sms;
    cfg.tmem_banks = banks;
    tc_sim *s = NULL;
    tc_status st = tc_sim_create(&cfg, &s);
    CHECK_COND(st == TC_OK && s);
    return s;
}

static tc_sim_op mma_op(unsigned unit, unsigned m, unsigned n, unsigned k, tc_fmt in,
                        tc_fmt acc)
{
    tc_sim_op op;
    tc_sim_op_init(&op);
    op.unit = unit;
    op.mma = (tc_mma_op){m, n, k, in, acc, 0};
    return op;
}

static void test_version(void)
{
    char v[32];
    snprintf(v, sizeof v, "%d.%d.%d", TCSIM_VERSION_MAJOR, TCSIM_VERSION_MINOR,
             TCSIM_VERSION_PATCH);
    CHECK_COND(!strcmp(v, TCSIM_VERSION));
    CHECK_COND(strcmp(tc_strerror(TC_EBUSY), "unknown status") != 0);
}

static void test_create(void)
{
    tc_sim_config cfg;
    tc_sim *s = (tc_sim *)&cfg; /* a sentinel: must stay untouched on failure */
    tc_sim *const sentinel = s;

    CHECK_COND(tc_sim_create(NULL, &s) == TC_EINVAL && s == sentinel);
    tc_sim_config_init(&cfg);
    CHECK_COND(tc_sim_create(&cfg, NULL) == TC_EINVAL);
    cfg.size = 4;
    CHECK_COND(tc_sim_create(&cfg, &s) == TC_EINVAL && s == sentinel);
    tc_sim_config_init(&cfg);
    cfg.sms = 0;
    CHECK_COND(tc_sim_create(&cfg, &s) == TC_EINVAL && s == sentinel);
    tc_sim_config_init(&cfg);
    cfg.gpu = "h300";
    CHECK_COND(tc_sim_create(&cfg, &s) == TC_EUNSUPPORTED && s == sentinel);
    tc_sim_config_init(&cfg);
    cfg.gpu = NULL;
    CHECK_COND(tc_sim_create(&cfg, &s) == TC_EINVAL && s == sentinel);
    tc_sim_config_init(&cfg);
    cfg.tmem_banks = 3;
    CHECK_COND(tc_sim_create(&cfg, &s) == TC_EINVAL && s == sentinel);
    /* Explicit parameters: a zero that a formula divides by is refused. */
    tc_gpu_timing g;
    CHECK_COND(tc_gpu_timing_find("a100", &g) == TC_OK);
    g.fedps_per_tc = 0;
    tc_sim_config_init(&cfg);
    cfg.timing = &g;
    CHECK_COND(tc_sim_create(&cfg, &s) == TC_EINVAL && s == sentinel);
    g.fedps_per_tc = 64;
    /* ... and so is a value above what the table's parser takes for its key (they kept
     * cycle counts from wrapping), in Volta's pipeline fields too, and an unknown arch. */
    tc_gpu_timing v;
    CHECK_COND(tc_gpu_timing_find("v100", &v) == TC_OK);
    cfg.timing = &v;
    v.volta.fedp_latency = 0xffffffffu;
    CHECK_COND(tc_sim_create(&cfg, &s) == TC_EINVAL && s == sentinel);
    CHECK_COND(tc_gpu_timing_find("v100", &v) == TC_OK);
    v.depth = 100001;
    CHECK_COND(tc_sim_create(&cfg, &s) == TC_EINVAL && s == sentinel);
    CHECK_COND(tc_gpu_timing_find("v100", &v) == TC_OK);
    v.arch = TC_ARCH_COUNT;
    CHECK_COND(tc_sim_create(&cfg, &s) == TC_EINVAL && s == sentinel);
    cfg.timing = &g;
    CHECK_COND(tc_sim_create(&cfg, &s) == TC_OK && s != sentinel);
    const tc_gpu_timing *gp;
    CHECK_COND(tc_sim_timing(s, &gp) == TC_OK && !strcmp(gp->name, "a100"));
    CHECK_COND(tc_sim_timing(NULL, &gp) == TC_EINVAL && tc_sim_timing(s, NULL) == TC_EINVAL);
    tc_sim_destroy(s);
    tc_sim_destroy(NULL);

    s = make("turing", 2, 0); /* by arch; 2 SMs of 4 sub-cores */
    tc_sim_stats st;
    tc_sim_stats_init(&st);
    CHECK_COND(tc_sim_stats_get(s, &st) == TC_OK && st.units == 8 && st.cycles == 0);
    CHECK_COND(tc_sim_timing(s, &gp) == TC_OK && !strcmp(gp->name, "rtx2080ti"));
    tc_sim_destroy(s);

    /* sms is 1 to 4096 (tcsim_sim.h): both ends taken, 4097 refused; 4096 A100 SMs are
     * 16384 sub-cores, the last one unit 16383 */
    tc_sim_config_init(&cfg);
    cfg.sms = 4097;
    s = sentinel;
    CHECK_COND(tc_sim_create(&cfg, &s) == TC_EINVAL && s == sentinel);
    cfg.sms = 4096;
    CHECK_COND(tc_sim_create(&cfg, &s) == TC_OK && s != sentinel);
    CHECK_COND(tc_sim_stats_get(s, &st) == TC_OK && st.units == 16384);
    tc_sim_op last = mma_op(16383, 16, 8, 16, TC_FMT_FP16, TC_FMT_FP32);
    uint64_t t;
    CHECK_COND(tc_sim_issue(s, &last, &t) == TC_OK && t == 1);
    tc_sim_destroy(s);

    /* max_in_flight is 0 to 2^24 (tcsim_sim.h): 2^24 taken, one more refused */
    tc_sim_config_init(&cfg);
    cfg.max_in_flight = (1u << 24) + 1;
    s = sentinel;
    CHECK_COND(tc_sim_create(&cfg, &s) == TC_EINVAL && s == sentinel);
    cfg.max_in_flight = 1u << 24;
    CHECK_COND(tc_sim_create(&cfg, &s) == TC_OK && s != sentinel);
    tc_sim_destroy(s);
}

static void test_issue_timing(void)
{
    tc_sim *s = make("a100", 1, 0);
    tc_gpu_timing g;
    tc_op_timing t;
    CHECK_COND(tc_gpu_timing_find("a100", &g) == TC_OK);
    tc_sim_op op = mma_op(1, 16, 8, 16, TC_FMT_FP16, TC_FMT_FP32);
    CHECK_COND(tc_op_timing_of(&g, &op.mma, &t) == TC_OK);

    int ok = -1;
    uint64_t ticket = 0, t1, t2, now, next;
    CHECK_COND(tc_sim_can_issue(s, &op, &ok) == TC_OK && ok == 1);
    op.tag = 77;
    CHECK_COND(tc_sim_issue(s, &op, &t1) == TC_OK && t1 == 1);
    /* Busy for the issue interval: same unit refused, state unchanged. */
    CHECK_COND(tc_sim_can_issue(s, &op, &ok) == TC_OK && ok == 0);
    CHECK_COND(tc_sim_issue(s, &op, &ticket) == TC_EBUSY && ticket == 0);
    /* Another sub-core is free. */
    tc_sim_op other = op;
    other.unit = 2;
    other.tag = 78;
    CHECK_COND(tc_sim_issue(s, &other, &t2) == TC_OK && t2 == 2);
    CHECK_COND(tc_sim_next_event(s, &next) == TC_OK && next == t.issue_interval);
    CHECK_COND(tc_sim_tick(s, t.issue_interval - 1) == TC_OK);
    CHECK_COND(tc_sim_issue(s, &op, &ticket) == TC_EBUSY);
    CHECK_COND(tc_sim_tick(s, 1) == TC_OK);
    CHECK_COND(tc_sim_now(s, &now) == TC_OK && now == t.issue_interval);
    CHECK_COND(tc_sim_can_issue(s, &op, &ok) == TC_OK && ok == 1);

    /* Nothing is readable before `latency` cycles. */
    tc_sim_completion c[4];
    size_t n = 9;
    CHECK_COND(tc_sim_poll(s, c, 4, &n) == TC_OK && n == 0);
    CHECK_COND(tc_sim_next_event(s, &next) == TC_OK && next == t.latency);
    CHECK_COND(tc_sim_tick(s, t.latency - now) == TC_OK);
    /* Two results readable and not yet polled: the next event is now (tcsim_sim.h), not
     * a cycle later. */
    CHECK_COND(tc_sim_next_event(s, &next) == TC_OK && next == t.latency);
    CHECK_COND(tc_sim_poll(s, NULL, 0, &n) == TC_OK && n == 2); /* count only */
    CHECK_COND(tc_sim_poll(s, c, 1, &n) == TC_OK && n == 1 && c[0].ticket == t1 &&
          c[0].tag == 77 && c[0].unit == 1 && c[0].issued == 0 && c[0].ready == t.latency);
    CHECK_COND(tc_sim_poll(s, c, 4, &n) == TC_OK && n == 1 && c[0].ticket == t2 && c[0].tag == 78);
    CHECK_COND(tc_sim_poll(s, c, 4, &n) == TC_OK && n == 0);
    CHECK_COND(tc_sim_next_event(s, &next) == TC_OK && next == UINT64_MAX);

    tc_sim_stats st;
    tc_sim_stats_init(&st);
    CHECK_COND(tc_sim_stats_get(s, &st) == TC_OK);
    CHECK_COND(st.issued == 2 && st.completed == 2 && st.busy_rejects == 2 && st.fmas == 4096 &&
          st.busy_cycles == 2 * t.issue_interval && st.cycles == t.latency && st.units == 4);
    /* A 2:4 sparse instruction counts its dense multiply-adds (tcsim_timing.h: m*n*k,
     * dense count for sparse): m16n8k32 is 16 * 8 * 32 = 4096 more. */
    tc_sim_op sp = mma_op(3, 16, 8, 32, TC_FMT_FP16, TC_FMT_FP32);
    sp.mma.sparse = 1;
    uint64_t t3;
    CHECK_COND(tc_sim_issue(s, &sp, &t3) == TC_OK);
    CHECK_COND(tc_sim_stats_get(s, &st) == TC_OK && st.issued == 3 && st.fmas == 4096 + 4096);
    /* An older, shorter stats struct gets only what fits. */
    struct { size_t size; uint64_t cycles; } small = {sizeof small, 0};
    CHECK_COND(tc_sim_stats_get(s, (tc_sim_stats *)&small) == TC_OK && small.cycles == t.latency);
    /* ... and keeps its own size, not the library's (a caller reusing the struct would
     * otherwise be written past its end) */
    CHECK_COND(small.size == sizeof small);
    tc_sim_destroy(s);
}

/* next_event counts every stage of a unit: after fp32-accumulator instructions on
 * Turing (front end 8 cycles, accumulator 16, one pass of slack), the last kind can go
 * again at once, but an fp16-accumulator one waits for the accumulator to free. The
 * unit used to be skipped when its last kind was takeable: next_event jumped past the
 * cycle the fp16 one could go, or said nothing was pending while it waited. */
static void test_next_event_stages(void)
{
    tc_sim *s = make("rtx2080ti", 1, 0);
    tc_sim_op a = mma_op(0, 16, 8, 8, TC_FMT_FP16, TC_FMT_FP32);
    tc_sim_op b = mma_op(0, 16, 8, 8, TC_FMT_FP16, TC_FMT_FP16);
    uint64_t t, next, now;
    int ok;
    /* Taken at 0, 8, 24 (seed 001 Table I's FP32-acc wmma): the accumulator is busy
     * to 48, the front end to 32. */
    CHECK_COND(tc_sim_issue(s, &a, &t) == TC_OK && tc_sim_tick(s, 8) == TC_OK);
    CHECK_COND(tc_sim_issue(s, &a, &t) == TC_OK && tc_sim_tick(s, 16) == TC_OK);
    CHECK_COND(tc_sim_issue(s, &a, &t) == TC_OK && tc_sim_tick(s, 16) == TC_OK);
    CHECK_COND(tc_sim_now(s, &now) == TC_OK && now == 40);
    CHECK_COND(tc_sim_can_issue(s, &a, &ok) == TC_OK && ok == 1);
    CHECK_COND(tc_sim_can_issue(s, &b, &ok) == TC_OK && ok == 0);
    tc_sim_completion c[4];
    size_t n;
    CHECK_COND(tc_sim_poll(s, c, 4, &n) == TC_OK);
    /* Every cycle up to next_event leaves b blocked; at next_event it can go. */
    for (;;) {
        CHECK_COND(tc_sim_next_event(s, &next) == TC_OK);
        CHECK_COND(tc_sim_poll(s, c, 4, &n) == TC_OK);
        if (next == now) /* a result became readable: polled above */
            CHECK_COND(tc_sim_next_event(s, &next) == TC_OK && next > now);
        CHECK_COND(next != UINT64_MAX && next <= 48);
        if (next == UINT64_MAX || next > 48)
            break;
        for (; now + 1 < next; now++) {
            CHECK_COND(tc_sim_tick(s, 1) == TC_OK);
            CHECK_COND(tc_sim_can_issue(s, &b, &ok) == TC_OK && ok == 0);
        }
        CHECK_COND(tc_sim_tick(s, 1) == TC_OK);
        now++;
        CHECK_COND(tc_sim_can_issue(s, &b, &ok) == TC_OK);
        if (ok)
            break;
    }
    CHECK_COND(now == 48);
    tc_sim_destroy(s);
}

/* next_event names the cycle a front end frees even when nothing can be taken then
 * (tcsim_sim.h: "a sub-core's front end or accumulator frees"): Turing's m16n8k8 with an
 * fp32 accumulator taken at 0 and 8 (front end 8 cycles, accumulator 16): at 8 the front
 * end is busy to 16, the accumulator to 32 (0..16, then 16..32), the last kind can go
 * again at 24 and the first result is readable at 18 (7 + 8 + 3): the next event is 16. */
static void test_next_event_front(void)
{
    tc_sim *s = make("rtx2080ti", 1, 0);
    tc_sim_op a = mma_op(0, 16, 8, 8, TC_FMT_FP16, TC_FMT_FP32);
    uint64_t t, next;
    CHECK_COND(tc_sim_issue(s, &a, &t) == TC_OK && tc_sim_tick(s, 8) == TC_OK);
    CHECK_COND(tc_sim_issue(s, &a, &t) == TC_OK);
    CHECK(tc_sim_next_event(s, &next) == TC_OK && next == 16, "next_event %llu, expected 16",
          (unsigned long long)next);
    tc_sim_destroy(s);
}

/* next_event looks at every unit, the last one too: A100's m16n8k16 fp16 -> fp32 on
 * the last sub-core of two SMs (unit 7) is 2 steps of 16*8*8/256 = 4 beats, so its
 * unit frees at 8, before the result (latency 14 + 16/4 + max(8, 4) = 26). */
static void test_next_event_last_unit(void)
{
    tc_sim *s = make("a100", 2, 0);
    tc_sim_op op = mma_op(7, 16, 8, 16, TC_FMT_FP16, TC_FMT_FP32);
    uint64_t t, next;
    CHECK_COND(tc_sim_issue(s, &op, &t) == TC_OK);
    CHECK_COND(tc_sim_next_event(s, &next) == TC_OK && next == 8);
    CHECK_COND(tc_sim_tick(s, 8) == TC_OK);
    int ok = 0;
    CHECK_COND(tc_sim_can_issue(s, &op, &ok) == TC_OK && ok == 1);
    CHECK_COND(tc_sim_next_event(s, &next) == TC_OK && next == 26);
    tc_sim_destroy(s);
}

/* A host that issues whenever it can and otherwise jumps to next_event must see the
 * issue cycles of docs/timing.md: Turing's m16n8k8 with an fp32 accumulator, four back
 * to back on one sub-core, are taken at 0, 8, 24, 40 (front end 8 cycles, accumulator
 * 16 = 16*8*8/64, one pass of slack). Each is readable latency = depth 7 + ceil(16/2)
 * + acc32_extra 3 = 18 after the accumulator starts it (0, 16, 32, 48): 18, 34, 50,
 * 66. Every ticket completes exactly once, in ready order. The accumulator is busy
 * without a gap from 0 to 64: 4 x 16 busy cycles. The jump to 24 is an event of no
 * stage on its own (the accumulator frees at 32, the front end at 16): only the last
 * kind's next take gives it. */
static void test_next_event_takes(void)
{
    tc_sim *s = make("rtx2080ti", 1, 0);
    tc_sim_op a = mma_op(0, 16, 8, 8, TC_FMT_FP16, TC_FMT_FP32);
    const uint64_t take[4] = {0, 8, 24, 40}, ready[4] = {18, 34, 50, 66};
    uint64_t tickets[4], now = 0, seen[4] = {0, 0, 0, 0};
    unsigned issued = 0, done = 0, steps = 0;
    while (done < 4 && steps++ < 100) {
        tc_sim_completion c[4];
        size_t n = 0;
        CHECK_COND(tc_sim_poll(s, c, 4, &n) == TC_OK);
        for (size_t i = 0; i < n; i++) {
            unsigned j = (unsigned)c[i].tag;
            CHECK(j < issued && c[i].ticket == tickets[j] && c[i].ready == ready[j] &&
                  c[i].ready <= now && c[i].issued == take[j] && seen[j]++ == 0 &&
                  j == done + i, "completion %zu at %llu: tag %u ready %llu", i,
                  (unsigned long long)now, j, (unsigned long long)c[i].ready);
        }
        done += (unsigned)n;
        if (done == 4)
            break;
        int ok = 0;
        CHECK_COND(issued == 4 || tc_sim_can_issue(s, &a, &ok) == TC_OK);
        if (issued < 4 && ok) {
            CHECK(now == take[issued], "issue %u at %llu, expected %llu", issued,
                  (unsigned long long)now, (unsigned long long)take[issued]);
            a.tag = issued;
            CHECK_COND(tc_sim_issue(s, &a, &tickets[issued]) == TC_OK);
            issued++;
            continue;
        }
        uint64_t next;
        CHECK(tc_sim_next_event(s, &next) == TC_OK && next > now && next != UINT64_MAX,
              "next_event at %llu: %llu", (unsigned long long)now, (unsigned long long)next);
        if (next <= now || next == UINT64_MAX)
            break;
        CHECK_COND(tc_sim_tick(s, next - now) == TC_OK);
        now = next;
    }
    CHECK_COND(issued == 4 && done == 4 && now == 66);
    tc_sim_stats st;
    tc_sim_stats_init(&st);
    CHECK_COND(tc_sim_stats_get(s, &st) == TC_OK && st.issued == 4 && st.completed == 4 &&
               st.busy_cycles == 64);
    tc_sim_destroy(s);
}

/* The clock stops at TC_SIM_MAX_CYCLE, so ready cycles cannot wrap past 2^64 (an issue
 * just below 2^64 used to complete "ready" at cycle 15, before it was issued). */
static void test_clock_end(void)
{
    tc_sim *s = make("a100", 1, 0);
    tc_sim_op op = mma_op(0, 16, 8, 16, TC_FMT_FP16, TC_FMT_FP32);
    uint64_t t, now;
    CHECK_COND(tc_sim_tick(s, UINT64_MAX - 10) == TC_EINVAL);
    CHECK_COND(tc_sim_tick(s, TC_SIM_MAX_CYCLE + 1) == TC_EINVAL);
    CHECK_COND(tc_sim_now(s, &now) == TC_OK && now == 0); /* unchanged */
    CHECK_COND(tc_sim_tick(s, TC_SIM_MAX_CYCLE) == TC_OK);
    CHECK_COND(tc_sim_tick(s, 1) == TC_EINVAL);
    CHECK_COND(tc_sim_issue(s, &op, &t) == TC_OK);
    CHECK_COND(tc_sim_issue(s, &op, &t) == TC_EBUSY);
    tc_sim_completion c[2];
    size_t n = 9;
    CHECK_COND(tc_sim_poll(s, c, 2, &n) == TC_OK && n == 0);
    uint64_t next;
    CHECK_COND(tc_sim_next_event(s, &next) == TC_OK && next > TC_SIM_MAX_CYCLE);
    tc_sim_destroy(s);
}

static void test_errors(void)
{
    tc_sim *s = make("a100", 1, 0);
    int ok;
    uint64_t ticket = 12345, x;
    size_t n;
    tc_sim_completion c;
    tc_sim_stats st;
    tc_sim_stats_init(&st);
    tc_sim_op op = mma_op(0, 16, 8, 16, TC_FMT_FP16, TC_FMT_FP32);

    /* NULL handle / pointers. */
    CHECK_COND(tc_sim_can_issue(NULL, &op, &ok) == TC_EINVAL);
    CHECK_COND(tc_sim_can_issue(s, NULL, &ok) == TC_EINVAL);
    CHECK_COND(tc_sim_can_issue(s, &op, NULL) == TC_EINVAL);
    CHECK_COND(tc_sim_issue(NULL, &op, &ticket) == TC_EINVAL);
    CHECK_COND(tc_sim_issue(s, NULL, &ticket) == TC_EINVAL);
    CHECK_COND(tc_sim_issue(s, &op, NULL) == TC_EINVAL);
    CHECK_COND(tc_sim_tick(NULL, 1) == TC_EINVAL);
    CHECK_COND(tc_sim_now(NULL, &x) == TC_EINVAL && tc_sim_now(s, NULL) == TC_EINVAL);
    CHECK_COND(tc_sim_next_event(NULL, &x) == TC_EINVAL && tc_sim_next_event(s, NULL) == TC_EINVAL);
    CHECK_COND(tc_sim_poll(NULL, &c, 1, &n) == TC_EINVAL);
    CHECK_COND(tc_sim_poll(s, NULL, 1, &n) == TC_EINVAL);
    CHECK_COND(tc_sim_poll(s, &c, 1, NULL) == TC_EINVAL);
    CHECK_COND(tc_sim_stats_get(NULL, &st) == TC_EINVAL && tc_sim_stats_get(s, NULL) == TC_EINVAL);
    /* out->size must be set (tcsim_sim.h): a zeroed struct, size 0, is refused, not
     * answered TC_OK with nothing filled in. */
    tc_sim_stats unset;
    memset(&unset, 0, sizeof unset);
    CHECK_COND(tc_sim_stats_get(s, &unset) == TC_EINVAL);

    /* Bad ops: unit, code, shape, formats, half the data pointers, op size. */
    tc_sim_op bad = op;
    bad.unit = 4;
    CHECK_COND(tc_sim_issue(s, &bad, &ticket) == TC_EINVAL);
    CHECK_COND(tc_sim_can_issue(s, &bad, &ok) == TC_EINVAL);
    bad = op;
    bad.code = TC_SIM_OPCODE_COUNT;
    CHECK_COND(tc_sim_issue(s, &bad, &ticket) == TC_EINVAL);
    bad = op;
    bad.mma.k = 12;
    CHECK_COND(tc_sim_issue(s, &bad, &ticket) == TC_ESHAPE);
    CHECK_COND(tc_sim_can_issue(s, &bad, &ok) == TC_ESHAPE);
    bad.mma.k = 0;
    CHECK_COND(tc_sim_issue(s, &bad, &ticket) == TC_ESHAPE);
    bad = op;
    bad.mma.in = TC_FMT_FP32;
    CHECK_COND(tc_sim_issue(s, &bad, &ticket) == TC_EUNSUPPORTED);
    bad = op;
    bad.mma.acc = TC_FMT_COUNT;
    CHECK_COND(tc_sim_issue(s, &bad, &ticket) == TC_EUNSUPPORTED);
    /* An instruction the arch does not have: can_issue gives issue's reason (it said
     * ok for these, which issue then refused). */
    bad = op;
    bad.mma.in = TC_FMT_E4M3;
    bad.mma.k = 32;
    CHECK_COND(tc_sim_can_issue(s, &bad, &ok) == TC_EUNSUPPORTED);
    CHECK_COND(tc_sim_issue(s, &bad, &ticket) == TC_EUNSUPPORTED);
    bad = op;
    bad.mma.in = TC_FMT_BF16;
    bad.mma.acc = TC_FMT_FP16;
    CHECK_COND(tc_sim_can_issue(s, &bad, &ok) == TC_EUNSUPPORTED);
    {   /* 2:4 sparse with data: no data path, said by can_issue as by issue */
        static uint32_t A[16 * 32], B[32 * 8], C[16 * 8], D[16 * 8];
        bad = op;
        bad.mma.sparse = 1;
        bad.mma.k = 32;
        bad.A = A, bad.B = B, bad.C = C, bad.D = D;
        CHECK_COND(tc_sim_can_issue(s, &bad, &ok) == TC_EUNSUPPORTED);
        CHECK_COND(tc_sim_issue(s, &bad, &ticket) == TC_EUNSUPPORTED);
    }
    uint32_t buf[16 * 16];
    bad = op;
    bad.A = buf;
    CHECK_COND(tc_sim_issue(s, &bad, &ticket) == TC_EINVAL);
    /* tcsim_sim.h: all four set or all NULL; three of four, whichever is missing, is
     * TC_EINVAL too (the op is not run for its timing alone when A is the one missing) */
    for (int miss = 0; miss < 4; miss++) {
        bad = op;
        bad.A = miss == 0 ? NULL : buf;
        bad.B = miss == 1 ? NULL : buf;
        bad.C = miss == 2 ? NULL : buf;
        bad.D = miss == 3 ? NULL : buf;
        CHECK(tc_sim_can_issue(s, &bad, &ok) == TC_EINVAL, "can_issue, pointer %d NULL", miss);
        CHECK(tc_sim_issue(s, &bad, &ticket) == TC_EINVAL, "issue, pointer %d NULL", miss);
    }
    bad = op;
    bad.size = 8;
    CHECK_COND(tc_sim_issue(s, &bad, &ticket) == TC_EINVAL);
    CHECK_COND(tc_sim_tick(s, 1) == TC_OK);
    CHECK_COND(tc_sim_tick(s, UINT64_MAX) == TC_EINVAL); /* the clock would wrap */

    /* None of that changed anything. */
    CHECK_COND(ticket == 12345);
    CHECK_COND(tc_sim_stats_get(s, &st) == TC_OK && st.issued == 0 && st.cycles == 1 &&
          st.busy_rejects == 0);
    CHECK_COND(tc_sim_issue(s, &op, &ticket) == TC_OK && ticket == 1);
    tc_sim_destroy(s);
}

static void test_full_queue(void)
{
    tc_sim_config cfg;
    tc_sim_config_init(&cfg);
    cfg.max_in_flight = 2;
    tc_sim *s = NULL;
    CHECK_COND(tc_sim_create(&cfg, &s) == TC_OK);
    tc_sim_op op = mma_op(0, 16, 8, 8, TC_FMT_FP16, TC_FMT_FP16);
    uint64_t t;
    tc_sim_completion c[4];
    size_t n;
    op.unit = 0;
    CHECK_COND(tc_sim_issue(s, &op, &t) == TC_OK);
    op.unit = 1;
    CHECK_COND(tc_sim_issue(s, &op, &t) == TC_OK);
    op.unit = 2; /* a free sub-core, but two results wait for poll */
    CHECK_COND(tc_sim_issue(s, &op, &t) == TC_EBUSY);
    CHECK_COND(tc_sim_tick(s, 1000) == TC_OK);
    CHECK_COND(tc_sim_issue(s, &op, &t) == TC_EBUSY); /* still: poll drains, not time */
    CHECK_COND(tc_sim_poll(s, c, 4, &n) == TC_OK && n == 2);
    CHECK_COND(tc_sim_issue(s, &op, &t) == TC_OK && t == 3);
    tc_sim_destroy(s);

    /* max_in_flight 0 holds 1024 (tcsim_sim.h): 257 SMs are 1028 free sub-cores, one
     * instruction each in cycle 0; the 1025th is refused */
    tc_sim_config_init(&cfg);
    cfg.sms = 257;
    CHECK_COND(tc_sim_create(&cfg, &s) == TC_OK);
    unsigned taken = 0;
    for (unsigned u = 0; u < 1028; u++) {
        op.unit = u;
        tc_status st = tc_sim_issue(s, &op, &t);
        CHECK(st == (u < 1024 ? TC_OK : TC_EBUSY), "unit %u: %s", u, tc_strerror(st));
        taken += st == TC_OK;
    }
    CHECK_COND(taken == 1024);
    tc_sim_destroy(s);
}

static void test_arithmetic(void)
{
    tc_sim *s = make("a100", 1, 0);
    enum { M = 16, N = 8, K = 16 };
    uint32_t A[M * K], B[K * N], C[M * N], D[M * N], ref[M * N];
    uint32_t seed = 1;
    for (unsigned i = 0; i < M * K; i++)
        A[i] = (seed = seed * 1103515245u + 12345u) >> 17 & 0x3bff; /* finite fp16 */
    for (unsigned i = 0; i < K * N; i++)
        B[i] = (seed = seed * 1103515245u + 12345u) >> 17 & 0x3bff;
    for (unsigned i = 0; i < M * N; i++)
        C[i] = 0x3f800000u;
    const tc_profile *p;
    CHECK_COND(tc_profile_find(TC_ARCH_AMPERE, TC_INSTR_MMA, TC_FMT_FP16, TC_FMT_FP32, &p) ==
               TC_OK);
    CHECK_COND(tc_mma_tile(p, M, N, K, A, B, C, ref) == TC_OK);
    tc_sim_op op = mma_op(0, M, N, K, TC_FMT_FP16, TC_FMT_FP32);
    op.A = A;
    op.B = B;
    op.C = C;
    op.D = D;
    uint64_t t;
    CHECK_COND(tc_sim_issue(s, &op, &t) == TC_OK);
    CHECK_COND(!memcmp(D, ref, sizeof D));
    /* A bad bit pattern: the arithmetic's error, and the handle unchanged. */
    CHECK_COND(tc_sim_tick(s, 100) == TC_OK);
    A[0] = 0x10000; /* wider than fp16 */
    CHECK_COND(tc_sim_issue(s, &op, &t) == TC_EFORMAT);
    tc_sim_stats st;
    tc_sim_stats_init(&st);
    CHECK_COND(tc_sim_stats_get(s, &st) == TC_OK && st.issued == 1);
    A[0] = 0;
    CHECK_COND(tc_sim_issue(s, &op, &t) == TC_OK && t == 2);
    /* Sparse operands have no data path: refused, not computed wrong. */
    op.mma.sparse = 1;
    op.mma.k = 32;
    CHECK_COND(tc_sim_tick(s, 100) == TC_OK);
    CHECK_COND(tc_sim_issue(s, &op, &t) == TC_EUNSUPPORTED);
    tc_sim_destroy(s);
}

/* The two-format lookup and a pair's dot product, on hand-worked values: e4m3 0x38 is
 * 1.0, e5m2 0x38 is 0.5, e2m1 0x1 is 0.5. */
static void test_profile_pairs(void)
{
    const tc_profile *p = NULL, *q = NULL;
    uint32_t d = 0, a = 0x38, b = 0x38;
    CHECK_COND(tc_profile_find_ab(TC_ARCH_ADA, TC_INSTR_MMA, TC_FMT_E4M3, TC_FMT_E5M2,
                                  TC_FMT_FP32, &p) == TC_OK);
    CHECK_COND(p && p->in == TC_FMT_E4M3 && p->in_b == TC_FMT_E5M2 &&
               !strcmp(p->name, "ada_mma_e4m3xe5m2_fp32"));
    CHECK_COND(p && tc_dot(p, 1, &a, &b, 0, &d) == TC_OK && d == 0x3f000000u);
    /* one format both sides: the one-format row, as tc_profile_find gives it */
    CHECK_COND(tc_profile_find_ab(TC_ARCH_ADA, TC_INSTR_MMA, TC_FMT_E4M3, TC_FMT_E4M3,
                                  TC_FMT_FP32, &p) == TC_OK &&
               tc_profile_find(TC_ARCH_ADA, TC_INSTR_MMA, TC_FMT_E4M3, TC_FMT_FP32, &q) ==
                   TC_OK && p == q && p->in_b == TC_FMT_E4M3);
    CHECK_COND(p && tc_dot(p, 1, &a, &b, 0, &d) == TC_OK && d == 0x3f800000u);
    /* a pair the instruction lacks, and no out-pointer */
    q = NULL;
    CHECK_COND(tc_profile_find_ab(TC_ARCH_HOPPER, TC_INSTR_MMA, TC_FMT_E4M3, TC_FMT_E2M1,
                                  TC_FMT_FP32, &q) == TC_EUNSUPPORTED && q == NULL);
    CHECK_COND(tc_profile_find_ab(TC_ARCH_ADA, TC_INSTR_MMA, TC_FMT_E4M3, TC_FMT_E5M2,
                                  TC_FMT_FP32, NULL) == TC_EINVAL);
    /* b's width is its own format's: 0x10 fits e4m3, not e2m1 */
    CHECK_COND(tc_profile_find_ab(TC_ARCH_BLACKWELL, TC_INSTR_TCGEN05, TC_FMT_E4M3,
                                  TC_FMT_E2M1, TC_FMT_FP32, &p) == TC_OK);
    b = 0x10;
    CHECK_COND(tc_dot(p, 1, &a, &b, 0, &d) == TC_EFORMAT);
    b = 0x1;
    CHECK_COND(tc_dot(p, 1, &a, &b, 0, &d) == TC_OK && d == 0x3f000000u);
    /* tc_gemm and tc_mma_tile read each operand in its own format: 1.0 * 0.5; B's
     * width is e2m1's (0x10 is refused, D left as it was) */
    uint32_t D = 7, c0 = 0;
    tc_matrix ma = {&a, TC_LAYOUT_ROW, 0}, mb = {&b, TC_LAYOUT_ROW, 0};
    tc_matrix_out md = {&D, TC_LAYOUT_ROW, 0};
    CHECK_COND(tc_gemm(p, 1, 1, 1, &ma, &mb, NULL, &md, NULL) == TC_OK && D == 0x3f000000u);
    D = 7;
    CHECK_COND(tc_mma_tile(p, 1, 1, 1, &a, &b, &c0, &D) == TC_OK && D == 0x3f000000u);
    b = 0x10;
    D = 7;
    CHECK_COND(tc_gemm(p, 1, 1, 1, &ma, &mb, NULL, &md, NULL) == TC_EFORMAT && D == 7);
    /* mxf8f6f4's pairs: the two-format lookup (the one-format one never gives a pair);
     * 32 products of e4m3 1.0 and e2m1 0.5 under scales 2^1 and 2^-1: 16.0 */
    CHECK_COND(tc_profile_find_scaled_ab(TC_ARCH_BLACKWELL, TC_INSTR_TCGEN05, "mxf8f6f4",
                                         TC_FMT_E4M3, TC_FMT_E2M1, TC_FMT_UE8M0, 0, &p) ==
                   TC_OK && p->in == TC_FMT_E4M3 && p->in_b == TC_FMT_E2M1 &&
               !strcmp(p->name, "blackwell_tcgen05_mxf8f6f4_e4m3xe2m1_fp32"));
    CHECK_COND(tc_profile_find_scaled(TC_ARCH_BLACKWELL, TC_INSTR_TCGEN05, "mxf8f6f4",
                                      TC_FMT_E4M3, TC_FMT_UE8M0, 0, &q) == TC_OK &&
               q->in_b == TC_FMT_E4M3);
    CHECK_COND(tc_profile_find_scaled_ab(TC_ARCH_BLACKWELL, TC_INSTR_TCGEN05, "mxf4",
                                         TC_FMT_E2M1, TC_FMT_E4M3, TC_FMT_UE8M0, 0, &q) ==
               TC_EUNSUPPORTED);
    uint32_t a32[32], b32[32], sa = 128, sb = 126;
    for (int i = 0; i < 32; i++)
        a32[i] = 0x38, b32[i] = 0x1;
    CHECK_COND(tc_dot_scaled(p, 32, a32, b32, &sa, &sb, 0, &d) == TC_OK && d == 0x41800000u);
    tc_matrix m32a = {a32, TC_LAYOUT_ROW, 0}, m32b = {b32, TC_LAYOUT_COL, 0};
    tc_gemm_opts so = {.scale_a = {&sa, TC_LAYOUT_ROW, 0}, .scale_b = {&sb, TC_LAYOUT_ROW, 0}};
    D = 7;
    CHECK_COND(tc_gemm(p, 1, 1, 32, &m32a, &m32b, NULL, &md, &so) == TC_OK &&
               D == 0x41800000u);
}

static void test_tmem(void)
{
    tc_sim *s = make("a100", 1, 0);
    tc_tmem *m = (tc_tmem *)s;
    CHECK_COND(tc_sim_tmem(s, &m) == TC_EUNSUPPORTED && m == (tc_tmem *)s);
    CHECK_COND(tc_sim_tmem(NULL, &m) == TC_EINVAL && tc_sim_tmem(s, NULL) == TC_EINVAL);
    tc_sim_destroy(s);

    s = make("a100", 1, 8);
    CHECK_COND(tc_sim_tmem(s, &m) == TC_OK && tc_tmem_banks(m) == 8);
    uint32_t v = 0;
    CHECK_COND(tc_tmem_poke(m, 5, 300, 0xdeadbeef) == TC_OK);
    CHECK_COND(tc_tmem_peek(m, 5, 300, &v) == TC_OK && v == 0xdeadbeef);
    /* Out of range: lane 128, column 512. Nothing written; later calls still work. */
    CHECK_COND(tc_tmem_poke(m, TC_TMEM_LANES, 0, 1) != TC_OK);
    CHECK_COND(tc_tmem_poke(m, 0, TC_TMEM_COLS, 1) != TC_OK);
    CHECK_COND(tc_tmem_peek(m, 0, TC_TMEM_COLS, &v) != TC_OK && v == 0xdeadbeef);
    CHECK_COND(tc_tmem_peek(m, 5, 300, &v) == TC_OK && v == 0xdeadbeef);
    uint32_t row[8 * 32];
    unsigned cycles = 0;
    CHECK_COND(tc_tmem_ld(m, 0, 300, 8, row, &cycles) == TC_OK && cycles == 1 &&
               row[0 * 32 + 5] == 0xdeadbeef);
    CHECK_COND(tc_tmem_ld(m, 4, 0, 8, row, &cycles) != TC_OK);    /* group 4 of 4 */
    CHECK_COND(tc_tmem_ld(m, 0, 0, 9, row, &cycles) != TC_OK);    /* more than a slice */
    tc_sim_op op = mma_op(0, 16, 8, 16, TC_FMT_FP16, TC_FMT_FP32);
    uint64_t t;
    CHECK_COND(tc_sim_issue(s, &op, &t) == TC_OK);
    tc_sim_destroy(s);
}

/* Integer patterns and values (tcsim.h), worked by hand: two's complement for the
 * signed formats, the ranges' ends, and the refusals. */
static void test_int_values(void)
{
    int32_t v;
    uint32_t w;
    CHECK_COND(tc_int_value(TC_FMT_INT8, 0xff, &v) == TC_OK && v == -1);
    CHECK_COND(tc_int_value(TC_FMT_INT8, 0x80, &v) == TC_OK && v == -128);
    CHECK_COND(tc_int_value(TC_FMT_UINT8, 0xff, &v) == TC_OK && v == 255);
    CHECK_COND(tc_int_value(TC_FMT_INT4, 0x8, &v) == TC_OK && v == -8);
    CHECK_COND(tc_int_value(TC_FMT_S32, 0x80000000u, &v) == TC_OK && v == INT32_MIN);
    CHECK_COND(tc_int_value(TC_FMT_INT8, 0x100, &v) == TC_EFORMAT);
    CHECK_COND(tc_int_value(TC_FMT_FP16, 0, &v) == TC_EFORMAT);
    CHECK_COND(tc_int_pattern(TC_FMT_INT8, -1, &w) == TC_OK && w == 0xff);
    CHECK_COND(tc_int_pattern(TC_FMT_INT8, 127, &w) == TC_OK && w == 0x7f);
    CHECK_COND(tc_int_pattern(TC_FMT_INT8, 128, &w) == TC_EINVAL);
    CHECK_COND(tc_int_pattern(TC_FMT_INT8, -129, &w) == TC_EINVAL);
    CHECK_COND(tc_int_pattern(TC_FMT_UINT8, 255, &w) == TC_OK && w == 0xff);
    CHECK_COND(tc_int_pattern(TC_FMT_UINT8, -1, &w) == TC_EINVAL);
    CHECK_COND(tc_int_pattern(TC_FMT_UINT4, 15, &w) == TC_OK && w == 0xf);
    CHECK_COND(tc_int_pattern(TC_FMT_S32, INT32_MIN, &w) == TC_OK && w == 0x80000000u);
    CHECK_COND(tc_int_pattern(TC_FMT_S32, (int64_t)INT32_MAX + 1, &w) == TC_EINVAL);
    CHECK_COND(tc_int_pattern(TC_FMT_FP32, 0, &w) == TC_EFORMAT);
}

int main(void)
{
    test_int_values();
    test_version();
    test_create();
    test_issue_timing();
    test_errors();
    test_next_event_stages();
    test_next_event_takes();
    test_next_event_last_unit();
    test_next_event_front();
    test_clock_end();
    test_full_queue();
    test_arithmetic();
    test_profile_pairs();
    test_tmem();
    printf("%s\n", failures ? "FAILED" : "PASSED");
    return failures ? 1 : 0;
}
