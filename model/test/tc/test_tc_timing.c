/* test_tc_timing.c - the cycle-level timing of the Volta tensor core against seed 001
 * Figure 9 ("Cumulative Clock Cycles" of the HMMA.884 instructions of one wmma.mma),
 * and the pipeline rules that produce it.
 *
 * Figure 9 is test data only: the model has no table of it. The rule checks below hold
 * for any parameter set, and changing one parameter must move the sequence. */
#include <stdio.h>
#include <string.h>
#include "tcsim.h"

#include "check.h"

/* Seed 001 Figure 9a (mixed precision, HMMA.884.F32.F32, SET1..4 x STEP0..3) and 9b
 * (FP16 mode, HMMA.884.F16.F16, SET1..4 x STEP0..1), in program order. */
static const unsigned fig9a[16] = {10, 12, 14, 18, 20, 22, 24, 28, 30, 32, 34, 38, 40, 42, 44, 54};
static const unsigned fig9b[8] = {12, 21, 25, 34, 38, 47, 51, 64};

static int run(const tc_volta_timing *t, tc_shape sh, tc_fmt acc, tc_hmma_event *ev, size_t *n,
               uint64_t *done)
{
    tc_hmma_cfg cfg = {sh, TC_LAYOUT_ROW, TC_LAYOUT_COL, acc};
    return tc_volta_hmma_timing(t, &cfg, ev, 16, n, done) == TC_OK;
}

/* The rules of tcsim_tc.h on one trace. */
static void check_rules(const char *what, const tc_volta_timing *t, tc_fmt acc,
                        const tc_hmma_event *ev, size_t n, uint64_t done)
{
    /* a step's 32 / steps outputs, fedps_per_tg of them a beat, in whole beats */
    unsigned steps = acc == TC_FMT_FP32 ? 4 : 2;
    unsigned beats = (32 / steps + t->fedps_per_tg - 1) / t->fedps_per_tg;
    unsigned pack = acc == TC_FMT_FP16 ? t->f16_pack : 0;
    uint64_t raw = t->operand_fetch + beats - 1 + t->fedp_latency + pack + t->writeback;
    for (size_t i = 0; i < n; i++) {
        CHECK(ev[i].set == i / steps && ev[i].step == i % steps, "%s: HMMA %zu is set %u step %u",
              what, i, ev[i].set, ev[i].step);
        CHECK(ev[i].first_beat == ev[i].dispatch + t->operand_fetch, "%s: HMMA %zu beat 0 at %llu",
              what, i, (unsigned long long)ev[i].first_beat);
        CHECK(ev[i].written == ev[i].dispatch + raw, "%s: HMMA %zu written at %llu", what, i,
              (unsigned long long)ev[i].written);
        if (i == 0)
            continue;
        /* in order; the FEDPs take one HMMA's beats at a time */
        uint64_t earliest = ev[i - 1].dispatch + beats;
        /* the pair this step reads was written by the same step of the set before */
        if (i >= steps && ev[i - steps].written > earliest)
            earliest = ev[i - steps].written;
        CHECK(ev[i].dispatch == earliest, "%s: HMMA %zu dispatched at %llu, earliest %llu", what,
              i, (unsigned long long)ev[i].dispatch, (unsigned long long)earliest);
    }
    CHECK(done == ev[n - 1].written, "%s: done %llu", what, (unsigned long long)done);
}

