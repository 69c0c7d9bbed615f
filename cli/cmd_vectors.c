/* cmd_vectors.c - `tcsim vectors`: a GPU's measured results (the layout of the A100
 * vectors in data/vectors, gpu_vectors.h) against the model, set by set, bit for bit.
 * The architecture comes from the GPU's name (docs/contract.md's table) or --arch. */
#define _POSIX_C_SOURCE 200809L
#include <ctype.h>
#include <stdlib.h>
#include <string.h>
#include "cli.h"
#include "cli_engine.h"
#include "data_dir.h"
#include "dot_stream.h"
#include "gpu_vectors.h"
#include "gpu_vectors_sparse.h"

static void vectors_help(FILE *f)
{
    fprintf(f,
        "usage: tcsim vectors [DIR] [--arch ARCH] [--instr mma|wgmma|tcgen05] [--gpu NAME]\n"
        "                     [--show N] [--engine model|rtl]\n\n"
        "Checks a GPU's measured results against the model, bit for bit. DIR (default\n"
        "vectors/a100 in tcsim's data folder, below) holds, in sub-folders or itself,\n"
        "files a_<GPU>_<in>.txt and b_<GPU>_<in>.txt (one case per line, k words\n"
        "of fp32 bits exact in <in>), c_<GPU>_fp32.txt (c; rounded RNE to fp16 for fp16\n"
        "output) and d_<GPU>_<out>.txt (the GPU's results as fp32 bits), one set per d\n"
        "file. Integer sets (int8, uint8, ... -> s32) hold values as 32-bit\n"
        "two's-complement words, c in c_<GPU>_s32.txt. A mixed pair names b in its own\n"
        "format (the one b_<GPU>_<in_b>.txt); a block-scaled set adds\n"
        "sa_<GPU>_<scale>.txt and sb_<GPU>_<scale>.txt (k/block scale bit patterns a\n"
        "line) and kind_<GPU>.txt (mxf8f6f4, mxf4 or mxf4nvf4); a b1 set names its popc\n"
        "op (and, xor) in kind_<GPU>.txt. An fp64 (DMMA) set is a_, b_, c_ and\n"
        "d_<GPU>_fp64.txt of binary64 patterns (16 hex or 64 binary digits), checked\n"
        "through the chain of binary64 FMAs. Words are hex or 32\n"
        "binary digits, lines at most " CLI_LINE_MAX_TEXT " long. k is taken from the\n"
        "files; k > L chains FEDP steps as the model does.\n\n"
        "  --arch    the architecture; by default from the GPU's name: V100 volta; T4,\n"
        "            RTX 20xx turing; A100, A30, A2, RTX 30xx ampere; L40(S), RTX 40xx ada;\n"
        "            H100, H200 hopper; B200 blackwell\n"
        "  --instr   the instruction that produced the results (default mma)\n"
        "  --gpu     the GPU of the file names, when DIR holds several\n"
        "  --show    the first N differing cases of each set, as `tcsim dot` input\n"
        "            (default 3)\n"
        "  --engine  rtl: each FEDP step through the Verilated RTL profile\n\n"
        "Prints a line per set. Exit status 0 if every result is bit-exact, 1 if some\n"
        "differ, 2 for bad files or options (the message names the file and line).\n\n"
        DATA_DIR_HELP);
}

/* docs/contract.md's table of GPUs per architecture, as name prefixes (RTX 30xx, Ampere, is
 * seed 004's RTX3070Ti). Matched on the name upper-cased without separators. */
static const struct {
    const char *prefix;
    tc_arch arch;
} gpu_archs[] = {
    {"V100", TC_ARCH_VOLTA},  {"T4", TC_ARCH_TURING},      {"RTX20", TC_ARCH_TURING},
    {"A100", TC_ARCH_AMPERE}, {"A30", TC_ARCH_AMPERE},     {"A2", TC_ARCH_AMPERE},
    {"RTX30", TC_ARCH_AMPERE}, {"L40", TC_ARCH_ADA},       {"RTX40", TC_ARCH_ADA},
    {"H100", TC_ARCH_HOPPER}, {"H200", TC_ARCH_HOPPER},    {"B200", TC_ARCH_BLACKWELL},
};

static int arch_of_gpu(const char *gpu, tc_arch *out)
{
    char key[GV_NAME];
    size_t n = 0;
    for (const char *s = gpu; *s && n + 1 < sizeof key; s++)
        if (isalnum((unsigned char)*s))
            key[n++] = (char)toupper((unsigned char)*s);
    key[n] = 0;
    for (size_t i = 0; i < sizeof gpu_archs / sizeof gpu_archs[0]; i++)
        if (!strncmp(key, gpu_archs[i].prefix, strlen(gpu_archs[i].prefix))) {
            *out = gpu_archs[i].arch;
            return 0;
        }
    return -1;
}

