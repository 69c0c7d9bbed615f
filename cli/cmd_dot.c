/* cmd_dot.c - `tcsim dot`: dot products from standard input, one case per line.
 *
 * A line holds 2k+1 hex words (0x optional): a_0..a_{k-1}, b_0..b_{k-1}, c. With
 * --kind (block-scaled), the scales follow b: k/B words of scale_a, k/B of scale_b.
 * Output: d, one lowercase hex word per case, zero-padded to the output width.
 */
#define _POSIX_C_SOURCE 200809L
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include "cli.h"
#include "dot_stream.h"
#include "cli_engine.h"

static void dot_help(FILE *f)
{
    fprintf(f,
        "usage: tcsim dot --arch ARCH (--in FMT | --in-a FMT --in-b FMT) --out FMT\n"
        "                 [--instr mma|wgmma|tcgen05]\n"
        "                 [--kind mxf8f6f4|mxf4|mxf4nvf4 --scale ue8m0|ue4m3 [--block 16|32]]\n"
        "                 [--popc and|xor] [--engine model|rtl] [--sparse]\n\n"
        "Reads cases from standard input, one per line: 2k+1 hex words (0x optional),\n"
        "a_0..a_{k-1} and b_0..b_{k-1} as bit patterns of --in, then c as a bit pattern of\n"
        "--out. k may be any positive count (k > L chains FEDP steps). --in fp64 --out fp64\n"
        "(the DMMA form, ampere on) takes 64-bit patterns (up to 16 hex digits) and prints\n"
        "16-digit results. --in-a and --in-b\n"
        "give A and B different formats, where the instruction has the pair (e4m3 with\n"
        "e5m2; the f8f6f4 formats on tcgen05; int8 with uint8, int4 with uint4): a in\n"
        "--in-a, b in --in-b. --in b1 --out s32 takes --popc and|xor, the 1-bit op: d = c +\n"
        "popcount(a AND b) or (a XOR b), one bit (0 or 1) per word. Block-scaled kinds\n"
        "take k/B scale words for a, then k/B for b, between b and c. Empty lines and lines\n"
        "starting with # are skipped. Prints d per case as lowercase hex.\n\n"
        "A bad line prints 'line N: <reason>' on stderr and exits 2 after the results of\n"
        "the lines before it; so does a line longer than " CLI_LINE_MAX_TEXT " (read no further).\n"
        "`tcsim list` shows the supported combinations.\n"
        "--engine rtl runs each FEDP step through the Verilated RTL profile.\n"
        "--sparse: mma.sp, A 2:4 sparse (docs/tcsim.md \"Sparse dot products\"): a line is\n"
        "a_0..a_{k/2-1} (the stored elements), m_0..m_{W-1} (metadata words, W = k/32\n"
        "rounded up; tf32 k/16, int4/uint4 k/64), b_0..b_{k-1}, c, k the dense k. Each\n"
        "metadata nibble (chunk q in bits 4(q%%8)+3..4(q%%8) of m_{q/8}) holds two ascending\n"
        "2-bit indices of the kept elements of 4 (4, 8, 9, c, d, e; int4: of pairs of 8;\n"
        "tf32: 4 keeps the first of 2, e the second).\n");
}

/* The 1-bit forms (issue 33): the op is part of the form, so b1 needs --popc and --popc
 * needs b1 and s32. */
static int popc_open(const char *cmd, const dot_options *o, tc_fmt in_b, dot_stream *ds)
{
    const char *op = o->popc == TC_KIND_POPC_AND ? "and" : "xor";
    if (!o->popc) {
        fprintf(stderr, "tcsim %s: --in b1 needs --popc and|xor (the 1-bit op)\n", cmd);
        return -1;
    }
    if (o->in != TC_FMT_B1 || in_b != TC_FMT_B1 || o->out != TC_FMT_S32 || o->kind) {
        fprintf(stderr, "tcsim %s: --popc %s goes with --in b1 --out s32 alone (the 1-bit "
                        "forms), not %s x %s --out %s%s\n", cmd, op, tc_fmt_get(o->in)->name,
                tc_fmt_get(in_b)->name, tc_fmt_get(o->out)->name, o->kind ? " --kind" : "");
        return -1;
    }
    if (tc_profile_find_popc(o->arch, o->instr, o->popc, &ds->p) != TC_OK) {
        fprintf(stderr, "tcsim %s: --popc %s: %s %s has no b1 .%s.popc form (tcsim list "
                        "shows the supported combinations)\n", cmd, op,
                tc_arch_name(o->arch), tc_instr_name(o->instr), op);
        return -1;
    }
    if (o->rtl) {
        fprintf(stderr, "tcsim %s: --engine rtl: no Verilated FEDP implements %s\n", cmd,
                ds->p->name);
        return -1;
    }
    return 0;
}

