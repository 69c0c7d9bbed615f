/* cmd_conv.c - `tcsim conv`: a convolution through seed 003's Algorithm 1, 2 or 3 on the
 * Blackwell tensor-core model (tc_conv, model/include/tcsim_bw.h), from seeded random or
 * file inputs. Prints the checksum of the output bits and what the run cost. */
#define _POSIX_C_SOURCE 200809L /* getline */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "cli.h"
#include "cli_engine.h"

static const char *const CMD = "conv";

static void help(void)
{
    printf("usage: tcsim conv --n N --h H --w W --c C --k K --r R --s S\n"
           "                  [--stride 1] [--pad 0] [--dilation 1] --algo 1|2|3\n"
           "                  [--kind f16|tf32|f8f6f4|i8] [--in FMT | --in-a FMT --in-b FMT]\n"
           "                  [--out FMT] [--banks 8|4]\n"
           "                  [--seed 1 | --act FILE --wgt FILE] [--engine model|rtl]\n"
           "                  [--progress]\n\n"
           "Convolution of NHWC activations with KRSC weights on the Blackwell tcgen05 model\n"
           "(seed 003): algo 1 direct loops, 2 one MMA per filter tap, 3 activation reuse with\n"
           "tcgen05.shift. All three give the same output bits. --in defaults to fp16 (the kind\n"
           "follows it: fp16/bf16 f16, tf32 tf32, e4m3..e2m1 f8f6f4, int8/uint8 i8), --out to\n"
           "fp32 (s32 for i8). --in sets the format of the activations (A) and the weights (B);\n"
           "--in-a and --in-b set them apart, a pair the kind has (f8f6f4: any two of e4m3,\n"
           "e5m2, e3m2, e2m3, e2m1; i8: int8, uint8; the kind follows --in-a).\n"
           "Inputs are tame random values from --seed, or hex bit patterns\n"
           "(N*H*W*C and K*R*S*C words, '#' starts a comment, lines of at most " CLI_LINE_MAX_TEXT ")\n"
           "from --act and --wgt.\n"
           "Prints, one per line: checksum (FNV-1a 64 of the output words, NPQK order),\n"
           "smem_row_loads (activation rows copied from shared to tensor memory), shifts, mmas,\n"
           "cycles (of the modelled SM; 0 for algo 1, which uses no tensor core); with\n"
           "--engine rtl (every MMA on the Verilated tc_blackwell) also rtl_unit_cycles, the\n"
           "clock of that unit (one FEDP per kind), not the modelled SM's.\n"
           "Algorithms 2 and 3 report their progress on stderr once a run has taken 2 s\n"
           "(--progress: from the start): the share of the filter taps' MMAs done.\n");
}

/* The MMAs of algorithms 2 and 3, counted for the progress report on their way to the
 * engine chosen (NULL: the model's tc_bw_mma). */
typedef struct counted_mma {
    tc_bw_mma_fn mma;
    void *ctx;
    uint64_t done, total;
    cli_progress progress;
} counted_mma;

static tc_status counted_mma_run(void *ctx, tc_tmem *t, const tc_bw_mma_desc *d,
                                 tc_bw_cost *cost)
{
    counted_mma *c = ctx;
    tc_status s = c->mma ? c->mma(c->ctx, t, d, cost) : tc_bw_mma(t, d, cost);
    if (s == TC_OK && c->done < c->total)
        cli_progress_show(&c->progress, ++c->done, c->total);
    return s;
}

/* One MMA per (tile of 128 output pixels, r, output-channel chunk of 256, channel chunk
 * of the instruction's K, s); a tap whose every lane falls in the padding is skipped,
 * so this is the most there can be. */
static uint64_t mma_taps(const tc_conv_shape *sh, unsigned P, unsigned Q, unsigned K_el)
{
    uint64_t tiles = ((uint64_t)sh->n * P * Q + 127) / 128;
    uint64_t kc = (sh->k + TC_BW_MAX_N - 1) / TC_BW_MAX_N, cc = (sh->c + K_el - 1) / K_el;
    return tiles * sh->r * kc * cc * sh->s;
}