/* The case as one `tcsim dot` input line. */
static void print_case(const tc_profile *p, const gv_cases *cs, size_t i)
{
    unsigned wi = (tc_fmt_get(p->in)->width + 3) / 4, wo = (tc_fmt_get(p->out)->width + 3) / 4;
    printf("      ");
    for (size_t t = 0; t < 2 * cs->k; t++)
        printf("%0*x ", (int)wi,
               t < cs->k ? cs->a[i * cs->k + t] : cs->b[i * cs->k + t - cs->k]);
    for (size_t t = 0; cs->sa && t < 2 * cs->nsf; t++) /* the scales follow b */
        printf("%02x ", t < cs->nsf ? cs->sa[i * cs->nsf + t] : cs->sb[i * cs->nsf + t - cs->nsf]);
    printf("%0*x\n", (int)wo, cs->c[i]);
}

/* An fp64 (DMMA) set's cases through tc_dot_f64 (the chain of binary64 FMAs), printed
 * as check_set prints a set: returns the differing cases, or -1. */
static long check_f64(const gv_set *s, const gv_cases *cs, const tc_profile *p, size_t show)
{
    uint64_t *d = malloc((cs->n ? cs->n : 1) * sizeof *d);
    long bad = d ? 0 : -1;
    if (!d)
        fprintf(stderr, "tcsim vectors: %s, set %s: out of memory\n", CLI_PATH(s->dir),
                s->name);
    for (size_t i = 0; i < cs->n && bad >= 0; i++) {
        tc_status st = tc_dot_f64(p, cs->k, cs->a64 + i * cs->k, cs->b64 + i * cs->k,
                                  cs->c64[i], &d[i]);
        if (st != TC_OK) {
            fprintf(stderr, "tcsim vectors: %s, set %s, case %zu: %s\n", CLI_PATH(s->dir),
                    s->name, i + 1, tc_strerror(st));
            bad = -1;
        }
        bad += bad >= 0 && d[i] != cs->d64[i];
    }
    if (bad >= 0)
        printf("%-12s %-28s %3zu %7zu %10zu %7ld\n", s->name, p->name, cs->k, cs->n,
               cs->n - (size_t)bad, bad);
    for (size_t i = 0, shown = 0; bad > 0 && i < cs->n && shown < show; i++) {
        if (d[i] == cs->d64[i])
            continue;
        printf("    case %zu: model %016llx, %s %016llx; input of `tcsim dot --arch %s --instr "
               "%s --in fp64 --out fp64`:\n      ", i + 1, (unsigned long long)d[i],
               CLI_WORD(s->gpu), (unsigned long long)cs->d64[i], tc_arch_name(p->arch),
               tc_instr_name(p->instr));
        for (size_t t = 0; t < 2 * cs->k; t++)
            printf("%016llx ", (unsigned long long)(t < cs->k ? cs->a64[i * cs->k + t]
                                                              : cs->b64[i * cs->k + t - cs->k]));
        printf("%016llx\n", (unsigned long long)cs->c64[i]);
        shown++;
    }
    free(d);
    return bad;
}

