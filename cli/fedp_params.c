/* fedp_params.c - the parameter sets of the RTL's FEDP instances, folded from the rows
 * of the model's profile table (fedp_params.h), and the named presets. */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "cli.h"
#include "fedp_params.h"
#include "tcsim.h"

/* The instance families of the RTL. tb/fedp Verilates the first nine (one per distinct
 * parameter set of the table's FEDP rows; other archs' rows with the same set are noted
 * in `what`), tc_warp.sv's FEDPs are volta_fp16, tc_blackwell.sv's units the blackwell_*
 * presets after them. Append only: a name is a package constant the RTL reads. */
static const fedp_preset presets[] = {
    {"volta_fp16", "volta:mma:fp16", "tb/fedp; tc_warp.sv, tensor_core.sv"},
    /* without the fp32 rounder: the one instance whose results are fp16 alone */
    {"volta_fp16_acc16", "volta:mma:fp16->fp16", "tb/fedp"},
    {"ampere_half", "ampere:mma:fp16,bf16", "tb/fedp; the rows of turing, ada fp16/bf16 too"},
    {"ampere_tf32", "ampere:mma:tf32", "tb/fedp; the rows of ada tf32 too"},
    {"ada_fp8", "ada:mma:e4m3,e5m2", "tb/fedp"},
    {"hopper_half", "hopper:mma:fp16,bf16", "tb/fedp; the rows of hopper wgmma, blackwell too"},
    {"hopper_tf32", "hopper:mma:tf32", "tb/fedp; the rows of hopper wgmma, blackwell too"},
    {"hopper_wgmma_fp8", "hopper:wgmma:e4m3,e5m2", "tb/fedp"},
    {"blackwell_f8f6f4", "blackwell:tcgen05:e4m3,e5m2,e3m2,e2m3,e2m1", "tb/fedp"},
    {"blackwell_half", "blackwell:tcgen05:fp16,bf16", "tc_blackwell.sv kind f16"},
    {"blackwell_tf32", "blackwell:tcgen05:tf32", "tc_blackwell.sv kind tf32"},
    /* one fedp.sv with ue8m0 scale inputs serves f8f6f4 and mxf8f6f4 */
    {"blackwell_mxf8f6f4", "blackwell:tcgen05:e4m3,e5m2,e3m2,e2m3,e2m1:mxf8f6f4",
     "tc_blackwell.sv kinds f8f6f4, mxf8f6f4"},
    {"blackwell_mxf4", "blackwell:tcgen05:-:mxf4,mxf4nvf4",
     "tc_blackwell.sv kinds mxf4, mxf4nvf4, on fedp_grouped.sv"},
};

size_t fedp_presets(const fedp_preset **list)
{
    *list = presets;
    return sizeof presets / sizeof presets[0];
}

const fedp_preset *fedp_preset_find(const char *name)
{
    for (size_t i = 0; i < sizeof presets / sizeof presets[0]; i++)
        if (!strcmp(presets[i].name, name))
            return &presets[i];
    return NULL;
}

const char *const fedp_param_rtl_name[FEDP_PARAM_COUNT] = {
    "L", "F", "InFmts", "OutFmts", "EminAlignFp32", "EminAlignFp16", "Fp32ManBits",
    "ScaleFmts", "ZeroPlusFp16", "InPairs"};
const char *const fedp_param_pkg_name[FEDP_PARAM_COUNT] = {
    "L", "F", "IN_FMTS", "OUT_FMTS", "EMIN_ALIGN_FP32", "EMIN_ALIGN_FP16", "FP32_MAN_BITS",
    "SCALE_FMTS", "ZERO_PLUS_FP16", "IN_PAIRS"};

long fedp_param_get(const fedp_params *p, int k)
{
    switch (k) {
    case 0: return (long)p->L;
    case 1: return (long)p->F;
    case 2: return (long)p->in_fmts;
    case 3: return (long)p->out_fmts;
    case 4: return p->emin_align_fp32;
    case 5: return p->emin_align_fp16;
    case 6: return (long)p->fp32_man_bits;
    case 7: return (long)p->scale_fmts;
    case 8: return (long)p->zero_plus_fp16;
    default: return (long)p->in_pairs;
    }
}

