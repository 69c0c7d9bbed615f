/* cmd_hmma.c - the Volta tensor core from the command line:
 *   tcsim hmma-trace   the HMMA.884 sequence of one instruction with Figure 9's cycles;
 *   tcsim mma          a whole tile D = A*B + C from text matrix files, through the warp
 *                      fragments and the HMMA sets and steps.
 * --engine rtl runs the Verilated warp top (rtl/tc_warp.sv) instead of the model. */
#define _POSIX_C_SOURCE 200809L
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include "cli.h"
#include "cli_engine.h"

/* Options both commands take. */
typedef struct hmma_opts {
    tc_hmma_cfg cfg;
    int rtl;
    const engine_warp_ops *warp;  /* --engine rtl: the registry's "tc_warp" engine */
    int have_arch, have_acc;
    const char *a, *b, *c;
} hmma_opts;

static int parse_acc(const char *cmd, const char *s, tc_fmt *out)
{
    if (!strcmp(s, "f32") || !strcmp(s, "fp32"))
        *out = TC_FMT_FP32;
    else if (!strcmp(s, "f16") || !strcmp(s, "fp16"))
        *out = TC_FMT_FP16;
    else {
        fprintf(stderr, "tcsim %s: unknown --acc '%s' (f32: mixed precision, f16: FP16 mode)\n",
                cmd, CLI_WORD(s));
        return -1;
    }
    return 0;
}

static int parse_layout(const char *cmd, const char *opt, const char *s, tc_layout *out)
{
    if (tc_layout_parse(s, out) == TC_OK)
        return 0;
    fprintf(stderr, "tcsim %s: unknown %s '%s' (row or col)\n", cmd, opt, CLI_WORD(s));
    return -1;
}

/* --layout L sets A and B; --layout LA,LB sets them apart. */
static int parse_layouts(const char *cmd, const char *s, tc_hmma_cfg *cfg)
{
    const char *comma = strchr(s, ',');
    if (!comma)
        return parse_layout(cmd, "--layout", s, &cfg->a_layout) ||
               parse_layout(cmd, "--layout", s, &cfg->b_layout);
    char first[16];
    size_t n = (size_t)(comma - s);
    if (n >= sizeof first) {
        fprintf(stderr, "tcsim %s: unknown --layout '%s' (row, col, or A,B as row,col)\n", cmd,
                CLI_WORD(s));
        return -1;
    }
    memcpy(first, s, n);
    first[n] = '\0';
    return parse_layout(cmd, "--layout (A)", first, &cfg->a_layout) ||
           parse_layout(cmd, "--layout (B)", comma + 1, &cfg->b_layout);
}

