/* test_timing_fuzz TIMING_TXT [seed [cases]] - the timing parameters a simulator brings
 * (tc_gpu_timing_parse) are untrusted text: damaged copies of model/data/timing.txt and
 * made-up records with values at and past every limit go through the parser and, when
 * it accepts them, through everything that computes with them. Run under ASan+UBSan by
 * the sanitizer build, so an overflow or a read past the text is a failure too.
 *
 * What must hold:
 *  - the parser answers TC_OK, TC_EINVAL or TC_EUNSUPPORTED, and what it accepts carries
 *    the name asked for and makes a handle (tc_sim_create holds explicit parameters to
 *    what the parser accepts);
 *  - tc_op_timing_of answers a documented status; when it succeeds, fmas = m*n*k (four
 *    times that for mma.m8n8k4), the front end is no slower than the accumulator, and
 *    the backlog it may run ahead is acc32_buffer fronts when it is faster, else none
 *    (tcsim_timing.h);
 *  - an instruction a handle of these parameters takes on an idle sub-core at cycle 0
 *    completes exactly `latency` cycles later, found by following tc_sim_next_event;
 *  - tc_bench_mma and tc_wmma_cumulative answer a documented status. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "tcsim.h"

#include "check.h"
#include "test_args.h"

static uint64_t rng;
static unsigned rnd(unsigned n)
{
    rng ^= rng << 13;
    rng ^= rng >> 7;
    rng ^= rng << 17;
    return (unsigned)((rng * 0x2545f4914f6cdd1dull) >> 33) % n;
}

static const char *const names[] = {"v100", "a100", "rtx3070ti", "rtx2080ti", "fz"};
#define N_NAMES (sizeof names / sizeof names[0])

static const tc_mma_op ops[] = {
    {16, 8, 16, TC_FMT_FP16, TC_FMT_FP32, 0},
    {16, 8, 16, TC_FMT_FP16, TC_FMT_FP16, 0},
    {16, 8, 8, TC_FMT_TF32, TC_FMT_FP32, 0},
    {16, 8, 32, TC_FMT_INT8, TC_FMT_S32, 0},
    {16, 8, 32, TC_FMT_FP16, TC_FMT_FP32, 1},
    {16, 16, 16, TC_FMT_FP16, TC_FMT_FP32, 0},
    {8, 8, 4, TC_FMT_FP16, TC_FMT_FP16, 0},
};
#define N_OPS (sizeof ops / sizeof ops[0])

static int documented(tc_status s)
{
    return s == TC_OK || s == TC_EINVAL || s == TC_ESHAPE || s == TC_EUNSUPPORTED;
}

/* Everything that computes with accepted parameters g. */
static void exercise(const tc_gpu_timing *g, const char *what)
{
    tc_sim_config cfg;
    tc_sim_config_init(&cfg);
    cfg.timing = g;
    tc_sim *sim = NULL;
    tc_status s = tc_sim_create(&cfg, &sim);
    CHECK(s == TC_OK, "%s: no handle from accepted parameters: %s", what, tc_strerror(s));
    unsigned latency[N_OPS]; /* of the instruction issued on unit i at cycle 0 */
    for (size_t i = 0; i < N_OPS; i++) {
        const tc_mma_op *op = &ops[i];
        tc_op_timing t;
        s = tc_op_timing_of(g, op, &t);
        CHECK(documented(s), "%s op %zu: status %d", what, i, (int)s);
        if (s != TC_OK)
            continue;
        /* mma.m8n8k4 is four 8x8x4 products, one per quad pair (seed 002) */
        uint64_t fmas = (uint64_t)op->m * op->n * op->k * (op->m == 8 && op->k == 4 ? 4 : 1);
        unsigned slack = t.front_interval < t.issue_interval
                             ? g->acc32_buffer * t.front_interval : 0;
        CHECK(t.fmas == fmas && t.front_interval <= t.issue_interval && t.acc_slack == slack,
              "%s op %zu: fmas %llu, front %u, interval %u, slack %u", what, i,
              (unsigned long long)t.fmas, t.front_interval, t.issue_interval, t.acc_slack);
        tc_bench_result r;
        s = tc_bench_mma(g, op, 1 + rnd(8), 1 + rnd(4), 1 + rnd(8), &r);
        CHECK(documented(s), "%s op %zu: bench status %d", what, i, (int)s);
        if (!sim || i >= g->subcores)
            continue;
        /* op i on sub-core i, idle since cycle 0 (nothing has ticked yet) */
        tc_sim_op so;
        tc_sim_op_init(&so);
        so.unit = (unsigned)i;
        so.mma = *op;
        uint64_t ticket = 0;
        latency[i] = t.latency;
        s = tc_sim_issue(sim, &so, &ticket);
        CHECK(s == TC_OK, "%s op %zu: an idle sub-core refused what tc_op_timing_of takes: %s",
              what, i, tc_strerror(s));
    }
    /* follow the events to every completion; the first instruction of each sub-core
     * started at 0, so it is ready at its latency */
    for (unsigned guard = 0; sim && guard < 64; guard++) {
        uint64_t now = 0, ev = 0;
        tc_sim_now(sim, &now);
        if (tc_sim_next_event(sim, &ev) != TC_OK || ev == UINT64_MAX)
            break;
        if (ev > now && tc_sim_tick(sim, ev - now) != TC_OK)
            break;
        tc_sim_completion c[8];
        size_t n = 0;
        tc_sim_poll(sim, c, 8, &n);
        for (size_t j = 0; j < n; j++)
            CHECK(c[j].unit < N_OPS && c[j].issued == 0 && c[j].ready == latency[c[j].unit],
                  "%s: unit %u issued at %llu, ready at %llu", what, c[j].unit,
                  (unsigned long long)c[j].issued, (unsigned long long)c[j].ready);
    }
    tc_sim_destroy(sim);
    tc_mma_op w = {16, 16, 16, rnd(2) ? TC_FMT_FP16 : TC_FMT_INT8, TC_FMT_FP32, 0};
    if (w.in == TC_FMT_INT8)
        w.acc = TC_FMT_S32;
    uint64_t cum[64];
    size_t n = 0;
    s = tc_wmma_cumulative(g, &w, cum, 64, &n);
    CHECK(documented(s) && n <= 64, "%s: wmma status %d, %zu HMMAs", what, (int)s, n);
}