/* Read exactly n hex words of format f from path; -1 after a message naming the file
 * and line of what is wrong. Lines of any length (getline). */
static int read_words(const char *opt, const char *path, tc_fmt f, size_t n, uint32_t *out)
{
    FILE *fp = fopen(path, "r");
    if (!fp) {
        fprintf(stderr, "tcsim %s: cannot open %s '%s'\n", CMD, opt, CLI_PATH(path));
        return -1;
    }
    const char *qpath = CLI_PATH(path); /* quoted once, not for every word */
    const tc_fmt_info *fi = tc_fmt_get(f);
    size_t got = 0, cap = 0;
    char *line = NULL;
    int err = 0;
    unsigned long lineno = 0;
    long len = 0;
    while (!err && (len = cli_getline(fp, &line, &cap)) > 0) {
        lineno++;
        char *hash = strchr(line, '#');
        if (hash)
            *hash = 0;
        const char *s = line;
        for (unsigned word = 1; !err; word++) {
            const char *tok;
            uint64_t v;
            int r = cli_next_hex_word(&s, &tok, &v, "tcsim %s: %s '%s' line %lu: word %u", CMD,
                                      opt, qpath, lineno, word);
            if (!r)
                break;
            if (r < 0) {
                err = 1;
            } else if (got >= n || v >> (fi->width < 32 ? fi->width : 32)) {
                fprintf(stderr, "tcsim %s: %s '%s' line %lu: %s '%s'", CMD, opt, CLI_PATH(path),
                        lineno, got >= n ? "more words than the shape needs at"
                                         : "a word wider than the input format at",
                        CLI_WORDN(tok, (size_t)(s - tok)));
                if (got < n)
                    fprintf(stderr, " (%s: %u bits)", fi->name, fi->width);
                fputc('\n', stderr);
                err = 1;
            } else {
                out[got++] = (uint32_t)v;
            }
        }
    }
    if (!err && len < 0) {
        const char *fault = cli_line_fault(errno);
        if (fault)
            fprintf(stderr, "tcsim %s: %s '%s' line %lu: %s\n", CMD, opt, CLI_PATH(path),
                    lineno + 1, fault);
        else
            fprintf(stderr, "tcsim %s: %s '%s': cannot read it: %s\n", CMD, opt, CLI_PATH(path),
                    strerror(errno));
        err = 1;
    }
    free(line);
    fclose(fp);
    if (!err && got != n) {
        fprintf(stderr, "tcsim %s: %s '%s' has %zu words, the shape needs %zu\n", CMD, opt,
                CLI_PATH(path),
                got, n);
        err = 1;
    }
    return err ? -1 : 0;
}

static tc_bw_kind kind_of(tc_fmt in)
{
    switch (in) {
    case TC_FMT_FP16: case TC_FMT_BF16: return TC_BW_F16;
    case TC_FMT_TF32: return TC_BW_TF32;
    case TC_FMT_INT8: case TC_FMT_UINT8: return TC_BW_I8;
    default: return TC_BW_F8F6F4;
    }
}

