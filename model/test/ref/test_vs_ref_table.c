/* test_vs_ref_table.c - the model's profile table (tc_profile_table) against our own
 * transcription of the contract table, row for row, both ways. */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "vs_ref.h"

/* ======================================================================= table check */

static int emin_equal(int mine, int model)
{
    if (mine == REF_EMIN_NONE)
        return model == TC_EMIN_ALIGN_NONE;
    return mine == model;
}

static const char *emin_str(int v, char *buf, size_t n)
{
    if (v == REF_EMIN_NONE || v == TC_EMIN_ALIGN_NONE)
        snprintf(buf, n, "none");
    else
        snprintf(buf, n, "%d", v);
    return buf;
}

/* The numeric fields of a model row against ours; prints and counts each difference. */
static int compare_params(const char *name, const tc_profile *r, const ref_profile *m)
{
    int bad = 0;
    char b1[16], b2[16];
    if (!(m->unspecified & REF_UNSPEC_L) && r->L != m->L) {
        printf("table: %s: L %u, contract %u\n", name, r->L, m->L);
        bad++;
    }
    if (!(m->unspecified & REF_UNSPEC_F) && r->F != m->F) {
        printf("table: %s: F %u, contract %u\n", name, r->F, m->F);
        bad++;
    }
    if (!(m->unspecified & REF_UNSPEC_ROUND) && r->round != m->round) {
        printf("table: %s: rounding %s, contract %s\n", name, r->round == TC_RNE ? "RNE" : "RZ",
               m->round == TC_RNE ? "RNE" : "RZ");
        bad++;
    }
    if (!(m->unspecified & REF_UNSPEC_EMIN) && !emin_equal(m->emin_align, r->emin_align)) {
        printf("table: %s: Emin_align %s, contract %s\n", name,
               emin_str(r->emin_align, b1, sizeof b1), emin_str(m->emin_align, b2, sizeof b2));
        bad++;
    }
    if (!(m->unspecified & REF_UNSPEC_MAN) && r->out_man_bits != m->out_man_bits) {
        printf("table: %s: out_man_bits %u, contract %u\n", name, r->out_man_bits,
               m->out_man_bits);
        bad++;
    }
    if (r->zero_plus != m->zero_plus) {
        printf("table: %s: zero_plus %d, contract %d\n", name, r->zero_plus, m->zero_plus);
        bad++;
    }
    return bad;
}

static int is_int_fmt(tc_fmt f)
{
    const ref_fmt *d = ref_fmt_get(f);
    return d && d->cls == REF_CLS_INT && f != TC_FMT_S32;
}

int is_scaled_kind(tc_kind k)
{
    return k == TC_KIND_MX || k == TC_KIND_MXF4;
}

/* Our row for a model row (NULL if none); integer rows have none. */
const ref_profile *my_row_for(const tc_profile *r)
{
    int sc = is_scaled_kind(r->kind);
    return ref_profile_lookup_ab(r->arch, r->instr, r->in, r->in_b, r->out, r->kind,
                                 sc ? r->scale : TC_FMT_COUNT, sc ? r->scale_block : 0);
}

static int check_emulation_row(const tc_profile *r)
{
    const tc_profile *sp = NULL;
    tc_status st = tc_profile_step_of(r, &sp);
    const ref_profile *m16 = ref_profile_lookup(r->arch, TC_INSTR_MMA, TC_FMT_FP16, r->out,
                                                TC_KIND_FEDP, TC_FMT_COUNT, 0);
    if (st != TC_OK || !sp || !m16) {
        printf("table: %s: tc_profile_step_of gives %s, expected the %s row\n", r->name,
               tc_strerror(st), m16 ? m16->what : "(none)");
        return 1;
    }
    if (sp->arch != r->arch || sp->in != TC_FMT_FP16 || sp->out != r->out ||
        sp->kind != TC_KIND_FEDP) {
        printf("table: %s: its step profile is %s, expected the arch's fp16 -> %s row\n",
               r->name, sp->name, ref_fmt_get(r->out)->name);
        return 1;
    }
    return compare_params(sp->name, sp, m16);
}

/* Every model row against ours, every one of ours present in the model, and the
 * find functions agreeing with the table. */