int main(void)
{
    tc_volta_timing t;
    tc_volta_timing_default(&t);
    CHECK(t.fedp_latency == TC_FEDP_LATENCY, "default FEDP latency %u", t.fedp_latency);
    tc_hmma_event ev[16];
    size_t n = 0;
    uint64_t done = 0;

    /* Figure 9, both modes */
    CHECK(run(&t, TC_SHAPE_M16N16K16, TC_FMT_FP32, ev, &n, &done) && n == 16, "mixed: %zu", n);
    for (size_t i = 0; i < n && i < 16; i++)
        CHECK(ev[i].cumulative == fig9a[i], "Figure 9a HMMA %zu (SET%u STEP%u): %llu, seed %u", i,
              ev[i].set + 1, ev[i].step, (unsigned long long)ev[i].cumulative, fig9a[i]);
    check_rules("mixed", &t, TC_FMT_FP32, ev, n, done);
    CHECK(run(NULL, TC_SHAPE_M16N16K16, TC_FMT_FP16, ev, &n, &done) && n == 8, "fp16: %zu", n);
    for (size_t i = 0; i < n && i < 8; i++)
        CHECK(ev[i].cumulative == fig9b[i], "Figure 9b HMMA %zu (SET%u STEP%u): %llu, seed %u", i,
              ev[i].set + 1, ev[i].step, (unsigned long long)ev[i].cumulative, fig9b[i]);
    check_rules("fp16", &t, TC_FMT_FP16, ev, n, done);
    /* seed 001 III-C: "the latency of wmma.mma in mixed precision mode is ten cycles lower
     * than in FP16 mode" */
    uint64_t last16 = ev[n - 1].cumulative;
    run(&t, TC_SHAPE_M16N16K16, TC_FMT_FP32, ev, &n, &done);
    CHECK(last16 - ev[n - 1].cumulative == 10, "FP16 - mixed = %llu",
          (unsigned long long)(last16 - ev[n - 1].cumulative));

    /* m8n8k4 is one set */
    CHECK(run(&t, TC_SHAPE_M8N8K4, TC_FMT_FP32, ev, &n, &done) && n == 4, "m8n8k4 mixed %zu", n);
    check_rules("m8n8k4 mixed", &t, TC_FMT_FP32, ev, n, done);
    CHECK(run(&t, TC_SHAPE_M8N8K4, TC_FMT_FP16, ev, &n, &done) && n == 2, "m8n8k4 fp16 %zu", n);
    check_rules("m8n8k4 fp16", &t, TC_FMT_FP16, ev, n, done);

    /* Every parameter moves the sequence: the numbers come from the structure. */
    static const char *names[] = {"operand_fetch", "fedp_latency", "f16_pack", "writeback",
                                  "fedps_per_tg", "issue_offset"};
    for (unsigned p = 0; p < 6; p++) {
        tc_volta_timing v = t;
        unsigned *field[] = {&v.operand_fetch, &v.fedp_latency, &v.f16_pack, &v.writeback,
                             &v.fedps_per_tg, &v.issue_offset};
        *field[p] += p == 4 ? 4 : 1;
        int moved = 0;
        for (int acc = 0; acc < 2; acc++) {
            tc_fmt af = acc ? TC_FMT_FP16 : TC_FMT_FP32;
            CHECK(run(&v, TC_SHAPE_M16N16K16, af, ev, &n, &done), "%s + 1", names[p]);
            check_rules(names[p], &v, af, ev, n, done);
            for (size_t i = 0; i < n; i++)
                moved |= ev[i].cumulative != (acc ? fig9b[i] : fig9a[i]);
        }
        CHECK(moved, "changing %s does not change Figure 9", names[p]);
    }
    /* FEDPs that do not divide a step's outputs: 3 per thread group take ceil(8 / 3) = 3
     * beats for a mixed-precision step's 8 outputs (ceil(16 / 3) = 6 in FP16 mode, 16
     * outputs), so HMMA 1 (step 1 of set 1, another pair than step 0's) dispatches 3
     * (6) cycles after HMMA 0: 2 (5) beats would leave outputs uncomputed. */
    {
        tc_volta_timing v = t;
        v.fedps_per_tg = 3;
        CHECK(run(&v, TC_SHAPE_M16N16K16, TC_FMT_FP32, ev, &n, &done) && n == 16,
              "fedps_per_tg 3 mixed: %zu", n);
        check_rules("fedps_per_tg 3 mixed", &v, TC_FMT_FP32, ev, n, done);
        CHECK(ev[1].dispatch - ev[0].dispatch == 3, "fedps_per_tg 3 mixed: HMMA 1 at +%llu",
              (unsigned long long)(ev[1].dispatch - ev[0].dispatch));
        CHECK(run(&v, TC_SHAPE_M16N16K16, TC_FMT_FP16, ev, &n, &done) && n == 8,
              "fedps_per_tg 3 fp16: %zu", n);
        check_rules("fedps_per_tg 3 fp16", &v, TC_FMT_FP16, ev, n, done);
        CHECK(ev[1].dispatch - ev[0].dispatch == 6, "fedps_per_tg 3 fp16: HMMA 1 at +%llu",
              (unsigned long long)(ev[1].dispatch - ev[0].dispatch));
    }
    tc_volta_timing bad = t;
    bad.operand_fetch = 0;
    tc_hmma_cfg cfg = {TC_SHAPE_M16N16K16, TC_LAYOUT_ROW, TC_LAYOUT_ROW, TC_FMT_FP32};
    CHECK(tc_volta_hmma_timing(&bad, &cfg, ev, 16, &n, &done) == TC_EINVAL, "fetch 0 accepted");
    CHECK(tc_volta_hmma_timing(&t, &cfg, ev, 15, &n, &done) == TC_ESHAPE, "cap 15 accepted");
    /* Stage counts whose sum wraps to a small depth: each is refused on its own (the
     * wrapped sum once indexed the pipeline at 2^32 - 1). */
    bad = t;
    bad.fedp_latency = 0xffffffffu; /* + writeback 2 - 1: depth 0 */
    CHECK(tc_volta_hmma_timing(&bad, &cfg, ev, 16, &n, &done) == TC_EINVAL,
          "fedp_latency 2^32-1 accepted");
    bad = t;
    bad.writeback = 0xfffffffeu;    /* + fedp_latency 4 - 1: depth 1 */
    CHECK(tc_volta_hmma_timing(&bad, &cfg, ev, 16, &n, &done) == TC_EINVAL,
          "writeback 2^32-2 accepted");
    bad = t;
    bad.f16_pack = 0xfffffffcu;     /* fp16 accumulator: + 4 + 2 - 1, depth 1 */
    cfg.acc = TC_FMT_FP16;
    CHECK(tc_volta_hmma_timing(&bad, &cfg, ev, 16, &n, &done) == TC_EINVAL,
          "f16_pack 2^32-4 accepted");
    /* The stage limits tcsim_tc.h states: fetch, FEDP and write-back stages 1 to 64,
     * pack 0 to 64, 1 to 32 FEDPs per threadgroup, at most 64 stages behind the FEDP
     * inputs (fedp_latency + f16_pack + writeback - 1). */
    {
        static const struct { unsigned fetch, fedp, pack, wb, fedps; int ok; } lim[] = {
            {3, 4, 1, 0, 4, 0},   {3, 4, 1, 2, 0, 0},  {3, 4, 1, 2, 33, 0},
            {3, 4, 1, 2, 32, 1},  {64, 4, 1, 2, 4, 1}, {65, 4, 1, 2, 4, 0},
            {3, 62, 1, 2, 4, 1},  {3, 63, 1, 2, 4, 0}, {3, 1, 62, 2, 4, 1},
            {3, 1, 0, 64, 4, 1},  {3, 1, 0, 65, 4, 0}, {3, 0, 1, 2, 4, 0},
        };
        for (size_t i = 0; i < sizeof lim / sizeof lim[0]; i++) {
            tc_volta_timing v = t;
            v.operand_fetch = lim[i].fetch;
            v.fedp_latency = lim[i].fedp;
            v.f16_pack = lim[i].pack;
            v.writeback = lim[i].wb;
            v.fedps_per_tg = lim[i].fedps;
            cfg.acc = TC_FMT_FP16;
            tc_status st = tc_volta_hmma_timing(&v, &cfg, ev, 16, &n, &done);
            CHECK(lim[i].ok ? st == TC_OK && n == 8 : st == TC_EINVAL,
                  "fetch %u fedp %u pack %u writeback %u fedps %u: status %d", lim[i].fetch,
                  lim[i].fedp, lim[i].pack, lim[i].wb, lim[i].fedps, (int)st);
        }
    }

    printf("%s: %d failure(s)\n", failures ? "FAILED" : "PASSED", failures);
    return failures != 0;
}
