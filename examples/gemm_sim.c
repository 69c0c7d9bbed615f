/* gemm_sim - a small host simulator around the tcsim handle API (tcsim_sim.h).
 *
 * It plays the part a GPU simulator's SM model plays: warps, each owning a warp tile of
 * an M x N x K GEMM, issue one mma.m16n8k16 per accumulator and k-step, in order; each
 * sub-core's warp scheduler picks one ready warp per cycle (loose round-robin or
 * greedy-then-oldest); the handle decides when a sub-core's tensor cores take an mma and
 * when its result is readable. The example prints cycles, IPC and the simulator's own
 * speed (mma instructions simulated per second of host CPU time).
 *
 * Not modelled (a real SM model would add them): operand loads from shared memory, the
 * register file, the other instructions of the loop. With --check the mma also carry
 * data: A and B hold small integers in fp16, so every product and sum is exact in fp32,
 * and D is compared with an integer GEMM on the host.
 *
 * usage: gemm_sim [--gpu a100] [--m 256] [--n 256] [--k 256] [--sms 1] [--warps 8]
 *                 [--wm 32] [--wn 32] [--policy lrr|gto] [--check] [--quiet]
 *                 [--json FILE]   (the figures above as JSON, for the benchmark report)
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include "tcsim.h"

enum { MMA_M = 16, MMA_N = 8, MMA_K = 16, MAX_ACC = 64 };

typedef struct warp {
    unsigned sm, unit;            /* SM, and the handle's unit (sub-core) */
    unsigned *tiles;              /* warp tiles it owns (index into the tile grid) */
    unsigned ntiles, tile_i;      /* owned, current */
    unsigned kk, acc;             /* next mma: k-step kk, accumulator acc of the tile */
    unsigned char pending[MAX_ACC];
    uint64_t done;                /* mma completed */
} warp;

typedef struct args {
    const char *gpu, *policy, *json;
    unsigned m, n, k, sms, warps, wm, wn;
    int check, quiet;
} args;

/* An argument as a message quotes it: at most 40 characters (then "..."), control
 * characters as \xNN, so that a long or binary word cannot flood the terminal. */
typedef struct shown {
    char s[4 * 40 + 4];
} shown;

static shown show(const char *w)
{
    shown out;
    size_t n = 0, i = 0;
    for (; w[i] && i < 40; i++) {
        unsigned char ch = (unsigned char)w[i];
        if (ch < 0x20 || ch == 0x7f)
            n += (size_t)snprintf(out.s + n, sizeof out.s - n, "\\x%02x", ch);
        else
            out.s[n++] = (char)ch;
    }
    if (w[i])
        n += (size_t)snprintf(out.s + n, sizeof out.s - n, "...");
    out.s[n] = '\0';
    return out;
}

static void usage(FILE *f)
{
    fprintf(f,
        "usage: gemm_sim [--gpu a100] [--m 256] [--n 256] [--k 256] [--sms 1] [--warps 8]\n"
        "                [--wm 32] [--wn 32] [--policy lrr|gto] [--check] [--quiet]\n"
        "                [--json FILE]\n\n"
        "A host simulator over the tcsim handle: warps of --sms SMs, each owning wm x wn\n"
        "warp tiles of an M x N x K GEMM, issue mma.m16n8k16 (fp16 -> fp32) to the\n"
        "handle of --gpu (`tcsim timing --list`); prints cycles, IPC, FMA/clk/SM and mma\n"
        "simulated per second. --check sends data too and compares D with the host's\n"
        "integer GEMM; --json writes the figures. Sizes and counts are whole numbers\n"
        "1..65536 (--sms at most 4096). On a GPU whose PTX target has no mma.m16n8k16\n"
        "(rtx2080ti, v100) the run is the timing structure's what-if, and a 'what-if:'\n"
        "line says so.\n");
}

