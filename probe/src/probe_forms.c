/* probe_forms.c - the forms the probe measures on a target: the library's PTX table for
 * mma and mma.sp, the profile table for wgmma and tcgen05.mma (probe.h), and which of
 * them the kernels of probe_kinds.h run. */
#include <stdio.h>
#include <string.h>
#include "probe.h"
#include "probe_kinds.h"

/* probe_kinds.h's op column */
#define PK_OP_NONE 0
#define PK_OP_AND TC_KIND_POPC_AND
#define PK_OP_XOR TC_KIND_POPC_XOR

tc_arch probe_arch_of_sm(unsigned sm)
{
    if (sm == 70 || sm == 72)
        return TC_ARCH_VOLTA;
    if (sm == 75)
        return TC_ARCH_TURING;
    if (sm >= 80 && sm <= 87)
        return TC_ARCH_AMPERE;
    if (sm == 89)
        return TC_ARCH_ADA;
    if (sm == 90)
        return TC_ARCH_HOPPER;
    if (sm >= 100 && sm <= 103)
        return TC_ARCH_BLACKWELL;
    return TC_ARCH_COUNT;
}

unsigned probe_form_tiles(const probe_form *f)
{
    return f->instr == TC_INSTR_MMA && f->m == 8 && f->k == 4 && f->in != TC_FMT_FP64 ? 4 : 1;
}

