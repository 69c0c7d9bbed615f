/* cmd_list.c - `tcsim list`: architectures, instructions, formats, profiles. */
#include <string.h>
#include "cli.h"

static const char *kind_name(const tc_profile *p)
{
    switch (p->kind) {
    case TC_KIND_FEDP:    return "fedp";
    case TC_KIND_FP8_EMU: return "fp8-emu";
    case TC_KIND_INT:     return "int";
    case TC_KIND_MX:      return "mxf8f6f4";
    case TC_KIND_MXF4:    return strstr(p->name, "nvf4") ? "mxf4nvf4" : "mxf4";
    case TC_KIND_FP64:    return "fp64-fma";
    }
    return "?";
}

static int list_run(int argc, char **argv)
{
    if (argc > 1) {
        if (cli_is_help(argv[1])) {
            printf("usage: tcsim list\n\nPrints the architectures, instructions and formats, "
                   "then every supported\n(arch, instr, in, out) combination with its "
                   "parameters: L terms per step,\nF fraction bits kept, rounding, Emin_align, "
                   "result fraction bits, and source.\nWhere A and B differ, in is the pair "
                   "A x B (e4m3xe5m2).\n");
            return CLI_OK;
        }
        fprintf(stderr, "tcsim list: unexpected argument '%s'\n", CLI_WORD(argv[1]));
        return CLI_USAGE;
    }
    printf("archs:");
    for (int a = 0; a < TC_ARCH_COUNT; a++)
        printf(" %s", tc_arch_name((tc_arch)a));
    printf("\ninstructions:");
    for (int i = 0; i < TC_INSTR_COUNT; i++)
        printf(" %s", tc_instr_name((tc_instr)i));
    printf("\nformats:");
    for (int f = 0; f < TC_FMT_COUNT; f++)
        printf(" %s", tc_fmt_get((tc_fmt)f)->name);
    printf("\n\n%-10s %-8s %-9s %-5s %-9s %3s %3s %-4s %10s %4s %-11s %s\n", "arch", "instr",
           "in", "out", "kind", "L", "F", "rnd", "emin_align", "frac", "scale", "source");
    const tc_profile *rows;
    size_t n = tc_profile_table(&rows);
    for (size_t i = 0; i < n; i++) {
        const tc_profile *p = &rows[i];
        char emin[16], scale[16] = "-", in[24];
        if (p->emin_align == TC_EMIN_ALIGN_NONE || p->kind == TC_KIND_INT ||
            p->kind == TC_KIND_FP8_EMU)
            strcpy(emin, "-");
        else
            snprintf(emin, sizeof emin, "%d", p->emin_align);
        /* a mixed pair as A x B, one word: the row's name is arch_instr_in_out */
        if (p->in_b != p->in)
            snprintf(in, sizeof in, "%sx%s", tc_fmt_get(p->in)->name, tc_fmt_get(p->in_b)->name);
        else
            snprintf(in, sizeof in, "%s", tc_fmt_get(p->in)->name);
        if (p->scale_block)
            snprintf(scale, sizeof scale, "%s/%u", tc_fmt_get(p->scale)->name, p->scale_block);
        printf("%-10s %-8s %-9s %-5s %-9s %3u %3u %-4s %10s %4u %-11s %s\n",
               tc_arch_name(p->arch), tc_instr_name(p->instr), in,
               tc_fmt_get(p->out)->name, kind_name(p), p->L, p->F,
               p->kind == TC_KIND_INT ? "-" : p->round == TC_RZ ? "rz" : "rne", emin,
               p->out_man_bits, scale, p->source);
    }
    return CLI_OK;
}

const cli_cmd cmd_list = {"list", "architectures, instructions, formats and profiles", list_run};