int dot_open(const char *cmd, const dot_options *o, dot_stream *ds)
{
    memset(ds, 0, sizeof *ds);
    tc_status st;
    tc_fmt in_b = o->has_in_b ? o->in_b : o->in;
    if (o->popc || o->in == TC_FMT_B1 || in_b == TC_FMT_B1)
        return popc_open(cmd, o, in_b, ds);
    if (o->kind)
        st = tc_profile_find_scaled_ab(o->arch, o->instr, o->kind, o->in, in_b, o->scale,
                                       o->block, &ds->p);
    else
        st = tc_profile_find_ab(o->arch, o->instr, o->in, in_b, o->out, &ds->p);
    const tc_profile *one;
    /* a pair the instruction lacks (whatever the block): name it */
    if (st != TC_OK && in_b != o->in &&
        !(o->kind && tc_profile_find_scaled_ab(o->arch, o->instr, o->kind, o->in, in_b,
                                               o->scale, 0, &one) == TC_OK)) {
        int other_out = !o->kind &&
                        tc_profile_find_ab(o->arch, o->instr, o->in, in_b,
                                           o->out == TC_FMT_FP32 ? TC_FMT_FP16 : TC_FMT_FP32,
                                           &one) == TC_OK;
        /* a block-scaled kind names its form by the kind and the scale format */
        fprintf(stderr, "tcsim %s: %s %s%s%s has no %s x %s form%s%s%s%s (tcsim list shows "
                        "the supported combinations)\n", cmd, tc_arch_name(o->arch),
                tc_instr_name(o->instr), o->kind ? " kind::" : "", o->kind ? o->kind : "",
                tc_fmt_get(o->in)->name, tc_fmt_get(in_b)->name,
                other_out ? " with --out " : "", other_out ? tc_fmt_get(o->out)->name : "",
                o->kind ? " with --scale " : "", o->kind ? tc_fmt_get(o->scale)->name : "");
        return -1;
    }
    if (st == TC_OK && o->kind && ds->p->out != o->out)
        st = TC_EUNSUPPORTED;
    const tc_profile *any_block; /* all but the block fits: say so */
    if (st != TC_OK && o->kind && o->block &&
        tc_profile_find_scaled_ab(o->arch, o->instr, o->kind, o->in, in_b, o->scale, 0,
                                  &any_block) == TC_OK && any_block->out == o->out) {
        fprintf(stderr, "tcsim %s: --block %u: --kind %s with --scale %s has scale blocks of "
                        "%u\n", cmd, o->block, o->kind, tc_fmt_get(o->scale)->name,
                any_block->scale_block);
        return -1;
    }
    if (st != TC_OK) {
        fprintf(stderr, "tcsim %s: no profile for --arch %s --instr %s", cmd,
                tc_arch_name(o->arch), tc_instr_name(o->instr));
        if (in_b != o->in)
            fprintf(stderr, " --in-a %s --in-b %s", tc_fmt_get(o->in)->name,
                    tc_fmt_get(in_b)->name);
        else
            fprintf(stderr, " --in %s", tc_fmt_get(o->in)->name);
        fprintf(stderr, " --out %s", tc_fmt_get(o->out)->name);
        if (o->kind)
            fprintf(stderr, " --kind %s --scale %s", o->kind, tc_fmt_get(o->scale)->name);
        if (o->block)
            fprintf(stderr, " --block %u", o->block);
        fprintf(stderr, " (tcsim list shows the supported combinations)\n");
        return -1;
    }
    ds->scaled = o->kind != NULL;
    if (!o->rtl)
        return 0;
    const engine_entry *e =
        cli_engine(cmd, "fedp", ENGINE_STEP, "RTL (configure with -DTCSIM_RTL=ON)");
    if (!e)
        return -1;
    const tc_profile *sp;
    if (tc_profile_step_of(ds->p, &sp) != TC_OK ||
        e->ops.step->open(sp, &ds->engine) != TC_OK) {
        fprintf(stderr, "tcsim %s: --engine rtl: no Verilated FEDP implements %s\n", cmd,
                ds->p->name);
        return -1;
    }
    ds->rtl = e->ops.step;
    ds->step = e->ops.step->step;
    return 0;
}

