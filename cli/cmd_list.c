/* cmd_list.c - `tcsim list`: architectures, instructions, formats, profiles; with
 * --forms, every form of each arch with its source (issue 33). */
#define _POSIX_C_SOURCE 200809L
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <dirent.h>
#include "cli.h"
#include "data_dir.h"
#include "gpu_vectors.h"

static const char *kind_name(const tc_profile *p)
{
    switch (p->kind) {
    case TC_KIND_FEDP:    return "fedp";
    case TC_KIND_FP8_EMU: return "fp8-emu";
    case TC_KIND_INT:     return "int";
    case TC_KIND_MX:      return "mxf8f6f4";
    case TC_KIND_MXF4:    return strstr(p->name, "nvf4") ? "mxf4nvf4" : "mxf4";
    case TC_KIND_POPC_AND: return "and.popc";
    case TC_KIND_POPC_XOR: return "xor.popc";
    case TC_KIND_FP64:    return "fp64-fma";
    }
    return "?";
}

/* The integer and b1 kinds: exact, no rounding nor alignment. */
static int exact_kind(const tc_profile *p)
{
    return p->kind == TC_KIND_INT || p->kind == TC_KIND_POPC_AND || p->kind == TC_KIND_POPC_XOR;
}

/* ------------------------------------------------------------ --forms */

/* The measured sets of data/vectors: one folder per GPU (a100/, h200/), its arch from
 * the folder's gpu.txt ("sm 90") or, for the A100's published sets, which have none,
 * from the name; the instruction from a sub-folder's name (wgmma_..., else mma). */
typedef struct vec_sets {
    gv_set *sets;
    tc_arch *arch;
    size_t n;
    size_t root_len;        /* the sets' folders are shown below vectors/: h200/mma_... */
} vec_sets;

static int gpu_arch(const char *dir, const char *name, tc_arch *out)
{
    char path[GV_PATH + 300], line[128];
    snprintf(path, sizeof path, "%s/gpu.txt", dir);
    FILE *f = fopen(path, "r");
    unsigned sm = !strcasecmp(name, "a100") ? 80 : 0;
    while (f && fgets(line, sizeof line, f))
        if (sscanf(line, "sm %u", &sm) == 1)
            break;
    if (f)
        fclose(f);
    for (int a = 0; a < TC_ARCH_COUNT; a++)
        if (sm && tc_arch_ptx_sm((tc_arch)a) == sm) {
            *out = (tc_arch)a;
            return 0;
        }
    return -1;
}

static tc_instr set_instr(const gv_set *s)
{
    const char *base = strrchr(s->dir, '/');
    base = base ? base + 1 : s->dir;
    return !strncmp(base, "wgmma", 5) ? TC_INSTR_WGMMA :
           !strncmp(base, "tcgen05", 7) ? TC_INSTR_TCGEN05 : TC_INSTR_MMA;
}

/* Reads every GPU folder under the data folder's vectors/; none found is no error (every
 * form is then the contract's). -1 on a folder whose sets cannot be read. */
static int vec_sets_load(vec_sets *v)
{
    char root[GV_PATH], dir[GV_PATH + 256];
    memset(v, 0, sizeof *v);
    if (data_dir_find("list", "vectors", root, sizeof root))
        return 0;
    v->root_len = strlen(root) + 1;
    DIR *d = opendir(root);
    struct dirent *e;
    while (d && (e = readdir(d))) {
        tc_arch arch;
        size_t n = 0;
        snprintf(dir, sizeof dir, "%s/%s", root, e->d_name);
        DIR *sub = e->d_name[0] == '.' ? NULL : opendir(dir);
        if (!sub)
            continue;
        closedir(sub);
        if (gpu_arch(dir, e->d_name, &arch))
            continue; /* a folder of no arch here */
        gv_set *s = realloc(v->sets, (v->n + GV_MAX_SETS) * sizeof *s);
        tc_arch *a = s ? realloc(v->arch, (v->n + GV_MAX_SETS) * sizeof *a) : NULL;
        if (s)
            v->sets = s;
        if (a)
            v->arch = a;
        if (!s || !a || gv_find(dir, v->sets + v->n, GV_MAX_SETS, &n)) {
            closedir(d);
            return -1;
        }
        for (size_t i = 0; i < n; i++)
            v->arch[v->n + i] = arch;
        v->n += n;
    }
    if (d)
        closedir(d);
    return 0;
}

