/* cmd_timing.c - `tcsim timing`: predicted latency and throughput of a tensor-core
 * instruction on a GPU of model/data/timing.txt (tcsim_timing.h). Thin: parse, call
 * tc_op_timing_of / tc_bench_mma / tc_wmma_cumulative, print. */
#include <string.h>
#include "cli.h"

static void usage(FILE *f)
{
    fprintf(f,
        "usage: tcsim timing --arch ARCH|GPU --op OP --in FMT --acc FMT\n"
        "                    [--warps W] [--ilp I] [--iters N] [--progress]\n"
        "       tcsim timing --list | --list-ptx\n\n"
        "Predicts one instruction's timing from the GPU's parameters (tcsim timing --list\n"
        "prints them; docs/timing.md explains them).\n"
        "  --arch    a GPU (v100, a100, rtx3070ti, rtx2080ti) or an arch (its first GPU)\n"
        "  --op      mma.mMnNkK, mma.sp.mMnNkK (2:4 sparse, dense k), or wmma.mMnNkK\n"
        "  --in      fp16, bf16, tf32, int8, uint8, int4, uint4\n"
        "  --acc     fp32, fp16, s32\n"
        "  --warps   warps on one SM (default 1); warp w runs on sub-core w mod subcores\n"
        "  --ilp     independent mma per warp and loop iteration (default 1)\n"
        "  --iters   loop iterations (default 200)\n"
        "  --progress  report the benchmark's progress on stderr from the start (without\n"
        "            it, a run still going after 2 s reports; stdout is the same either way)\n"
        "mma prints the instruction's steps, issue interval and latency, then seed 004's\n"
        "microbenchmark: 'latency' = cycles per iteration, throughput = FMA/clk/SM.\n"
        "wmma prints seed 001's cumulative cycles after each HMMA (Figure 9, Table I);\n"
        "--warps, --ilp and --iters are the mma benchmark's, refused with a wmma.\n"
        "An instruction the GPU's PTX target lacks is timed too, as the structure's\n"
        "what-if: a 'what-if:' line says so. --list-ptx prints the PTX instructions and\n"
        "the first target of each.\n");
}

static void print_x10(const char *what, uint64_t v, const char *unit)
{
    printf("%s %llu.%llu %s\n", what, (unsigned long long)(v / 10),
           (unsigned long long)(v % 10), unit);
}

static void show_progress(void *ctx, uint64_t done, uint64_t total)
{
    cli_progress_show(ctx, done, total);
}

static int list_gpus(void)
{
    tc_gpu_timing g;
    printf("%-10s %-7s %3s %3s %5s %4s %6s %5s %5s %5s %4s %6s %6s %6s %5s %6s %6s\n",
           "gpu", "arch", "sub", "tc", "fedps", "len", "acc32/", "kstep", "depth", "drain",
           "fwd", "acc32+", "ii_min", "sp_ii", "loop", "offset", "accbuf");
    for (size_t i = 0; tc_gpu_timing_get(i, &g) == TC_OK; i++)
        printf("%-10s %-7s %3u %3u %5u %4u %6u %5u %5u %5u %4u %6u %6u %6u %5u %6u %6u\n",
               g.name, tc_arch_name(g.arch), g.subcores, g.tc_per_subcore, g.fedps_per_tc,
               g.fedp_len16, g.acc32_rate_div, g.step_k16, g.depth, g.drain_rows,
               g.step_fwd, g.acc32_extra, g.ii_min, g.sparse_ii_min, g.warp_overhead,
               g.measure_offset, g.acc32_buffer);
    return CLI_OK;
}

static int list_ptx(void)
{
    tc_ptx_instr p;
    printf("%-7s %-12s %-5s %-5s %s\n", "form", "shape", "in", "acc", "first target");
    for (size_t i = 0; tc_ptx_instr_get(i, &p) == TC_OK; i++) {
        char shape[48];
        snprintf(shape, sizeof shape, "m%un%uk%u", p.m, p.n, p.k);
        printf("%-7s %-12s %-5s %-5s sm_%u\n", tc_ptx_form_name(p.form), shape,
               tc_fmt_get(p.in)->name, tc_fmt_get(p.acc)->name, p.sm);
    }
    return CLI_OK;
}

/* The what-if line of an instruction the GPU's PTX target does not have; none for one
 * it has. */
static void print_what_if(const tc_gpu_timing *g, const tc_mma_op *op, int wmma,
                          const char *ops)
{
    unsigned sm = tc_arch_ptx_sm(g->arch);
    tc_ptx_instr p;
    int found = tc_ptx_find(op, wmma, &p) == TC_OK;
    if (found && p.sm <= sm)
        return;
    printf("what-if: PTX for %s (%s, sm_%u) has no %s with %s inputs and %s accumulator",
           g->name, tc_arch_name(g->arch), sm, ops, tc_fmt_get(op->in)->name,
           tc_fmt_get(op->acc)->name);
    if (found)
        printf(" (from sm_%u on)", p.sm);
    printf(": the structure's figures, checked against no measurement\n");
}