void dot_close(dot_stream *ds)
{
    if (ds->rtl)
        ds->rtl->close(ds->engine);
    free(ds->words);
    free(ds->w32);
    ds->words = NULL;
    ds->w32 = NULL;
    ds->engine = NULL;
    ds->rtl = NULL;
}

/* Names word i of a case of k products (for messages). */
static void word_name(const dot_stream *ds, size_t i, size_t k, size_t ns, char *buf,
                      size_t n)
{
    if (i < k)
        snprintf(buf, n, "a_%zu", i);
    else if (i < 2 * k)
        snprintf(buf, n, "b_%zu", i - k);
    else if (ds->scaled && i < 2 * k + ns)
        snprintf(buf, n, "scale_a_%zu", i - 2 * k);
    else if (ds->scaled && i < 2 * k + 2 * ns)
        snprintf(buf, n, "scale_b_%zu", i - 2 * k - ns);
    else
        snprintf(buf, n, "c");
}

int dot_read_words(dot_stream *ds, const char *line, unsigned long lineno, size_t *count)
{
    const char *s = line;
    size_t n = 0;
    for (;;) {
        const char *start;
        uint64_t v;
        int r = cli_next_hex_word(&s, &start, &v, "line %lu: word %zu", lineno, n + 1);
        if (r < 0)
            return -1;
        if (!r)
            break;
        if (n == ds->cap) {
            size_t cap = ds->cap ? 2 * ds->cap : 64;
            uint64_t *w = realloc(ds->words, cap * sizeof *w);
            if (w)
                ds->words = w;
            uint32_t *w32 = w ? realloc(ds->w32, cap * sizeof *w32) : NULL;
            if (!w32) {
                fprintf(stderr, "line %lu: out of memory\n", lineno);
                return -1;
            }
            ds->w32 = w32;
            ds->cap = cap;
        }
        ds->words[n++] = v;
    }
    *count = n;
    return n == 0; /* 1: nothing on the line */
}

int dot_line(dot_stream *ds, const char *line, unsigned long lineno, uint64_t *d)
{
    size_t n;
    int r = dot_read_words(ds, line, lineno, &n);
    if (r)
        return r;

    /* k from the word count: 2k+1, or 2k + 2k/B + 1 when scaled */
    size_t k, ns = 0, B = ds->scaled ? ds->p->scale_block : 0;
    if (ds->scaled) {
        size_t per = 2 * B + 2; /* words per B products: a, b and two scales */
        if (n < 1 + per || (n - 1) % per) {
            fprintf(stderr, "line %lu: %zu words; expected 2k + 2k/%zu + 1 (k a positive "
                            "multiple of %zu: a, b, scale_a, scale_b, c)\n",
                    lineno, n, B, B);
            return -1;
        }
        k = (n - 1) / per * B;
        ns = k / B;
    } else {
        if (n < 3 || n % 2 == 0) {
            fprintf(stderr, "line %lu: %zu words; expected an odd count 2k+1 >= 3 "
                            "(a_0..a_{k-1} b_0..b_{k-1} c)\n", lineno, n);
            return -1;
        }
        k = (n - 1) / 2;
    }
    /* widths: every word must fit its format */
    const tc_fmt_info *fin = tc_fmt_get(ds->p->in), *fout = tc_fmt_get(ds->p->out);
    const tc_fmt_info *finb = tc_fmt_get(ds->p->in_b);
    const tc_fmt_info *fsc = ds->scaled ? tc_fmt_get(ds->p->scale) : NULL;
    for (size_t i = 0; i < n; i++) {
        const tc_fmt_info *fi = i < k ? fin : i < 2 * k ? finb : i < 2 * k + 2 * ns ? fsc : fout;
        uint64_t lim = fi->width >= 64 ? UINT64_MAX
                     : fi->width >= 32 ? UINT64_C(0xffffffff) : (UINT64_C(1) << fi->width) - 1;
        if (ds->words[i] > lim) {
            char nm[32];
            word_name(ds, i, k, ns, nm, sizeof nm);
            fprintf(stderr, "line %lu: %s = 0x%llx is wider than %s (%u bits)\n", lineno, nm,
                    (unsigned long long)ds->words[i], fi->name, fi->width);
            return -1;
        }
    }
    if (ds->p->kind == TC_KIND_FP64) {
        tc_status st = tc_dot_f64(ds->p, k, ds->words, ds->words + k, ds->words[n - 1], d);
        if (st != TC_OK)
            fprintf(stderr, "line %lu: %s\n", lineno, tc_strerror(st));
        return st == TC_OK ? 0 : -1;
    }
    /* the words are checked: narrow them */
    uint32_t *w32 = ds->w32;
    uint32_t d32 = 0;
    for (size_t i = 0; i < n; i++)
        w32[i] = (uint32_t)ds->words[i];
    tc_status st;
    if (ds->scaled)
        st = tc_dot_scaled(ds->p, k, w32, w32 + k, w32 + 2 * k, w32 + 2 * k + ns, w32[n - 1],
                           &d32);
    else if (ds->step)
        st = tc_dot_engine(ds->p, k, w32, w32 + k, w32[n - 1], &d32, ds->step, ds->engine);
    else
        st = tc_dot(ds->p, k, w32, w32 + k, w32[n - 1], &d32);
    if (st != TC_OK) {
        fprintf(stderr, "line %lu: %s\n", lineno, tc_strerror(st));
        return -1;
    }
    *d = d32;
    return 0;
}


