/* test_timing_params - the timing parameter table and its parser (tcsim_timing.h):
 * the built-in GPUs, lookups by name and by arch, every parser error, and the formulas
 * of tc_op_timing_of on hand-checked cases. */
#include <stdio.h>
#include <string.h>
#include "tcsim.h"
#include "check.h"


static const char *good =
    "# a comment\n"
    "gpu toy arch ampere subcores 4 tc_per_subcore 1 fedps_per_tc 32 fedp_len16 4 \\\n"
    "    acc32_rate_div 2 step_k16 8 depth 10 drain_rows 4 step_fwd 6 acc32_extra 1 \\\n"
    "    ii_min 2 sparse_ii_min 3 warp_overhead 0 measure_offset 5 # trailing comment\n"
    "    volta_operand_fetch 0 volta_fedp_latency 0 volta_f16_pack 0 volta_writeback 0 \\\n"
    "    volta_fedps_per_tg 0 acc32_buffer 1\n";

/* What tc_bench_mma_progress reported: the calls, the last count, whether the counts
 * ever failed to increase or the total changed. */
typedef struct bench_calls {
    unsigned calls;
    int bad;
    uint64_t last, total;
} bench_calls;

static void count_progress(void *ctx, uint64_t done, uint64_t total)
{
    bench_calls *c = ctx;
    c->bad |= done <= c->last || done > total || (c->calls && total != c->total);
    c->calls++;
    c->last = done;
    c->total = total;
}

/* The toy GPU of `good` as one record called name, its pairs separated by sep, with key
 * given the value val instead of its own (val NULL: the key left out). */
static void toy_text(char *buf, size_t cap, const char *name, const char *sep,
                     const char *key, const char *val)
{
    static const char *const kv[][2] = {
        {"arch", "ampere"}, {"subcores", "4"}, {"tc_per_subcore", "1"},
        {"fedps_per_tc", "32"}, {"fedp_len16", "4"}, {"acc32_rate_div", "2"},
        {"step_k16", "8"}, {"depth", "10"}, {"drain_rows", "4"}, {"step_fwd", "6"},
        {"acc32_extra", "1"}, {"ii_min", "2"}, {"sparse_ii_min", "3"},
        {"warp_overhead", "0"}, {"measure_offset", "5"}, {"volta_operand_fetch", "0"},
        {"volta_fedp_latency", "0"}, {"volta_f16_pack", "0"}, {"volta_writeback", "0"},
        {"volta_fedps_per_tg", "0"}, {"acc32_buffer", "1"}};
    size_t len = (size_t)snprintf(buf, cap, "gpu %s", name);
    for (size_t i = 0; i < sizeof kv / sizeof kv[0] && len < cap; i++) {
        int mine = key && !strcmp(key, kv[i][0]);
        if (mine && !val)
            continue;
        len += (size_t)snprintf(buf + len, cap - len, "%s%s %s", i ? sep : " ", kv[i][0],
                                mine ? val : kv[i][1]);
    }
    if (len < cap)
        snprintf(buf + len, cap - len, "\n");
}