/* Returns 0 to run, 1 after --help, -1 on a bad option. */
static int parse(int argc, char **argv, args *a)
{
    *a = (args){"a100", "gto", NULL, 256, 256, 256, 1, 8, 32, 32, 0, 0};
    for (int i = 1; i < argc; i++) {
        const char *o = argv[i];
        if (!strcmp(o, "-h") || !strcmp(o, "--help")) {
            usage(stdout);
            return 1;
        }
        unsigned *u = !strcmp(o, "--m") ? &a->m : !strcmp(o, "--n") ? &a->n
                    : !strcmp(o, "--k") ? &a->k : !strcmp(o, "--sms") ? &a->sms
                    : !strcmp(o, "--warps") ? &a->warps : !strcmp(o, "--wm") ? &a->wm
                    : !strcmp(o, "--wn") ? &a->wn : NULL;
        if (!strcmp(o, "--check")) {
            a->check = 1;
        } else if (!strcmp(o, "--quiet")) {
            a->quiet = 1;
        } else if (i + 1 < argc && !strcmp(o, "--gpu")) {
            a->gpu = argv[++i];
        } else if (i + 1 < argc && !strcmp(o, "--policy")) {
            a->policy = argv[++i];
        } else if (i + 1 < argc && !strcmp(o, "--json")) {
            a->json = argv[++i];
        } else if (u && i + 1 < argc) {
            char *end;
            unsigned long v = strtoul(argv[++i], &end, 10);
            if (*end || v == 0 || v > 65536) {
                fprintf(stderr, "gemm_sim: bad value '%s' for %s (a whole number 1..65536)\n",
                        show(argv[i]).s, o);
                return -1;
            }
            *u = (unsigned)v;
        } else {
            fprintf(stderr, "gemm_sim: unknown or incomplete option '%s' (gemm_sim --help)\n",
                    show(o).s);
            return -1;
        }
    }
    if (strcmp(a->policy, "lrr") && strcmp(a->policy, "gto")) {
        fprintf(stderr, "gemm_sim: --policy is lrr or gto\n");
        return -1;
    }
    if (a->wm % MMA_M || a->wn % MMA_N || a->m % a->wm || a->n % a->wn || a->k % MMA_K ||
        (a->wm / MMA_M) * (a->wn / MMA_N) > MAX_ACC) {
        fprintf(stderr, "gemm_sim: need wm %% 16 == 0, wn %% 8 == 0, m %% wm == 0, "
                        "n %% wn == 0, k %% 16 == 0, (wm/16)*(wn/8) <= %d\n", MAX_ACC);
        return -1;
    }
    return 0;
}

/* The process's CPU time: the simulator's speed on one core, whatever else the machine
 * runs (wall time on a shared machine measures the neighbours). */
static double now_seconds(void)
{
    return (double)clock() / CLOCKS_PER_SEC;
}

/* --check: A (M x K), B (K x N) small integers as fp16, C = 0, D fp32. */
typedef struct data {
    uint32_t *A, *B, *D;          /* row-major, whole matrices */
    uint32_t a[MMA_M * MMA_K], b[MMA_K * MMA_N], c[MMA_M * MMA_N];
} data;

static uint32_t fp16_of_small(int v) /* |v| <= 4: exact fp16 patterns */
{
    static const uint32_t pos[5] = {0x0000, 0x3c00, 0x4000, 0x4200, 0x4400};
    return v < 0 ? pos[-v] | 0x8000 : pos[v];
}

static int small_of(unsigned i, unsigned j, unsigned salt)
{
    return (int)((i * 7 + j * 13 + salt) % 9) - 4;
}