int dot_stream_run(dot_stream *ds, FILE *in, FILE *out)
{
    char *line = NULL;
    size_t cap = 0;
    unsigned long lineno = 0;
    int rc = 0;
    const unsigned digits = (tc_fmt_get(ds->p->out)->width + 3) / 4;
    long len = 0;
    while ((len = cli_getline(in, &line, &cap)) > 0) {
        lineno++;
        if (line[0] == '#')
            continue;
        uint64_t d;
        int r;
        if (ds->sparse) {
            uint32_t d32 = 0;
            r = dot_sp_line(ds, line, lineno, &d32);
            d = d32;
        } else {
            r = dot_line(ds, line, lineno, &d);
        }
        if (r < 0) {
            rc = -1;
            break;
        }
        if (r == 0) {
            char buf[20];
            for (unsigned i = 0; i < digits; i++)
                buf[i] = "0123456789abcdef"[(d >> (4 * (digits - 1 - i))) & 15u];
            buf[digits] = '\n';
            if (fwrite(buf, 1, digits + 1, out) != digits + 1) {
                rc = 1; /* main reports the write error */
                break;
            }
        }
    }
    if (rc == 0 && len < 0) {
        const char *fault = cli_line_fault(errno);
        if (fault)
            fprintf(stderr, "line %lu: %s\n", lineno + 1, fault);
        else
            fprintf(stderr, "line %lu: cannot read the input: %s\n", lineno + 1, strerror(errno));
        rc = -1;
    }
    free(line);
    return rc;
}