static int timing_run(int argc, char **argv)
{
    const char *cmd = "timing", *gpu = NULL, *ops = NULL;
    tc_mma_op op = {0, 0, 0, TC_FMT_COUNT, TC_FMT_COUNT, 0};
    unsigned long long warps = 1, ilp = 1, iters = 200;
    const char *bench_opt = NULL; /* --warps, --ilp or --iters: the mma benchmark's */
    int force_progress = 0;
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i], *v;
        if (cli_is_help(a)) {
            usage(stdout);
            return CLI_OK;
        }
        if (!strcmp(a, "--list") || !strcmp(a, "--list-ptx")) {
            if (argc > 2) {
                fprintf(stderr, "tcsim timing: %s takes no other argument ('%s')\n", a,
                        CLI_WORD(argv[i == 1 ? 2 : 1]));
                return CLI_USAGE;
            }
            return strcmp(a, "--list") ? list_ptx() : list_gpus();
        }
        if (!strcmp(a, "--progress")) {
            force_progress = 1;
            continue;
        }
        if (strcmp(a, "--arch") && strcmp(a, "--op") && strcmp(a, "--in") &&
            strcmp(a, "--acc") && strcmp(a, "--warps") && strcmp(a, "--ilp") &&
            strcmp(a, "--iters")) {
            fprintf(stderr, "tcsim timing: unknown option '%s' (tcsim timing --help)\n",
                    CLI_WORD(a));
            return CLI_USAGE;
        }
        if (!(v = cli_optarg(cmd, argc, argv, &i)))
            return CLI_USAGE;
        if (!strcmp(a, "--arch"))
            gpu = v;
        else if (!strcmp(a, "--op"))
            ops = v;
        else if (!strcmp(a, "--in")) {
            if (cli_parse_fmt(cmd, a, v, &op.in))
                return CLI_USAGE;
        } else if (!strcmp(a, "--acc")) {
            if (cli_parse_fmt(cmd, a, v, &op.acc))
                return CLI_USAGE;
        } else {
            unsigned long long *dst = &iters, max = 1000000;
            bench_opt = a;
            if (!strcmp(a, "--warps")) {
                dst = &warps;
                max = 64;
            } else if (!strcmp(a, "--ilp")) {
                dst = &ilp;
                max = 16;
            }
            if (cli_parse_uint(cmd, a, v, 1, max, dst))
                return CLI_USAGE;
        }
    }
    if (!gpu || !ops || op.in == TC_FMT_COUNT || op.acc == TC_FMT_COUNT) {
        fprintf(stderr, "tcsim timing: --arch, --op, --in and --acc are required\n");
        return CLI_USAGE;
    }
    tc_gpu_timing g;
    if (tc_gpu_timing_find(gpu, &g) != TC_OK) {
        fprintf(stderr, "tcsim timing: unknown --arch '%s' (tcsim timing --list)\n",
                CLI_WORD(gpu));
        return CLI_USAGE;
    }
    int wmma = !strncmp(ops, "wmma.", 5);
    const char *shape = wmma ? ops + 5 : !strncmp(ops, "mma.sp.", 7) ? ops + 7
                      : !strncmp(ops, "mma.", 4) ? ops + 4 : NULL;
    op.sparse = !strncmp(ops, "mma.sp.", 7);
    if (!shape || tc_mma_shape_parse(shape, &op.m, &op.n, &op.k) != TC_OK) {
        fprintf(stderr, "tcsim timing: bad --op '%s' (mma.m16n8k16, mma.sp.m16n8k32, "
                        "wmma.m16n16k16)\n", CLI_WORD(ops));
        return CLI_USAGE;
    }
    if (wmma && bench_opt) {
        fprintf(stderr, "tcsim timing: %s is for mma; a wmma prints one warp's HMMA "
                        "sequence\n", bench_opt);
        return CLI_USAGE;
    }
    /* Everything is computed before anything is printed: an error leaves stdout empty. */
    tc_status st;
    uint64_t cum[64];
    size_t n = 0;
    tc_op_timing t;
    tc_bench_result r;
    if (wmma) {
        st = tc_wmma_cumulative(&g, &op, cum, 64, &n);
    } else {
        st = tc_op_timing_of(&g, &op, &t);
        if (st == TC_OK) {
            cli_progress ps;
            cli_progress_start(&ps, "timing", "mma simulated", force_progress);
            st = tc_bench_mma_progress(&g, &op, (unsigned)warps, (unsigned)ilp, (unsigned)iters,
                                       show_progress, &ps, &r);
            if (st != TC_OK)
                cli_progress_abandon(&ps);
        }
    }
    if (st != TC_OK) {
        fprintf(stderr, "tcsim timing: %s on %s: %s\n", ops, g.name, tc_strerror(st));
        return st == TC_ENOMEM ? CLI_FAIL : CLI_USAGE;
    }
    printf("gpu %s (%s): %s %s -> %s\n", g.name, tc_arch_name(g.arch), ops,
           tc_fmt_get(op.in)->name, tc_fmt_get(op.acc)->name);
    print_what_if(&g, &op, wmma, ops);
    if (wmma) {
        printf("cumulative cycles after each HMMA:");
        for (size_t i = 0; i < n; i++)
            printf(" %llu", (unsigned long long)cum[i]);
        printf("\nlatency %llu cycles (the wmma, as seed 001 measures it)\n",
               (unsigned long long)cum[n - 1]);
    } else {
        printf("instruction: %u step(s) of %u beat(s), issue interval %u cycles, "
               "completion latency %u cycles\n",
               t.steps, t.beats, t.issue_interval, t.latency);
        if (t.front_interval < t.issue_interval)
            printf("front end: %u cycles, ahead of the accumulator by up to %u\n",
                   t.front_interval, t.acc_slack);
        printf("benchmark: %llu warp(s) x ILP %llu, %llu iterations, %llu cycles\n",
               warps, ilp, iters, (unsigned long long)r.cycles);
        print_x10("latency", r.latency_x10, "cycles per iteration");
        print_x10("throughput", r.fma_per_clk_x10, "FMA/clk/SM");
    }
    return CLI_OK;
}

const cli_cmd cmd_timing = {"timing", "predicted latency and throughput of an mma/wmma on a GPU",
                            timing_run};