int main(int argc, char **argv)
{
    args a;
    int pr = parse(argc, argv, &a);
    if (pr)
        return pr > 0 ? 0 : 2;
    /* The GPU is looked up first, so that each error of tc_sim_create below can name the
     * one option it comes from. */
    tc_gpu_timing known;
    if (tc_gpu_timing_find(a.gpu, &known) != TC_OK) {
        fprintf(stderr, "gemm_sim: no timing for --gpu '%s'; the GPUs:", show(a.gpu).s);
        for (size_t i = 0; tc_gpu_timing_get(i, &known) == TC_OK; i++)
            fprintf(stderr, " %s", known.name);
        fprintf(stderr, " (or their architecture names)\n");
        return 2;
    }
    tc_sim_config cfg;
    tc_sim_config_init(&cfg);
    cfg.gpu = a.gpu;
    cfg.sms = a.sms;
    tc_sim *s;
    tc_status st = tc_sim_create(&cfg, &s);
    if (st != TC_OK) {
        if (st == TC_EINVAL) /* the GPU is known: the SM count is what is out of range */
            fprintf(stderr, "gemm_sim: --sms %u: %s (the handle takes 1 to 4096 SMs)\n",
                    a.sms, tc_strerror(st));
        else
            fprintf(stderr, "gemm_sim: tc_sim_create: %s\n", tc_strerror(st));
        return st == TC_EINVAL ? 2 : 1;
    }
    const tc_gpu_timing *g;
    tc_sim_timing(s, &g);
    /* Opened before the run, so that a bad path is an error now, not after it. */
    FILE *json = a.json ? fopen(a.json, "w") : NULL;
    if (a.json && !json) {
        fprintf(stderr, "gemm_sim: cannot write '%s': %s\n", show(a.json).s, strerror(errno));
        tc_sim_destroy(s);
        return 1;
    }

    /* Warp tiles, dealt round-robin to the warps of every SM. */
    unsigned tm = a.m / a.wm, tn = a.n / a.wn, ntiles = tm * tn;
    unsigned nwarps = a.sms * a.warps, accs = (a.wm / MMA_M) * (a.wn / MMA_N);
    unsigned ksteps = a.k / MMA_K;
    unsigned units = a.sms * g->subcores;
    warp *w = calloc(nwarps, sizeof *w);
    unsigned *owned = calloc(ntiles, sizeof *owned);
    unsigned *last = calloc(units, sizeof *last); /* per unit: last warp issued */
    data dt = {0};
    if (a.check) {
        dt.A = malloc(sizeof *dt.A * a.m * a.k);
        dt.B = malloc(sizeof *dt.B * a.k * a.n);
        dt.D = calloc((size_t)a.m * a.n, sizeof *dt.D); /* +0.0f: C of the first k-step */
    }
    if (!w || !owned || !last || (a.check && (!dt.A || !dt.B || !dt.D))) {
        fprintf(stderr, "gemm_sim: out of memory for the %ux%ux%u GEMM%s\n", a.m, a.n, a.k,
                a.check ? " and its data (--check)" : "");
        free(w); free(owned); free(last); free(dt.A); free(dt.B); free(dt.D);
        if (json)
            fclose(json);
        tc_sim_destroy(s);
        return 1;
    }
    for (unsigned i = 0, t = 0; i < nwarps; i++) {
        w[i].sm = i / a.warps;
        w[i].unit = w[i].sm * g->subcores + (i % a.warps) % g->subcores;
        w[i].tiles = owned + t;
        for (unsigned j = i; j < ntiles; j += nwarps)
            owned[t++] = j, w[i].ntiles++;
    }

    if (a.check) {
        for (unsigned i = 0; i < a.m; i++)
            for (unsigned j = 0; j < a.k; j++)
                dt.A[i * a.k + j] = fp16_of_small(small_of(i, j, 1));
        for (unsigned i = 0; i < a.k; i++)
            for (unsigned j = 0; j < a.n; j++)
                dt.B[i * a.n + j] = fp16_of_small(small_of(i, j, 5));
    }

    tc_sim_op op;
    tc_sim_op_init(&op);
    op.mma = (tc_mma_op){MMA_M, MMA_N, MMA_K, TC_FMT_FP16, TC_FMT_FP32, 0};
    uint64_t total = (uint64_t)ntiles * accs * ksteps, issued = 0, completed = 0;
    uint64_t now = 0;
    double t0 = now_seconds();
    int gto = !strcmp(a.policy, "gto");

    while (completed < total) {
        tc_sim_completion c[64];
        size_t n;
        do {
            tc_sim_poll(s, c, 64, &n);
            for (size_t i = 0; i < n; i++) {
                warp *x = &w[c[i].tag / MAX_ACC];
                x->pending[c[i].tag % MAX_ACC] = 0;
                x->done++;
                completed++;
            }
        } while (n == 64);
        int issued_now = 0;
        for (unsigned u = 0; u < units; u++) {
            /* The sub-core's warps: local warps sub, sub + subcores, ... of its SM
             * (j = 0, 1, ...: the lower j, the older). Candidates in policy order: lrr
             * the warps after the last one issued, in turn; gto the last one issued,
             * then the oldest first. */
            unsigned sm = u / g->subcores, sub = u % g->subcores;
            unsigned mine = (a.warps - sub + g->subcores - 1) / g->subcores; /* its warps */
            if (!mine) /* fewer warps than sub-cores */
                continue;
            warp *pick = NULL;
            for (unsigned step = 0; step < mine + (unsigned)gto && !pick; step++) {
                unsigned j = !gto ? (last[u] + step + 1) % mine : step ? step - 1 : last[u];
                warp *x = &w[sm * a.warps + sub + j * g->subcores];
                if (x->tile_i < x->ntiles && !x->pending[x->acc])
                    pick = x;
            }
            if (!pick)
                continue;
            int ok;
            op.unit = u;
            if (tc_sim_can_issue(s, &op, &ok) != TC_OK || !ok)
                continue;
            op.tag = (uint64_t)(pick - w) * MAX_ACC + pick->acc;
            unsigned tile = pick->tiles[pick->tile_i];
            unsigned r0 = tile / tn * a.wm + pick->acc / (a.wn / MMA_N) * MMA_M;
            unsigned c0 = tile % tn * a.wn + pick->acc % (a.wn / MMA_N) * MMA_N;
            unsigned k0 = pick->kk * MMA_K;
            if (a.check) {
                for (unsigned i = 0; i < MMA_M; i++)
                    for (unsigned j = 0; j < MMA_K; j++)
                        dt.a[i * MMA_K + j] = dt.A[(r0 + i) * a.k + k0 + j];
                for (unsigned i = 0; i < MMA_K; i++)
                    for (unsigned j = 0; j < MMA_N; j++)
                        dt.b[i * MMA_N + j] = dt.B[(k0 + i) * a.n + c0 + j];
                for (unsigned i = 0; i < MMA_M; i++)
                    for (unsigned j = 0; j < MMA_N; j++)
                        dt.c[i * MMA_N + j] = dt.D[(r0 + i) * a.n + c0 + j];
                op.A = dt.a;
                op.B = dt.b;
                op.C = dt.c;
                op.D = dt.c; /* written at issue; the host reads it back below */
            }
            uint64_t ticket;
            st = tc_sim_issue(s, &op, &ticket);
            if (st != TC_OK) {
                fprintf(stderr, "gemm_sim: issue: %s\n", tc_strerror(st));
                return 1;
            }
            if (a.check)
                for (unsigned i = 0; i < MMA_M; i++)
                    for (unsigned j = 0; j < MMA_N; j++)
                        dt.D[(r0 + i) * a.n + c0 + j] = dt.c[i * MMA_N + j];
            issued++;
            issued_now = 1;
            pick->pending[pick->acc] = 1;
            last[u] = (unsigned)(pick - w) % a.warps / g->subcores; /* j of the pick */
            /* Next: the next accumulator of this k-step, then the next k-step, then
             * the next tile. */
            if (++pick->acc == accs) {
                pick->acc = 0;
                if (++pick->kk == ksteps) {
                    pick->kk = 0;
                    pick->tile_i++;
                }
            }
        }
        if (completed == total)
            break;
        /* Nothing issued: jump to the next cycle at which anything changes. */
        uint64_t next = now + 1;
        if (!issued_now) {
            tc_sim_next_event(s, &next);
            if (next == UINT64_MAX || next <= now)
                next = now + 1;
        }
        tc_sim_tick(s, next - now);
        now = next;
    }
    double secs = now_seconds() - t0;

    tc_sim_stats stats;
    tc_sim_stats_init(&stats);
    tc_sim_stats_get(s, &stats);
    int bad = 0;
    if (a.check) {
        for (unsigned i = 0; i < a.m && bad < 5; i++)
            for (unsigned j = 0; j < a.n && bad < 5; j++) {
                long acc = 0;
                for (unsigned k = 0; k < a.k; k++)
                    acc += (long)small_of(i, k, 1) * small_of(k, j, 5);
                /* Exact small integers: compare as fp32 bit patterns via a float. */
                float f = (float)acc;
                uint32_t want;
                memcpy(&want, &f, sizeof want);
                if (acc == 0)
                    want = dt.D[i * a.n + j] & 0x80000000u; /* +0 or -0: both exact */
                if (dt.D[i * a.n + j] != want) {
                    printf("MISMATCH D[%u][%u] = %08x, want %08x (%ld)\n", i, j,
                           (unsigned)dt.D[i * a.n + j], (unsigned)want, acc);
                    bad++;
                }
            }
    }
    uint64_t peak_fma = (uint64_t)g->subcores * g->tc_per_subcore * g->fedps_per_tc *
                        g->fedp_len16; /* fp16 inputs, fp32 accumulate */
    if (g->acc32_rate_div)
        peak_fma /= g->acc32_rate_div;
    printf("gemm %ux%ux%u on %u SM(s) of %s, %u warps/SM, warp tile %ux%u, %s\n", a.m, a.n,
           a.k, a.sms, g->name, a.warps, a.wm, a.wn, a.policy);
    /* The handle times mma.m16n8k16 on any GPU; on one whose PTX target lacks it (Turing,
     * Volta) the figures are no kernel's that could run there. */
    tc_ptx_instr native;
    if (tc_ptx_find(&op.mma, 0, &native) == TC_OK && native.sm > tc_arch_ptx_sm(g->arch))
        printf("what-if: PTX for %s (sm_%u) has no mma.m16n8k16 (from sm_%u on): the "
               "timing structure's figures, not a kernel the GPU runs\n", g->name,
               tc_arch_ptx_sm(g->arch), native.sm);
    printf("cycles %llu\n", (unsigned long long)now);
    printf("mma instructions %llu\n", (unsigned long long)issued);
    printf("IPC %.3f mma/cycle (%.3f per SM)\n", (double)issued / now,
           (double)issued / now / a.sms);
    printf("tensor throughput %.1f FMA/clk/SM (peak %llu, %.1f%%)\n",
           (double)stats.fmas / now / a.sms, (unsigned long long)peak_fma,
           100.0 * stats.fmas / now / a.sms / peak_fma);
    printf("tensor-core busy %.1f%% of sub-core cycles\n",
           100.0 * stats.busy_cycles / ((double)now * units));
    if (!a.quiet)
        printf("simulated %.2f M mma/s of host CPU time (%.3f s)\n",
               secs > 0 ? issued / secs / 1e6 : 0.0, secs);
    if (a.check)
        printf("check: %s\n", bad ? "FAILED" : "D matches the integer GEMM exactly");
    if (json) {
        fprintf(json, "{\"benchmark\": \"handle API, examples/gemm_sim\", \"gpu\": \"%s\", "
                      "\"gemm\": [%u, %u, %u], \"sms\": %u, \"warps_per_sm\": %u, "
                      "\"cycles\": %llu, \"mma\": %llu, \"ipc\": %.4f, "
                      "\"host_cpu_seconds\": %.4f, \"mma_per_second\": %.0f, "
                      "\"target_mma_per_second\": 10000000}\n",
                g->name, a.m, a.n, a.k, a.sms, a.warps, (unsigned long long)now,
                (unsigned long long)issued, (double)issued / now, secs,
                secs > 0 ? issued / secs : 0.0);
        /* fprintf buffers: a full disk shows up at the latest in fclose. */
        int ok = !ferror(json);
        if (fclose(json) || !ok) {
            fprintf(stderr, "gemm_sim: cannot write '%s': %s\n", show(a.json).s, strerror(errno));
            bad = 1;
        }
    }
    tc_sim_destroy(s);
    free(w);
    free(owned);
    free(last);
    free(dt.A);
    free(dt.B);
    free(dt.D);
    /* The report goes through stdout's buffer: a full disk or a closed pipe shows only
     * here, and a run whose report was lost has not succeeded. */
    if (fflush(stdout) != 0 || ferror(stdout)) {
        fprintf(stderr, "gemm_sim: cannot write the report: %s\n", strerror(errno));
        bad = 1;
    }
    return bad ? 1 : 0;
}