/* One set: returns the differing cases, or -1 if it could not be run. */
static long check_set(const gv_set *s, const dot_options *base, size_t show)
{
    dot_options o = *base;
    o.in = s->in;
    o.out = s->out;
    o.has_in_b = s->mixed;
    o.in_b = s->in_b;
    gv_cases cs;
    if (gv_load(s, &cs))
        return -1;
    if (s->in == TC_FMT_B1) /* b1: the op of kind_<GPU>.txt (gv_find checked it) */
        o.popc = !strcmp(s->kind, "and") ? TC_KIND_POPC_AND : TC_KIND_POPC_XOR;
    if (s->scaled) { /* the block from the files: k / (scales a line) */
        o.scale = s->scale;
        o.kind = s->kind;
        o.block = (unsigned)(cs.k / cs.nsf);
    }
    if (s->in == TC_FMT_FP64 && o.rtl) {
        fprintf(stderr, "tcsim vectors: %s, set %s: --engine rtl has no fp64 datapath (the "
                        "model's DMMA only)\n", CLI_PATH(s->dir), s->name);
        gv_free(&cs);
        return -1;
    }
    if (s->in == TC_FMT_FP64)
        o.rtl = 0;
    dot_stream ds;
    if (dot_open("vectors", &o, &ds)) {
        gv_free(&cs);
        return -1;
    }
    if (s->in == TC_FMT_FP64) {
        long bad = check_f64(s, &cs, ds.p, show);
        gv_free(&cs);
        dot_close(&ds);
        return bad;
    }
    const tc_profile *p = ds.p;
    unsigned wo = (tc_fmt_get(p->out)->width + 3) / 4;
    /* an mma.sp set (sparse_<GPU>.txt beside it) runs through tc_dot_sp at the dense k;
     * --engine rtl steps the kept terms as the dense dot product they are */
    gv_sparse sp;
    int sparse = gv_sparse_load(s, cs.n, &sp);
    uint32_t *d = sparse >= 0 ? malloc(cs.n * sizeof *d) : NULL;
    long bad = d ? 0 : -1;
    if (!d)
        fprintf(stderr, "tcsim vectors: %s, set %s: out of memory\n", CLI_PATH(s->dir),
                s->name);
    for (size_t i = 0; i < cs.n && bad >= 0; i++) {
        const uint32_t *a = cs.a + i * cs.k, *b = cs.b + i * cs.k;
        tc_status st = cs.sa       ? tc_dot_scaled(p, cs.k, a, b, cs.sa + i * cs.nsf,
                                                   cs.sb + i * cs.nsf, cs.c[i], &d[i])
                       : ds.step   ? tc_dot_engine(p, cs.k, a, b, cs.c[i], &d[i], ds.step,
                                                   ds.engine)
                       : sparse == 0 ? gv_sparse_dot(p, &sp, &cs, i, &d[i])
                                     : tc_dot(p, cs.k, a, b, cs.c[i], &d[i]);
        if (st != TC_OK) {
            fprintf(stderr, "tcsim vectors: %s, set %s, case %zu: %s\n", CLI_PATH(s->dir),
                    s->name, i + 1, tc_strerror(st));
            bad = -1;
        }
        bad += bad >= 0 && d[i] != cs.d[i];
    }
    if (bad >= 0)
        printf("%-12s %-28s %3zu %7zu %10zu %7ld\n", s->name, p->name,
               sparse == 0 && !ds.step ? 2 * cs.k : cs.k, cs.n, cs.n - (size_t)bad, bad);
    if (bad >= 0 && sparse == 0)
        printf("    mma.sp: sparse_%s.txt's patterns, %s\n", CLI_WORD(s->gpu),
               ds.step ? "the kept terms stepped as a dense dot product"
                       : "through tc_dot_sp (k the dense k)");
    for (size_t i = 0, shown = 0; bad > 0 && i < cs.n && shown < show; i++) {
        if (d[i] == cs.d[i])
            continue;
        char extra[96] = "";
        if (s->mixed)
            snprintf(extra, sizeof extra, " --in-b %s", tc_fmt_get(s->in_b)->name);
        else if (cs.sa)
            snprintf(extra, sizeof extra, " --kind %s --scale %s --block %u", CLI_WORD(s->kind),
                     tc_fmt_get(s->scale)->name, o.block);
        printf("    case %zu: model %0*x, %s %0*x; input of `tcsim dot --arch %s --instr %s "
               "--in%s %s%s --out %s`:\n", i + 1, (int)wo, d[i], CLI_WORD(s->gpu), (int)wo,
               cs.d[i], tc_arch_name(p->arch), tc_instr_name(p->instr),
               s->mixed ? "-a" : "", tc_fmt_get(p->in)->name, extra,
               tc_fmt_get(p->out)->name);
        print_case(p, &cs, i);
        shown++;
    }
    free(d);
    if (sparse == 0)
        gv_sparse_free(&sp);
    gv_free(&cs);
    dot_close(&ds);
    return bad;
}