int run_table(void)
{
    const tc_profile *rows;
    const ref_profile *mine;
    size_t n = tc_profile_table(&rows), nm = ref_profile_table(&mine);
    unsigned *seen = calloc(nm, sizeof *seen);
    int bad = 0;
    size_t n_int = 0;
    if (!seen)
        return 1;
    for (size_t i = 0; i < n; i++) {
        const tc_profile *r = &rows[i];
        if (is_exact_kind(r->kind)) { /* not in the contract's table: shape only */
            n_int++;
            int popc = r->kind != TC_KIND_INT, b1 = r->in == TC_FMT_B1 && r->in_b == TC_FMT_B1;
            if (popc ? !b1 : (!is_int_fmt(r->in) || !is_int_fmt(r->in_b) ||
                              r->in == TC_FMT_B1 || r->in_b == TC_FMT_B1) ||
                r->out != TC_FMT_S32) {
                printf("table: %s: an integer row must be int8/uint8/int4/uint4 (a popc row "
                       "b1) -> s32\n", r->name);
                bad++;
            }
            continue;
        }
        if (r->kind == TC_KIND_FP64) { /* the contract's FMA chain: no FEDP parameters */
            if (r->in != TC_FMT_FP64 || r->in_b != TC_FMT_FP64 || r->out != TC_FMT_FP64 ||
                r->instr != TC_INSTR_MMA || r->arch < TC_ARCH_AMPERE) {
                printf("table: %s: an fp64 row must be fp64 -> fp64, mma, ampere on\n", r->name);
                bad++;
            }
            continue;
        }
        const ref_profile *m = my_row_for(r);
        if (!m) {
            printf("table: model row %s has no row in the contract\n", r->name);
            bad++;
            continue;
        }
        if (seen[m - mine]++)
            printf("table: NOTE %s: a second model row for the contract's %s\n", r->name, m->what);
        bad += compare_params(r->name, r, m);
        if (r->kind == TC_KIND_FP8_EMU)
            bad += check_emulation_row(r);
        if (m->unspecified & REF_UNSPEC_EMIN && r->kind != TC_KIND_FP8_EMU) {
            char b[16];
            printf("table: NOTE %s: the contract gives no Emin_align; the model uses %s and the "
                   "reference follows it\n", r->name, emin_str(r->emin_align, b, sizeof b));
        }
    }
    for (size_t j = 0; j < nm; j++) {
        const ref_profile *m = &mine[j];
        if (!seen[j]) {
            printf("table: contract row '%s' is missing from the model's table\n", m->what);
            bad++;
        }
        /* the lookup functions must land on a row that matches too */
        const tc_profile *f = NULL;
        tc_status st;
        if (m->scaled_kind)
            st = tc_profile_find_scaled_ab(m->arch, m->instr, m->scaled_kind, m->in, m->in_b,
                                           m->scale, m->scale_block, &f);
        else
            st = tc_profile_find_ab(m->arch, m->instr, m->in, m->in_b, m->out, &f);
        if (st != TC_OK || !f || my_row_for(f) != m) {
            printf("table: finding '%s' gives %s (%s)\n", m->what, tc_strerror(st),
                   f ? f->name : "no row");
            bad++;
        }
        /* the one-format lookups never land on a mixed pair */
        if (m->in != m->in_b &&
            (m->scaled_kind ? tc_profile_find_scaled(m->arch, m->instr, m->scaled_kind, m->in,
                                                     m->scale, m->scale_block, &f)
                            : tc_profile_find(m->arch, m->instr, m->in, m->out, &f)) == TC_OK &&
            f->in_b != f->in) {
            printf("table: tc_profile_find(%s) gives the mixed pair %s\n", m->what, f->name);
            bad++;
        }
    }
    free(seen);
    printf("table: %zu model rows (%zu integer), %zu contract rows: %s\n", n, n_int, nm,
           bad ? "FAILED" : "ok");
    return bad != 0;
}

int make_row_ctx(const tc_profile *mp, row_ctx *rc)
{
    memset(rc, 0, sizeof *rc);
    rc->mp = mp;
    if (is_exact_kind(mp->kind)) {
        rc->rp.kind = mp->kind;
        rc->rp.in = mp->in;
        rc->rp.in_b = mp->in_b;
        rc->rp.out = mp->out;
        /* b1: k up to 3 * 64, past the 128 of mma.m8n8k128 */
        rc->rp.L = mp->kind != TC_KIND_INT ? 64 : mp->L ? mp->L : 16;
    } else {
        const ref_profile *m = my_row_for(mp);
        if (!m)
            return 0;
        rc->rp = *m;
        if (m->emin_align == REF_EMIN_UNSPECIFIED) /* docs/contract.md is silent: the model's */
            rc->rp.emin_align = mp->emin_align == TC_EMIN_ALIGN_NONE ? REF_EMIN_NONE
                                                                     : mp->emin_align;
    }
    rc->fin = ref_fmt_get(rc->rp.in);
    rc->fin_b = ref_fmt_get(rc->rp.in_b);
    rc->fout = ref_fmt_get(rc->rp.out);
    rc->scaled = is_scaled_kind(rc->rp.kind);
    rc->block = rc->rp.kind == TC_KIND_FP8_EMU ? 32 : rc->rp.L;
    rc->out_p = rc->rp.out == TC_FMT_FP16 ? 10 : rc->rp.out_man_bits == 13 ? 13 : 23;
    if (!rc->fin || !rc->fin_b || !rc->fout || rc->block == 0 || 3 * rc->block > MAXK)
        return 0;
    return 1;
}