/* Parses the options; files only when `files`. Returns -1 after a message, 1 for --help. */
static int parse_opts(const char *cmd, int argc, char **argv, int files, hmma_opts *o)
{
    memset(o, 0, sizeof *o);
    o->cfg.shape = TC_SHAPE_M16N16K16;
    o->cfg.a_layout = o->cfg.b_layout = TC_LAYOUT_ROW;
    for (int i = 1; i < argc; i++) {
        const char *opt = argv[i], *v;
        if (cli_is_help(opt))
            return 1;
        if (!strcmp(opt, "--arch")) {
            tc_arch a;
            if (!(v = cli_optarg(cmd, argc, argv, &i)) || cli_parse_arch(cmd, v, &a))
                return -1;
            if (a != TC_ARCH_VOLTA) {
                fprintf(stderr, "tcsim %s: --arch '%s' has no HMMA.884 model (only volta)\n",
                        cmd, CLI_WORD(v));
                return -1;
            }
            o->have_arch = 1;
        } else if (!strcmp(opt, "--acc")) {
            if (!(v = cli_optarg(cmd, argc, argv, &i)) || parse_acc(cmd, v, &o->cfg.acc))
                return -1;
            o->have_acc = 1;
        } else if (!strcmp(opt, "--shape")) {
            if (!(v = cli_optarg(cmd, argc, argv, &i)))
                return -1;
            if (tc_shape_parse(v, &o->cfg.shape) != TC_OK) {
                fprintf(stderr, "tcsim %s: unknown --shape '%s' (m16n16k16 or m8n8k4)\n", cmd,
                        CLI_WORD(v));
                return -1;
            }
        } else if (!strcmp(opt, "--engine")) {
            if (!(v = cli_optarg(cmd, argc, argv, &i)))
                return -1;
            if (strcmp(v, "model") && strcmp(v, "rtl")) {
                fprintf(stderr, "tcsim %s: unknown --engine '%s' (model or rtl)\n", cmd,
                        CLI_WORD(v));
                return -1;
            }
            o->rtl = !strcmp(v, "rtl");
        } else if (files && !strcmp(opt, "--layout")) {
            if (!(v = cli_optarg(cmd, argc, argv, &i)) || parse_layouts(cmd, v, &o->cfg))
                return -1;
        } else if (files && !strcmp(opt, "--a-layout")) {
            if (!(v = cli_optarg(cmd, argc, argv, &i)) ||
                parse_layout(cmd, opt, v, &o->cfg.a_layout))
                return -1;
        } else if (files && !strcmp(opt, "--b-layout")) {
            if (!(v = cli_optarg(cmd, argc, argv, &i)) ||
                parse_layout(cmd, opt, v, &o->cfg.b_layout))
                return -1;
        } else if (files && (!strcmp(opt, "--a") || !strcmp(opt, "--b") || !strcmp(opt, "--c"))) {
            if (!(v = cli_optarg(cmd, argc, argv, &i)))
                return -1;
            *(opt[2] == 'a' ? &o->a : opt[2] == 'b' ? &o->b : &o->c) = v;
        } else {
            fprintf(stderr, "tcsim %s: unknown option '%s' (tcsim %s --help)\n", cmd,
                    CLI_WORD(opt), cmd);
            return -1;
        }
    }
    if (!o->have_arch || !o->have_acc) {
        fprintf(stderr, "tcsim %s: %s is required (tcsim %s --help)\n", cmd,
                !o->have_arch ? "--arch" : "--acc", cmd);
        return -1;
    }
    if (files && (!o->a || !o->b || !o->c)) {
        fprintf(stderr, "tcsim %s: --%s FILE is required\n", cmd, !o->a ? "a" : !o->b ? "b" : "c");
        return -1;
    }
    if (o->rtl) {
        const engine_entry *e = cli_engine(cmd, "tc_warp", ENGINE_WARP,
                                           "tensor-core RTL (configure with -DTCSIM_RTL=ON)");
        if (!e)
            return -1;
        o->warp = e->ops.warp;
    }
    return 0;
}

/* Runs the instruction on the fragments with the chosen engine, with its trace. */
static int run_engine(const char *cmd, const hmma_opts *o, tc_warp_frags *w, tc_hmma_event *ev,
                      size_t *n, uint64_t *done)
{
    tc_status st;
    if (!o->rtl) {
        st = tc_volta_hmma_timing(NULL, &o->cfg, ev, 16, n, done);
        if (st == TC_OK && w)
            st = tc_hmma_run(&o->cfg, w, NULL, NULL);
    } else {
        void *e;
        st = o->warp->open(&e);
        if (st == TC_OK) {
            tc_warp_frags zero;
            if (!w) { /* a trace needs no data: run zeros */
                memset(&zero, 0, sizeof zero);
                w = &zero;
            }
            st = o->warp->run(e, &o->cfg, w, ev, 16, n, done);
            o->warp->close(e);
        }
    }
    if (st != TC_OK) {
        fprintf(stderr, "tcsim %s: %s engine failed: %s\n", cmd, o->rtl ? "rtl" : "model",
                tc_strerror(st));
        return -1;
    }
    return 0;
}

/* ------------------------------------------------------------------ hmma-trace */

/* parse_opts for a subcommand's run: -1 to go on, else its exit status: CLI_OK after
 * help (on stdout) for --help, CLI_USAGE after the message of a bad option. */
static int run_opts(const char *cmd, int argc, char **argv, int files, void (*help)(FILE *),
                    hmma_opts *o)
{
    int r = parse_opts(cmd, argc, argv, files, o);
    if (r > 0)
        help(stdout);
    return r > 0 ? CLI_OK : r < 0 ? CLI_USAGE : -1;
}

