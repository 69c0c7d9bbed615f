/* cmd_emit_pkg.c - `tcsim emit-pkg`: writes the RTL's packages from the model's tables.
 *
 * rtl/tc_pkg.sv: the format table, the NaN styles, the FEDP latency, the Blackwell kind
 * codes and the FEDP parameter sets of the RTL's instance families (fedp_params.c's
 * presets); rtl/tmem_pkg.sv (--package tmem_pkg): the tensor memory's geometry and
 * ports. The RTL reads every one of these numbers through the packages, so each exists
 * once, in the model; `--check FILE` is the drift test (the ctests tc_pkg_current and
 * tmem_pkg_current) that fails while a checked-in package differs from what this
 * command writes now.
 */
#include <ctype.h>
#include <errno.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include "cli.h"
#include "fedp_params.h"
#include "tcsim_bw.h"
#include "tcsim_tc.h"
#include "tcsim_tmem.h"

typedef struct text {
    char *buf;
    size_t len, cap;
    int oom;
} text;

static void put(text *t, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    int n = vsnprintf(NULL, 0, fmt, ap);
    va_end(ap);
    if (n < 0 || t->oom)
        return;
    if (t->len + (size_t)n + 1 > t->cap) {
        size_t cap = (t->len + (size_t)n + 1) * 2;
        char *b = realloc(t->buf, cap);
        if (!b) {
            t->oom = 1;
            return;
        }
        t->buf = b;
        t->cap = cap;
    }
    va_start(ap, fmt);
    vsnprintf(t->buf + t->len, (size_t)n + 1, fmt, ap);
    va_end(ap);
    t->len += (size_t)n;
}

/* "e4m3" -> "E4M3": the SystemVerilog spelling of a format name. */
static const char *upper(const char *s, char *out, size_t cap)
{
    size_t i = 0;
    for (; s[i] && i + 1 < cap; i++)
        out[i] = (char)toupper((unsigned char)s[i]);
    out[i] = 0;
    return out;
}

/* The fields of tc_fmt_info as package names, in the order of the per-format lines. */
enum { F_CLASS, F_WIDTH, F_EXP, F_MAN, F_BIAS, F_EMIN, F_EMAX, F_IGNORE, F_INF, F_NAN, F_SIGNED,
       N_FIELDS };
static const char *const field_param[N_FIELDS] = {
    "CLASS", "WIDTH", "EXP_BITS", "MAN_BITS", "BIAS", "EMIN", "EMAX", "IGNORE_LOW", "HAS_INF",
    "NAN_STYLE", "SIGNED"};
static const char *const field_fn[N_FIELDS] = {
    "fmt_class", "fmt_width", "exp_bits", "man_bits", "bias", "emin", "emax", "ignore_low",
    "has_inf", "nan_style", "is_signed"};

static int field(const tc_fmt_info *fi, int k)
{
    switch (k) {
    case F_CLASS:  return (int)fi->cls;
    case F_WIDTH:  return (int)fi->width;
    case F_EXP:    return (int)fi->exp_bits;
    case F_MAN:    return (int)fi->man_bits;
    case F_BIAS:   return fi->bias;
    case F_EMIN:   return fi->emin;
    case F_EMAX:   return fi->emax;
    case F_IGNORE: return (int)fi->ignore_low;
    case F_INF:    return fi->has_inf;
    case F_NAN:    return fi->nan_style;
    default:       return fi->is_signed;
    }
}

/* Bits of a select among n codes (at least 1). */
static unsigned select_bits(unsigned n)
{
    unsigned b = 1;
    while ((1u << b) < n)
        b++;
    return b;
}

/* The format names of a mask (bit f: tc_fmt f), for a comment. */
static void put_fmt_names(text *t, uint32_t mask)
{
    for (int f = 0; f < TC_FMT_COUNT; f++)
        if (mask >> f & 1u && tc_fmt_get((tc_fmt)f))
            put(t, " %s", tc_fmt_get((tc_fmt)f)->name);
}

