/* cmd_gemm.c - `tcsim gemm`: D = A*B + C over NumPy .npy files, through tc_gemm.
 *
 * Each matrix is read whole and checked (dtype against its format, every element's width,
 * the shapes against each other) before tc_gemm runs; D is written whole or not at all
 * (npy_write). The profile is found as `tcsim dot` finds it (dot_open). fp64 (DMMA) runs
 * through tc_gemm_f64 on 64-bit words (uint64 or float64 files).
 */
#include <stdlib.h>
#include <string.h>
#include "cli.h"
#include "dot_stream.h"
#include "npy.h"

static void gemm_help(const void *ctx)
{
    (void)ctx;
    printf(
        "usage: tcsim gemm --arch ARCH [--instr mma|wgmma|tcgen05]\n"
        "                  (--in FMT | --in-a FMT --in-b FMT) --out FMT\n"
        "                  --a A.npy --b B.npy [--c C.npy] -o D.npy [--threads N]\n"
        "                  [--kind mxf8f6f4|mxf4|mxf4nvf4 --scale ue8m0|ue4m3 [--block 16|32]\n"
        "                   --scale-a SA.npy --scale-b SB.npy] [--popc and|xor]\n\n"
        "D (M x N) = A (M x K) * B (K x N) + C (M x N) in the profile's arithmetic, every\n"
        "element as `tcsim dot` computes it (K in L-term steps, chained in k order). No C:\n"
        "every c is +0. Block-scaled kinds take SA (M x K/B) and SB (K/B x N) scale patterns.\n"
        "--in-a and --in-b give A and B different formats, where the instruction has the\n"
        "pair (e4m3 with e5m2; any two f8f6f4 formats on tcgen05, mxf8f6f4 too), and the\n"
        "integer kinds int8 with uint8 and int4 with uint4. --in b1 --out s32 takes\n"
        "--popc and|xor, the 1-bit op (d = c + popcount(a AND b) or (a XOR b) per k).\n"
        "--in fp64 --out fp64 is DMMA: one binary64 FMA per k, in k order.\n\n"
        "The files are NumPy .npy matrices (versions 1.0, 2.0, 3.0; C or Fortran order;\n"
        "little-endian) of bit patterns: uint8, uint16 or uint32 for any format they are\n"
        "wide enough for, and float16 for fp16, float32 for fp32 and tf32 (its low 13 bits\n"
        "are ignored); fp64 takes uint64 or float64 alone. D is written in C order:\n"
        "float16/float32/float64 (fp16/fp32/fp64 output) when A, B or C was a float dtype,\n"
        "else uint16 for fp16, uint32 for fp32 and s32, uint64 for fp64.\n\n"
        "--threads N   worker threads (0, the default: one per core); D does not depend on it.\n"
        "A bad file, dtype, element or shape is named on stderr, exit 2; nothing is written.\n"
        "`tcsim list` shows the supported combinations; docs/gemm.md says more.\n");
}

/* One input matrix: the option that names it, its format, what was read. */
typedef struct operand {
    const char *opt;  /* "--a" */
    const char *path; /* NULL when not given */
    tc_fmt fmt;
    const char *role; /* what its format is: "--in", "--in-a", "--out", "--scale" */
    npy_matrix m;
} operand;

enum { OP_A, OP_B, OP_C, OP_SA, OP_SB, OP_COUNT };

static int parse_arch(const char *cmd, const char *opt, const char *s, void *dst)
{
    (void)opt;
    return cli_parse_arch(cmd, s, dst);
}

static int parse_instr(const char *cmd, const char *opt, const char *s, void *dst)
{
    (void)opt;
    return cli_parse_instr(cmd, s, dst);
}

static int parse_fmt(const char *cmd, const char *opt, const char *s, void *dst)
{
    return cli_parse_fmt(cmd, opt, s, dst);
}

