/* probe_forms.c - the forms the probe measures on a target: the library's PTX table for
 * mma and mma.sp, the profile table for wgmma and tcgen05.mma (probe.h). */
#include <stdio.h>
#include "probe.h"
#include "probe_kinds.h"

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

/* The forms the kernels of cuda/probe_device.cu run. Numerics: mma.sync through the
 * fragment layouts of probe_frag.c, wgmma m64n8 (PK_WG_NUMERICS_N) on the floating-point
 * formats (`tcsim vectors` reads floating-point sets). Timing: those mma forms and
 * m16n8k32 of the 8-bit integers, every N of wgmma fp16 -> fp32 and N = 256 of every
 * wgmma format pair (its peak rate). */
static int has_numerics(const probe_form *f)
{
    if (f->instr == TC_INSTR_WGMMA)
        return f->n == PK_WG_NUMERICS_N && tc_fmt_get(f->in)->cls == TC_CLASS_FLOAT;
    if (f->instr != TC_INSTR_MMA || f->sparse || f->m != 16 || f->n != 8)
        return 0;
    if (f->in == TC_FMT_FP16 || f->in == TC_FMT_BF16)
        return f->k == 16;
    if (f->in == TC_FMT_TF32)
        return f->k == 8 && f->acc == TC_FMT_FP32;
    if (f->in == TC_FMT_E4M3 || f->in == TC_FMT_E5M2)
        return f->k == 32 && f->acc == TC_FMT_FP32;
    return 0;
}

static int has_timing(const probe_form *f)
{
    if (f->instr == TC_INSTR_WGMMA)
        return (f->in == TC_FMT_FP16 && f->acc == TC_FMT_FP32) || f->n == 256;
    if (f->instr == TC_INSTR_MMA && !f->sparse && f->m == 16 && f->n == 8 && f->k == 32 &&
        (f->in == TC_FMT_INT8 || f->in == TC_FMT_UINT8))
        return 1;
    return has_numerics(f);
}

static size_t add(probe_form *out, size_t n, size_t cap, probe_form f)
{
    f.numerics = has_numerics(&f);
    f.timing = has_timing(&f);
    if (n < cap)
        out[n] = f;
    return n + 1;
}

/* The instruction's k: 32 bytes of input (fp6/fp4 in 8-bit containers). */
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
        if (r.form == TC_PTX_WMMA || r.sm > sm ||
            tc_profile_find(arch, TC_INSTR_MMA, r.in, r.acc, &p) != TC_OK)
            continue;
        probe_form f = {TC_INSTR_MMA, r.form == TC_PTX_MMA_SP, r.m, r.n, r.k, r.in, r.acc,
                        r.sm, 0, 0};
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
        if (p->arch != arch || p->instr != async || p->scale != TC_FMT_COUNT)
            continue;
        unsigned m = async == TC_INSTR_WGMMA ? 64 : 128;
        for (unsigned nn = async == TC_INSTR_WGMMA ? 8 : 16; nn <= 256; nn *= 2) {
            probe_form f = {async, 0, m, nn, k32(p->in), p->in, p->out,
                            async == TC_INSTR_WGMMA ? 90 : 100, 0, 0};
            n = add(out, n, cap, f);
        }
    }
    return n;
}

void probe_form_op(const probe_form *f, char *buf, size_t size)
{
    const char *name = f->instr == TC_INSTR_WGMMA ? "wgmma"
                     : f->instr == TC_INSTR_TCGEN05 ? "tcgen05" : f->sparse ? "mma.sp" : "mma";
    snprintf(buf, size, "%s.m%un%uk%u", name, f->m, f->n, f->k);
}