/* One FEDP parameter set: FEDP_<PRESET>_<PARAM>, in fedp.sv's parameter order. 0, or -1
 * with a message when the profile table no longer gives the preset a consistent set. */
static int emit_preset(text *t, const fedp_preset *ps)
{
    char up[32], err[256];
    fedp_params p;
    if (fedp_params_of(ps->spec, &p, err, sizeof err)) {
        fprintf(stderr, "tcsim emit-pkg: preset %s (%s): %s\n", ps->name, ps->spec, err);
        return -1;
    }
    upper(ps->name, up, sizeof up);
    put(t, "\n  // %s, of %s\n  // for %s\n", ps->name, ps->spec, ps->what);
    for (int k = 0; k < FEDP_PARAM_COUNT; k++) {
        long v = fedp_param_get(&p, k);
        put(t, "  localparam int FEDP_%s_%s = %ld;", up, fedp_param_pkg_name[k], v);
        if (k == 2 || k == 3 || (k == 7 && v)) {
            put(t, "  //");
            put_fmt_names(t, (uint32_t)v);
        } else if ((k == 4 || k == 5) && v == TC_EMIN_ALIGN_NONE) {
            put(t, "  // EMIN_ALIGN_NONE");
        }
        put(t, "\n");
    }
    return 0;
}

/* The numbers of tc_pkg beyond the format table. 0, or -1 with a message. */
static int emit_constants(text *t)
{
    char up[32];
    put(t, "\n  // Registers between an FEDP's inputs and its result (fedp.sv, fedp_grouped.sv):\n"
           "  // the model's TC_FEDP_LATENCY, which its timing and the testbenches use too, and\n"
           "  // fedp.sv's default Depth (an instance may choose another, 2..6).\n"
           "  localparam int FEDP_LATENCY = %d;\n", TC_FEDP_LATENCY);
    put(t, "\n  // Blackwell tcgen05.mma kinds (tc_blackwell.sv's kind_i): the C enum tc_bw_kind.\n");
    for (int k = 0; k < TC_BW_KIND_COUNT; k++)
        put(t, "  localparam int BW_KIND_%s = %d;\n",
            upper(tc_bw_kind_name((tc_bw_kind)k), up, sizeof up), k);
    put(t, "  localparam int BW_KIND_COUNT = %d;\n"
           "  localparam int BW_KIND_BITS = %u;  // width of a kind select\n",
        TC_BW_KIND_COUNT, select_bits(TC_BW_KIND_COUNT));
    put(t, "  // One operand row of one tcgen05.mma instruction (TC_BW_ROW_WORDS words of 32).\n"
           "  localparam int BW_ROW_BITS = %d;\n", TC_BW_ROW_WORDS * 32);
    put(t, "  // Products per exactly-summed, scaled group of the mxf4 kinds (TC_MXF4_GROUP).\n"
           "  localparam int MXF4_GROUP = %d;\n", TC_MXF4_GROUP);
    put(t, "\n  // FEDP parameter sets, one per instance family of the RTL (`tcsim fedp-params`\n"
           "  // prints the same): FEDP_<PRESET>_<PARAM> is the value of fedp.sv's parameter\n"
           "  // <Param> (L, F, InFmts, OutFmts, EminAlignFp32, EminAlignFp16, Fp32ManBits,\n"
           "  // ScaleFmts, ZeroPlusFp16, InPairs), folded from the FEDP rows of the profile table (model/src/profile.c)\n"
           "  // that the preset's spec arch:instr:formats[:block-scaled kinds] names. RTL\n"
           "  // parameter defaults and testbench tops name these; CMake reads them from this\n"
           "  // file (cmake/TcsimFedpParams.cmake).\n");
    const fedp_preset *ps;
    size_t n = fedp_presets(&ps);
    for (size_t i = 0; i < n; i++)
        if (emit_preset(t, &ps[i]))
            return -1;
    return 0;
}