static void trace_help(FILE *f)
{
    fprintf(f,
        "usage: tcsim hmma-trace --arch volta --acc f32|f16 [--shape m16n16k16|m8n8k4]\n"
        "                        [--engine model|rtl]\n\n"
        "Prints the HMMA.884 instructions of one wmma.mma (m16n16k16, default) or mma.m8n8k4,\n"
        "one line each: <set> <step> <cumulative_cycles>, numbered as seed 001's Figure 9\n"
        "(SET1..4, STEP0..3). --acc f32 is mixed precision (4 steps per set), f16 FP16 mode\n"
        "(2 steps). The cycles are Figure 9's: from a clock read before the first HMMA to one\n"
        "after HMMA n, from the cycle-level pipeline model (tcsim_tc.h) or, with --engine\n"
        "rtl, from the dispatch cycles of the Verilated warp top.\n");
}

static int trace_run(int argc, char **argv)
{
    hmma_opts o;
    int r = run_opts("hmma-trace", argc, argv, 0, trace_help, &o);
    if (r >= 0)
        return r;
    tc_hmma_event ev[16];
    size_t n;
    uint64_t done;
    if (run_engine("hmma-trace", &o, NULL, ev, &n, &done))
        return CLI_FAIL;
    for (size_t i = 0; i < n; i++)
        printf("%u %u %llu\n", ev[i].set + 1, ev[i].step, (unsigned long long)ev[i].cumulative);
    return CLI_OK;
}

const cli_cmd cmd_hmma_trace = {"hmma-trace", "Volta HMMA sets/steps of one wmma.mma, with cycles",
                                trace_run};

/* ------------------------------------------------------------------------- mma */

static void mma_help(FILE *f)
{
    fprintf(f,
        "usage: tcsim mma --arch volta [--shape m16n16k16|m8n8k4] --acc f32|f16\n"
        "                 --a FILE --b FILE --c FILE [--layout row|col|LA,LB]\n"
        "                 [--a-layout row|col] [--b-layout row|col] [--engine model|rtl]\n\n"
        "D = A*B + C for one warp tile, through the Volta fragments (the layouts select which\n"
        "lane holds which element) and the HMMA sets and steps. Files hold the logical\n"
        "matrices, one row per line, hex bit patterns (0x optional) separated by spaces;\n"
        "empty lines and lines starting with # are skipped. A is MxK fp16, B KxN fp16, C MxN\n"
        "in the --acc format. m8n8k4: the warp computes four 8x8x4 tiles (one per octet);\n"
        "give each file one tile (every octet gets it) or four stacked (4M or 4K rows).\n"
        "Prints D the same way. Layouts default to row. A bad file or line (one longer than\n"
        CLI_LINE_MAX_TEXT " included) exits 2 with a message naming it.\n");
}

/* Reads a matrix of `rows` x `cols` (or tiles times as many rows) of `fmt` patterns.
 * Returns the row count read, or -1 after a message. */
static long read_matrix(const char *opt, const char *path, unsigned rows, unsigned cols,
                        unsigned tiles, tc_fmt fmt, uint32_t *out)
{
    FILE *f = fopen(path, "r");
    if (!f) {
        fprintf(stderr, "tcsim mma: %s %s: cannot open\n", opt, CLI_PATH(path));
        return -1;
    }
    const char *qpath = CLI_PATH(path); /* quoted once, not for every word */
    const tc_fmt_info *fi = tc_fmt_get(fmt);
    uint64_t lim = fi->width >= 32 ? UINT64_C(0xffffffff) : (UINT64_C(1) << fi->width) - 1;
    char *line = NULL;
    size_t cap = 0;
    unsigned long lineno = 0;
    long got = 0, max = (long)rows * tiles;
    int bad = 0;
    long len = 0;
    while (!bad && (len = cli_getline(f, &line, &cap)) > 0) {
        lineno++;
        const char *s = line;
        while (*s == ' ' || *s == '\t')
            s++;
        if (*s == '#' || cli_is_line_end(s))
            continue;
        if (got == max) {
            fprintf(stderr, "tcsim mma: %s %s: line %lu: more than %ld rows\n", opt, CLI_PATH(path),
                    lineno, max);
            bad = 1;
            break;
        }
        unsigned n = 0;
        for (;;) {
            const char *tok;
            uint64_t v;
            int r = cli_next_hex_word(&s, &tok, &v, "tcsim mma: %s %s: line %lu: word %u", opt,
                                      qpath, lineno, n + 1);
            if (r <= 0) {
                bad = r < 0;
                break;
            }
            if (v > lim) {
                fprintf(stderr, "tcsim mma: %s %s: line %lu: word %u = 0x%llx is wider than %s "
                                "(%u bits)\n", opt, CLI_PATH(path), lineno, n + 1,
                        (unsigned long long)v,
                        fi->name, fi->width);
                bad = 1;
                break;
            }
            if (n < cols)
                out[(size_t)got * cols + n] = (uint32_t)v;
            n++;
        }
        if (!bad && n != cols) {
            fprintf(stderr, "tcsim mma: %s %s: line %lu: %u values; expected %u\n", opt,
                    CLI_PATH(path),
                    lineno, n, cols);
            bad = 1;
        }
        got++;
    }
    if (!bad && len < 0) {
        const char *fault = cli_line_fault(errno);
        if (fault)
            fprintf(stderr, "tcsim mma: %s %s: line %lu: %s\n", opt, CLI_PATH(path), lineno + 1,
                    fault);
        else
            fprintf(stderr, "tcsim mma: %s %s: cannot read: %s\n", opt, CLI_PATH(path),
                    strerror(errno));
        bad = 1;
    }
    free(line);
    fclose(f);
    if (bad)
        return -1;
    if (got != rows && got != max) {
        if (tiles > 1)
            fprintf(stderr, "tcsim mma: %s %s: %ld rows; expected %u (one tile) or %ld (%u)\n",
                    opt, CLI_PATH(path), got, rows, max, tiles);
        else
            fprintf(stderr, "tcsim mma: %s %s: %ld rows; expected %u\n", opt, CLI_PATH(path),
                    got, rows);
        return -1;
    }
    /* One tile given: every octet's computation gets it. */
    for (unsigned t = 1; got == rows && t < tiles; t++)
        memcpy(out + (size_t)t * rows * cols, out, (size_t)rows * cols * sizeof *out);
    return got;
}