static int parse_kind(const char *cmd, const char *opt, const char *s, void *dst)
{
    if (strcmp(s, "mxf8f6f4") && strcmp(s, "mxf4") && strcmp(s, "mxf4nvf4")) {
        fprintf(stderr, "tcsim %s: unknown %s '%s' (mxf8f6f4, mxf4, mxf4nvf4)\n", cmd, opt,
                CLI_WORD(s));
        return -1;
    }
    *(const char **)dst = s;
    return 0;
}

static int parse_block(const char *cmd, const char *opt, const char *s, void *dst)
{
    unsigned long long u;
    if (cli_parse_uint(cmd, opt, s, 1, 1024, &u))
        return -1;
    *(unsigned *)dst = (unsigned)u;
    return 0;
}

static int parse_popc(const char *cmd, const char *opt, const char *s, void *dst)
{
    static const struct { const char *name; tc_kind op; } ops[] = {
        {"and", TC_KIND_POPC_AND}, {"xor", TC_KIND_POPC_XOR}};
    for (size_t i = 0; i < CLI_COUNT(ops); i++)
        if (!strcmp(s, ops[i].name)) {
            *(tc_kind *)dst = ops[i].op;
            return 0;
        }
    fprintf(stderr, "tcsim %s: unknown %s '%s' (and or xor: the b1 op)\n", cmd, opt,
            CLI_WORD(s));
    return -1;
}

static int parse_threads(const char *cmd, const char *opt, const char *s, void *dst)
{
    unsigned long long u;
    if (cli_parse_uint(cmd, opt, s, 0, 4096, &u))
        return -1;
    *(unsigned *)dst = (unsigned)u;
    return 0;
}

/* The dtype of o fits its format: an unsigned integer at least as wide, or the float
 * dtype of the same format; fp64 and only fp64 in the 8-byte dtypes (its words are 64
 * bits, the others' 32). 0, or -1 after the message. */
static int check_dtype(const operand *o)
{
    const tc_fmt_info *fi = tc_fmt_get(o->fmt);
    npy_dtype t = o->m.dtype;
    int wide = npy_dtype_bytes(t) == 8;
    if (wide != (o->fmt == TC_FMT_FP64)) {
        fprintf(stderr, "tcsim gemm: %s '%s': dtype %s %s (%s %s)\n", o->opt,
                CLI_PATH(o->path), npy_dtype_name(t),
                wide ? "holds 64-bit words, for fp64 alone" : "is not uint64 or float64",
                o->role, fi->name);
        return -1;
    }
    if (npy_dtype_is_float(t)) {
        const char *holds = t == NPY_FLOAT16 ? "fp16" : t == NPY_FLOAT32 ? "fp32" : "fp64";
        int ok = t == NPY_FLOAT16   ? o->fmt == TC_FMT_FP16
                 : t == NPY_FLOAT64 ? o->fmt == TC_FMT_FP64
                                    : o->fmt == TC_FMT_FP32 || o->fmt == TC_FMT_TF32;
        if (ok)
            return 0;
        fprintf(stderr, "tcsim gemm: %s '%s': dtype %s holds %s, not %s %s (give %s as "
                        "its bit patterns in an unsigned integer dtype)\n", o->opt,
                CLI_PATH(o->path), npy_dtype_name(t), holds, o->role, fi->name, fi->name);
        return -1;
    }
    if (npy_dtype_bytes(t) * 8 >= fi->width)
        return 0;
    fprintf(stderr, "tcsim gemm: %s '%s': dtype %s is narrower than %s %s (%u bits)\n",
            o->opt, CLI_PATH(o->path), npy_dtype_name(t), o->role, fi->name, fi->width);
    return -1;
}