static int vectors_run(int argc, char **argv)
{
    const char *dir = NULL, *gpu = NULL, *arch_s = NULL;
    dot_options o = {TC_ARCH_AMPERE, TC_INSTR_MMA, TC_FMT_FP16, TC_FMT_FP32, TC_FMT_COUNT,
                     NULL, 0, 0, 0, TC_FMT_COUNT, 0};
    unsigned long long show = 3;
    int have_dir = 0;
    for (int i = 1; i < argc; i++) {
        const char *v;
        if (cli_is_help(argv[i])) {
            vectors_help(stdout);
            return CLI_OK;
        } else if (!strcmp(argv[i], "--arch")) {
            if (!(arch_s = cli_optarg("vectors", argc, argv, &i)) ||
                cli_parse_arch("vectors", arch_s, &o.arch))
                return CLI_USAGE;
        } else if (!strcmp(argv[i], "--instr")) {
            if (!(v = cli_optarg("vectors", argc, argv, &i)) ||
                cli_parse_instr("vectors", v, &o.instr))
                return CLI_USAGE;
        } else if (!strcmp(argv[i], "--gpu")) {
            if (!(gpu = cli_optarg("vectors", argc, argv, &i)))
                return CLI_USAGE;
        } else if (!strcmp(argv[i], "--show")) {
            if (!(v = cli_optarg("vectors", argc, argv, &i)) ||
                cli_parse_uint("vectors", "--show", v, 0, 1000000, &show))
                return CLI_USAGE;
        } else if (!strcmp(argv[i], "--engine")) {
            if (!(v = cli_optarg("vectors", argc, argv, &i)))
                return CLI_USAGE;
            if (strcmp(v, "model") && strcmp(v, "rtl")) {
                fprintf(stderr, "tcsim vectors: unknown --engine '%s' (model or rtl)\n",
                        CLI_WORD(v));
                return CLI_USAGE;
            }
            o.rtl = !strcmp(v, "rtl");
        } else if (argv[i][0] == '-' || have_dir) {
            fprintf(stderr, "tcsim vectors: unexpected argument '%s' (tcsim vectors --help)\n",
                    CLI_WORD(argv[i]));
            return CLI_USAGE;
        } else {
            dir = argv[i];
            have_dir = 1;
        }
    }

    static char default_dir[GV_PATH];
    if (!have_dir) {
        if (data_dir_find("vectors", "vectors/a100", default_dir, sizeof default_dir))
            return CLI_USAGE;
        dir = default_dir;
    }
    static gv_set sets[GV_MAX_SETS];
    size_t n;
    if (gv_find(dir, sets, GV_MAX_SETS, &n))
        return CLI_USAGE;
    /* one GPU: --gpu's, or the only one the files name */
    if (!gpu) {
        for (size_t i = 1; i < n; i++)
            if (strcmp(sets[i].gpu, sets[0].gpu)) {
                fprintf(stderr, "tcsim vectors: %s holds results of %s and %s: choose one "
                                "with --gpu\n", CLI_PATH(dir), CLI_WORD(sets[0].gpu),
                        CLI_WORD(sets[i].gpu));
                return CLI_USAGE;
            }
        gpu = sets[0].gpu;
    }
    size_t m = 0;
    for (size_t i = 0; i < n; i++)
        if (!strcmp(sets[i].gpu, gpu))
            sets[m++] = sets[i];
    if (m == 0) {
        fprintf(stderr, "tcsim vectors: no results of --gpu '%s' in %s\n", CLI_WORD(gpu),
                CLI_PATH(dir));
        return CLI_USAGE;
    }
    if (!arch_s && arch_of_gpu(gpu, &o.arch)) {
        fprintf(stderr, "tcsim vectors: which architecture is the GPU '%s'? give --arch "
                        "(tcsim vectors --help lists the names it knows)\n", CLI_WORD(gpu));
        return CLI_USAGE;
    }

    /* a build without the RTL says so once, before any output, not once per set */
    if (o.rtl &&
        !cli_engine("vectors", "fedp", ENGINE_STEP, "RTL (configure with -DTCSIM_RTL=ON)"))
        return CLI_USAGE;
    printf("%s results in %s, through %s %s (%s)\n", CLI_WORD(gpu), CLI_PATH(dir),
           tc_arch_name(o.arch), tc_instr_name(o.instr), o.rtl ? "Verilated RTL" : "model");
    printf("%-12s %-28s %3s %7s %10s %7s\n", "set", "profile", "k", "cases", "bit-exact",
           "differ");
    long differ = 0;
    int errors = 0;
    for (size_t i = 0; i < m; i++) {
        long bad = check_set(&sets[i], &o, (size_t)show);
        if (bad < 0)
            errors++;
        else
            differ += bad;
    }
    if (errors) {
        printf("%d of %zu sets could not be run (see above)\n", errors, m);
        return CLI_USAGE;
    }
    if (differ)
        printf("%ld result%s differ%s from %s's\n", differ, differ == 1 ? "" : "s",
               differ == 1 ? "s" : "", CLI_WORD(gpu));
    else
        printf("every result bit-exact\n");
    return differ ? CLI_FAIL : CLI_OK;
}

const cli_cmd cmd_vectors = {"vectors", "a GPU's measured results against the model, bit for bit",
                             vectors_run};