typedef struct fold_state {
    fedp_params p;
    int have;
    tc_kind kind;   /* TC_KIND_FEDP (with TC_KIND_MX rows) or TC_KIND_MXF4 */
} fold_state;

/* The datapath a row needs: an mxf8f6f4 step is an FEDP step with scaled exponents. */
static tc_kind datapath_of(const tc_profile *p)
{
    return p->kind == TC_KIND_MX ? TC_KIND_FEDP : p->kind;
}

/* Folds one row into the set; 0 if it disagrees with the rows before it. */
static int fold(fold_state *s, const tc_profile *p)
{
    int fp16 = p->out == TC_FMT_FP16;
    int *emin = fp16 ? &s->p.emin_align_fp16 : &s->p.emin_align_fp32;
    int seen_out = (s->p.out_fmts >> p->out) & 1u;
    if (s->have && (p->L != s->p.L || p->F != s->p.F || datapath_of(p) != s->kind))
        return 0;
    if (seen_out && (*emin != p->emin_align || (!fp16 && p->out_man_bits != s->p.fp32_man_bits) ||
                     (fp16 && (unsigned)p->zero_plus != s->p.zero_plus_fp16)))
        return 0;
    if (!fp16 && p->zero_plus)
        return 0; /* the RTL's fp32 rounder keeps the sign of a zero */
    if (p->round != (fp16 ? TC_RNE : TC_RZ) || p->out_man_bits > tc_fmt_get(p->out)->man_bits ||
        (fp16 && p->out_man_bits != tc_fmt_get(TC_FMT_FP16)->man_bits))
        return 0;
    s->p.L = p->L;
    s->p.F = p->F;
    s->kind = datapath_of(p);
    s->have = 1;
    if (p->kind == TC_KIND_MX || p->kind == TC_KIND_MXF4)
        s->p.scale_fmts |= 1u << p->scale;
    s->p.in_fmts |= 1u << p->in;
    s->p.out_fmts |= 1u << p->out;
    *emin = p->emin_align;
    if (!fp16)
        s->p.fp32_man_bits = p->out_man_bits;
    else
        s->p.zero_plus_fp16 = (unsigned)p->zero_plus;
    return 1;
}

static int fail(char *err, size_t cap, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(err, cap, fmt, ap);
    va_end(ap);
    return -1;
}

/* The next field of *s up to `sep` (which is overwritten), or NULL at the end. */
static char *next_field(char **s, char sep)
{
    char *f = *s, *e;
    if (!f)
        return NULL;
    e = strchr(f, sep);
    *s = e ? e + 1 : NULL;
    if (e)
        *e = '\0';
    return f;
}

/* The plain rows of one format "fmt" or "fmt->out"; 0, or -1 with err set. */
static int fold_format(fold_state *s, tc_arch arch, tc_instr instr, const char *arch_s,
                       const char *instr_s, char *f, char *err, size_t cap)
{
    tc_fmt in, only = TC_FMT_COUNT;
    int rows = 0;
    char *arrow = strstr(f, "->");
    if (arrow) {
        *arrow = '\0';
        if (tc_fmt_parse(arrow + 2, &only) != TC_OK ||
            (only != TC_FMT_FP32 && only != TC_FMT_FP16))
            return fail(err, cap, "output format '%s' is not fp32 or fp16", CLI_WORD(arrow + 2));
    }
    if (tc_fmt_parse(f, &in) != TC_OK)
        return fail(err, cap, "unknown format '%s'", CLI_WORD(f));
    static const tc_fmt outs[] = {TC_FMT_FP32, TC_FMT_FP16};
    for (size_t o = 0; o < 2; o++) {
        const tc_profile *p;
        if ((arrow && outs[o] != only) || tc_profile_find(arch, instr, in, outs[o], &p) != TC_OK)
            continue;
        if (p->kind != TC_KIND_FEDP || !fold(s, p))
            return fail(err, cap, "profile %s is not an FEDP step with the parameters of the "
                                  "instance's other rows", p->name);
        rows++;
    }
    if (!rows)
        return fail(err, cap, "no profile for %s %s %s%s%s", arch_s, instr_s, f,
                    arrow ? " -> " : "", arrow ? arrow + 2 : "");
    return 0;
}