/* Every element of o fits its format's width; else the first that does not is named. */
static int check_elements(const operand *o)
{
    const tc_fmt_info *fi = tc_fmt_get(o->fmt);
    if (fi->width >= 32)
        return 0;
    uint32_t mask = (UINT32_C(1) << fi->width) - 1;
    size_t n = o->m.rows * o->m.cols;
    for (size_t i = 0; i < n; i++) {
        if (!(o->m.data[i] & ~mask))
            continue;
        size_t r = o->m.fortran ? i % o->m.rows : i / o->m.cols;
        size_t c = o->m.fortran ? i / o->m.rows : i % o->m.cols;
        fprintf(stderr, "tcsim gemm: %s '%s': element (%zu, %zu) = 0x%lx is wider than %s %s "
                        "(%u bits)\n", o->opt, CLI_PATH(o->path), r, c,
                (unsigned long)o->m.data[i], o->role, fi->name, fi->width);
        return -1;
    }
    return 0;
}

/* o is rows x cols, as the shapes of the others ask (the reason says which). */
static int check_shape(const operand *o, size_t rows, size_t cols, const char *why)
{
    if (o->m.rows == rows && o->m.cols == cols)
        return 0;
    fprintf(stderr, "tcsim gemm: %s '%s' is %zu x %zu; %s needs %zu x %zu\n", o->opt,
            CLI_PATH(o->path), o->m.rows, o->m.cols, why, rows, cols);
    return -1;
}

static tc_matrix as_matrix(const operand *o)
{
    return (tc_matrix){.data = o->m.data, .layout = o->m.fortran ? TC_LAYOUT_COL : TC_LAYOUT_ROW,
                       .ld = 0};
}

static tc_matrix64 as_matrix64(const operand *o)
{
    return (tc_matrix64){.data = o->m.data64,
                         .layout = o->m.fortran ? TC_LAYOUT_COL : TC_LAYOUT_ROW, .ld = 0};
}

/* Reads and checks every given operand, then the shapes: 0, or -1 after the message. */
static int load(operand *ops, const tc_profile *p)
{
    for (int i = 0; i < OP_COUNT; i++) {
        operand *o = &ops[i];
        if (!o->path)
            continue;
        char err[NPY_ERR_SIZE];
        if (npy_read(o->path, &o->m, err)) {
            fprintf(stderr, "tcsim gemm: %s '%s': %s\n", o->opt, CLI_PATH(o->path), err);
            return -1;
        }
        if (check_dtype(o) || check_elements(o))
            return -1;
    }
    size_t M = ops[OP_A].m.rows, K = ops[OP_A].m.cols, N = ops[OP_B].m.cols;
    if (ops[OP_B].m.rows != K) {
        fprintf(stderr, "tcsim gemm: --b '%s' has %zu rows; --a '%s' is %zu x %zu, so B (K x "
                        "N) needs K = %zu rows\n", CLI_PATH(ops[OP_B].path), ops[OP_B].m.rows,
                CLI_PATH(ops[OP_A].path), M, K, K);
        return -1;
    }
    if (ops[OP_C].path && check_shape(&ops[OP_C], M, N, "A x B (C is M x N)"))
        return -1;
    if (ops[OP_SA].path) {
        size_t B = p->scale_block;
        if (K % B) {
            fprintf(stderr, "tcsim gemm: --a '%s': K = %zu is not a multiple of the scale "
                            "block %zu of %s\n", CLI_PATH(ops[OP_A].path), K, B, p->name);
            return -1;
        }
        if (check_shape(&ops[OP_SA], M, K / B, "A's M x K with scale blocks of K (M x K/B)") ||
            check_shape(&ops[OP_SB], K / B, N, "B's K x N with scale blocks of K (K/B x N)"))
            return -1;
    }
    return 0;
}

/* D's dtype: float when any operand came as floats and the output is a float format. */
static npy_dtype out_dtype(const operand *ops, tc_fmt out)
{
    int floats = 0;
    for (int i = OP_A; i <= OP_C; i++)
        floats |= ops[i].path && npy_dtype_is_float(ops[i].m.dtype);
    if (out == TC_FMT_FP16)
        return floats ? NPY_FLOAT16 : NPY_UINT16;
    if (out == TC_FMT_FP64)
        return floats ? NPY_FLOAT64 : NPY_UINT64;
    return floats && out == TC_FMT_FP32 ? NPY_FLOAT32 : NPY_UINT32;
}

