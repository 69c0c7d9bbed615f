/* cmd_timing.c - `tcsim timing`: predicted latency and throughput of a tensor-core
 * instruction on a GPU of model/data/timing.txt or of a record file (tcsim_timing.h).
 * Thin: parse, call tc_op_timing_of / tc_bench_mma / tc_wmma_cumulative (and for the
 * asynchronous wgmma and tcgen05.mma tc_wgmma_timing_of / tc_tcgen05_timing_of /
 * tc_bench_async), print. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include "cli.h"

static void usage(FILE *f)
{
    fprintf(f,
        "usage: tcsim timing --arch ARCH|GPU --op OP --in FMT --acc FMT\n"
        "                    [--warps W] [--ilp I] [--iters N] [--progress] [--params FILE]\n"
        "       tcsim timing --list | --list-ptx\n\n"
        "Predicts one instruction's timing from the GPU's parameters (tcsim timing --list\n"
        "prints them; docs/timing.md explains them).\n"
        "  --arch    a GPU (tcsim timing --list) or an arch (its first GPU)\n"
        "  --op      mma.mMnNkK, mma.sp.mMnNkK (2:4 sparse, dense k), wmma.mMnNkK,\n"
        "            wgmma.m64nNkK, wgmma.sp.m64nNkK (Hopper) or tcgen05.mMnNkK (Blackwell)\n"
        "  --in      fp16, bf16, tf32, int8, uint8, int4, uint4, e4m3, e5m2\n"
        "  --acc     fp32, fp16, s32\n"
        "  --warps   warps on one SM (default 1); warp w runs on sub-core w mod subcores\n"
        "  --ilp     independent mma per warp and loop iteration (default 1)\n"
        "  --iters   loop iterations (default 200)\n"
        "  --params  read the GPU named by --arch from FILE (timing.txt's format, e.g. a\n"
        "            record the probe wrote) instead of the built-in table\n"
        "  --progress  report the benchmark's progress on stderr from the start (without\n"
        "            it, a run still going after 2 s reports; stdout is the same either way)\n"
        "mma prints the instruction's steps, issue interval and latency, then seed 004's\n"
        "microbenchmark: 'latency' = cycles per iteration, throughput = FMA/clk/SM.\n"
        "wmma prints seed 001's cumulative cycles after each HMMA (Figure 9, Table I);\n"
        "--warps, --ilp and --iters are the mma benchmark's, refused with a wmma.\n"
        "An instruction the GPU's PTX target lacks is timed too, as the structure's\n"
        "what-if: a 'what-if:' line says so. --list-ptx prints the PTX instructions and\n"
        "the first target of each.\n"
        "wgmma and tcgen05 are timed as asynchronous operations: --warps (a multiple of\n"
        "4, default 4) gives warpgroups (wgmma) or CTAs (tcgen05), each iterating ILP\n"
        "instructions, commit, wait. A latency parameter no measurement backs is named on\n"
        "an 'uncalibrated:' line.\n");
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
    /* arch is as wide as its longest name, "blackwell" */
    printf("%-10s %-9s %3s %3s %5s %4s %6s %5s %5s %5s %4s %6s %6s %6s %3s %6s %5s %6s %6s "
           "%5s\n",
           "gpu", "arch", "sub", "tc", "fedps", "len", "acc32/", "kstep", "depth", "drain",
           "fwd", "acc32+", "ii_min", "sp_ii", "ii+", "sp_ii+", "loop", "offset", "accbuf",
           "await");
    for (size_t i = 0; tc_gpu_timing_get(i, &g) == TC_OK; i++)
        printf("%-10s %-9s %3u %3u %5u %4u %6u %5u %5u %5u %4u %6u %6u %6u %3u %6u %5u %6u %6u "
               "%5u\n",
               g.name, tc_arch_name(g.arch), g.subcores, g.tc_per_subcore, g.fedps_per_tc,
               g.fedp_len16, g.acc32_rate_div, g.step_k16, g.depth, g.drain_rows,
               g.step_fwd, g.acc32_extra, g.ii_min, g.sparse_ii_min, g.ii_extra,
               g.sparse_ii_extra, g.warp_overhead, g.measure_offset, g.acc32_buffer,
               g.async_wait);
    return CLI_OK;
}