/* The mixed-pair FEDP rows of (arch, instr) whose two formats and output the rows folded
 * so far have: the datapath decodes b by a select of its own (fedp.sv's InPairs). 0, or
 * -1 with err set. */
static int fold_pairs(fold_state *s, tc_arch arch, tc_instr instr, char *err, size_t cap)
{
    const tc_profile *rows;
    size_t n = tc_profile_table(&rows);
    for (size_t r = 0; r < n; r++) {
        const tc_profile *p = &rows[r];
        if (p->arch != arch || p->instr != instr || p->kind != TC_KIND_FEDP ||
            p->in_b == p->in || !((s->p.in_fmts >> p->in) & 1u) ||
            !((s->p.in_fmts >> p->in_b) & 1u) || !((s->p.out_fmts >> p->out) & 1u))
            continue;
        if (!fold(s, p))
            return fail(err, cap, "profile %s does not have the parameters of the "
                                  "instance's other rows", p->name);
        s->p.in_pairs = 1;
    }
    return 0;
}

/* Every row of block-scaled kind k for (arch, instr); 0, or -1 with err set. */
static int fold_kind(fold_state *s, tc_arch arch, tc_instr instr, const char *arch_s,
                     const char *instr_s, const char *k, char *err, size_t cap)
{
    const tc_profile *rows;
    size_t n = tc_profile_table(&rows), found = 0;
    for (size_t r = 0; r < n; r++) {
        const tc_profile *p = &rows[r], *q;
        if (p->arch != arch || p->instr != instr ||
            (p->kind != TC_KIND_MX && p->kind != TC_KIND_MXF4) ||
            tc_profile_find_scaled(arch, instr, k, p->in, p->scale, p->scale_block, &q) !=
                TC_OK || q != p)
            continue;
        if (!fold(s, p))
            return fail(err, cap, "profile %s does not have the parameters of the "
                                  "instance's other rows", p->name);
        found++;
    }
    if (!found)
        return fail(err, cap, "no block-scaled kind '%s' for %s %s", CLI_WORD(k), arch_s, instr_s);
    return 0;
}

int fedp_params_of(const char *spec, fedp_params *out, char *err, size_t cap)
{
    char *copy = malloc(strlen(spec) + 1);
    if (!copy)
        return fail(err, cap, "out of memory");
    strcpy(copy, spec);
    char *rest = copy;
    char *arch_s = next_field(&rest, ':'), *instr_s = next_field(&rest, ':'),
         *fmts = next_field(&rest, ':'), *kinds = next_field(&rest, ':');
    tc_arch arch;
    tc_instr instr;
    /* an instance without fp32 rows still has the parameter: fp32's own width */
    fold_state s = {{0, 0, 0, 0, TC_EMIN_ALIGN_NONE, TC_EMIN_ALIGN_NONE,
                     tc_fmt_get(TC_FMT_FP32)->man_bits, 0, 0, 0}, 0, TC_KIND_FEDP};
    int rc = 0;
    if (!fmts || rest || tc_arch_parse(arch_s, &arch) != TC_OK ||
        tc_instr_parse(instr_s, &instr) != TC_OK)
        rc = fail(err, cap, "bad spec '%s' (arch:instr:fmt,...[:kind,...])", CLI_WORD(spec));
    for (char *fl = strcmp(fmts ? fmts : "-", "-") ? fmts : NULL, *f;
         !rc && (f = next_field(&fl, ','));)
        rc = fold_format(&s, arch, instr, arch_s, instr_s, f, err, cap);
    if (!rc && s.have)
        rc = fold_pairs(&s, arch, instr, err, cap);
    for (char *kl = kinds, *k; !rc && (k = next_field(&kl, ','));)
        rc = fold_kind(&s, arch, instr, arch_s, instr_s, k, err, cap);
    if (!rc && !s.have)
        rc = fail(err, cap, "no rows");
    free(copy);
    if (!rc)
        *out = s.p;
    return rc;
}
