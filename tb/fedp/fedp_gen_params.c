/* fedp_gen_params.c - the parameters of each Verilated fedp instance, read from the
 * model's profile table (CMake builds and runs this at configure time with try_run).
 *
 * Arguments: one instance per argument, "name:arch:instr:fmt[,fmt...][:kind[,kind...]]".
 * For each, prints one line
 *   "name L F InFmts OutFmts EminAlignFp32 EminAlignFp16 Fp32ManBits ScaleFmts"
 * built from the FEDP rows of (arch, instr, fmt, fp32/fp16), or of (arch, instr, fmt,
 * out) alone for a format written "fmt->out" (an instance without the other output's
 * rounder, e.g. fp16 accumulation only), and, for each block-scaled kind named
 * (mxf8f6f4, mxf4, mxf4nvf4), its rows of every scale format with those input formats
 * (ScaleFmts: the scale formats seen, 0 for none). The rows an instance
 * covers must agree on every parameter, or the instance is not one datapath: that, an
 * unknown name or a missing row is an error (exit 1) that stops the configuration. An
 * instance of mxf4 rows (fedp_grouped.sv) takes no plain rows: name no formats of a
 * plain kind for it ("-").
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "tcsim.h"

typedef struct inst {
    unsigned L, F, man32;
    uint32_t in_fmts, out_fmts, scale_fmts;
    int emin32, emin16;
    int have;
    tc_kind kind;   /* TC_KIND_FEDP (with TC_KIND_MX rows) or TC_KIND_MXF4 */
} inst;

/* The datapath a row needs: an mxf8f6f4 step is an FEDP step with scaled exponents. */
static tc_kind datapath_of(const tc_profile *p)
{
    return p->kind == TC_KIND_MX ? TC_KIND_FEDP : p->kind;
}

/* Folds one row into the instance; 0 if it disagrees with the rows before it. */
static int fold(inst *s, const tc_profile *p)
{
    int fp16 = p->out == TC_FMT_FP16;
    int *emin = fp16 ? &s->emin16 : &s->emin32;
    int seen_out = (s->out_fmts >> p->out) & 1u;
    if (s->have && (p->L != s->L || p->F != s->F || datapath_of(p) != s->kind))
        return 0;
    if (seen_out && (*emin != p->emin_align || (!fp16 && p->out_man_bits != s->man32)))
        return 0;
    if (p->round != (fp16 ? TC_RNE : TC_RZ) || p->out_man_bits > tc_fmt_get(p->out)->man_bits ||
        (fp16 && p->out_man_bits != tc_fmt_get(TC_FMT_FP16)->man_bits))
        return 0;
    s->L = p->L;
    s->F = p->F;
    s->kind = datapath_of(p);
    s->have = 1;
    if (p->kind == TC_KIND_MX || p->kind == TC_KIND_MXF4)
        s->scale_fmts |= 1u << p->scale;
    s->in_fmts |= 1u << p->in;
    s->out_fmts |= 1u << p->out;
    *emin = p->emin_align;
    if (!fp16)
        s->man32 = p->out_man_bits;
    return 1;
}

static int gen(char *spec)
{
    char *name = strtok(spec, ":"), *arch_s = strtok(NULL, ":"), *instr_s = strtok(NULL, ":"),
         *fmts = strtok(NULL, ":"), *kinds = strtok(NULL, ":");
    tc_arch arch;
    tc_instr instr;
    if (!name || !fmts || tc_arch_parse(arch_s, &arch) != TC_OK ||
        tc_instr_parse(instr_s, &instr) != TC_OK) {
        fprintf(stderr, "fedp_gen_params: bad instance '%s' (name:arch:instr:fmt,...)\n",
                spec);
        return 1;
    }
    inst s = {0, 0, 23, 0, 0, 0, TC_EMIN_ALIGN_NONE, TC_EMIN_ALIGN_NONE, 0, TC_KIND_FEDP};
    for (char *f = strtok(strcmp(fmts, "-") ? fmts : NULL, ","); f; f = strtok(NULL, ",")) {
        tc_fmt in, only = TC_FMT_COUNT;
        int rows = 0;
        char *arrow = strstr(f, "->");
        if (arrow) {
            *arrow = '\0';
            if (tc_fmt_parse(arrow + 2, &only) != TC_OK ||
                (only != TC_FMT_FP32 && only != TC_FMT_FP16)) {
                fprintf(stderr, "fedp_gen_params: %s: output format '%s' is not fp32 or fp16\n",
                        name, arrow + 2);
                return 1;
            }
        }
        if (tc_fmt_parse(f, &in) != TC_OK) {
            fprintf(stderr, "fedp_gen_params: %s: unknown format '%s'\n", name, f);
            return 1;
        }
        static const tc_fmt outs[] = {TC_FMT_FP32, TC_FMT_FP16};
        for (size_t o = 0; o < 2; o++) {
            const tc_profile *p;
            if ((arrow && outs[o] != only) ||
                tc_profile_find(arch, instr, in, outs[o], &p) != TC_OK)
                continue;
            if (p->kind != TC_KIND_FEDP || !fold(&s, p)) {
                fprintf(stderr, "fedp_gen_params: %s: profile %s is not an FEDP step with "
                                "the parameters of the instance's other rows\n", name, p->name);
                return 1;
            }
            rows++;
        }
        if (!rows) {
            fprintf(stderr, "fedp_gen_params: %s: no profile for %s %s %s%s%s\n", name,
                    arch_s, instr_s, f, arrow ? " -> " : "", arrow ? arrow + 2 : "");
            return 1;
        }
    }
    /* the block-scaled kinds: every row of the kind for this arch and instruction */
    for (char *k = kinds ? strtok(kinds, ",") : NULL; k; k = strtok(NULL, ",")) {
        const tc_profile *rows;
        size_t n = tc_profile_table(&rows), found = 0;
        for (size_t r = 0; r < n; r++) {
            const tc_profile *p = &rows[r], *q;
            if (p->arch != arch || p->instr != instr ||
                (p->kind != TC_KIND_MX && p->kind != TC_KIND_MXF4) ||
                tc_profile_find_scaled(arch, instr, k, p->in, p->scale, p->scale_block, &q) !=
                    TC_OK || q != p)
                continue;
            if (!fold(&s, p)) {
                fprintf(stderr, "fedp_gen_params: %s: profile %s does not have the parameters "
                                "of the instance's other rows\n", name, p->name);
                return 1;
            }
            found++;
        }
        if (!found) {
            fprintf(stderr, "fedp_gen_params: %s: no block-scaled kind '%s' for %s %s\n", name,
                    k, arch_s, instr_s);
            return 1;
        }
    }
    if (!s.have) {
        fprintf(stderr, "fedp_gen_params: %s: no rows\n", name);
        return 1;
    }
    printf("%s %u %u %u %u %d %d %u %u\n", name, s.L, s.F, (unsigned)s.in_fmts,
           (unsigned)s.out_fmts, s.emin32, s.emin16, s.man32, (unsigned)s.scale_fmts);
    return 0;
}

int main(int argc, char **argv)
{
    for (int i = 1; i < argc; i++)
        if (gen(argv[i]))
            return 1;
    return 0;
}
