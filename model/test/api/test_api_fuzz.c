/* test_api_fuzz [seed [calls]] - random sequences of handle API calls (tcsim_sim.h),
 * good and bad mixed, checked against a shadow of what must hold:
 *  - can_issue and issue agree; an error or TC_EBUSY changes nothing;
 *  - every ticket completes exactly once, at the cycle a shadow of its sub-core's
 *    stages gives (tc_unit_take: issue + latency of tc_op_timing_of, or later behind a
 *    slower fp32 accumulator), and poll returns completions in (ready, ticket) order;
 *  - the statistics count exactly the calls that succeeded.
 * Run under ASan+UBSan by the sanitizer build (label model). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "tcsim.h"
#include "test_args.h"

static uint64_t rng = 0x9e3779b97f4a7c15ull;
static unsigned rnd(unsigned n)
{
    rng ^= rng << 13;
    rng ^= rng >> 7;
    rng ^= rng << 17;
    return (unsigned)(rng % n);
}

#define FAILF(...)                                                           \
    do {                                                                     \
        printf("FAIL (call %lu): ", call);                                   \
        printf(__VA_ARGS__);                                                 \
        printf("\n");                                                        \
        return 1;                                                            \
    } while (0)

enum { MAXT = 1 << 16 };

int main(int argc, char **argv)
{
    uint64_t seed = 1, calls = 200000;
    if (argc > 3 ||
        (argc > 1 && test_parse_u64("test_api_fuzz", "SEED", argv[1], UINT64_MAX, &seed)) ||
        (argc > 2 && test_parse_u64("test_api_fuzz", "CALLS", argv[2], UINT64_MAX, &calls))) {
        fprintf(stderr, "usage: test_api_fuzz [SEED [CALLS]]\n");
        return 2;
    }
    rng ^= seed * 0x2545f4914f6cdd1dull;
    unsigned long call = 0;
    const char *gpus[] = {"a100", "rtx3070ti", "rtx2080ti", "v100"};
    static uint64_t expect_ready[MAXT];
    static unsigned char done[MAXT];
    static tc_unit_state shadow[64];

    for (int round = 0; round < 4; round++) {
        tc_sim_config cfg;
        tc_sim_config_init(&cfg);
        cfg.gpu = gpus[round];
        cfg.sms = 1 + rnd(3);
        cfg.max_in_flight = 1 + rnd(64);
        tc_sim *s;
        if (tc_sim_create(&cfg, &s) != TC_OK)
            FAILF("create %s", gpus[round]);
        tc_gpu_timing g;
        tc_gpu_timing_find(gpus[round], &g);
        unsigned units = cfg.sms * g.subcores;
        memset(shadow, 0, sizeof shadow);
        if (units > sizeof shadow / sizeof shadow[0])
            FAILF("%u units", units);
        uint64_t issued = 0, completed = 0, rejects = 0, now = 0, last_ready = 0,
                 last_ticket = 0, in_flight = 0;
        memset(done, 0, sizeof done);
        for (unsigned long i = 0; i < calls / 4 && issued + 1 < MAXT; i++, call++) {
            unsigned what = rnd(10);
            if (what < 5) {
                /* An op: mostly good, sometimes bad in one way. */
                static const unsigned shapes[][3] = {
                    {16, 8, 16}, {16, 8, 8}, {8, 8, 16}, {16, 8, 32}, {16, 16, 16},
                    {8, 8, 4}, {16, 8, 12}, {0, 8, 8}};
                static const tc_fmt ins[] = {TC_FMT_FP16, TC_FMT_BF16, TC_FMT_TF32,
                                             TC_FMT_INT8, TC_FMT_FP32};
                tc_sim_op op;
                tc_sim_op_init(&op);
                op.unit = rnd(units + 1);
                const unsigned *sh = shapes[rnd(8)];
                op.mma = (tc_mma_op){sh[0], sh[1], sh[2], ins[rnd(5)], TC_FMT_FP32, 0};
                if (op.mma.in == TC_FMT_INT8)
                    op.mma.acc = rnd(8) ? TC_FMT_S32 : TC_FMT_FP16;
                else if (rnd(2))
                    op.mma.acc = TC_FMT_FP16;
                op.mma.sparse = rnd(6) == 0;
                op.tag = issued + 1;
                int ok = -1;
                tc_status cst = tc_sim_can_issue(s, &op, &ok);
                uint64_t ticket = 0;
                tc_status st = tc_sim_issue(s, &op, &ticket);
                tc_op_timing t;
                tc_status tst = tc_op_timing_of(&g, &op.mma, &t);
                if (op.unit >= units) {
                    if (st != TC_EINVAL || cst != TC_EINVAL)
                        FAILF("unit %u of %u accepted", op.unit, units);
                    continue;
                }
                if (tst != TC_OK) {
                    if (st != tst || cst != tst)
                        FAILF("bad op: issue %d can_issue %d timing %d", st, cst, tst);
                    continue;
                }
                if (cst != TC_OK || (st == TC_OK) != (ok == 1))
                    FAILF("can_issue %d/%d but issue %d", cst, ok, st);
                if (st == TC_EBUSY) {
                    rejects++;
                    if (ticket != 0)
                        FAILF("busy issue wrote a ticket");
                    continue;
                }
                if (st != TC_OK)
                    FAILF("issue failed: %s", tc_strerror(st));
                if (ticket != issued + 1)
                    FAILF("ticket %llu, expected %llu", (unsigned long long)ticket,
                          (unsigned long long)(issued + 1));
                issued++;
                in_flight++;
                expect_ready[ticket] = tc_unit_take(&shadow[op.unit], &t, now);
            } else if (what < 7) {
                uint64_t d = rnd(4) ? rnd(8) : rnd(200);
                if (tc_sim_tick(s, d) != TC_OK)
                    FAILF("tick");
                now += d;
            } else if (what < 8) {
                uint64_t next;
                if (tc_sim_next_event(s, &next) != TC_OK || next < now)
                    FAILF("next_event");
                if (next != UINT64_MAX && rnd(2)) {
                    tc_sim_tick(s, next - now);
                    now = next;
                }
            } else {
                tc_sim_completion c[16];
                size_t n;
                size_t cap = rnd(17);
                if (tc_sim_poll(s, cap ? c : NULL, cap, &n) != TC_OK)
                    FAILF("poll");
                if (!cap)
                    continue;
                for (size_t k = 0; k < n; k++) {
                    uint64_t tk = c[k].ticket;
                    if (tk == 0 || tk > issued || done[tk])
                        FAILF("ticket %llu completed twice or never issued",
                              (unsigned long long)tk);
                    done[tk] = 1;
                    if (c[k].ready != expect_ready[tk] || c[k].ready > now ||
                        c[k].tag != tk)
                        FAILF("ticket %llu ready %llu, expected %llu (now %llu)",
                              (unsigned long long)tk, (unsigned long long)c[k].ready,
                              (unsigned long long)expect_ready[tk],
                              (unsigned long long)now);
                    if (c[k].ready < last_ready ||
                        (c[k].ready == last_ready && tk < last_ticket))
                        FAILF("completions out of order");
                    last_ready = c[k].ready;
                    last_ticket = tk;
                    completed++;
                    in_flight--;
                }
                /* Nothing readable is left behind when fewer than cap came back. */
                size_t left;
                tc_sim_poll(s, NULL, 0, &left);
                if (n < cap && left)
                    FAILF("poll left %zu readable completions", left);
            }
            tc_sim_stats st;
            tc_sim_stats_init(&st);
            if (tc_sim_stats_get(s, &st) != TC_OK || st.issued != issued ||
                st.completed != completed || st.busy_rejects != rejects || st.cycles != now)
                FAILF("stats disagree");
        }
        /* Drain: every ticket completes. */
        for (int spin = 0; in_flight && spin < 100000; spin++, call++) {
            uint64_t next;
            tc_sim_next_event(s, &next);
            if (next == UINT64_MAX)
                break;
            tc_sim_tick(s, next - now);
            now = next;
            tc_sim_completion c[16];
            size_t n;
            tc_sim_poll(s, c, 16, &n);
            for (size_t k = 0; k < n; k++) {
                if (done[c[k].ticket] || c[k].ready != expect_ready[c[k].ticket])
                    FAILF("drain: ticket %llu", (unsigned long long)c[k].ticket);
                done[c[k].ticket] = 1;
                in_flight--;
            }
        }
        if (in_flight)
            FAILF("%llu tickets never completed", (unsigned long long)in_flight);
        printf("%s: %llu issued, %llu busy, %llu cycles\n", gpus[round],
               (unsigned long long)issued, (unsigned long long)rejects,
               (unsigned long long)now);
        tc_sim_destroy(s);
    }
    printf("PASSED\n");
    return 0;
}