/* The form's name: "fp16", "int8xuint8", "b1 and.popc", "e2m1 mxf4nvf4 ue4m3/16". */
static void form_name(const tc_profile *p, char *buf, size_t cap)
{
    int n = snprintf(buf, cap, "%s", tc_fmt_get(p->in)->name);
    if (p->in_b != p->in)
        n += snprintf(buf + n, cap - (size_t)n, "x%s", tc_fmt_get(p->in_b)->name);
    if (p->kind == TC_KIND_POPC_AND || p->kind == TC_KIND_POPC_XOR || p->scale_block)
        n += snprintf(buf + n, cap - (size_t)n, ".%s", kind_name(p));
    if (p->scale_block)
        snprintf(buf + n, cap - (size_t)n, ".%s/%u", tc_fmt_get(p->scale)->name, p->scale_block);
}

static int list_forms(void)
{
    vec_sets v;
    if (vec_sets_load(&v)) {
        free(v.sets);
        free(v.arch);
        return CLI_USAGE;
    }
    const tc_profile *rows;
    size_t n = tc_profile_table(&rows);
    printf("%-10s %-8s %-24s %-5s %s\n", "arch", "instr", "form", "out", "source");
    for (int a = 0; a < TC_ARCH_COUNT; a++)
        for (size_t i = 0; i < n; i++) {
            const tc_profile *p = &rows[i];
            if (p->arch != (tc_arch)a)
                continue;
            char form[64];
            form_name(p, form, sizeof form);
            printf("%-10s %-8s %-24s %-5s", tc_arch_name(p->arch), tc_instr_name(p->instr),
                   form, tc_fmt_get(p->out)->name);
            /* measured: a set of this arch and instruction with the row's one format */
            int measured = 0;
            for (size_t j = 0; j < v.n && p->in == p->in_b && !p->scale_block; j++) {
                const gv_set *s = &v.sets[j];
                if (v.arch[j] != p->arch || set_instr(s) != p->instr || s->in != p->in ||
                    s->out != p->out)
                    continue;
                printf("%s %s", measured++ ? "," : " vectors",
                       strlen(s->dir) > v.root_len ? s->dir + v.root_len : s->dir);
            }
            printf("%s\n", measured ? "" : " contract");
        }
    free(v.sets);
    free(v.arch);
    return CLI_OK;
}

static int list_run(int argc, char **argv)
{
    if (argc > 1 && !strcmp(argv[1], "--forms")) {
        if (argc == 2)
            return list_forms();
        fprintf(stderr, "tcsim list: unexpected argument '%s'\n", CLI_WORD(argv[2]));
        return CLI_USAGE;
    }
    if (argc > 1) {
        if (cli_is_help(argv[1])) {
            printf("usage: tcsim list [--forms]\n\nPrints the architectures, instructions and formats, "
                   "then every supported\n(arch, instr, in, out) combination with its "
                   "parameters: L terms per step,\nF fraction bits kept, rounding, Emin_align, "
                   "result fraction bits, and source.\nWhere A and B differ, in is the pair "
                   "A x B (e4m3xe5m2).\n\n"
                   "tcsim list --forms prints every form of each arch (a x b formats, the b1\n"
                   "op, the block-scaled kind) with its source: 'vectors' and the folders of\n"
                   "hardware results under the data folder's vectors/ that hold it (tcsim\n"
                   "vectors checks the model against them), else 'contract' (docs/contract.md,\n"
                   "no measurement).\n" DATA_DIR_HELP);
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
        if (tc_fmt_get((tc_fmt)f)) /* a code without a row is skipped */
            printf(" %s", tc_fmt_get((tc_fmt)f)->name);
    printf("\n\n%-10s %-8s %-9s %-5s %-9s %3s %3s %-4s %10s %4s %-11s %s\n", "arch", "instr",
           "in", "out", "kind", "L", "F", "rnd", "emin_align", "frac", "scale", "source");
    const tc_profile *rows;
    size_t n = tc_profile_table(&rows);
    for (size_t i = 0; i < n; i++) {
        const tc_profile *p = &rows[i];
        char emin[16], scale[16] = "-", in[24];
        if (p->emin_align == TC_EMIN_ALIGN_NONE || exact_kind(p) || p->kind == TC_KIND_FP8_EMU)
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
               exact_kind(p) ? "-" : p->round == TC_RZ ? "rz" : "rne", emin,
               p->out_man_bits, scale, p->source);
    }
    return CLI_OK;
}

const cli_cmd cmd_list = {"list", "architectures, instructions, formats and profiles", list_run};