/* rtl/tmem_pkg.sv: the tensor memory's geometry and request ports (tcsim_tmem.h). */
static int emit_tmem(text *t)
{
    static const struct { int port; const char *name, *what; } ports[] = {
        {TC_TMEM_PORT_D, "PORT_D", "MMA result write (D), lane mask"},
        {TC_TMEM_PORT_A, "PORT_A", "MMA operand read (A)"},
        {TC_TMEM_PORT_SHIFT, "PORT_SHIFT", "tcgen05.shift"},
        {TC_TMEM_PORT_CP, "PORT_CP", "tcgen05.cp 128x256b from shared memory"},
        {TC_TMEM_PORT_LS, "PORT_LS", "tcgen05.ld / tcgen05.st .32x32b, one warp quarter"},
    };
    /* a word of the memory is what the C API carries per (lane, column) */
    unsigned word_w = (unsigned)(8 * sizeof *((tc_tmem_inputs *)0)->d_data);
    put(t, "// tmem_pkg.sv - constants of the tensor memory (seed 003, section 1.1) for tmem.sv.\n"
           "// Generated by `tcsim emit-pkg --package tmem_pkg` from the C model's TC_TMEM_*\n"
           "// (model/include/tcsim_tmem.h): do not edit. Regenerate with\n"
           "// `build/tcsim emit-pkg --package tmem_pkg -o rtl/tmem_pkg.sv`; the ctest\n"
           "// tmem_pkg_current fails while this file differs from what emit-pkg writes.\n"
           "//\n"
           "// Reference these as tmem_pkg::NAME (Yosys 0.23 has no `import pkg::*`).\n"
           "package tmem_pkg;\n\n"
           "  // Geometry fixed by the spec: %u lanes x %u columns of one %u-bit word.\n"
           "  localparam int unsigned LANES       = %u;\n"
           "  localparam int unsigned COLS        = %u;\n"
           "  localparam int unsigned WORD_W      = %u;\n"
           "  // One lane group per warp quarter / sub-partition: %u groups of %u lanes.\n"
           "  localparam int unsigned GROUPS      = %u;\n"
           "  localparam int unsigned GROUP_LANES = LANES / GROUPS;\n"
           "  // A slice is %u consecutive columns (%u bytes per lane): the unit of cp, MMA D/A\n"
           "  // and shift, and the most a warp-quarter ld/st moves per cycle.\n"
           "  localparam int unsigned SLICE       = %u;\n\n",
        TC_TMEM_LANES, TC_TMEM_COLS, word_w, TC_TMEM_LANES, TC_TMEM_COLS, word_w,
        TC_TMEM_GROUPS, TC_TMEM_GROUP_LANES, TC_TMEM_GROUPS, TC_TMEM_SLICE,
        TC_TMEM_SLICE * word_w / 8, TC_TMEM_SLICE);
    put(t, "  // Address and field widths.\n"
           "  localparam int unsigned COL_W       = $clog2(COLS);          // column 0..COLS-1\n"
           "  localparam int unsigned GROUP_W     = $clog2(GROUPS);        // warp quarter\n"
           "  localparam int unsigned SLOT_W      = $clog2(SLICE);         // column within a slice\n"
           "  localparam int unsigned NCOLS_W     = $clog2(SLICE);         // ld/st column count - 1\n\n"
           "  // Data ports carry one word per (slot, lane), slot-major: the word of slot k, lane l is\n"
           "  // at [(k*L + l)*WORD_W +: WORD_W] (L = LANES, or GROUP_LANES for ld/st), because a bank\n"
           "  // row holds one column of a group's lanes, so each (slot, group) is one bank row.\n\n"
           "  // Request ports (the C enum tc_tmem_port); the index is also the priority (lower\n"
           "  // wins a conflict).\n");
    for (size_t i = 0; i < sizeof ports / sizeof ports[0]; i++)
        put(t, "  localparam int unsigned %-11s = %d;  // %s\n", ports[i].name, ports[i].port,
            ports[i].what);
    put(t, "  localparam int unsigned NUM_PORTS   = %d;\n\nendpackage\n", TC_TMEM_PORT_COUNT);
    return 0;
}