static int dot_run(int argc, char **argv)
{
    dot_options o = {.arch = TC_ARCH_COUNT, .instr = TC_INSTR_MMA, .in = TC_FMT_COUNT,
                     .out = TC_FMT_COUNT, .scale = TC_FMT_COUNT};
    tc_fmt in_a = TC_FMT_COUNT;
    int have_in = 0, sparse = 0;
    for (int i = 1; i < argc; i++) {
        const char *opt = argv[i], *v;
        unsigned long long u;
        if (cli_is_help(opt)) {
            dot_help(stdout);
            return CLI_OK;
        }
        if (!strcmp(opt, "--sparse")) { /* mma.sp: dot_sparse.c */
            sparse = 1;
            continue;
        }
        static const char *const takes_value[] = {"--arch", "--instr", "--in", "--in-a",
                                                   "--in-b", "--out", "--scale", "--kind",
                                                   "--block", "--engine", "--popc"};
        size_t o_i = 0;
        while (o_i < sizeof takes_value / sizeof *takes_value && strcmp(opt, takes_value[o_i]))
            o_i++;
        if (o_i == sizeof takes_value / sizeof *takes_value) {
            fprintf(stderr, "tcsim dot: %s '%s' (tcsim dot --help; input comes on stdin)\n",
                    opt[0] == '-' && opt[1] ? "unknown option" : "unexpected argument",
                    CLI_WORD(opt));
            return CLI_USAGE;
        }
        if (!(v = cli_optarg("dot", argc, argv, &i))) {
            return CLI_USAGE;
        } else if (!strcmp(opt, "--arch")) {
            if (cli_parse_arch("dot", v, &o.arch))
                return CLI_USAGE;
        } else if (!strcmp(opt, "--instr")) {
            if (cli_parse_instr("dot", v, &o.instr))
                return CLI_USAGE;
        } else if (!strcmp(opt, "--in")) {
            if (cli_parse_fmt("dot", opt, v, &o.in))
                return CLI_USAGE;
            have_in = 1;
        } else if (!strcmp(opt, "--in-a")) {
            if (cli_parse_fmt("dot", opt, v, &in_a))
                return CLI_USAGE;
        } else if (!strcmp(opt, "--in-b")) {
            if (cli_parse_fmt("dot", opt, v, &o.in_b))
                return CLI_USAGE;
            o.has_in_b = 1;
        } else if (!strcmp(opt, "--out")) {
            if (cli_parse_fmt("dot", opt, v, &o.out))
                return CLI_USAGE;
        } else if (!strcmp(opt, "--scale")) {
            if (cli_parse_fmt("dot", opt, v, &o.scale))
                return CLI_USAGE;
        } else if (!strcmp(opt, "--kind")) {
            if (strcmp(v, "mxf8f6f4") && strcmp(v, "mxf4") && strcmp(v, "mxf4nvf4")) {
                fprintf(stderr, "tcsim dot: unknown --kind '%s' (mxf8f6f4, mxf4, mxf4nvf4)\n",
                        CLI_WORD(v));
                return CLI_USAGE;
            }
            o.kind = v;
        } else if (!strcmp(opt, "--block")) {
            if (cli_parse_uint("dot", opt, v, 1, 1024, &u))
                return CLI_USAGE;
            o.block = (unsigned)u;
        } else if (!strcmp(opt, "--popc")) {
            if (strcmp(v, "and") && strcmp(v, "xor")) {
                fprintf(stderr, "tcsim dot: unknown --popc '%s' (and or xor: the b1 op)\n",
                        CLI_WORD(v));
                return CLI_USAGE;
            }
            o.popc = !strcmp(v, "and") ? TC_KIND_POPC_AND : TC_KIND_POPC_XOR;
        } else if (!strcmp(opt, "--engine")) {
            if (strcmp(v, "model") && strcmp(v, "rtl")) {
                fprintf(stderr, "tcsim dot: unknown --engine '%s' (model or rtl)\n",
                        CLI_WORD(v));
                return CLI_USAGE;
            }
            o.rtl = !strcmp(v, "rtl");
        } else {
            fprintf(stderr, "tcsim dot: unknown option '%s' (tcsim dot --help)\n", CLI_WORD(opt));
            return CLI_USAGE;
        }
    }
    if (have_in && (in_a != TC_FMT_COUNT || o.has_in_b)) {
        fprintf(stderr, "tcsim dot: --in sets both formats: give --in, or --in-a and --in-b, "
                        "not both\n");
        return CLI_USAGE;
    }
    if ((in_a != TC_FMT_COUNT) != o.has_in_b) {
        fprintf(stderr, "tcsim dot: --in-a and --in-b go together (or --in for both)\n");
        return CLI_USAGE;
    }
    if (in_a != TC_FMT_COUNT)
        o.in = in_a;
    if (o.arch == TC_ARCH_COUNT || o.in == TC_FMT_COUNT || o.out == TC_FMT_COUNT) {
        fprintf(stderr, "tcsim dot: --arch, --in and --out are required (--in-a and --in-b "
                        "may stand for --in; tcsim dot --help)\n");
        return CLI_USAGE;
    }
    if ((o.kind != NULL) != (o.scale != TC_FMT_COUNT)) {
        fprintf(stderr, "tcsim dot: --kind and --scale go together (block-scaled kinds)\n");
        return CLI_USAGE;
    }
    if (o.block && !o.kind) {
        fprintf(stderr, "tcsim dot: --block is the scale block of --kind; it needs --kind\n");
        return CLI_USAGE;
    }
    dot_stream ds;
    if (dot_open("dot", &o, &ds))
        return CLI_USAGE;
    if (sparse && dot_sp_open("dot", &o, &ds)) {
        dot_close(&ds);
        return CLI_USAGE;
    }
    int rc = dot_stream_run(&ds, stdin, stdout);
    dot_close(&ds);
    return rc > 0 ? CLI_FAIL : rc ? CLI_USAGE : CLI_OK;
}

const cli_cmd cmd_dot = {"dot", "dot products from stdin (hex bit patterns), one per line",
                         dot_run};
