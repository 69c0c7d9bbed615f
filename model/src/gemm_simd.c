/* gemm_simd.c - gemm_lanes.h's panel kernel compiled for the x86-64 baseline (the
 * portable C path, also on every other CPU), AVX2 and AVX-512, and chosen at run time.
 * The three are one C source: the target attributes only let the compiler vectorise the
 * lanes with wider registers, variable shifts and (AVX-512CD) leading-zero counts, so
 * the bits are the same (model/test/gemm/test_gemm_simd.c holds them to it). */
#include "gemm_lanes.h"

static void panel_portable(const gemm_panel_job *g)
{
    gemm_panel_body(g, 0);
}

#if defined(__x86_64__) && (defined(__GNUC__) || defined(__clang__))
#define HAVE_X86_KERNELS 1
__attribute__((target("avx2,bmi2,lzcnt"))) static void panel_avx2(const gemm_panel_job *g)
{
    gemm_panel_body(g, 0);
}

__attribute__((target("avx512f,avx512cd,avx512bw,avx512dq,avx512vl,avx2,bmi2,lzcnt")))
static void panel_avx512(const gemm_panel_job *g)
{
    gemm_panel_body(g, 1);
}
#endif

gemm_panel_fn tc_gemm_panel_kernel(unsigned simd)
{
#ifdef HAVE_X86_KERNELS
    __builtin_cpu_init();
    int avx2 = __builtin_cpu_supports("avx2") && __builtin_cpu_supports("bmi2");
    int avx512 = avx2 && __builtin_cpu_supports("avx512f") &&
                 __builtin_cpu_supports("avx512cd") && __builtin_cpu_supports("avx512bw") &&
                 __builtin_cpu_supports("avx512dq") && __builtin_cpu_supports("avx512vl");
    switch (simd) {
    case TC_SIMD_AUTO:
        return avx512 ? panel_avx512 : avx2 ? panel_avx2 : panel_portable;
    case TC_SIMD_AVX2:
        return avx2 ? panel_avx2 : NULL;
    case TC_SIMD_AVX512:
        return avx512 ? panel_avx512 : NULL;
    default:
        break;
    }
#endif
    return simd == TC_SIMD_AUTO || simd == TC_SIMD_PORTABLE ? panel_portable : NULL;
}

void tc_gemm_step_consts_of(const tc_profile *p, gemm_step_consts *k)
{
    const tc_fmt_info *fi = &fmt_table[p->in], *fo = &fmt_table[p->out];
    const int F = (int)p->F, pfb = 2 * (int)fi->man_bits, MC = (int)fo->man_bits;
    k->F = F;
    k->H = F > pfb ? F - pfb : 0;
    k->prod_sh = pfb + k->H - F;
    k->HC = F > MC ? F - MC : 0;
    k->c_sh = MC + k->HC - F;
    k->emin_align = p->emin_align;
    k->c_man = fo->man_bits;
    k->c_emask = (1u << fo->exp_bits) - 1u;
    k->c_sign_shift = fmt_sign_shift(fo);
    k->c_bias = fo->bias;
    k->c_emin = fo->emin;
    k->r = (int)p->out_man_bits;
    k->out_emin = fo->emin;
    k->out_emax = fo->emax;
    k->out_bias = fo->bias;
    k->out_man = fo->man_bits;
    k->out_sign_shift = fmt_sign_shift(fo);
    k->out_ignore = fo->ignore_low;
    k->out_inf = fmt_inf(p->out, 0);
    k->rne = p->round == TC_RNE;
    k->zero_plus = p->zero_plus;
    /* |sum| < L * 2^(F+2) + 2^(F+1) (products below 4, c below 2, relative to 2^E) */
    k->narrow = F <= 27 && ((uint64_t)p->L * 4 + 2) << F < (UINT64_C(1) << 30);
}