static int run(int argc, char **argv)
{
    static const char *const dims[] = {"--n", "--h", "--w", "--c", "--k", "--r", "--s",
                                       "--stride", "--pad", "--dilation", "--algo", "--seed",
                                       "--banks"};
    enum { D_N, D_H, D_W, D_C, D_K, D_R, D_S, D_STRIDE, D_PAD, D_DIL, D_ALGO, D_SEED, D_BANKS, ND };
    unsigned long long v[ND] = {0, 0, 0, 0, 0, 0, 0, 1, 0, 1, 0, 1, 8};
    int have[ND] = {0};
    const char *act_path = NULL, *wgt_path = NULL, *engine = "model";
    tc_fmt in = TC_FMT_FP16, out = TC_FMT_FP32, in_a = TC_FMT_COUNT, in_b = TC_FMT_COUNT;
    int have_in = 0, have_out = 0, have_kind = 0, force_progress = 0;
    tc_bw_kind kind = TC_BW_F16;
    for (int i = 1; i < argc; i++) {
        const char *opt = argv[i], *a;
        if (cli_is_help(opt)) {
            help();
            return CLI_OK;
        }
        if (!strcmp(opt, "--progress")) {
            force_progress = 1;
            continue;
        }
        size_t d;
        for (d = 0; d < ND && strcmp(opt, dims[d]); d++)
            ;
        if (d == ND && strcmp(opt, "--act") && strcmp(opt, "--wgt") && strcmp(opt, "--engine") &&
            strcmp(opt, "--kind") && strcmp(opt, "--in") && strcmp(opt, "--in-a") &&
            strcmp(opt, "--in-b") && strcmp(opt, "--out")) {
            fprintf(stderr, "tcsim %s: unknown option '%s' (tcsim %s --help)\n", CMD,
                    CLI_WORD(opt), CMD);
            return CLI_USAGE;
        }
        if (!(a = cli_optarg(CMD, argc, argv, &i)))
            return CLI_USAGE;
        if (d < ND) {
            unsigned long long min = d == D_PAD || d == D_SEED ? 0 : 1;
            unsigned long long max = d == D_SEED ? ~0ull : d == D_PAD ? 4096
                                   : d == D_ALGO ? 3 : 1u << 20;
            if (cli_parse_uint(CMD, opt, a, min, max, &v[d]))
                return CLI_USAGE;
            if (d == D_BANKS && v[d] != 8 && v[d] != 4) {
                fprintf(stderr, "tcsim %s: bad value for %s '%s' (8 or 4)\n", CMD, opt,
                        CLI_WORD(a));
                return CLI_USAGE;
            }
            have[d] = 1;
        } else if (!strcmp(opt, "--act")) {
            act_path = a;
        } else if (!strcmp(opt, "--wgt")) {
            wgt_path = a;
        } else if (!strcmp(opt, "--engine")) {
            if (strcmp(a, "model") && strcmp(a, "rtl")) {
                fprintf(stderr, "tcsim %s: bad value for --engine '%s' (model or rtl)\n", CMD,
                        CLI_WORD(a));
                return CLI_USAGE;
            }
            engine = a;
        } else if (!strcmp(opt, "--kind")) {
            if (tc_bw_kind_parse(a, &kind) != TC_OK || kind > TC_BW_I8) {
                fprintf(stderr, "tcsim %s: bad value for --kind '%s' (f16, tf32, f8f6f4, i8)\n",
                        CMD, CLI_WORD(a));
                return CLI_USAGE;
            }
            have_kind = 1;
        } else if (!strcmp(opt, "--in-a") || !strcmp(opt, "--in-b")) {
            if (cli_parse_fmt(CMD, opt, a, opt[5] == 'a' ? &in_a : &in_b))
                return CLI_USAGE;
        } else if (cli_parse_fmt(CMD, opt, a, !strcmp(opt, "--in") ? &in : &out)) {
            return CLI_USAGE;
        } else {
            *(!strcmp(opt, "--in") ? &have_in : &have_out) = 1;
        }
    }
    for (size_t d = 0; d <= D_ALGO; d++)
        if (!have[d] && (d <= D_S || d == D_ALGO)) {
            fprintf(stderr, "tcsim %s: missing %s (tcsim %s --help)\n", CMD, dims[d], CMD);
            return CLI_USAGE;
        }
    if (!!act_path != !!wgt_path || (act_path && have[D_SEED])) {
        fprintf(stderr, "tcsim %s: give --act and --wgt together, or --seed\n", CMD);
        return CLI_USAGE;
    }
    if (have_in && (in_a != TC_FMT_COUNT || in_b != TC_FMT_COUNT)) {
        fprintf(stderr, "tcsim %s: --in sets both formats: give --in, or --in-a and --in-b, "
                        "not both\n", CMD);
        return CLI_USAGE;
    }
    if ((in_a != TC_FMT_COUNT) != (in_b != TC_FMT_COUNT)) {
        fprintf(stderr, "tcsim %s: --in-a and --in-b go together (or --in for both)\n", CMD);
        return CLI_USAGE;
    }
    if (in_a != TC_FMT_COUNT) {
        in = in_a;
        have_in = 1;
    }
    if (!have_in && have_kind) /* the kind's first format */
        in = kind == TC_BW_TF32 ? TC_FMT_TF32 : kind == TC_BW_F8F6F4 ? TC_FMT_E4M3
           : kind == TC_BW_I8 ? TC_FMT_INT8 : TC_FMT_FP16;
    if (in_b == TC_FMT_COUNT) /* --in (or the default): B as A */
        in_b = in;
    if (!have_kind)
        kind = kind_of(in);
    if (!have_out && kind == TC_BW_I8)
        out = TC_FMT_S32;

    tc_conv_args ca;
    memset(&ca, 0, sizeof ca);
    ca.shape = (tc_conv_shape){(unsigned)v[D_N], (unsigned)v[D_H], (unsigned)v[D_W],
                               (unsigned)v[D_C], (unsigned)v[D_K], (unsigned)v[D_R],
                               (unsigned)v[D_S], (unsigned)v[D_STRIDE], (unsigned)v[D_PAD],
                               (unsigned)v[D_DIL]};
    ca.kind = kind;
    ca.in = in;
    ca.in_b = in_b;
    ca.out = out;
    ca.algo = (tc_conv_algo)v[D_ALGO];
    ca.banks = (unsigned)v[D_BANKS];
    const tc_profile *p;
    unsigned P, Q;
    if (tc_bw_profile_ab(kind, in, in_b, out, TC_FMT_COUNT, &p) != TC_OK) {
        if (in_b != in) /* the instruction and the pair, as `tcsim dot` names them */
            fprintf(stderr, "tcsim %s: blackwell tcgen05.mma kind::%s has no %s x %s -> %s "
                            "form (--in-a %s --in-b %s)\n", CMD, tc_bw_kind_name(kind),
                    tc_fmt_get(in)->name, tc_fmt_get(in_b)->name, tc_fmt_get(out)->name,
                    tc_fmt_get(in)->name, tc_fmt_get(in_b)->name);
        else
            fprintf(stderr, "tcsim %s: kind %s has no %s -> %s\n", CMD, tc_bw_kind_name(kind),
                    tc_fmt_get(in)->name, tc_fmt_get(out)->name);
        return CLI_USAGE;
    }
    if (tc_conv_out_dims(&ca.shape, &P, &Q) != TC_OK) {
        fprintf(stderr, "tcsim %s: the filter (with dilation) does not fit the padded input\n",
                CMD);
        return CLI_USAGE;
    }
    /* every tensor below 2^28 words, so that no size overflows */
    const unsigned long long LIM = 1ull << 28;
    if (v[D_N] * v[D_H] * v[D_W] > LIM / v[D_C] || v[D_K] * v[D_R] * v[D_S] > LIM / v[D_C] ||
        v[D_N] * P * Q > LIM / v[D_K]) {
        fprintf(stderr, "tcsim %s: tensors of more than 2^28 words are not supported\n", CMD);
        return CLI_USAGE;
    }
    /* tc_conv refuses it too (TC_ESHAPE); said here with the reason, before any input is
     * read or memory taken */
    if (ca.algo != TC_CONV_DIRECT && ca.shape.k > TC_CONV_MMA_MAX_K) {
        fprintf(stderr, "tcsim %s: --k %u with --algo %u: algorithms 2 and 3 keep a tile's "
                        "whole D in tensor memory, K up to %u (--algo 1 has no limit)\n",
                CMD, ca.shape.k, (unsigned)ca.algo, (unsigned)TC_CONV_MMA_MAX_K);
        return CLI_USAGE;
    }
    const engine_bw_ops *bw = NULL;  /* --engine rtl: the registry's "bw" engine */
    void *eng = NULL;
    if (!strcmp(engine, "rtl")) {
        const engine_entry *e = cli_engine(CMD, "bw", ENGINE_BW_MMA, "Blackwell RTL");
        if (!e)
            return CLI_USAGE;
        bw = e->ops.bw;
        if (bw->open(&eng) != TC_OK) {
            fprintf(stderr, "tcsim %s: cannot start the Verilated tc_blackwell\n", CMD);
            return CLI_FAIL;
        }
        ca.mma = bw->mma;
        ca.mma_ctx = eng;
    }
    counted_mma cm = {ca.mma, ca.mma_ctx, 0, 0, {0}};
    unsigned K_el = 0, W_el = 0;
    if (ca.algo != TC_CONV_DIRECT && tc_bw_kind_dims(kind, &K_el, &W_el) == TC_OK) {
        cm.total = mma_taps(&ca.shape, P, Q, K_el);
        ca.mma = counted_mma_run;
        ca.mma_ctx = &cm;
    }
    cli_progress_start(&cm.progress, CMD, "MMAs", force_progress);
    size_t na = (size_t)ca.shape.n * ca.shape.h * ca.shape.w * ca.shape.c;
    size_t nw = (size_t)ca.shape.k * ca.shape.r * ca.shape.s * ca.shape.c;
    size_t no = (size_t)ca.shape.n * P * Q * ca.shape.k;
    uint32_t *act = malloc(na * sizeof *act), *wgt = malloc(nw * sizeof *wgt);
    uint32_t *o = malloc(no * sizeof *o);
    int rc = CLI_OK;
    tc_conv_stats st;
    tc_status s = TC_ENOMEM;
    if (!act || !wgt || !o) {
        fprintf(stderr, "tcsim %s: out of memory\n", CMD);
        rc = CLI_FAIL;
    } else if (act_path ? (read_words("--act", act_path, in, na, act) ||
                           read_words("--wgt", wgt_path, in_b, nw, wgt))
                        : (tc_random_fill(in, v[D_SEED], na, act) != TC_OK ||
                           tc_random_fill(in_b, v[D_SEED] ^ 0x9e3779b97f4a7c15ull, nw,
                                          wgt) != TC_OK)) {
        rc = CLI_USAGE;
    } else if ((s = tc_conv(&ca, act, wgt, o, &st)) != TC_OK) {
        cli_progress_abandon(&cm.progress);
        fprintf(stderr, "tcsim %s: %s\n", CMD, tc_strerror(s));
        rc = s == TC_EFORMAT || s == TC_ESHAPE ? CLI_USAGE : CLI_FAIL;
    } else {
        if (cm.done < cm.total) /* taps in the padding everywhere were skipped */
            cli_progress_show(&cm.progress, cm.total, cm.total);
        printf("checksum: %016llx\n", (unsigned long long)tc_checksum_words(o, no));
        printf("smem_row_loads: %llu\n", (unsigned long long)st.smem_row_loads);
        printf("shifts: %llu\n", (unsigned long long)st.shifts);
        printf("mmas: %llu\n", (unsigned long long)st.mmas);
        printf("cycles: %llu\n", (unsigned long long)st.cycles);
        /* the Verilated unit's own clock (one FEDP per kind), not the array model's */
        if (bw)
            printf("rtl_unit_cycles: %llu\n", (unsigned long long)bw->rtl_cycles(eng));
    }
    if (bw)
        bw->close(eng);
    free(act);
    free(wgt);
    free(o);
    return rc;
}

const cli_cmd cmd_conv = {"conv", "convolution on the Blackwell tcgen05 model (seed 003 algorithms 1-3)",
                          run};