int probe_kind(const probe_form *f)
{
    int acc16 = f->acc == TC_FMT_FP16;
    if (f->instr == TC_INSTR_WGMMA && f->mixed) { /* e4m3 x e5m2, s8 x u8, both ways */
        if (f->in == TC_FMT_E4M3 && f->in_b == TC_FMT_E5M2)
            return acc16 ? PK_WG_E4M3xE5M2_F16 : PK_WG_E4M3xE5M2_F32;
        if (f->in == TC_FMT_E5M2 && f->in_b == TC_FMT_E4M3)
            return acc16 ? PK_WG_E5M2xE4M3_F16 : PK_WG_E5M2xE4M3_F32;
        if (f->in == TC_FMT_INT8 && f->in_b == TC_FMT_UINT8)
            return PK_WG_S8xU8_S32;
        if (f->in == TC_FMT_UINT8 && f->in_b == TC_FMT_INT8)
            return PK_WG_U8xS8_S32;
        return -1;
    }
    if (f->instr == TC_INSTR_WGMMA) {
        switch (f->in) {
        case TC_FMT_FP16: return acc16 ? PK_WG_F16_F16 : PK_WG_F16_F32;
        case TC_FMT_BF16: return PK_WG_BF16_F32;
        case TC_FMT_TF32: return PK_WG_TF32_F32;
        case TC_FMT_E4M3: return acc16 ? PK_WG_E4M3_F16 : PK_WG_E4M3_F32;
        case TC_FMT_E5M2: return acc16 ? PK_WG_E5M2_F16 : PK_WG_E5M2_F32;
        case TC_FMT_INT8: return PK_WG_S8_S32;
        case TC_FMT_UINT8: return PK_WG_U8_S32;
        default: return -1;
        }
    }
    if (f->instr == TC_INSTR_TCGEN05 && f->pair) {
#define PK_TC2_MATCH(kd, in_, inb_, acc_, ptx, dfmt, afmt, bfmt, k_)                         \
    if (!f->kind && !f->mixed && f->m == PK_TC2_NUMERICS_M && f->k == k_ &&                 \
        f->in == TC_FMT_##in_ && f->acc == TC_FMT_##acc_)                                    \
        return kd;
        PK_TC_PAIR_FORMS(PK_TC2_MATCH)
#undef PK_TC2_MATCH
        return -1;
    }
    if (f->instr == TC_INSTR_TCGEN05) {
#define PK_TC_MATCH(kd, in_, inb_, acc_, ptx, dfmt, afmt, bfmt, k_)                          \
    if (!f->kind && f->m == PK_TC_NUMERICS_M && f->k == k_ && f->in == TC_FMT_##in_ &&       \
        probe_fmt_b(f) == TC_FMT_##inb_ && f->acc == TC_FMT_##acc_)                          \
        return kd;
#define PK_TCS_MATCH(kd, in_, inb_, scale_, block_, ptx, vec, afmt, bfmt, sfmt, k_)          \
    if (f->kind && !strcmp(f->kind, ptx) && f->m == PK_TC_NUMERICS_M && f->k == k_ &&        \
        f->in == TC_FMT_##in_ && probe_fmt_b(f) == TC_FMT_##inb_ &&                          \
        f->scale == TC_FMT_##scale_ && f->block == block_)                                   \
        return kd;
        PK_TC_FORMS(PK_TC_MATCH)
        PK_TC_SCALED(PK_TCS_MATCH)
#undef PK_TC_MATCH
#undef PK_TCS_MATCH
        return -1;
    }
    if (f->instr != TC_INSTR_MMA)
        return -1;
#define PK_MATCH(kind, sp, m_, n_, k_, in_, inb_, acc_, op_, regs, types, sm)                \
    if (!f->sparse == !sp && f->m == m_ && f->n == n_ && f->k == k_ &&                      \
        f->in == TC_FMT_##in_ && probe_fmt_b(f) == TC_FMT_##inb_ &&                         \
        f->acc == TC_FMT_##acc_ && f->op == PK_OP_##op_)                                    \
        return kind;
    PK_MMA_FORMS(PK_MATCH)
#undef PK_MATCH
    return -1;
}

/* The forms the kernels of cuda/probe_device.cu run. Numerics: every mma.sync form of
 * PK_MMA_FORMS through the fragment layouts of probe_frag.c, wgmma m64n8
 * (PK_WG_NUMERICS_N) and tcgen05.mma m128n16 (PK_TC_NUMERICS_N) of PK_TC_FORMS.
 * Timing: those mma forms and the table's mma.sp ones; of wgmma and tcgen05.mma, every
 * N of fp16 -> fp32 and N = 256 of every format pair (its peak rate). */
static int has_numerics(const probe_form *f)
{
    /* tf32's sparsity is 1:2 and the 4-bit integers' keeps pairs, each with its own
     * metadata rule (probe_frag.c's patterns are 2:4 of single elements): timing only */
    if (probe_kind(f) < 0 ||
        (f->sparse && (f->in == TC_FMT_TF32 || tc_fmt_get(f->in)->width == 4)))
        return 0;
    return f->instr == TC_INSTR_MMA ||
           f->n == (f->instr == TC_INSTR_WGMMA ? PK_WG_NUMERICS_N
                    : f->pair                  ? PK_TC2_NUMERICS_N : PK_TC_NUMERICS_N);
}

static int has_timing(const probe_form *f)
{
    /* a mixed pair runs at its formats' rate; the timing model has no block-scaled op,
     * no b1 one and no fp64 one (tcsim timing invents no DMMA latency) */
    if (probe_kind(f) < 0 || f->mixed || f->kind || f->op || f->in == TC_FMT_FP64 ||
        (f->pair && f->in != TC_FMT_FP16)) /* the CTA pair: fp16 -> fp32's points alone */
        return 0;
    return f->instr == TC_INSTR_MMA || (f->in == TC_FMT_FP16 && f->acc == TC_FMT_FP32) ||
           f->n == 256;
}

static size_t add(probe_form *out, size_t n, size_t cap, probe_form f)
{
    f.numerics = has_numerics(&f);
    f.timing = has_timing(&f);
    if (n < cap)
        out[n] = f;
    return n + 1;
}

/* The instruction's k: 32 bytes of input (fp6/fp4 rows take the bytes of 8-bit ones). */
static unsigned k32(tc_fmt in)
{
    return in == TC_FMT_TF32 ? 8 : tc_fmt_get(in)->width == 16 ? 16 : 32;
}

size_t probe_forms(unsigned sm, probe_form *out, size_t cap)
{
    tc_arch arch = probe_arch_of_sm(sm);
    size_t n = 0;
    if (arch == TC_ARCH_COUNT)
        return 0;
    const tc_profile *p;
    tc_ptx_instr r;
    for (size_t i = 0; tc_ptx_instr_get(i, &r) == TC_OK; i++) {
        /* wmma's rows are the same arithmetic as mma's (its fragments are opaque) */
        if (r.form == TC_PTX_WMMA || r.sm > sm)
            continue;
        probe_form f = {TC_INSTR_MMA, r.form == TC_PTX_MMA_SP, r.m, r.n, r.k, r.in, r.acc,
                        r.sm, 0, 0, r.in_b != r.in, r.in_b, r.op, NULL, TC_FMT_COUNT, 0, 0};
        if (probe_profile(arch, &f, &p) != TC_OK)
            continue;
        n = add(out, n, cap, f);
    }
    /* wgmma (sm_90a only: Blackwell has tcgen05 instead) and tcgen05.mma, over the
     * formats their profiles have; N a power of two from 8 to 256 (PTX has every
     * multiple of 8: the sweep's points). */
    tc_instr async = arch == TC_ARCH_HOPPER ? TC_INSTR_WGMMA
                   : arch == TC_ARCH_BLACKWELL ? TC_INSTR_TCGEN05 : TC_INSTR_COUNT;
    if (async == TC_INSTR_COUNT)
        return n;
    const tc_profile *rows;
    size_t nrows = tc_profile_table(&rows);
    for (size_t i = 0; i < nrows; i++) {
        p = &rows[i];
        if (p->arch != arch || p->instr != async)
            continue;
        unsigned m = async == TC_INSTR_WGMMA ? 64 : 128;
        probe_form f = {async, 0, m, 0, k32(p->in), p->in, p->out,
                        async == TC_INSTR_WGMMA ? 90 : 100, 0, 0, p->in_b != p->in, p->in_b, 0,
                        NULL, TC_FMT_COUNT, 0, 0};
        if (p->scale != TC_FMT_COUNT) { /* the kind is the profile name's word after
                                           "_tcgen05_" (profile.c's names) */
            const char *w = strstr(p->name, "_tcgen05_");
            f.kind = !w ? NULL : !strncmp(w + 9, "mxf8f6f4_", 9) ? "mxf8f6f4"
                   : !strncmp(w + 9, "mxf4nvf4_", 9) ? "mxf4nvf4"
                   : !strncmp(w + 9, "mxf4_", 5) ? "mxf4" : NULL;
            f.scale = p->scale;
            f.block = p->scale_block;
            f.k = p->kind == TC_KIND_MXF4 ? 64 : 32;
        }
        /* mixed pairs and block-scaled kinds: numerics at the smallest N only */
        unsigned first = async == TC_INSTR_WGMMA ? PK_WG_NUMERICS_N : PK_TC_NUMERICS_N;
        unsigned last = f.mixed || f.kind ? first : 256;
        for (f.n = first; f.n <= last; f.n *= 2)
            n = add(out, n, cap, f);
    }
    /* the CTA pair (cta_group::2) of each one-format kind with a 32-bit accumulator: its
     * numerics N; fp16 -> fp32's the peak's N too (the pair's timing) */
    for (size_t i = 0; async == TC_INSTR_TCGEN05 && i < nrows; i++) {
        p = &rows[i];
        if (p->arch != arch || p->instr != async || p->in_b != p->in ||
            p->scale != TC_FMT_COUNT || (p->out != TC_FMT_FP32 && p->out != TC_FMT_S32))
            continue;
        probe_form f = {async, 0, PK_TC2_NUMERICS_M, PK_TC2_NUMERICS_N, k32(p->in), p->in,
                        p->out, 100, 0, 0, 0, p->in, 0, NULL, TC_FMT_COUNT, 0, 1};
        n = add(out, n, cap, f);
        f.n = 256;
        if (p->in == TC_FMT_FP16)
            n = add(out, n, cap, f);
    }
    return n;
}

tc_fmt probe_fmt_b(const probe_form *f)
{
    return f->mixed ? f->in_b : f->in;
}

tc_status probe_profile(tc_arch arch, const probe_form *f, const tc_profile **p)
{
    if (f->kind)
        return tc_profile_find_scaled_ab(arch, f->instr, f->kind, f->in, probe_fmt_b(f),
                                         f->scale, f->block, p);
    if (f->op)
        return tc_profile_find_popc(arch, f->instr, f->op, p);
    return tc_profile_find_ab(arch, f->instr, f->in, probe_fmt_b(f), f->acc, p);
}

void probe_form_op(const probe_form *f, char *buf, size_t size)
{
    const char *name = f->instr == TC_INSTR_WGMMA ? "wgmma"
                     : f->instr == TC_INSTR_TCGEN05 ? "tcgen05" : f->sparse ? "mma.sp" : "mma";
    snprintf(buf, size, "%s%s%s.m%un%uk%u", name, f->kind || f->pair ? "." : "",
             f->kind ? f->kind : f->pair ? "pair" : "", f->m, f->n, f->k);
}

void probe_form_in(const probe_form *f, char *buf, size_t size)
{
    snprintf(buf, size, "%s%s%s", tc_fmt_get(f->in)->name,
             f->mixed ? "x" : f->kind || f->op ? "." : "",
             f->mixed  ? tc_fmt_get(f->in_b)->name
             : f->kind ? tc_fmt_get(f->scale)->name
             : f->op   ? (f->op == TC_KIND_POPC_AND ? "and" : "xor") : "");
}