/* D through tc_gemm, or tc_gemm_f64 for fp64 (64-bit words in A, B, C and d). */
static tc_status run_gemm(operand *ops, const tc_profile *p, unsigned threads, void *d)
{
    size_t M = ops[OP_A].m.rows, K = ops[OP_A].m.cols, N = ops[OP_B].m.cols;
    tc_gemm_opts opts = {.threads = threads};
    if (p->kind == TC_KIND_FP64) {
        tc_matrix64 A = as_matrix64(&ops[OP_A]), B = as_matrix64(&ops[OP_B]);
        tc_matrix64 C = as_matrix64(&ops[OP_C]);
        tc_matrix64_out D = {.data = d, .layout = TC_LAYOUT_ROW, .ld = 0};
        return tc_gemm_f64(p, M, N, K, &A, &B, ops[OP_C].path ? &C : NULL, &D, &opts);
    }
    tc_matrix A = as_matrix(&ops[OP_A]), B = as_matrix(&ops[OP_B]), C = as_matrix(&ops[OP_C]);
    if (ops[OP_SA].path) {
        opts.scale_a = as_matrix(&ops[OP_SA]);
        opts.scale_b = as_matrix(&ops[OP_SB]);
    }
    tc_matrix_out D = {.data = d, .layout = TC_LAYOUT_ROW, .ld = 0};
    return tc_gemm(p, M, N, K, &A, &B, ops[OP_C].path ? &C : NULL, &D, &opts);
}

static int gemm_compute(operand *ops, const tc_profile *p, unsigned threads, const char *out)
{
    if (load(ops, p))
        return CLI_USAGE;
    size_t M = ops[OP_A].m.rows, N = ops[OP_B].m.cols;
    size_t word = p->kind == TC_KIND_FP64 ? sizeof(uint64_t) : sizeof(uint32_t);
    void *d = M <= SIZE_MAX / word / N ? malloc(M * N * word) : NULL;
    if (!d) {
        fprintf(stderr, "tcsim gemm: out of memory for D (%zu x %zu)\n", M, N);
        return CLI_FAIL;
    }
    tc_status st = run_gemm(ops, p, threads, d);
    npy_dtype t = out_dtype(ops, p->out);
    char err[NPY_ERR_SIZE];
    int bad = st == TC_OK && (word == sizeof(uint64_t) ? npy_write64(out, t, M, N, d, err)
                                                       : npy_write(out, t, M, N, d, err));
    free(d);
    if (st != TC_OK) { /* every input was checked: only a failure of the machine is left */
        fprintf(stderr, "tcsim gemm: %s\n", tc_strerror(st));
        return CLI_FAIL;
    }
    if (bad) {
        fprintf(stderr, "tcsim gemm: cannot write '%s' (-o): %s\n", CLI_PATH(out), err);
        return CLI_FAIL;
    }
    return CLI_OK;
}

/* What is wrong with the options taken together, or NULL; in_a: --in-a's format
 * (TC_FMT_COUNT when not given), which then stands for --in in *o. */
static const char *options_fault(dot_options *o, tc_fmt in_a, const operand *ops,
                                 const char *out)
{
    o->has_in_b = o->in_b != TC_FMT_COUNT;
    if (o->in != TC_FMT_COUNT && (in_a != TC_FMT_COUNT || o->has_in_b))
        return "--in sets both formats: give --in, or --in-a and --in-b, not both";
    if ((in_a != TC_FMT_COUNT) != o->has_in_b)
        return "--in-a and --in-b go together (or --in for both)";
    if (in_a != TC_FMT_COUNT)
        o->in = in_a;
    if (o->arch == TC_ARCH_COUNT || o->in == TC_FMT_COUNT || o->out == TC_FMT_COUNT ||
        !ops[OP_A].path || !ops[OP_B].path || !out)
        return "--arch, --in (or --in-a and --in-b), --out, --a, --b and -o are required "
               "(tcsim gemm --help)";
    if ((o->kind != NULL) != (o->scale != TC_FMT_COUNT))
        return "--kind and --scale go together (block-scaled kinds)";
    if (o->block && !o->kind)
        return "--block is the scale block of --kind; it needs --kind";
    if (o->kind && !(ops[OP_SA].path && ops[OP_SB].path))
        return "--scale-a and --scale-b are the scales of --kind: --kind needs both";
    if (!o->kind && (ops[OP_SA].path || ops[OP_SB].path))
        return "--scale-a and --scale-b are the scales of --kind: they need --kind";
    return NULL;
}