int main(void)
{
    tc_gpu_timing g;
    /* The built-in table: the four GPUs of the seeds, then Ada, Hopper and Blackwell
     * (issue 32), by name and by arch. */
    const char *names[] = {"v100", "a100", "rtx3070ti", "rtx2080ti",
                           "l40s", "h100", "h200", "b200"};
    for (size_t i = 0; i < 8; i++) {
        CHECK_COND(tc_gpu_timing_get(i, &g) == TC_OK && !strcmp(g.name, names[i]));
        CHECK_COND(tc_gpu_timing_find(names[i], &g) == TC_OK && !strcmp(g.name, names[i]));
    }
    CHECK_COND(tc_gpu_timing_get(8, &g) == TC_EUNSUPPORTED);
    CHECK_COND(tc_gpu_timing_find("ampere", &g) == TC_OK && !strcmp(g.name, "a100"));
    CHECK_COND(tc_gpu_timing_find("turing", &g) == TC_OK && !strcmp(g.name, "rtx2080ti"));
    CHECK_COND(tc_gpu_timing_find("volta", &g) == TC_OK && g.volta.operand_fetch == 3 &&
          g.volta.issue_offset == 8);
    CHECK_COND(tc_gpu_timing_find("hopper", &g) == TC_OK && !strcmp(g.name, "h100"));
    CHECK_COND(tc_gpu_timing_find("blackwell", &g) == TC_OK && !strcmp(g.name, "b200"));
    CHECK_COND(tc_gpu_timing_find("nope", &g) == TC_EUNSUPPORTED);
    CHECK_COND(tc_gpu_timing_find(NULL, &g) == TC_EINVAL);
    CHECK_COND(tc_gpu_timing_find("a100", NULL) == TC_EINVAL);

    /* A GPU of the caller's own, the '\' continuation and the first line without it. */
    CHECK_COND(tc_gpu_timing_parse(good, "toy", &g) != TC_OK); /* the 3rd line lacks its '\' */
    char fixed[1024];
    snprintf(fixed, sizeof fixed, "%s", good);
    char *p = strstr(fixed, "# trailing comment");
    memcpy(p, "                 \\", 18);
    CHECK_COND(tc_gpu_timing_parse(fixed, "toy", &g) == TC_OK);
    CHECK_COND(g.arch == TC_ARCH_AMPERE && g.fedps_per_tc == 32 && g.step_fwd == 6 &&
          g.measure_offset == 5);
    CHECK_COND(tc_gpu_timing_parse(fixed, "other", &g) == TC_EUNSUPPORTED);
    const char *bad[] = {
        "gpu x arch ampere\n",                                   /* keys missing */
        "gpx x\n",                                               /* not a gpu line */
        "gpu x arch nowhere subcores 4\n",                       /* bad arch */
        "gpu x subcores\n",                                      /* value missing */
        "gpu x subcores 4x\n",                                   /* not a number */
        "gpu x bogus 4\n",                                       /* unknown key */
        "gpu x subcores 99999999999\n",                          /* out of range */
        "gpu\n",                                                 /* no name */
    };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        tc_gpu_timing before;
        memset(&before, 0x5a, sizeof before);
        g = before;
        CHECK_COND(tc_gpu_timing_parse(bad[i], "x", &g) == TC_EINVAL);
        CHECK_COND(!memcmp(&g, &before, sizeof g)); /* untouched on failure */
    }
    CHECK_COND(tc_gpu_timing_parse(NULL, "x", &g) == TC_EINVAL);
    /* The text format (tcsim_timing.h): a '\' continuation before "\r\n" as before "\n",
     * '#' ending a value, every key and arch required, values of at most 10 digits
     * within their key's limit, names of at most TC_GPU_NAME_MAX - 1 characters. */
    {
        char lf[1024], txt[1024];
        tc_gpu_timing a, b;
        toy_text(lf, sizeof lf, "toy", " \\\n", NULL, NULL);
        CHECK_COND(tc_gpu_timing_parse(lf, "toy", &a) == TC_OK && a.fedps_per_tc == 32 &&
                   a.acc32_buffer == 1);
        toy_text(txt, sizeof txt, "toy", " \\\r\n", NULL, NULL);
        CHECK(tc_gpu_timing_parse(txt, "toy", &b) == TC_OK && !memcmp(&a, &b, sizeof a),
              "a '\\' before CRLF does not continue the line");
        toy_text(txt, sizeof txt, "toy", " ", "acc32_buffer", "1#x");  /* the last key */
        CHECK(tc_gpu_timing_parse(txt, "toy", &b) == TC_OK && !memcmp(&a, &b, sizeof a),
              "'#' right after a value does not start a comment");
        /* 2^64 + 4 wraps to 4 in 64 bits: 20 digits are refused, not read modulo 2^64 */
        toy_text(txt, sizeof txt, "toy", " ", "subcores", "18446744073709551620");
        CHECK_COND(tc_gpu_timing_parse(txt, "toy", &b) == TC_EINVAL);
        /* arch is required, even where the other keys would make a Volta (arch 0) */
        static const char noarch[] =
            "gpu na subcores 4 tc_per_subcore 2 fedps_per_tc 16 fedp_len16 4 "
            "acc32_rate_div 1 step_k16 4 depth 14 drain_rows 4 step_fwd 8 acc32_extra 0 "
            "ii_min 4 sparse_ii_min 4 warp_overhead 7 measure_offset 8 acc32_buffer 0 "
            "volta_operand_fetch 3 volta_fedp_latency 4 volta_f16_pack 1 "
            "volta_writeback 2 volta_fedps_per_tg 4\n";
        CHECK(tc_gpu_timing_parse(noarch, "na", &b) == TC_EINVAL, "a GPU without arch taken");
        snprintf(txt, sizeof txt, "%.7sarch volta %s", noarch, noarch + 7); /* "gpu na " */
        CHECK_COND(tc_gpu_timing_parse(txt, "na", &b) == TC_OK && b.arch == TC_ARCH_VOLTA);
        /* the keys that must be at least 1 (tcsim_timing.h) */
        static const char *const nonzero[] = {"subcores", "tc_per_subcore", "fedps_per_tc",
                                              "fedp_len16", "acc32_rate_div", "step_k16",
                                              "drain_rows", "ii_min", "sparse_ii_min"};
        for (size_t i = 0; i < sizeof nonzero / sizeof nonzero[0]; i++) {
            toy_text(txt, sizeof txt, "toy", " ", nonzero[i], "0");
            CHECK(tc_gpu_timing_parse(txt, "toy", &b) == TC_EINVAL, "%s 0 taken", nonzero[i]);
        }
        /* each key at its limit is taken and one past it refused (tcsim_timing.h) */
        static const struct { const char *key, *max, *past; } lim[] = {
            {"subcores", "64", "65"},          {"fedps_per_tc", "4096", "4097"},
            {"fedp_len16", "256", "257"},      {"acc32_rate_div", "16", "17"},
            {"step_fwd", "100000", "100001"},  {"acc32_buffer", "16", "17"},
        };
        for (size_t i = 0; i < sizeof lim / sizeof lim[0]; i++) {
            toy_text(txt, sizeof txt, "toy", " ", lim[i].key, lim[i].max);
            CHECK(tc_gpu_timing_parse(txt, "toy", &b) == TC_OK, "%s %s refused", lim[i].key,
                  lim[i].max);
            toy_text(txt, sizeof txt, "toy", " ", lim[i].key, lim[i].past);
            CHECK(tc_gpu_timing_parse(txt, "toy", &b) == TC_EINVAL, "%s %s taken", lim[i].key,
                  lim[i].past);
        }
        /* names: 23 characters and the terminating zero fill name[24]; 24 do not fit */
        const char *n23 = "abcdefghijklmnopqrstuvw", *n24 = "abcdefghijklmnopqrstuvwx";
        toy_text(txt, sizeof txt, n23, " ", NULL, NULL);
        CHECK_COND(tc_gpu_timing_parse(txt, n23, &b) == TC_OK && !strcmp(b.name, n23));
        toy_text(txt, sizeof txt, n24, " ", NULL, NULL);
        CHECK_COND(tc_gpu_timing_parse(txt, n24, &b) == TC_EINVAL);
        /* keys and "gpu" are whole words: "depthx" is an unknown key, "gpus" no record */
        toy_text(txt, sizeof txt, "toy", " ", NULL, NULL);
        char *d = strstr(txt, " depth ");
        memmove(d + 7, d + 6, strlen(d + 6) + 1);
        d[6] = 'x';
        CHECK(tc_gpu_timing_parse(txt, "toy", &b) == TC_EINVAL, "'depthx' read as depth");
        toy_text(txt, sizeof txt, "toy", " ", NULL, NULL);
        memmove(txt + 4, txt + 3, strlen(txt + 3) + 1);
        txt[3] = 's';
        CHECK(tc_gpu_timing_parse(txt, "toy", &b) == TC_EINVAL, "'gpus' read as gpu");
        /* a key given twice in a record is refused, not the last one taken: the toy's
         * last key again, and its arch again (tcsim_timing.h) */
        toy_text(txt, sizeof txt, "toy", " ", "acc32_buffer", "1 acc32_buffer 2");
        CHECK(tc_gpu_timing_parse(txt, "toy", &b) == TC_EINVAL, "acc32_buffer given twice");
        toy_text(txt, sizeof txt, "toy", " ", "acc32_buffer", "1 arch ampere");
        CHECK(tc_gpu_timing_parse(txt, "toy", &b) == TC_EINVAL, "arch given twice");
    }
    CHECK_COND(tc_gpu_timing_parse(fixed, "toy", &g) == TC_OK);

    /* One instruction on the toy GPU: rate 32*4 = 128 fp16 FMA/clk, 64 with fp32 acc. */
    tc_mma_op op = {16, 8, 16, TC_FMT_FP16, TC_FMT_FP32, 0};
    tc_op_timing t;
    CHECK_COND(tc_op_timing_of(&g, &op, &t) == TC_OK);
    /* 2 steps of 16*8*8/64 = 16 beats; latency 10 + 16/4 + 1*max(6,16) + 1 = 31. */
    CHECK_COND(t.steps == 2 && t.beats == 16 && t.issue_interval == 32 && t.latency == 31 &&
          t.fmas == 2048);
    /* The front end at the fp16 rate: 2 steps of 8; acc32_buffer 1: one pass of slack. */
    CHECK_COND(t.front_interval == 16 && t.acc_slack == 16);
    op.acc = TC_FMT_FP16; /* 8 beats, latency 10 + 4 + 8; one stage */
    CHECK_COND(tc_op_timing_of(&g, &op, &t) == TC_OK && t.beats == 8 && t.latency == 22 &&
          t.front_interval == t.issue_interval && t.acc_slack == 0);
    op.k = 8;             /* one step: 8 beats >= ii_min */
    CHECK_COND(tc_op_timing_of(&g, &op, &t) == TC_OK && t.steps == 1 && t.issue_interval == 8 &&
          t.latency == 14);
    /* Every dimension is 1 to 4096 (tcsim_timing.h): 0 and 4097 are TC_ESHAPE (k 4112 is
     * a whole number of steps, so only its size refuses it); m 4096 is taken, 2 steps of
     * 4096*8*8/64 = 4096 beats. */
    static const tc_mma_op bad_dims[] = {
        {0, 8, 16, TC_FMT_FP16, TC_FMT_FP32, 0},    {16, 0, 16, TC_FMT_FP16, TC_FMT_FP32, 0},
        {16, 8, 0, TC_FMT_FP16, TC_FMT_FP32, 0},    {4097, 8, 16, TC_FMT_FP16, TC_FMT_FP32, 0},
        {16, 4097, 16, TC_FMT_FP16, TC_FMT_FP32, 0}, {16, 8, 4112, TC_FMT_FP16, TC_FMT_FP32, 0},
    };
    for (size_t i = 0; i < sizeof bad_dims / sizeof bad_dims[0]; i++)
        CHECK(tc_op_timing_of(&g, &bad_dims[i], &t) == TC_ESHAPE, "m%un%uk%u taken",
              bad_dims[i].m, bad_dims[i].n, bad_dims[i].k);
    op = (tc_mma_op){4096, 8, 16, TC_FMT_FP16, TC_FMT_FP32, 0};
    CHECK_COND(tc_op_timing_of(&g, &op, &t) == TC_OK && t.steps == 2 && t.beats == 4096);
    op = (tc_mma_op){8, 8, 16, TC_FMT_INT8, TC_FMT_S32, 0}; /* rate 256: 1024/256 = 4 beats */
    CHECK_COND(tc_op_timing_of(&g, &op, &t) == TC_OK && t.beats == 4 && t.issue_interval == 4 &&
          t.latency == 12);
    op = (tc_mma_op){16, 8, 16, TC_FMT_FP16, TC_FMT_FP16, 1}; /* sparse: dense k8 */
    CHECK_COND(tc_op_timing_of(&g, &op, &t) == TC_OK && t.steps == 1 && t.fmas == 2048);
    /* mma.m8n8k4 is four 8x8x4 products (one per quad pair, seed 002), modelled by
     * Volta's pipeline alone: off Volta it is refused even where k 4 is a whole step
     * (step_k16 4), not timed as one 8x8x4 of 256 FMAs; on v100 it counts 4 * 256. */
    {
        tc_gpu_timing s4 = g;
        s4.step_k16 = 4;
        op = (tc_mma_op){8, 8, 4, TC_FMT_FP16, TC_FMT_FP32, 0};
        CHECK_COND(tc_op_timing_of(&s4, &op, &t) == TC_EUNSUPPORTED);
        op.k = 8; /* a generic 8x8x8 is a shape like any other */
        CHECK_COND(tc_op_timing_of(&s4, &op, &t) == TC_OK && t.fmas == 512);
        tc_gpu_timing v;
        op.k = 4;
        CHECK_COND(tc_gpu_timing_find("v100", &v) == TC_OK &&
                   tc_op_timing_of(&v, &op, &t) == TC_OK && t.fmas == 1024);
    }
    /* Rounding up (docs/timing.md): beats and the drain rows are whole cycles. The toy
     * with 24 FEDPs and 3 drain rows: rate 1*24*4 = 96 fp16 FMA/clk, k_step 8. m16n8k8:
     * beats = ceil(16*8*8/96) = ceil(10.67) = 11 = issue interval (> ii_min 2); latency
     * = depth 10 + ceil(16/3) = 6, one step: 16. m16n8k16: 2 steps, interval 22, latency
     * 10 + 6 + 1*max(step_fwd 6, 11) = 27. */
    {
        tc_gpu_timing b = g;
        b.fedps_per_tc = 24;
        b.drain_rows = 3;
        op = (tc_mma_op){16, 8, 8, TC_FMT_FP16, TC_FMT_FP16, 0};
        CHECK_COND(tc_op_timing_of(&b, &op, &t) == TC_OK && t.steps == 1 && t.beats == 11 &&
                   t.issue_interval == 11 && t.latency == 16);
        op.k = 16;
        CHECK_COND(tc_op_timing_of(&b, &op, &t) == TC_OK && t.steps == 2 && t.beats == 11 &&
                   t.issue_interval == 22 && t.latency == 27);
    }
    /* The front end's interval is at least ii_min too. The toy with ii_min 12, m16n8k8
     * fp16 -> fp32: accumulator 16*8*8/64 = 16 cycles; front end 16*8*8/128 = 8, raised
     * to ii_min 12; acc_slack = acc32_buffer 1 x 12 = 12; latency 10 + 4 + 0 + 1 = 15. */
    {
        tc_gpu_timing b = g;
        b.ii_min = 12;
        op = (tc_mma_op){16, 8, 8, TC_FMT_FP16, TC_FMT_FP32, 0};
        CHECK_COND(tc_op_timing_of(&b, &op, &t) == TC_OK && t.issue_interval == 16 &&
                   t.front_interval == 12 && t.acc_slack == 12 && t.latency == 15);
    }
    /* acc32_buffer 2: the front end may run two passes ahead. The toy's m16n8k16 fp16 ->
     * fp32 (front 16, accumulator 32, latency 31, slack 2 x 16 = 32). By the rule of
     * docs/timing.md (front end busy front_interval from each take; take while the
     * accumulator's backlog is at most 32):
     *   take 0:  acc starts 0,   ready 31;  front free 16, acc free 32
     *   take 16: acc starts 32,  ready 63;  front free 32, acc free 64
     *   take 32: backlog 64-32 = 32 at 32: taken; acc starts 64, ready 95;
     *            front free 48, acc free 96
     *   take 64: at 48 the backlog 96-48 = 48 > 32, so 96-32 = 64; acc starts 96, ready 127
     *   take 96: front free 80, acc free 128: 128-32 = 96; acc starts 128, ready 159. */
    {
        tc_gpu_timing b = g;
        b.acc32_buffer = 2;
        op = (tc_mma_op){16, 8, 16, TC_FMT_FP16, TC_FMT_FP32, 0};
        CHECK_COND(tc_op_timing_of(&b, &op, &t) == TC_OK && t.front_interval == 16 &&
                   t.issue_interval == 32 && t.acc_slack == 32 && t.latency == 31);
        tc_unit_state u = {0, 0};
        const uint64_t take[5] = {0, 16, 32, 64, 96}, ready[5] = {31, 63, 95, 127, 159};
        uint64_t now = 0;
        for (int i = 0; i < 5; i++) {
            now = tc_unit_next_take(&u, &t, now);
            CHECK(now == take[i], "acc32_buffer 2: take %d at %llu, expected %llu", i,
                  (unsigned long long)now, (unsigned long long)take[i]);
            uint64_t r = tc_unit_take(&u, &t, now);
            CHECK(r == ready[i], "acc32_buffer 2: ready %d at %llu, expected %llu", i,
                  (unsigned long long)r, (unsigned long long)ready[i]);
        }
    }
    op = (tc_mma_op){16, 8, 12, TC_FMT_FP16, TC_FMT_FP16, 0}; /* not whole steps */
    CHECK_COND(tc_op_timing_of(&g, &op, &t) == TC_ESHAPE);
    op = (tc_mma_op){16, 8, 16, TC_FMT_FP32, TC_FMT_FP32, 0}; /* no fp32 inputs */
    CHECK_COND(tc_op_timing_of(&g, &op, &t) == TC_EUNSUPPORTED);
    op = (tc_mma_op){16, 8, 16, TC_FMT_INT8, TC_FMT_FP32, 0}; /* int in, float acc */
    CHECK_COND(tc_op_timing_of(&g, &op, &t) == TC_EUNSUPPORTED);
    op = (tc_mma_op){0, 8, 16, TC_FMT_FP16, TC_FMT_FP32, 0};
    CHECK_COND(tc_op_timing_of(&g, &op, &t) == TC_ESHAPE);
    CHECK_COND(tc_op_timing_of(NULL, &op, &t) == TC_EINVAL);
    /* Limits of tc_op_timing_of on the toy (g here is the toy parsed above). */
    {
        /* a sparse k must be even: k 17 is not a whole number of steps (8.5) */
        op = (tc_mma_op){16, 8, 17, TC_FMT_FP16, TC_FMT_FP16, 1};
        CHECK_COND(tc_op_timing_of(&g, &op, &t) == TC_ESHAPE);
        /* an arch out of range and a Volta issue_offset past measure_offset's 100000
         * are parameters the parser never gives: TC_EINVAL */
        tc_gpu_timing b = g;
        b.arch = TC_ARCH_COUNT;
        op = (tc_mma_op){16, 8, 16, TC_FMT_FP16, TC_FMT_FP16, 0};
        CHECK_COND(tc_op_timing_of(&b, &op, &t) == TC_EINVAL);
        CHECK_COND(tc_gpu_timing_find("v100", &b) == TC_OK);
        b.volta.issue_offset = 100001;
        op = (tc_mma_op){16, 16, 16, TC_FMT_FP16, TC_FMT_FP32, 0};
        CHECK_COND(tc_op_timing_of(&b, &op, &t) == TC_EINVAL);
        /* fp8 is 8 bits wide, e5m2 as e4m3: the toy as an Ada, m16n8k32 -> fp32 at
         * rate 32*4*16/8 / 2 = 128, k_step 16: 2 steps of 16*8*16/128 = 16 beats,
         * interval 32, front end 2 x 16*8*16/256 = 16, slack 16, latency 10 + 16/4 +
         * 1*max(6, 16) + 1 = 31. */
        b = g;
        b.arch = TC_ARCH_ADA;
        const tc_fmt fp8[2] = {TC_FMT_E4M3, TC_FMT_E5M2};
        for (int i = 0; i < 2; i++) {
            op = (tc_mma_op){16, 8, 32, fp8[i], TC_FMT_FP32, 0};
            CHECK(tc_op_timing_of(&b, &op, &t) == TC_OK && t.steps == 2 && t.beats == 16 &&
                      t.issue_interval == 32 && t.front_interval == 16 && t.acc_slack == 16 &&
                      t.latency == 31 && t.fmas == 4096,
                  "ada %s m16n8k32", fp8[i] == TC_FMT_E4M3 ? "e4m3" : "e5m2");
        }
    }
    /* Volta pipeline stages each within 64 but 64 + 64 + 64 - 1 together: a table line
     * the HMMA pipeline cannot run is refused when parsed, not at every wmma. */
    {
        static const char deep[] =
            "gpu deep arch volta subcores 4 tc_per_subcore 2 fedps_per_tc 16 fedp_len16 4 "
            "acc32_rate_div 1 step_k16 4 depth 14 drain_rows 4 step_fwd 8 acc32_extra 0 "
            "ii_min 4 sparse_ii_min 4 warp_overhead 7 measure_offset 8 acc32_buffer 0 "
            "volta_operand_fetch 3 volta_fedp_latency 64 volta_f16_pack 64 "
            "volta_writeback 64 volta_fedps_per_tg 4\n";
        tc_gpu_timing dg;
        CHECK_COND(tc_gpu_timing_parse(deep, "deep", &dg) == TC_EINVAL);
    }
    /* Parameters out of the parser's limits are refused here too. */
    {
        tc_gpu_timing b = g;
        b.step_fwd = 100001;
        op = (tc_mma_op){16, 8, 16, TC_FMT_FP16, TC_FMT_FP16, 0};
        CHECK_COND(tc_op_timing_of(&b, &op, &t) == TC_EINVAL);
        b = g;
        b.drain_rows = 0;
        CHECK_COND(tc_op_timing_of(&b, &op, &t) == TC_EINVAL);
    }
    /* The smallest tensor core the parser takes (one one-product FEDP, k-step 256) and
     * the largest int4 shape: 4096*4096*1024 products a step at 4 a cycle is 2^32 beats,
     * 2^34 cycles an instruction, which no unsigned holds: TC_ESHAPE, not a wrapped
     * count (it used to give beats 0, issue interval 4). */
    {
        static const char tiny[] =
            "gpu tiny arch turing subcores 1 tc_per_subcore 1 fedps_per_tc 1 fedp_len16 1 "
            "acc32_rate_div 1 step_k16 256 depth 1 drain_rows 1 step_fwd 1 acc32_extra 0 "
            "ii_min 1 sparse_ii_min 1 warp_overhead 0 measure_offset 0 acc32_buffer 0 "
            "volta_operand_fetch 0 volta_fedp_latency 0 volta_f16_pack 0 "
            "volta_writeback 0 volta_fedps_per_tg 0\n";
        tc_gpu_timing tg;
        CHECK_COND(tc_gpu_timing_parse(tiny, "tiny", &tg) == TC_OK);
        op = (tc_mma_op){4096, 4096, 4096, TC_FMT_INT4, TC_FMT_S32, 0};
        CHECK_COND(tc_op_timing_of(&tg, &op, &t) == TC_ESHAPE);
        /* 1024 x 1024 x 1024: 2^28 beats, one step: fits. */
        op = (tc_mma_op){1024, 1024, 1024, TC_FMT_INT4, TC_FMT_S32, 0};
        CHECK_COND(tc_op_timing_of(&tg, &op, &t) == TC_OK && t.steps == 1 &&
                   t.beats == 1u << 28 && t.issue_interval == 1u << 28);
        /* The backlog the front end may run ahead must fit an unsigned too: tiny with
         * 2-product FEDPs, fp32 at half rate and acc32_buffer 16, m1024n1024 fp16 ->
         * fp32 (k_step 256): a step is 2^28 accumulator cycles, 2^27 front-end cycles.
         * One step: slack 16 x 2^27 = 2^31, taken; two: 16 x 2^28 = 2^32, TC_ESHAPE
         * though the interval (2^29) and latency (1 + 1024 + 2^28) fit. */
        tg.fedp_len16 = 2;
        tg.acc32_rate_div = 2;
        tg.acc32_buffer = 16;
        op = (tc_mma_op){1024, 1024, 256, TC_FMT_FP16, TC_FMT_FP32, 0};
        CHECK_COND(tc_op_timing_of(&tg, &op, &t) == TC_OK && t.issue_interval == 1u << 28 &&
                   t.front_interval == 1u << 27 && t.acc_slack == 1u << 31);
        op.k = 512;
        CHECK_COND(tc_op_timing_of(&tg, &op, &t) == TC_ESHAPE);
    }

    /* A sub-core taking instructions (tc_unit_take): Turing's m16n8k8 with an fp32
     * accumulator, front end 8 cycles, accumulator 16, one pass of slack. Four back to
     * back are taken at 0, 8, 24, 40 (seed 001 Table I's FP32-acc wmma) and complete
     * latency after the accumulator starts each: 0, 16, 32, 48. */
    CHECK_COND(tc_gpu_timing_find("rtx2080ti", &g) == TC_OK && g.acc32_buffer == 1);
    op = (tc_mma_op){16, 8, 8, TC_FMT_FP16, TC_FMT_FP32, 0};
    CHECK_COND(tc_op_timing_of(&g, &op, &t) == TC_OK && t.front_interval == 8 &&
          t.issue_interval == 16 && t.acc_slack == 8 && t.latency == 18);
    {
        tc_unit_state u = {0, 0};
        const uint64_t take[4] = {0, 8, 24, 40}, ready[4] = {18, 34, 50, 66};
        uint64_t now = 0;
        for (int i = 0; i < 4; i++) {
            now = tc_unit_next_take(&u, &t, now);
            CHECK_COND(now == take[i]);
            CHECK_COND(tc_unit_take(&u, &t, now) == ready[i]);
        }
    }
    /* The same with an fp16 accumulator: one stage, every 8 cycles. */
    op.acc = TC_FMT_FP16;
    CHECK_COND(tc_op_timing_of(&g, &op, &t) == TC_OK && t.front_interval == 8 &&
          t.issue_interval == 8 && t.acc_slack == 0);
    {
        tc_unit_state u = {0, 0};
        uint64_t now = 0;
        for (int i = 0; i < 4; i++) {
            now = tc_unit_next_take(&u, &t, now);
            CHECK_COND(now == 8u * (unsigned)i);
            CHECK_COND(tc_unit_take(&u, &t, now) == now + t.latency);
        }
    }
    /* Ampere GA104 (acc32_buffer 0): fp32 accumulation is the one-stage rule. */
    CHECK_COND(tc_gpu_timing_find("rtx3070ti", &g) == TC_OK && g.acc32_buffer == 0);
    CHECK_COND(tc_op_timing_of(&g, &op, &t) == TC_OK && t.acc_slack == 0);
    {
        op.acc = TC_FMT_FP32;
        CHECK_COND(tc_op_timing_of(&g, &op, &t) == TC_OK && t.acc_slack == 0 &&
              t.front_interval < t.issue_interval);
        tc_unit_state u = {0, 0};
        uint64_t now = 0;
        for (int i = 0; i < 3; i++) {
            now = tc_unit_next_take(&u, &t, now);
            CHECK_COND(now == (uint64_t)t.issue_interval * (unsigned)i);
            CHECK_COND(tc_unit_take(&u, &t, now) == now + t.latency);
        }
    }

    /* Volta's wmma.m16n16k16 on its HMMA pipeline, read off seed 001 Figure 9 with
     * measure_offset 8 (timing.txt): mixed precision, the last HMMA dispatches at
     * cumulative 44 - 8 = 36 after the first and D is readable at 54 - 8 = 46; the next
     * wmma's first HMMA follows the last one's 32/4 steps/4 FEDPs = 2 beats: interval 38.
     * FP16 mode: last dispatch 51 - 8 = 43, readable 64 - 8 = 56, 16/4 = 4 beats: 47. */
    {
        tc_gpu_timing v;
        CHECK_COND(tc_gpu_timing_find("v100", &v) == TC_OK && v.measure_offset == 8);
        op = (tc_mma_op){16, 16, 16, TC_FMT_FP16, TC_FMT_FP32, 0};
        CHECK_COND(tc_op_timing_of(&v, &op, &t) == TC_OK && t.steps == 16 && t.beats == 2 &&
                   t.issue_interval == 38 && t.latency == 46 && t.fmas == 4096);
        op.acc = TC_FMT_FP16;
        CHECK_COND(tc_op_timing_of(&v, &op, &t) == TC_OK && t.steps == 8 && t.beats == 4 &&
                   t.issue_interval == 47 && t.latency == 56);
    }

    /* A Volta with fewer FEDPs per threadgroup: a step's outputs of a half (32 / 4 = 8
     * mixed, 32 / 2 = 16 FP16) take ceil(outputs / FEDPs) beats - 1: 8, 16; 2: 4, 8;
     * 3: 3, 6 - and the next wmma's first HMMA follows the last one's beats, so the
     * issue interval is the pipeline's first-to-last dispatch span plus those beats
     * (it used to take the V100's 2 and 4 whatever the GPU said). */
    {
        static const unsigned fedps[3] = {1, 2, 3}, mixed[3] = {8, 4, 3}, half[3] = {16, 8, 6};
        for (unsigned i = 0; i < 3; i++)
            for (int f16 = 0; f16 < 2; f16++) {
                tc_gpu_timing v;
                CHECK_COND(tc_gpu_timing_find("v100", &v) == TC_OK);
                v.volta.fedps_per_tg = fedps[i];
                op = (tc_mma_op){16, 16, 16, TC_FMT_FP16, f16 ? TC_FMT_FP16 : TC_FMT_FP32, 0};
                tc_hmma_cfg cfg = {TC_SHAPE_M16N16K16, TC_LAYOUT_ROW, TC_LAYOUT_COL, op.acc};
                tc_hmma_event ev[16];
                size_t ne = 0;
                uint64_t done = 0;
                unsigned want = f16 ? half[i] : mixed[i];
                CHECK_COND(tc_volta_hmma_timing(&v.volta, &cfg, ev, 16, &ne, &done) == TC_OK &&
                           ne > 0);
                CHECK(tc_op_timing_of(&v, &op, &t) == TC_OK && t.beats == want &&
                      t.issue_interval == ev[ne - 1].dispatch - ev[0].dispatch + want,
                      "volta %u FEDPs per threadgroup, %s: beats %u interval %u, expected "
                      "%u and %llu", fedps[i], f16 ? "fp16" : "mixed", t.beats,
                      t.issue_interval, want,
                      (unsigned long long)(ev[ne - 1].dispatch - ev[0].dispatch + want));
            }
    }

    /* The seed-001 host issues one HMMA a cycle when the tensor core takes that many. A
     * Turing with 64 FEDPs per tensor core and ii_min 1: int8 rate 2*64*4*16/8 = 1024,
     * k_step 16, so m8n8k16 is 8*8*16/1024 = 1 beat, interval 1, latency depth 7 +
     * ceil(8/2) = 11. An 8-bit wmma 16x16x16 is four independent m8n8k16 (docs/timing.md):
     * issued at 0, 1, 2, 3, the last readable at 3 + 11 = 14; cumulative =
     * measure_offset 36 + (the next issue, after the last: 14) = 37, 38, 39, 50. */
    {
        tc_gpu_timing b;
        CHECK_COND(tc_gpu_timing_find("rtx2080ti", &b) == TC_OK && b.measure_offset == 36);
        b.fedps_per_tc = 64;
        b.ii_min = 1;
        op = (tc_mma_op){16, 16, 16, TC_FMT_INT8, TC_FMT_S32, 0};
        uint64_t cum[8];
        size_t cnt = 0;
        const uint64_t want[4] = {37, 38, 39, 50};
        CHECK_COND(tc_wmma_cumulative(&b, &op, cum, 8, &cnt) == TC_OK && cnt == 4);
        for (size_t i = 0; i < 4 && i < cnt; i++)
            CHECK(cum[i] == want[i], "one HMMA a cycle: HMMA %zu cumulative %llu, expected %llu",
                  i, (unsigned long long)cum[i], (unsigned long long)want[i]);
    }
    /* tc_wmma_cumulative's shapes and capacity. */
    {
        uint64_t cum[80];
        size_t cnt = 0;
        tc_gpu_timing v;
        /* Volta's mixed-precision wmma is 16 HMMAs (Figure 9's 4 sets x 4 steps): a
         * cap of 15 is TC_ESHAPE with cum untouched past it; a wmma 8x8x4 is not a
         * Volta wmma shape (its one is 16x16x16). */
        CHECK_COND(tc_gpu_timing_find("v100", &v) == TC_OK);
        op = (tc_mma_op){16, 16, 16, TC_FMT_FP16, TC_FMT_FP32, 0};
        CHECK_COND(tc_wmma_cumulative(&v, &op, cum, 16, &cnt) == TC_OK && cnt == 16);
        cum[15] = 12345;
        CHECK_COND(tc_wmma_cumulative(&v, &op, cum, 15, &cnt) == TC_ESHAPE && cum[15] == 12345);
        op = (tc_mma_op){8, 8, 4, TC_FMT_FP16, TC_FMT_FP32, 0};
        CHECK_COND(tc_wmma_cumulative(&v, &op, cum, 80, &cnt) == TC_ESHAPE);
        /* Turing: uint8 is 8-bit like int8, docs/timing.md's 16x16x16 8-bit row: 40 44 48 59 */
        CHECK_COND(tc_gpu_timing_find("rtx2080ti", &v) == TC_OK);
        const uint64_t want8[4] = {40, 44, 48, 59};
        op = (tc_mma_op){16, 16, 16, TC_FMT_UINT8, TC_FMT_S32, 0};
        CHECK_COND(tc_wmma_cumulative(&v, &op, cum, 80, &cnt) == TC_OK && cnt == 4 &&
                   !memcmp(cum, want8, sizeof want8));
        /* k 12 is not a whole number of m16n8k8 HMMAs */
        op = (tc_mma_op){16, 16, 12, TC_FMT_FP16, TC_FMT_FP16, 0};
        CHECK_COND(tc_wmma_cumulative(&v, &op, cum, 80, &cnt) == TC_ESHAPE);
        /* 64 HMMAs at most: 64x64x16 fp16 is 32 accumulators x 2 k halves = 64, taken;
         * 64x64x24 (x 3 = 96) refused */
        op = (tc_mma_op){64, 64, 16, TC_FMT_FP16, TC_FMT_FP16, 0};
        CHECK_COND(tc_wmma_cumulative(&v, &op, cum, 80, &cnt) == TC_OK && cnt == 64);
        op.k = 24;
        CHECK_COND(tc_wmma_cumulative(&v, &op, cum, 80, &cnt) == TC_ESHAPE);
        /* A 16-bit wmma's second k half waits for the first in its accumulator
         * (docs/timing.md). Turing with depth 30: m16n8k8 fp16 -> fp16 is 16*8*8/128 = 8
         * cycles, latency 30 + 16/2 = 38. HMMAs 0 and 1 (the two accumulators) issue at 0
         * and 8, HMMA 2 when HMMA 0's result is readable (38), HMMA 3 at HMMA 1's (46);
         * D at 46 + 38 = 84. Cumulative 36 + 8, 38, 46, 84. */
        CHECK_COND(tc_gpu_timing_find("rtx2080ti", &v) == TC_OK);
        v.depth = 30;
        const uint64_t wantdep[4] = {44, 74, 82, 120};
        op = (tc_mma_op){16, 16, 16, TC_FMT_FP16, TC_FMT_FP16, 0};
        CHECK_COND(tc_wmma_cumulative(&v, &op, cum, 80, &cnt) == TC_OK && cnt == 4);
        for (size_t i = 0; i < 4 && i < cnt; i++)
            CHECK(cum[i] == wantdep[i], "depth 30: HMMA %zu cumulative %llu, expected %llu", i,
                  (unsigned long long)cum[i], (unsigned long long)wantdep[i]);
    }

    unsigned m, n, k;
    CHECK_COND(tc_mma_shape_parse("m16n8k16", &m, &n, &k) == TC_OK && m == 16 && n == 8 && k == 16);
    CHECK_COND(tc_mma_shape_parse("m16n8", &m, &n, &k) == TC_EINVAL);
    CHECK_COND(tc_mma_shape_parse("m16n8k16x", &m, &n, &k) == TC_EINVAL);
    CHECK_COND(tc_mma_shape_parse("m0n8k16", &m, &n, &k) == TC_EINVAL);
    /* dimensions up to 4096, as tc_op_timing_of takes them */
    CHECK_COND(tc_mma_shape_parse("m4096n4096k4096", &m, &n, &k) == TC_OK && m == 4096 &&
               n == 4096 && k == 4096);
    CHECK_COND(tc_mma_shape_parse("m4097n8k16", &m, &n, &k) == TC_EINVAL);
    CHECK_COND(tc_mma_shape_parse("m16n4097k16", &m, &n, &k) == TC_EINVAL);
    CHECK_COND(tc_mma_shape_parse("m16n8k4097", &m, &n, &k) == TC_EINVAL);

    /* The benchmark's arguments. */
    tc_bench_result r;
    CHECK_COND(tc_gpu_timing_find("a100", &g) == TC_OK);
    op = (tc_mma_op){16, 8, 16, TC_FMT_FP16, TC_FMT_FP32, 0};
    CHECK_COND(tc_bench_mma(&g, &op, 0, 1, 10, &r) == TC_EINVAL);
    CHECK_COND(tc_bench_mma(&g, &op, 1, 0, 10, &r) == TC_EINVAL);
    CHECK_COND(tc_bench_mma(&g, &op, 1, 1, 0, &r) == TC_EINVAL);
    CHECK_COND(tc_bench_mma(&g, &op, 1, 1, 10, &r) == TC_OK && r.cycles > 0);
    /* The run's limits (tcsim_timing.h): 64 warps, ILP 16, 10^6 iterations; a run past
     * one is refused before it starts, so it reports no progress. */
    op = (tc_mma_op){16, 8, 16, TC_FMT_FP16, TC_FMT_FP32, 0};
    {
        static const unsigned past[3][3] = {{65, 1, 1}, {1, 17, 1}, {1, 1, 1000001}};
        for (int i = 0; i < 3; i++) {
            bench_calls c = {0, 0, 0, 0};
            CHECK(tc_bench_mma_progress(&g, &op, past[i][0], past[i][1], past[i][2],
                                        count_progress, &c, &r) == TC_EINVAL && c.calls == 0,
                  "%u warps x ILP %u x %u iterations taken", past[i][0], past[i][1],
                  past[i][2]);
        }
        CHECK_COND(tc_bench_mma(&g, &op, 64, 16, 1, &r) == TC_OK);
    }
    /* The warp's loop overhead and the result's rounding, by hand. A100 int8 m8n8k16 ->
     * s32: rate 256 x 2 = 512, k_step 16, one step of 8*8*16/512 = 2 beats, raised to
     * ii_min 4; latency 14 + 8/4 = 16 (docs/timing.md: 15.9 measured). One warp, ILP 4:
     * the iteration's mma issue at 0, 4, 8, 12, the loop's own 7 cycles follow the last
     * (hold 12 + 1 + 7 = 20) and the first slot's result is readable at 16: an iteration
     * every 20 cycles. 9 iterations end with the mma issued at 8 x 20 + 12 = 172,
     * readable at 188: latency 188 / 9 = 20.89 -> 20.9, throughput 9 x 4 x 1024 FMA /
     * 188 = 196.09 -> 196.1 (both rounded to the nearest tenth). */
    {
        CHECK_COND(tc_gpu_timing_find("a100", &g) == TC_OK && g.warp_overhead == 7);
        op = (tc_mma_op){8, 8, 16, TC_FMT_INT8, TC_FMT_S32, 0};
        CHECK_COND(tc_op_timing_of(&g, &op, &t) == TC_OK && t.issue_interval == 4 &&
                   t.latency == 16);
        CHECK(tc_bench_mma(&g, &op, 1, 4, 9, &r) == TC_OK && r.cycles == 188 &&
                  r.latency_x10 == 209 && r.fma_per_clk_x10 == 1961,
              "a100 int8 m8n8k16, 1 warp x ILP 4 x 9: %llu cycles, latency %llu/10, "
              "%llu/10 FMA/clk; expected 188, 209, 1961", (unsigned long long)r.cycles,
              (unsigned long long)r.latency_x10, (unsigned long long)r.fma_per_clk_x10);
    }
    /* A wake that only the warp's loop gives: A100 int8 m8n8k16 (interval 4, latency 16
     * as above) with a 16-cycle loop, one warp, ILP 1. Each mma's result is readable 16
     * cycles after it issues, one cycle before the loop lets the warp go again (issue + 1
     * + 16): nothing else happens at that cycle, yet the warp issues then. Issues at 0,
     * 17, 34; the last readable at 50: 50 cycles, 50 / 3 = 16.67 -> 16.7 an iteration,
     * 3 x 1024 FMA / 50 = 61.44 -> 61.4 FMA/clk. */
    {
        tc_gpu_timing w;
        CHECK_COND(tc_gpu_timing_find("a100", &w) == TC_OK);
        w.warp_overhead = 16;
        op = (tc_mma_op){8, 8, 16, TC_FMT_INT8, TC_FMT_S32, 0};
        tc_status bst = tc_bench_mma(&w, &op, 1, 1, 3, &r);
        CHECK(bst == TC_OK && r.cycles == 50 && r.latency_x10 == 167 &&
                  r.fma_per_clk_x10 == 614,
              "loop of 16 after a 16-cycle latency: %s, %llu cycles, %llu/10, %llu/10 FMA/clk;"
              " expected 50, 167, 614", tc_strerror(bst), (unsigned long long)r.cycles,
              (unsigned long long)r.latency_x10, (unsigned long long)r.fma_per_clk_x10);
    }
    /* Warp w runs on sub-core w mod subcores (docs/timing.md). A100 as 2 sub-cores with
     * a 30-cycle loop, 4 warps x ILP 1 x 10 iterations of m16n8k16 fp16 -> fp32 (8
     * cycles a take, latency 14 + 16/4 + 1*max(8, 4) = 26): warps 0 and 2 share sub-core
     * 0, warp 0 taken at 0, 31, 62, ... (the loop's 1 + 30 cycles after each mma, not
     * its result at +26, is the bound) and warp 2 at 8, 39, ...; warp 2's 10th at 8 +
     * 9 x 31 = 287 is readable at 313, 31.3 cycles an iteration. */
    {
        tc_gpu_timing two;
        CHECK_COND(tc_gpu_timing_find("a100", &two) == TC_OK);
        two.subcores = 2;
        two.warp_overhead = 30;
        op = (tc_mma_op){16, 8, 16, TC_FMT_FP16, TC_FMT_FP32, 0};
        CHECK(tc_bench_mma(&two, &op, 4, 1, 10, &r) == TC_OK && r.cycles == 313 &&
                  r.latency_x10 == 313,
              "2 sub-cores, 4 warps: %llu cycles, expected 313", (unsigned long long)r.cycles);
    }

    /* The run ends with the slowest warp (docs/timing.md: "cycles per iteration of the
     * slowest warp"). 5 warps on A100's 4 sub-cores put warps 0 and 4 on sub-core 0,
     * which takes their 2 x ILP 4 x 10 iterations = 80 mma one per issue interval:
     * m16n8k16 fp16 -> fp32 is 2 steps of 16*8*8/256 = 4 beats, 8 cycles, and latency
     * 14 + 16/4 + 1*max(8, 4) = 26. So the 80th is taken at 79*8 = 632 or later and is
     * readable at 632 + 26 = 658 or later, while a warp alone on a sub-core needs only
     * half of that. */
    op = (tc_mma_op){16, 8, 16, TC_FMT_FP16, TC_FMT_FP32, 0};
    CHECK_COND(tc_bench_mma(&g, &op, 5, 4, 10, &r) == TC_OK);
    CHECK(r.cycles >= 658 && r.latency_x10 >= 658, "5 warps x ILP 4: %llu cycles, %llu/10 per "
          "iteration; sub-core 0 alone needs 658", (unsigned long long)r.cycles,
          (unsigned long long)r.latency_x10);

    /* Progress: each further hundredth of the mma completed, increasing, ending at the
     * total; the same result as without a report; an invalid run reports nothing. */
    const unsigned shapes[][3] = {{1, 1, 7}, {3, 2, 50}, {64, 16, 20}, {5, 3, 1000}};
    for (size_t i = 0; i < sizeof shapes / sizeof shapes[0]; i++) {
        bench_calls c = {0, 0, 0, 0};
        tc_bench_result plain, with;
        unsigned w = shapes[i][0], ilp = shapes[i][1], it = shapes[i][2];
        CHECK_COND(tc_bench_mma(&g, &op, w, ilp, it, &plain) == TC_OK);
        CHECK_COND(tc_bench_mma_progress(&g, &op, w, ilp, it, count_progress, &c, &with) == TC_OK);
        uint64_t total = (uint64_t)w * ilp * it;
        CHECK_COND(!memcmp(&plain, &with, sizeof plain));
        CHECK_COND(c.calls >= 1 && c.calls <= 100 && !c.bad && c.last == total && c.total == total);
        if (total >= 6400) /* a poll's at most 64 completions are under a hundredth */
            CHECK_COND(c.calls == 100);
        CHECK_COND(tc_bench_mma_progress(&g, &op, w, ilp, it, NULL, NULL, &with) == TC_OK &&
                   !memcmp(&plain, &with, sizeof plain));
    }
    bench_calls none = {0, 0, 0, 0};
    CHECK_COND(tc_bench_mma_progress(&g, &op, 0, 1, 10, count_progress, &none, &r) == TC_EINVAL &&
               none.calls == 0);

    printf("%s\n", failures ? "FAILED" : "PASSED");
    return failures ? 1 : 0;
}