static int emit_tc(text *t)
{
    char up[16];
    unsigned fmt_bits = select_bits(TC_FMT_COUNT);
    put(t, "// tc_pkg.sv - the model's numbers for the RTL: the number formats, the NaN styles,\n"
           "// the FEDP latency, the Blackwell kind codes and the FEDP parameter sets.\n"
           "// Generated by `tcsim emit-pkg` from the model's tables: do not edit.\n"
           "// Regenerate with `build/tcsim emit-pkg -o rtl/tc_pkg.sv`; the ctest tc_pkg_current\n"
           "// fails while this file differs from what emit-pkg writes.\n"
           "//\n"
           "// | code | format | class | width | exp | man | bias | emin | emax | ignore_low | inf | nan |\n"
           "// |------|--------|-------|-------|-----|-----|------|------|------|------------|-----|-----|\n");
    for (int f = 0; f < TC_FMT_COUNT; f++) {
        const tc_fmt_info *fi = tc_fmt_get((tc_fmt)f);
        if (!fi) /* a code without a row (appended on another branch) */
            continue;
        put(t, "// | %4d | %-6s | %5d | %5u | %3u | %3u | %4d | %4d | %4d | %10u | %3d | %3d |\n",
            f, fi->name, (int)fi->cls, fi->width, fi->exp_bits, fi->man_bits, fi->bias, fi->emin,
            fi->emax, fi->ignore_low, fi->has_inf, fi->nan_style);
    }
    put(t, "//\n"
           "// class: 0 float, 1 scale, 2 integer. nan: 0 none, 1 IEEE (all-ones exponent),\n"
           "// 2 all-ones exponent and fraction only (e4m3), 3 whole word all ones (ue8m0).\n"
           "// Yosys 0.23 has no `import tc_pkg::*`: name everything as tc_pkg::NAME.\n"
           "package tc_pkg;\n"
           "  // The package is a table: no design uses every row.\n"
           "  /* verilator lint_off UNUSEDPARAM */\n\n"
           "  // Format codes: the C enum tc_fmt, append only.\n");
    for (int f = 0; f < TC_FMT_COUNT; f++)
        if (tc_fmt_get((tc_fmt)f))
            put(t, "  localparam int FMT_%s = %d;\n",
                upper(tc_fmt_get((tc_fmt)f)->name, up, sizeof up), f);
    put(t, "  localparam int FMT_COUNT = %d;\n"
           "  localparam int FMT_BITS = %u;  // width of a format select\n\n"
           "  localparam int CLASS_FLOAT = %d;\n"
           "  localparam int CLASS_SCALE = %d;\n"
           "  localparam int CLASS_INT = %d;\n"
           "  // NaN styles (NAN_STYLE): the C enum tc_nan_style.\n"
           "  localparam int NAN_NONE = %d;\n"
           "  localparam int NAN_IEEE = %d;\n"
           "  localparam int NAN_ALL_ONES = %d;\n"
           "  localparam int NAN_WORD = %d;\n"
           "  localparam int EMIN_ALIGN_NONE = %d;  // no floor on the alignment exponent\n",
        TC_FMT_COUNT, fmt_bits, TC_CLASS_FLOAT, TC_CLASS_SCALE, TC_CLASS_INT, TC_NAN_NONE,
        TC_NAN_IEEE, TC_NAN_ALL_ONES, TC_NAN_WORD, TC_EMIN_ALIGN_NONE);
    for (int f = 0; f < TC_FMT_COUNT; f++) {
        const tc_fmt_info *fi = tc_fmt_get((tc_fmt)f);
        if (!fi)
            continue;
        put(t, "\n");
        for (int k = 0; k < N_FIELDS; k++)
            put(t, "  localparam int %s_%s = %d;\n", upper(fi->name, up, sizeof up),
                field_param[k], field(fi, k));
    }
    if (emit_constants(t))
        return -1;
    put(t, "\n  /* verilator lint_on UNUSEDPARAM */\n");

    /* One function per field, so that a module parameterised by a format code reads
     * its widths as tc_pkg::man_bits(Fmt). */
    for (int k = 0; k < N_FIELDS; k++) {
        put(t, "\n  function automatic int %s(input int fmt);\n    case (fmt)\n", field_fn[k]);
        for (int f = 0; f < TC_FMT_COUNT; f++) {
            if (!tc_fmt_get((tc_fmt)f))
                continue;
            upper(tc_fmt_get((tc_fmt)f)->name, up, sizeof up);
            put(t, "      FMT_%s: %s = %s_%s;\n", up, field_fn[k], up, field_param[k]);
        }
        put(t, "      default: %s = 0;\n    endcase\n  endfunction\n", field_fn[k]);
    }

    /* Helpers over a mask of formats (bit f set: format code f supported). */
    put(t, "\n  // Bits that carry the value (tf32: the top 19 of its 32-bit word).\n"
           "  function automatic int value_bits(input int fmt);\n"
           "    value_bits = fmt_width(fmt) - ignore_low(fmt);\n"
           "  endfunction\n");
    static const struct { const char *name, *field, *op, *what; } mask_fns[] = {
        {"max_value_bits", "value_bits", ">", "largest"},
        {"max_exp_bits", "exp_bits", ">", "largest"},
        {"max_man_bits", "man_bits", ">", "largest"},
        {"max_emax", "emax", ">", "largest"},
        {"min_emin", "emin", "<", "smallest"},
    };
    for (size_t i = 0; i < sizeof mask_fns / sizeof mask_fns[0]; i++)
        put(t, "\n  // The %s %s(f) over the formats f of a mask (bit f set); 0 for none.\n"
               "  function automatic int %s(input int mask);\n"
               "    int found;\n"
               "    %s = 0;\n"
               "    found = 0;\n"
               "    for (int f = 0; f < FMT_COUNT; f++)\n"
               "      if (mask[f] && (found == 0 || %s(f) %s %s)) begin\n"
               "        %s = %s(f);\n"
               "        found = 1;\n"
               "      end\n"
               "  endfunction\n",
            mask_fns[i].what, mask_fns[i].field, mask_fns[i].name, mask_fns[i].name,
            mask_fns[i].field,
            mask_fns[i].op, mask_fns[i].name, mask_fns[i].name, mask_fns[i].field);
    /* Elaboration arithmetic of the modules' widths (one copy, not one per module). */
    put(t, "\n  // The larger and the smaller of two integers (parameter arithmetic).\n"
           "  function automatic int max2(input int x, input int y);\n"
           "    max2 = x > y ? x : y;\n"
           "  endfunction\n"
           "  function automatic int min2(input int x, input int y);\n"
           "    min2 = x < y ? x : y;\n"
           "  endfunction\n");
    put(t, "endpackage\n");
    return 0;
}