static int gemm_run(int argc, char **argv)
{
    dot_options o = {.arch = TC_ARCH_COUNT, .instr = TC_INSTR_MMA, .in = TC_FMT_COUNT,
                     .out = TC_FMT_COUNT, .scale = TC_FMT_COUNT, .in_b = TC_FMT_COUNT};
    tc_fmt in_a = TC_FMT_COUNT;
    operand ops[OP_COUNT] = {[OP_A] = {.opt = "--a", .role = "--in"},
                             [OP_B] = {.opt = "--b", .role = "--in"},
                             [OP_C] = {.opt = "--c", .role = "--out"},
                             [OP_SA] = {.opt = "--scale-a", .role = "--scale"},
                             [OP_SB] = {.opt = "--scale-b", .role = "--scale"}};
    const char *out = NULL;
    unsigned threads = 0;
    const cli_opt opt[] = {
        {.name = "--arch", .parse = parse_arch, .dst = &o.arch},
        {.name = "--instr", .parse = parse_instr, .dst = &o.instr},
        {.name = "--in", .parse = parse_fmt, .dst = &o.in},
        {.name = "--in-a", .parse = parse_fmt, .dst = &in_a},
        {.name = "--in-b", .parse = parse_fmt, .dst = &o.in_b},
        {.name = "--out", .parse = parse_fmt, .dst = &o.out},
        {.name = "--kind", .parse = parse_kind, .dst = &o.kind},
        {.name = "--scale", .parse = parse_fmt, .dst = &o.scale},
        {.name = "--block", .parse = parse_block, .dst = &o.block},
        {.name = "--a", .value = &ops[OP_A].path},
        {.name = "--b", .value = &ops[OP_B].path},
        {.name = "--c", .value = &ops[OP_C].path},
        {.name = "--scale-a", .value = &ops[OP_SA].path},
        {.name = "--scale-b", .value = &ops[OP_SB].path},
        {.name = "-o", .value = &out},
        {.name = "--threads", .parse = parse_threads, .dst = &threads},
        {.name = "--popc", .parse = parse_popc, .dst = &o.popc},
    };
    int st = cli_parse_opts(&(cli_opts){"gemm", "option", 1, gemm_help, NULL, opt,
                                        CLI_COUNT(opt)}, argc, argv);
    if (st >= 0)
        return st;
    const char *fault = options_fault(&o, in_a, ops, out);
    if (fault) {
        fprintf(stderr, "tcsim gemm: %s\n", fault);
        return CLI_USAGE;
    }
    dot_stream ds;
    if (dot_open("gemm", &o, &ds))
        return CLI_USAGE;
    ops[OP_A].fmt = ds.p->in;
    ops[OP_B].fmt = ds.p->in_b;
    if (o.has_in_b) { /* the option that gave each operand's format */
        ops[OP_A].role = "--in-a";
        ops[OP_B].role = "--in-b";
    }
    ops[OP_C].fmt = ds.p->out;
    ops[OP_SA].fmt = ops[OP_SB].fmt = ds.p->scale;
    int rc = gemm_compute(ops, ds.p, threads, out);
    dot_close(&ds);
    for (int i = 0; i < OP_COUNT; i++)
        npy_free(&ops[i].m);
    return rc;
}

const cli_cmd cmd_gemm = {"gemm", "D = A*B + C over NumPy .npy matrices (tc_gemm)", gemm_run};