/* Parse every name from text; exercise what is accepted. Returns how many were. */
static unsigned parse_all(const char *text, const char *what)
{
    unsigned accepted = 0;
    for (size_t i = 0; i < N_NAMES; i++) {
        tc_gpu_timing g;
        memset(&g, 0xa5, sizeof g);
        tc_status s = tc_gpu_timing_parse(text, names[i], &g);
        CHECK(s == TC_OK || s == TC_EINVAL || s == TC_EUNSUPPORTED, "%s, %s: status %d", what,
              names[i], (int)s);
        if (s != TC_OK)
            continue;
        accepted++;
        CHECK(!strcmp(g.name, names[i]), "%s: asked %s, got '%.*s'", what, names[i],
              (int)sizeof g.name, g.name);
        exercise(&g, what);
    }
    return accepted;
}

/* One damage to buf (length *len, capacity cap, NUL-terminated). */
static void damage(char *buf, size_t *len, size_t cap)
{
    static const char bytes[] = " \t\r\n#\\0123456789gpuarchvoltz_-.\x01\xff";
    static const char *const numbers[] = {"0", "1", "2", "16", "17", "64", "65", "256", "4096",
                                          "100000", "100001", "4294967295", "4294967296",
                                          "99999999999", "-1", "0x10", "007"};
    size_t at = *len ? rnd((unsigned)*len) : 0;
    switch (rnd(5)) {
    case 0: /* one byte */
        if (*len)
            buf[at] = bytes[rnd(sizeof bytes - 1)];
        break;
    case 1: { /* a span cut out */
        size_t k = 1 + rnd(24);
        if (at + k > *len)
            k = *len - at;
        memmove(buf + at, buf + at + k, *len - at - k + 1);
        *len -= k;
        break;
    }
    case 2: { /* a span repeated */
        size_t k = 1 + rnd(40);
        if (at + k > *len)
            k = *len - at;
        if (*len + k < cap) {
            memmove(buf + at + k, buf + at, *len - at + 1);
            *len += k;
        }
        break;
    }
    case 3: { /* a number where a number was */
        while (at < *len && (buf[at] < '0' || buf[at] > '9'))
            at++;
        size_t e = at;
        while (e < *len && buf[e] >= '0' && buf[e] <= '9')
            e++;
        const char *num = numbers[rnd(sizeof numbers / sizeof numbers[0])];
        size_t nl = strlen(num);
        if (*len - (e - at) + nl < cap) {
            memmove(buf + at + nl, buf + e, *len - e + 1);
            memcpy(buf + at, num, nl);
            *len = *len - (e - at) + nl;
        }
        break;
    }
    default: /* the text cut short */
        buf[at] = 0;
        *len = at;
    }
}