static int list_ptx(void)
{
    tc_ptx_instr p;
    printf("%-7s %-12s %-10s %-5s %s\n", "form", "shape", "in", "acc",
           "first target [b1 op]");
    for (size_t i = 0; tc_ptx_instr_get(i, &p) == TC_OK; i++) {
        char shape[48], in[24];
        snprintf(shape, sizeof shape, "m%un%uk%u", p.m, p.n, p.k);
        /* a pair as A x B in one word, as `tcsim list` shows it (issue 33) */
        if (p.in_b != p.in)
            snprintf(in, sizeof in, "%sx%s", tc_fmt_get(p.in)->name, tc_fmt_get(p.in_b)->name);
        else
            snprintf(in, sizeof in, "%s", tc_fmt_get(p.in)->name);
        printf("%-7s %-12s %-10s %-5s sm_%u%s\n", tc_ptx_form_name(p.form), shape, in,
               tc_fmt_get(p.acc)->name, p.sm,
               p.op == TC_KIND_POPC_AND ? " and.popc" : p.op == TC_KIND_POPC_XOR ? " xor.popc" : "");
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

/* The emulated line of an mma the GPU runs as other instructions (its profile's kind:
 * Hopper's and Blackwell's fp8 mma.sync are fp16 mma with conversions and an fp32 add
 * on the CUDA cores); none for a native one. The structure times a native mma. */
static void print_emulated(const tc_gpu_timing *g, const tc_mma_op *op, int wmma)
{
    const tc_profile *p;
    if (wmma || tc_profile_find(g->arch, TC_INSTR_MMA, op->in, op->acc, &p) != TC_OK ||
        p->kind != TC_KIND_FP8_EMU)
        return;
    printf("emulated: %s (%s) runs mma with %s inputs as conversions, fp16 mma and an fp32 "
           "add (an H200 measured it 2.5-10x slower than these figures, docs/timing.md): "
           "the structure's figures are a native %s mma's\n",
           g->name, tc_arch_name(g->arch), tc_fmt_get(op->in)->name, tc_fmt_get(op->in)->name);
}

/* The uncalibrated line: the record's "~" keys among those the figures printed use
 * (the latency's and the benchmark loop's); none if there is none. */
static void print_uncalibrated(const tc_gpu_timing *g, const tc_mma_op *op, int wmma,
                               int async)
{
    static const char *const used[] = {"depth", "drain_rows", "step_fwd", "acc32_extra",
                                       "ii_min", "sparse_ii_min", "warp_overhead",
                                       "measure_offset"};
    int n = 0;
    for (unsigned i = 0; tc_gpu_timing_key(i); i++) {
        const char *k = tc_gpu_timing_key(i);
        int use = 0;
        for (size_t j = 0; j < sizeof used / sizeof used[0]; j++)
            use |= !strcmp(k, used[j]);
        if (!strcmp(k, "acc32_extra"))
            use = op->acc == TC_FMT_FP32;
        if (!strcmp(k, "ii_min") || !strcmp(k, "sparse_ii_min"))
            use = !strcmp(k, op->sparse ? "sparse_ii_min" : "ii_min");
        if (!strcmp(k, "ii_extra") || !strcmp(k, "sparse_ii_extra"))
            use = !async && (op->sparse || !strcmp(k, "ii_extra"));
        if (!strcmp(k, "measure_offset"))
            use = wmma;
        if (!strcmp(k, "async_wait"))
            use = async != 0;
        if (async == 2 && strcmp(k, "depth") && strcmp(k, "warp_overhead") &&
            strcmp(k, "async_wait"))
            use = 0; /* tcgen05: the array model, plus these */
        if (!use || !(g->uncalibrated >> i & 1u))
            continue;
        printf("%s%s", n++ ? ", " : "uncalibrated: ", k);
    }
    if (n)
        printf(" of %s %s assumed, backed by no measurement (model/data/timing.txt '~'):"
               " the latencies are the structure's guess\n", g->name, n > 1 ? "are" : "is");
}

/* The GPU called name in FILE (timing.txt's format) into *g: CLI_OK, or a message. */
static int read_params(const char *file, const char *name, tc_gpu_timing *g)
{
    FILE *f = fopen(file, "rb");
    if (!f) {
        fprintf(stderr, "tcsim timing: --params %s: %s\n", CLI_PATH(file), strerror(errno));
        return CLI_USAGE;
    }
    enum { MAX_TEXT = 1 << 20 };
    char *text = malloc(MAX_TEXT + 1);
    size_t n = text ? fread(text, 1, MAX_TEXT + 1, f) : 0;
    int err = ferror(f);
    fclose(f);
    if (!text || err || n > MAX_TEXT) {
        fprintf(stderr, "tcsim timing: --params %s: %s\n", CLI_PATH(file),
                !text ? "out of memory" : err ? "cannot read it" : "longer than 1 MiB");
        free(text);
        return text ? CLI_USAGE : CLI_FAIL;
    }
    text[n] = 0;
    tc_status st = memchr(text, 0, n) ? TC_EINVAL : tc_gpu_timing_parse(text, name, g);
    free(text);
    if (st == TC_EUNSUPPORTED)
        fprintf(stderr, "tcsim timing: --params %s has no 'gpu %s' record\n", CLI_PATH(file),
                CLI_WORD(name));
    else if (st != TC_OK)
        fprintf(stderr, "tcsim timing: --params %s: a malformed record before or in 'gpu %s'"
                        " (timing.txt's format, tcsim_timing.h)\n", CLI_PATH(file),
                CLI_WORD(name));
    return st == TC_OK ? CLI_OK : CLI_USAGE;
}

/* wgmma / tcgen05: the instruction on each sub-core (or the array), then the benchmark. */
static int run_async(const tc_gpu_timing *g, const tc_mma_op *op, const char *ops,
                     tc_instr instr, unsigned long long warps, unsigned long long ilp,
                     unsigned long long iters)
{
    tc_op_timing t;
    tc_bench_result r;
    tc_status st = instr == TC_INSTR_WGMMA ? tc_wgmma_timing_of(g, op, &t)
                                           : tc_tcgen05_timing_of(g, op, 1, 0, &t);
    if (st == TC_OK && warps % 4) {
        fprintf(stderr, "tcsim timing: --warps %llu: %s is issued per warpgroup of 4 warps "
                        "(a multiple of 4)\n", warps, ops);
        return CLI_USAGE;
    }
    if (st == TC_OK)
        st = tc_bench_async(g, op, instr, (unsigned)warps, (unsigned)ilp, (unsigned)iters, &r);
    if (st != TC_OK) {
        fprintf(stderr, "tcsim timing: %s on %s: %s\n", ops, g->name, tc_strerror(st));
        return st == TC_ENOMEM ? CLI_FAIL : CLI_USAGE;
    }
    printf("gpu %s (%s): %s %s -> %s\n", g->name, tc_arch_name(g->arch), ops,
           tc_fmt_get(op->in)->name, tc_fmt_get(op->acc)->name);
    print_uncalibrated(g, op, 0, instr == TC_INSTR_WGMMA ? 1 : 2);
    if (instr == TC_INSTR_WGMMA)
        printf("instruction: on each of %u sub-cores %u step(s) of %u beat(s), issue interval "
               "%u cycles, completion latency %u cycles\n", g->subcores, t.steps, t.beats,
               t.issue_interval, t.latency);
    else
        printf("instruction: %u array pass(es), issue interval %u cycles, completion latency "
               "%u cycles (to the mbarrier)\n", t.beats, t.issue_interval, t.latency);
    printf("benchmark: %llu %s x ILP %llu, %llu iterations, %llu cycles\n", warps / 4,
           instr == TC_INSTR_WGMMA ? "warpgroup(s)" : "CTA(s)", ilp, iters,
           (unsigned long long)r.cycles);
    print_x10("latency", r.latency_x10, "cycles per iteration");
    print_x10("throughput", r.fma_per_clk_x10, "FMA/clk/SM");
    return CLI_OK;
}

static int timing_run(int argc, char **argv)
{
    const char *cmd = "timing", *gpu = NULL, *ops = NULL, *params = NULL;
    int warps_given = 0;
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
            strcmp(a, "--iters") && strcmp(a, "--params")) {
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
        else if (!strcmp(a, "--params"))
            params = v;
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
                warps_given = 1;
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
    if (op.in == TC_FMT_FP64 || op.acc == TC_FMT_FP64) { /* no latency is invented */
        fprintf(stderr, "tcsim timing: fp64 (DMMA) is not timed: neither the timing "
                        "structure nor a measurement gives its latency (its arithmetic: "
                        "tcsim dot --in fp64 --out fp64)\n");
        return CLI_USAGE;
    }
    tc_gpu_timing g;
    if (params) {
        int rc = read_params(params, gpu, &g);
        if (rc != CLI_OK)
            return rc;
    } else if (tc_gpu_timing_find(gpu, &g) != TC_OK) {
        fprintf(stderr, "tcsim timing: unknown --arch '%s' (tcsim timing --list)\n",
                CLI_WORD(gpu));
        return CLI_USAGE;
    }
    /* The asynchronous ops: wgmma[.sp] and tcgen05. */
    tc_instr async = !strncmp(ops, "wgmma.", 6) ? TC_INSTR_WGMMA
                   : !strncmp(ops, "tcgen05.", 8) ? TC_INSTR_TCGEN05 : TC_INSTR_MMA;
    if (async != TC_INSTR_MMA) {
        const char *sh = async == TC_INSTR_TCGEN05 ? ops + 8
                       : !strncmp(ops, "wgmma.sp.", 9) ? ops + 9 : ops + 6;
        op.sparse = !strncmp(ops, "wgmma.sp.", 9);
        if (tc_mma_shape_parse(sh, &op.m, &op.n, &op.k) != TC_OK) {
            fprintf(stderr, "tcsim timing: bad --op '%s' (wgmma.m64n256k16, "
                            "tcgen05.m128n256k16)\n", CLI_WORD(ops));
            return CLI_USAGE;
        }
        return run_async(&g, &op, ops, async, warps_given ? warps : 4, ilp, iters);
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
    print_emulated(&g, &op, wmma);
    print_uncalibrated(&g, &op, wmma, 0);
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