/* 0 when the file holds exactly `t`; else prints where it first differs, or that it
 * cannot be read (bad input, not a difference: there is nothing to regenerate). */
static int check(const char *path, const text *t, const char *pkg_name)
{
    FILE *f = fopen(path, "rb");
    if (!f) {
        fprintf(stderr, "tcsim emit-pkg: cannot read '%s': %s\n", CLI_PATH(path),
                strerror(errno));
        return CLI_USAGE;
    }
    size_t i = 0, line = 1;
    int ch;
    while ((ch = fgetc(f)) != EOF && i < t->len && ch == (unsigned char)t->buf[i]) {
        line += ch == '\n';
        i++;
    }
    int err = ferror(f) ? errno : 0; /* EOF is also how fgetc reports a read error */
    int same = ch == EOF && i == t->len;
    fclose(f);
    if (err) {
        fprintf(stderr, "tcsim emit-pkg: cannot read '%s': %s\n", CLI_PATH(path), strerror(err));
        return CLI_USAGE;
    }
    if (same)
        return CLI_OK;
    fprintf(stderr, "tcsim emit-pkg: '%s' differs from the model's format table at line %zu;\n"
                    "  regenerate it with: tcsim emit-pkg%s%s -o %s\n", CLI_PATH(path), line,
            strcmp(pkg_name, "tc_pkg") ? " --package " : "",
            strcmp(pkg_name, "tc_pkg") ? pkg_name : "", CLI_PATH(path));
    return CLI_FAIL;
}