static int mma_run(int argc, char **argv)
{
    hmma_opts o;
    int r = run_opts("mma", argc, argv, 1, mma_help, &o);
    if (r >= 0)
        return r;
    unsigned M, N, K, T;
    tc_shape_dims(o.cfg.shape, &M, &N, &K, &T);
    uint32_t A[4 * 16 * 16], B[4 * 16 * 16], C[4 * 16 * 16], D[4 * 16 * 16];
    long ra = read_matrix("--a", o.a, M, K, T, TC_FMT_FP16, A);
    long rb = ra < 0 ? -1 : read_matrix("--b", o.b, K, N, T, TC_FMT_FP16, B);
    long rc = rb < 0 ? -1 : read_matrix("--c", o.c, M, N, T, o.cfg.acc, C);
    if (rc < 0)
        return CLI_USAGE;
    /* Print every tile if any file gave every tile, else the one tile given. */
    unsigned shown = (ra > (long)M || rb > (long)K || rc > (long)M) ? T : 1;

    tc_warp_frags w;
    tc_frag_spec sa = {TC_ARCH_VOLTA, o.cfg.shape, TC_OPERAND_A, o.cfg.a_layout, o.cfg.acc};
    tc_frag_spec sb = {TC_ARCH_VOLTA, o.cfg.shape, TC_OPERAND_B, o.cfg.b_layout, o.cfg.acc};
    tc_frag_spec sc = {TC_ARCH_VOLTA, o.cfg.shape, TC_OPERAND_C, TC_LAYOUT_ROW, o.cfg.acc};
    tc_status st;
    if ((st = tc_frag_load(&sa, A, w.a)) != TC_OK || (st = tc_frag_load(&sb, B, w.b)) != TC_OK ||
        (st = tc_frag_load(&sc, C, w.c)) != TC_OK) {
        fprintf(stderr, "tcsim mma: %s\n", tc_strerror(st));
        return CLI_FAIL;
    }
    tc_hmma_event ev[16];
    size_t n;
    uint64_t done;
    if (run_engine("mma", &o, &w, ev, &n, &done))
        return CLI_FAIL;
    tc_frag_store(&sc, w.c, D);
    int digits = (int)tc_fmt_get(o.cfg.acc)->width / 4;
    for (unsigned t = 0; t < shown; t++)
        for (unsigned i = 0; i < M; i++)
            for (unsigned j = 0; j < N; j++)
                printf("%0*x%c", digits, (unsigned)D[((size_t)t * M + i) * N + j],
                       j + 1 < N ? ' ' : '\n');
    return CLI_OK;
}

const cli_cmd cmd_mma = {"mma", "a Volta warp tile D = A*B + C through fragments and HMMAs",
                         mma_run};
