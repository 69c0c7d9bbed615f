/* test_api_threads - the documented thread-safety: one handle per thread. Four threads
 * each drive their own handle through the same issue/tick/poll sequence (and the timing
 * functions, which use handles inside) at the same time; every thread must get exactly
 * the results of the same sequence run alone first. Under ASan+UBSan with the model
 * label (ThreadSanitizer is not part of the build; races would show as differences). */
#include <stdio.h>
#include <string.h>
#include <threads.h>
#include "tcsim.h"

enum { THREADS = 4, OPS = 20000 };

typedef struct result {
    uint64_t cycles, sum_ready, completed;
    uint64_t bench_cycles;
    tc_status st;
} result;

static int drive(void *arg)
{
    result *r = arg;
    memset(r, 0, sizeof *r);
    tc_sim_config cfg;
    tc_sim_config_init(&cfg);
    cfg.gpu = "rtx3070ti";
    cfg.sms = 2;
    tc_sim *s;
    if ((r->st = tc_sim_create(&cfg, &s)) != TC_OK)
        return 1;
    tc_sim_op op;
    tc_sim_op_init(&op);
    uint64_t ticket, now = 0;
    for (unsigned i = 0; i < OPS; i++) {
        op.unit = i % 8;
        op.mma = (tc_mma_op){16, 8, (i % 3 + 1) * 8, TC_FMT_FP16,
                             i % 2 ? TC_FMT_FP32 : TC_FMT_FP16, 0};
        while (tc_sim_issue(s, &op, &ticket) == TC_EBUSY) {
            tc_sim_completion c[8];
            size_t n;
            tc_sim_tick(s, 1);
            now++;
            tc_sim_poll(s, c, 8, &n);
            for (size_t k = 0; k < n; k++) {
                r->sum_ready += c[k].ready * c[k].ticket;
                r->completed++;
            }
        }
    }
    tc_sim_destroy(s);
    r->cycles = now;
    tc_gpu_timing g;
    tc_bench_result b = {0, 0, 0};
    tc_mma_op m = {16, 8, 16, TC_FMT_BF16, TC_FMT_FP32, 0};
    if ((r->st = tc_gpu_timing_find("a100", &g)) == TC_OK)
        r->st = tc_bench_mma(&g, &m, 8, 2, 100, &b);
    r->bench_cycles = b.cycles;
    return 0;
}

int main(void)
{
    result alone, r[THREADS];
    drive(&alone);
    if (alone.st != TC_OK || alone.completed == 0) {
        printf("FAIL: the sequence alone: %s\n", tc_strerror(alone.st));
        return 1;
    }
    thrd_t t[THREADS];
    for (int i = 0; i < THREADS; i++)
        if (thrd_create(&t[i], drive, &r[i]) != thrd_success) {
            printf("FAIL: thrd_create\n");
            return 1;
        }
    int bad = 0;
    for (int i = 0; i < THREADS; i++) {
        thrd_join(t[i], NULL);
        if (memcmp(&r[i], &alone, sizeof alone)) {
            printf("FAIL: thread %d differs from the sequence run alone\n", i);
            bad = 1;
        }
    }
    printf("%d threads x %d ops: %llu cycles, %llu completions each\n%s\n", THREADS, OPS,
           (unsigned long long)alone.cycles, (unsigned long long)alone.completed,
           bad ? "FAILED" : "PASSED");
    return bad;
}