static const struct package {
    const char *name, *file;
    int (*emit)(text *t);
} packages[] = {
    {"tc_pkg", "rtl/tc_pkg.sv", emit_tc},
    {"tmem_pkg", "rtl/tmem_pkg.sv", emit_tmem},
};

static void emit_pkg_help(const void *ctx)
{
    (void)ctx;
    printf("usage: tcsim emit-pkg [--package NAME] [-o FILE | --check FILE]\n\n"
           "Writes a SystemVerilog package of the RTL from the model's tables:\n"
           "  tc_pkg (rtl/tc_pkg.sv, the default): format codes, field widths, bias,\n"
           "    emin/emax, Inf/NaN rules; the FEDP latency; the Blackwell kind codes;\n"
           "    the FEDP parameter sets of the RTL's instances (tcsim fedp-params)\n"
           "  tmem_pkg (rtl/tmem_pkg.sv): the tensor memory's geometry and ports\n"
           "  --package NAME  tc_pkg or tmem_pkg\n"
           "  -o FILE       write FILE instead of standard output ('-': standard "
           "output)\n"
           "  --check FILE  exit 1 if FILE differs from what would be written, 2 if "
           "it\n                cannot be read\n");
}

static int emit_pkg_run(int argc, char **argv)
{
    const char *out = NULL, *against = NULL, *pkg_name = packages[0].name;
    const cli_opt opt[] = {{.name = "-o", .value = &out},
                           {.name = "--check", .value = &against},
                           {.name = "--package", .value = &pkg_name}};
    int st = cli_parse_opts(&(cli_opts){"emit-pkg", "argument", 0, emit_pkg_help, NULL,
                                        opt, CLI_COUNT(opt)}, argc, argv);
    if (st >= 0)
        return st;
    if (out && against) {
        fprintf(stderr, "tcsim emit-pkg: give -o or --check, not both\n");
        return CLI_USAGE;
    }
    const struct package *pkg = NULL;
    for (size_t i = 0; i < sizeof packages / sizeof packages[0]; i++)
        if (!strcmp(pkg_name, packages[i].name))
            pkg = &packages[i];
    if (!pkg) {
        fprintf(stderr, "tcsim emit-pkg: unknown package '%s' (tc_pkg or tmem_pkg)\n",
                CLI_WORD(pkg_name));
        return CLI_USAGE;
    }
    text t = {0};
    int rc = CLI_OK;
    if (pkg->emit(&t)) {
        rc = CLI_FAIL; /* the model's tables give no package: the message is out */
    } else if (t.oom) {
        fprintf(stderr, "tcsim emit-pkg: out of memory\n");
        rc = CLI_FAIL;
    } else if (against) {
        rc = check(against, &t, pkg->name);
    } else if (!out || !strcmp(out, "-")) {
        fwrite(t.buf, 1, t.len, stdout); /* checked in main, as every command's stdout */
    } else {
        FILE *f = fopen(out, "wb");
        int ok = f && fwrite(t.buf, 1, t.len, f) == t.len;
        if (f && fclose(f))
            ok = 0;
        if (!ok) {
            fprintf(stderr, "tcsim emit-pkg: cannot write '%s': %s\n", CLI_PATH(out),
                    strerror(errno));
            rc = CLI_FAIL;
        }
    }
    free(t.buf);
    return rc;
}

const cli_cmd cmd_emit_pkg = {"emit-pkg", "write rtl/tc_pkg.sv or tmem_pkg.sv from the model",
                              emit_pkg_run};