/* A made-up record "gpu fz ..." with every key, values drawn at and around the limits. */
static void made_up(char *buf, size_t cap)
{
    static const char *const keys[] = {
        "subcores", "tc_per_subcore", "fedps_per_tc", "fedp_len16", "acc32_rate_div",
        "step_k16", "depth", "drain_rows", "step_fwd", "acc32_extra", "ii_min",
        "sparse_ii_min", "warp_overhead", "measure_offset", "acc32_buffer",
        "volta_operand_fetch", "volta_fedp_latency", "volta_f16_pack", "volta_writeback",
        "volta_fedps_per_tg"};
    static const unsigned values[] = {0, 1, 2, 3, 4, 7, 8, 16, 17, 32, 33, 64, 65, 255, 256,
                                      4096, 4097, 65535, 100000, 100001};
    static const char *const archs[] = {"volta", "turing", "ampere", "ada", "hopper",
                                        "blackwell"};
    size_t n = (size_t)snprintf(buf, cap, "gpu fz arch %s", archs[rnd(6)]);
    for (size_t i = 0; i < sizeof keys / sizeof keys[0] && n < cap; i++) {
        /* mostly small, working values, so that much is accepted and computed with */
        unsigned v = rnd(3) ? 1 + rnd(8) : values[rnd(sizeof values / sizeof values[0])];
        n += (size_t)snprintf(buf + n, cap - n, " %s %u", keys[i], v);
    }
}

static char *read_all(const char *path, size_t *len)
{
    FILE *f = fopen(path, "rb");
    if (!f)
        return NULL;
    size_t cap = 1 << 16;
    char *b = malloc(cap);
    *len = b ? fread(b, 1, cap - 1, f) : 0;
    fclose(f);
    if (b)
        b[*len] = 0;
    return b;
}

int main(int argc, char **argv)
{
    if (argc < 2) {
        fprintf(stderr, "usage: test_timing_fuzz TIMING_TXT [seed [cases]]\n");
        return 2;
    }
    uint64_t seed = 1, cases = 3000;
    if (argc > 4 ||
        (argc > 2 && test_parse_u64("test_timing_fuzz", "SEED", argv[2], UINT64_MAX, &seed)) ||
        (argc > 3 && test_parse_u64("test_timing_fuzz", "CASES", argv[3], UINT64_MAX, &cases)))
        return 2;
    rng = 0x9e3779b97f4a7c15ull ^ (seed * 0xd1b54a32d192ed69ull);
    size_t len0;
    char *orig = read_all(argv[1], &len0);
    if (!orig) {
        fprintf(stderr, "test_timing_fuzz: cannot read '%s'\n", argv[1]);
        return 2;
    }
    /* the table as shipped: every GPU accepted */
    for (size_t i = 0; i + 1 < N_NAMES; i++) {
        tc_gpu_timing g;
        CHECK(tc_gpu_timing_parse(orig, names[i], &g) == TC_OK, "timing.txt: %s", names[i]);
    }
    const size_t cap = len0 * 2 + 1024;
    char *buf = malloc(cap), what[64];
    unsigned long accepted = 0;
    for (unsigned long c = 0; c < cases && buf; c++) {
        size_t len;
        if (c % 2) {
            memcpy(buf, orig, len0 + 1);
            len = len0;
            for (unsigned d = 1 + rnd(4); d; d--)
                damage(buf, &len, cap);
        } else {
            made_up(buf, cap);
        }
        snprintf(what, sizeof what, "seed %llu case %lu", (unsigned long long)seed, c);
        int before = failures;
        accepted += parse_all(buf, what);
        if (failures != before)
            printf("  the text of %s:\n%s\n", what, buf);
        if (failures > 20)
            break;
    }
    /* a fuzz that only ever hits the parser's refusals would test nothing after it */
    CHECK(accepted > cases / 4, "only %lu of %llu texts x %zu names accepted", accepted,
          (unsigned long long)cases, N_NAMES);
    printf("%llu texts, %lu (text, name) pairs accepted\n", (unsigned long long)cases,
           accepted);
    free(buf);
    free(orig);
    printf("%s: %d failure(s)\n", failures ? "FAILED" : "PASSED", failures);
    return failures ? 1 : 0;
}
