/* profile.c - the one table of arithmetic profiles, per (arch, instr, in, in_b, out).
 *
 * Rows are docs/contract.md's parameter table, transcribed once; the RTL parameter sets
 * and the testbenches are checked against this table, never against a copy.
 * Columns: L terms per step, F fraction bits kept after alignment, rounding of each
 * step's result, Emin_align, and the result's fraction width before widening (13 for
 * native fp8 with fp32 output, an e8m13 value).
 */
#include <string.h>
#include "tcsim.h"

/* Lowercase spellings, so that each row's name reads as tcsim spells it. */
#define A_volta TC_ARCH_VOLTA
#define A_turing TC_ARCH_TURING
#define A_ampere TC_ARCH_AMPERE
#define A_ada TC_ARCH_ADA
#define A_hopper TC_ARCH_HOPPER
#define A_blackwell TC_ARCH_BLACKWELL
#define I_mma TC_INSTR_MMA
#define I_wgmma TC_INSTR_WGMMA
#define I_tcgen05 TC_INSTR_TCGEN05
#define F_fp32 TC_FMT_FP32
#define F_fp16 TC_FMT_FP16
#define F_bf16 TC_FMT_BF16
#define F_tf32 TC_FMT_TF32
#define F_e4m3 TC_FMT_E4M3
#define F_e5m2 TC_FMT_E5M2
#define F_e3m2 TC_FMT_E3M2
#define F_e2m3 TC_FMT_E2M3
#define F_e2m1 TC_FMT_E2M1
#define F_ue8m0 TC_FMT_UE8M0
#define F_ue4m3 TC_FMT_UE4M3
#define F_int8 TC_FMT_INT8
#define F_uint8 TC_FMT_UINT8
#define F_int4 TC_FMT_INT4
#define F_uint4 TC_FMT_UINT4
#define F_b1 TC_FMT_B1

#define NONE TC_EMIN_ALIGN_NONE
#define NOSCALE TC_FMT_COUNT, 0

/* Measured on hardware (the A100 vectors and the papers behind docs/contract.md). */
#define SRC_HW "contract table (Fasi et al. 2021; Khattak & Mikaitis 2025)"
#define SRC_EMU "contract: fp16 emulation of fp8 (cutlass #1986; hardware vectors)"
#define SRC_CONTRACT "to contract, no hardware data (docs/contract.md)"

/* One floating-point FEDP row: both fp32 (RZ) and fp16 (RNE) outputs where they exist.
 * fp16 results that round to zero are +0 on Hopper (measured on an H200, docs/contract.md
 * step 7) and on Blackwell, whose rows are Hopper's. A row names its formats once where a
 * and b share one ("ada_mma_e4m3_fp32"), both for a mixed pair, A x B
 * ("ada_mma_e4m3xe5m2_fp32", as `tcsim list` shows the pair); the *_ROW macros take the
 * name and both formats, the others spell the name. */
#define ZERO_PLUS(arch) (A_##arch == TC_ARCH_HOPPER || A_##arch == TC_ARCH_BLACKWELL)
#define FEDP32_ROW(name, arch, instr, ina, inb, l, f, emin, man, src) \
    {name, A_##arch, I_##instr, F_##ina, TC_FMT_FP32, TC_KIND_FEDP, l, f, TC_RZ, emin, man, \
     NOSCALE, src, 0, F_##inb}
#define FEDP16_ROW(name, arch, instr, ina, inb, l, f, emin, src) \
    {name, A_##arch, I_##instr, F_##ina, TC_FMT_FP16, TC_KIND_FEDP, l, f, TC_RNE, emin, 10, \
     NOSCALE, src, ZERO_PLUS(arch), F_##inb}
#define EMU_ROW(name, arch, ina, inb, out, rnd, man, src) \
    {name, A_##arch, TC_INSTR_MMA, F_##ina, F_##out, TC_KIND_FP8_EMU, 32, 0, rnd, NONE, man, \
     NOSCALE, src, 0, F_##inb}
#define FEDP32(arch, instr, in, l, f, emin, man, src) \
    FEDP32_ROW(#arch "_" #instr "_" #in "_fp32", arch, instr, in, in, l, f, emin, man, src)
#define FEDP16(arch, instr, in, l, f, emin, src) \
    FEDP16_ROW(#arch "_" #instr "_" #in "_fp16", arch, instr, in, in, l, f, emin, src)
#define EMU(arch, in, out, rnd, man) \
    EMU_ROW(#arch "_mma_" #in "_" #out, arch, in, in, out, rnd, man, SRC_EMU)
#define FEDP32_AB(arch, instr, ina, inb, l, f, emin, man, src) \
    FEDP32_ROW(#arch "_" #instr "_" #ina "x" #inb "_fp32", arch, instr, ina, inb, l, f, emin, \
               man, src)
#define FEDP16_AB(arch, instr, ina, inb, l, f, emin, src) \
    FEDP16_ROW(#arch "_" #instr "_" #ina "x" #inb "_fp16", arch, instr, ina, inb, l, f, emin, src)
/* a mixed pair of the emulation has no hardware data: the contract's */
#define EMU_AB(arch, ina, inb, out, rnd, man) \
    EMU_ROW(#arch "_mma_" #ina "x" #inb "_" #out, arch, ina, inb, out, rnd, man, SRC_CONTRACT)
#define INTR(arch, instr, in) \
    {#arch "_" #instr "_" #in "_s32", A_##arch, I_##instr, F_##in, \
     TC_FMT_S32, TC_KIND_INT, 16, 0, TC_RZ, NONE, 0, NOSCALE, SRC_CONTRACT, 0, F_##in}
#define MX_ROW(name, ina, inb) \
    {"blackwell_tcgen05_mxf8f6f4_" name "_fp32", TC_ARCH_BLACKWELL, TC_INSTR_TCGEN05, \
     F_##ina, TC_FMT_FP32, TC_KIND_MX, 32, 25, TC_RZ, -133, 23, TC_FMT_UE8M0, 32, \
     SRC_CONTRACT, 0, F_##inb}
#define MX(in) MX_ROW(#in, in, in)
/* mxf8f6f4 with A and B in two formats (issue 33), named as the f8f6f4 pairs are
 * ("..._mxf8f6f4_e4m3xe5m2_fp32"): A in `a`, B in each of the four other formats. */
#define MX_AB(a, b) MX_ROW(#a "x" #b, a, b)
#define MX_A(a, b1, b2, b3, b4) MX_AB(a, b1), MX_AB(a, b2), MX_AB(a, b3), MX_AB(a, b4)
/* issue 33: the mixed-signedness integer pairs, a in ina and b in inb (int8 x uint8 as
 * "ampere_mma_int8xuint8_s32", as `tcsim list` shows the pair) */
#define INTR_AB(arch, instr, ina, inb) \
    {#arch "_" #instr "_" #ina "x" #inb "_s32", A_##arch, I_##instr, F_##ina, \
     TC_FMT_S32, TC_KIND_INT, 16, 0, TC_RZ, NONE, 0, NOSCALE, SRC_CONTRACT, 0, F_##inb}
#define INT_PAIRS(arch, instr, s) INTR_AB(arch, instr, int##s, uint##s), \
    INTR_AB(arch, instr, uint##s, int##s)
/* issue 33, b1: one row per op ("turing_mma_b1_xor_s32"), exact popcounts in s32 */
#define POPC(arch, op, OP) \
    {#arch "_mma_b1_" #op "_s32", A_##arch, TC_INSTR_MMA, TC_FMT_B1, TC_FMT_S32, \
     TC_KIND_POPC_##OP, 16, 0, TC_RZ, NONE, 0, NOSCALE, SRC_CONTRACT, 0, TC_FMT_B1}
#define MXF4(kind, scale, block) \
    {"blackwell_tcgen05_" kind "_e2m1_" #scale "_fp32", TC_ARCH_BLACKWELL, TC_INSTR_TCGEN05, \
     TC_FMT_E2M1, TC_FMT_FP32, TC_KIND_MXF4, 64, 35, TC_RZ, -133, 23, F_##scale, block, \
     SRC_CONTRACT, 0, TC_FMT_E2M1}

#define F64_ROW(arch) \
    {#arch "_mma_fp64_fp64", A_##arch, TC_INSTR_MMA, TC_FMT_FP64, TC_FMT_FP64, TC_KIND_FP64, \
     4, 0, TC_RNE, NONE, 52, NOSCALE, SRC_CONTRACT, 0, TC_FMT_FP64}

/* The fp16-path rows every arch from Ampere on repeats for fp16 and bf16 inputs. */
#define HALF_ROWS(arch, instr, l, f, e32, e16, src) \
    FEDP32(arch, instr, fp16, l, f, e32, 23, src), FEDP16(arch, instr, fp16, l, f, e16, src), \
    FEDP32(arch, instr, bf16, l, f, e32, 23, src)

/* Hopper's and Blackwell's 16-bit rows (every instruction): L = 16 (8 for tf32), F = 25. */
#define HALF16_ROWS(arch, instr) \
    HALF_ROWS(arch, instr, 16, 25, -133, -21, SRC_HW), \
    FEDP32(arch, instr, tf32, 8, 25, -133, 23, SRC_HW)
/* The native fp8 rows (e4m3, e5m2; fp32 and fp16 out) of Ada's mma, Hopper's wgmma and
 * tcgen05: L, F, floor and fp32 fraction bits, and the sources of the two outputs. */
#define FP8_ROWS(arch, instr, l, f, emin, man, src32, src16) \
    FEDP32(arch, instr, e4m3, l, f, emin, man, src32), \
    FEDP16(arch, instr, e4m3, l, f, emin, src16), \
    FEDP32(arch, instr, e5m2, l, f, emin, man, src32), \
    FEDP16(arch, instr, e5m2, l, f, emin, src16)
/* The mixed pairs of FP8_ROWS: e4m3 x e5m2 and e5m2 x e4m3, to the contract (no hardware
 * data has them yet), the parameters of the equal-format rows. */
#define FP8_PAIR_ROWS(arch, instr, l, f, emin, man) \
    FEDP32_AB(arch, instr, e4m3, e5m2, l, f, emin, man, SRC_CONTRACT), \
    FEDP16_AB(arch, instr, e4m3, e5m2, l, f, emin, SRC_CONTRACT), \
    FEDP32_AB(arch, instr, e5m2, e4m3, l, f, emin, man, SRC_CONTRACT), \
    FEDP16_AB(arch, instr, e5m2, e4m3, l, f, emin, SRC_CONTRACT)
/* The fp16-emulated fp8 rows of an arch's mma (Hopper, Blackwell). */
#define EMU_ROWS(arch) \
    EMU(arch, e4m3, fp32, TC_RZ, 23), EMU(arch, e4m3, fp16, TC_RNE, 10), \
    EMU(arch, e5m2, fp32, TC_RZ, 23), EMU(arch, e5m2, fp16, TC_RNE, 10)
/* ... and their mixed pairs (Hopper's and Blackwell's mma.m16n8k32 have e4m3 x e5m2 both
 * ways). */
#define EMU_PAIR_ROWS(arch) \
    EMU_AB(arch, e4m3, e5m2, fp32, TC_RZ, 23), EMU_AB(arch, e4m3, e5m2, fp16, TC_RNE, 10), \
    EMU_AB(arch, e5m2, e4m3, fp32, TC_RZ, 23), EMU_AB(arch, e5m2, e4m3, fp16, TC_RNE, 10)
/* tcgen05 kind::f8f6f4: the f8f6f4 row (L = 32, F = 25) for A in `a` and B in each of
 * the four other formats, both outputs. */
#define F8F6F4_AB(a, b) \
    FEDP32_AB(blackwell, tcgen05, a, b, 32, 25, -133, 23, SRC_CONTRACT), \
    FEDP16_AB(blackwell, tcgen05, a, b, 32, 25, -133, SRC_CONTRACT)
#define F8F6F4_A(a, b1, b2, b3, b4) \
    F8F6F4_AB(a, b1), F8F6F4_AB(a, b2), F8F6F4_AB(a, b3), F8F6F4_AB(a, b4)

static const tc_profile profiles[] = {
    FEDP32(volta, mma, fp16, 4, 23, NONE, 23, SRC_HW),
    FEDP16(volta, mma, fp16, 4, 23, -19, SRC_HW),
    /* Turing follows Ampere's row (no public vectors); it has no bf16/tf32 path. */
    FEDP32(turing, mma, fp16, 8, 24, -132, 23, SRC_CONTRACT),
    FEDP16(turing, mma, fp16, 8, 24, -20, SRC_CONTRACT),
    HALF_ROWS(ampere, mma, 8, 24, -132, -20, SRC_HW),
    FEDP32(ampere, mma, tf32, 4, 24, -132, 23, SRC_HW),
    HALF_ROWS(ada, mma, 8, 24, -132, -20, SRC_HW),
    FEDP32(ada, mma, tf32, 4, 24, -132, 23, SRC_HW),
    FP8_ROWS(ada, mma, 16, 13, -132, 13, SRC_HW, SRC_HW),
    HALF16_ROWS(hopper, mma),
    EMU_ROWS(hopper),
    HALF16_ROWS(hopper, wgmma),
    /* the fp16 outputs to the contract: MMA-Sim agrees */
    FP8_ROWS(hopper, wgmma, 32, 13, -133, 13, SRC_HW, SRC_CONTRACT),
    HALF16_ROWS(blackwell, mma),
    EMU_ROWS(blackwell),
    HALF16_ROWS(blackwell, tcgen05),
    FP8_ROWS(blackwell, tcgen05, 32, 25, -133, 23, SRC_CONTRACT, SRC_CONTRACT),
    FEDP32(blackwell, tcgen05, e3m2, 32, 25, -133, 23, SRC_CONTRACT),
    FEDP16(blackwell, tcgen05, e3m2, 32, 25, -133, SRC_CONTRACT),
    FEDP32(blackwell, tcgen05, e2m3, 32, 25, -133, 23, SRC_CONTRACT),
    FEDP16(blackwell, tcgen05, e2m3, 32, 25, -133, SRC_CONTRACT),
    FEDP32(blackwell, tcgen05, e2m1, 32, 25, -133, 23, SRC_CONTRACT),
    FEDP16(blackwell, tcgen05, e2m1, 32, 25, -133, SRC_CONTRACT),
    /* the mixed pairs, after every equal-format row */
    FP8_PAIR_ROWS(ada, mma, 16, 13, -132, 13),
    EMU_PAIR_ROWS(hopper),
    FP8_PAIR_ROWS(hopper, wgmma, 32, 13, -133, 13),
    F8F6F4_A(e4m3, e5m2, e3m2, e2m3, e2m1),
    F8F6F4_A(e5m2, e4m3, e3m2, e2m3, e2m1),
    F8F6F4_A(e3m2, e4m3, e5m2, e2m3, e2m1),
    F8F6F4_A(e2m3, e4m3, e5m2, e3m2, e2m1),
    F8F6F4_A(e2m1, e4m3, e5m2, e3m2, e2m3),
    MX(e4m3), MX(e5m2), MX(e3m2), MX(e2m3), MX(e2m1),
    MXF4("mxf4", ue8m0, 32),
    MXF4("mxf4nvf4", ue8m0, 16),
    MXF4("mxf4nvf4", ue4m3, 16),
    /* mxf8f6f4's mixed pairs (every pair of its five formats), after its equal rows */
    MX_A(e4m3, e5m2, e3m2, e2m3, e2m1),
    MX_A(e5m2, e4m3, e3m2, e2m3, e2m1),
    MX_A(e3m2, e4m3, e5m2, e2m3, e2m1),
    MX_A(e2m3, e4m3, e5m2, e3m2, e2m1),
    MX_A(e2m1, e4m3, e5m2, e3m2, e2m3),
    /* Integer kinds: Turing introduced int8/int4 mma; Hopper and Blackwell keep int8. */
    INTR(turing, mma, int8), INTR(turing, mma, uint8), INTR(turing, mma, int4), INTR(turing, mma, uint4),
    INTR(ampere, mma, int8), INTR(ampere, mma, uint8), INTR(ampere, mma, int4), INTR(ampere, mma, uint4),
    INTR(ada, mma, int8), INTR(ada, mma, uint8), INTR(ada, mma, int4), INTR(ada, mma, uint4),
    INTR(hopper, mma, int8), INTR(hopper, mma, uint8),
    INTR(hopper, wgmma, int8), INTR(hopper, wgmma, uint8),
    INTR(blackwell, mma, int8), INTR(blackwell, mma, uint8),
    INTR(blackwell, tcgen05, int8), INTR(blackwell, tcgen05, uint8),
    /* issue 33: the mixed-signedness pairs of the integer mma (.s8.u8, .u8.s8 from sm_75,
     * .s4.u4, .u4.s4 with the int4 rows; ptxas takes them, ptx_targets.c). wgmma takes
     * them too (ptxas, .s8.u8 on sm_90a), and tcgen05 kind::i8, whose instruction
     * descriptor gives a's and b's signedness apart. */
    INT_PAIRS(turing, mma, 8), INT_PAIRS(turing, mma, 4),
    INT_PAIRS(ampere, mma, 8), INT_PAIRS(ampere, mma, 4),
    INT_PAIRS(ada, mma, 8), INT_PAIRS(ada, mma, 4),
    INT_PAIRS(hopper, mma, 8), INT_PAIRS(hopper, wgmma, 8),
    INT_PAIRS(blackwell, mma, 8), INT_PAIRS(blackwell, tcgen05, 8),
    /* issue 33, b1: mma.m8n8k128 .xor.popc from sm_75, .and.popc (and m16n8k128/k256)
     * from sm_80; ptxas takes both up to sm_100 */
    POPC(turing, xor, XOR),
    POPC(ampere, xor, XOR), POPC(ampere, and, AND),
    POPC(ada, xor, XOR), POPC(ada, and, AND),
    POPC(hopper, xor, XOR), POPC(hopper, and, AND),
    POPC(blackwell, xor, XOR), POPC(blackwell, and, AND),
    /* issue 33: Blackwell's mma keeps sm_89's e4m3 x e5m2 forms (ptxas, sm_100), through
     * the fp16 emulation of its equal-format rows (test_ptx_coverage found them missing) */
    EMU_PAIR_ROWS(blackwell),
    /* fp64 (DMMA): mma.m8n8k4.f64 from sm_80, the m16n8k* .f64 shapes from sm_90; one
     * binary64 FMA per k (tcsim_f64.h). L is mma.m8n8k4's k, which the arithmetic does
     * not depend on; F and Emin_align do not apply (0, none), 52 fraction bits. */
    F64_ROW(ampere), F64_ROW(ada), F64_ROW(hopper), F64_ROW(blackwell),
};
#define N_PROFILES (sizeof profiles / sizeof profiles[0])

static const char *const arch_names[TC_ARCH_COUNT] = {
    "volta", "turing", "ampere", "ada", "hopper", "blackwell"};
static const char *const instr_names[TC_INSTR_COUNT] = {"mma", "wgmma", "tcgen05"};

const char *tc_arch_name(tc_arch a)
{
    return (unsigned)a < TC_ARCH_COUNT ? arch_names[a] : "?";
}

const char *tc_instr_name(tc_instr i)
{
    return (unsigned)i < TC_INSTR_COUNT ? instr_names[i] : "?";
}

tc_status tc_arch_parse(const char *name, tc_arch *out)
{
    for (unsigned a = 0; name && out && a < TC_ARCH_COUNT; a++)
        if (!strcmp(name, arch_names[a])) {
            *out = (tc_arch)a;
            return TC_OK;
        }
    return TC_EINVAL;
}

tc_status tc_instr_parse(const char *name, tc_instr *out)
{
    for (unsigned i = 0; name && out && i < TC_INSTR_COUNT; i++)
        if (!strcmp(name, instr_names[i])) {
            *out = (tc_instr)i;
            return TC_OK;
        }
    return TC_EINVAL;
}

size_t tc_profile_table(const tc_profile **rows)
{
    if (rows)
        *rows = profiles;
    return N_PROFILES;
}

static int is_scaled(const tc_profile *p)
{
    return p->kind == TC_KIND_MX || p->kind == TC_KIND_MXF4;
}

static int is_popc(tc_kind k)
{
    return k == TC_KIND_POPC_AND || k == TC_KIND_POPC_XOR;
}

tc_status tc_profile_find_ab(tc_arch a, tc_instr i, tc_fmt in_a, tc_fmt in_b, tc_fmt out,
                             const tc_profile **out_profile)
{
    if (!out_profile)
        return TC_EINVAL;
    for (size_t n = 0; n < N_PROFILES; n++) {
        const tc_profile *p = &profiles[n];
        if (p->arch == a && p->instr == i && p->in == in_a && p->in_b == in_b &&
            p->out == out && !is_scaled(p) && !is_popc(p->kind)) {
            *out_profile = p;
            return TC_OK;
        }
    }
    return TC_EUNSUPPORTED;
}

tc_status tc_profile_find(tc_arch a, tc_instr i, tc_fmt in, tc_fmt out,
                          const tc_profile **out_profile)
{
    return tc_profile_find_ab(a, i, in, in, out, out_profile);
}

tc_status tc_profile_find_popc(tc_arch a, tc_instr i, tc_kind op, const tc_profile **out_profile)
{
    if (!out_profile || !is_popc(op))
        return TC_EINVAL;
    for (size_t n = 0; n < N_PROFILES; n++)
        if (profiles[n].arch == a && profiles[n].instr == i && profiles[n].kind == op) {
            *out_profile = &profiles[n];
            return TC_OK;
        }
    return TC_EUNSUPPORTED;
}

tc_status tc_profile_find_scaled_ab(tc_arch a, tc_instr i, const char *kind_name, tc_fmt in_a,
                                    tc_fmt in_b, tc_fmt scale, unsigned scale_block,
                                    const tc_profile **out_profile)
{
    if (!out_profile || !kind_name)
        return TC_EINVAL;
    size_t klen = strlen(kind_name);
    for (size_t n = 0; n < N_PROFILES; n++) {
        const tc_profile *p = &profiles[n];
        /* the kind is the name's word after the instruction: "..._tcgen05_<kind>_..." */
        const char *k = strstr(p->name, "_tcgen05_");
        if (!is_scaled(p) || p->arch != a || p->instr != i || p->in != in_a ||
            p->in_b != in_b || p->scale != scale || !k || strncmp(k + 9, kind_name, klen) ||
            k[9 + klen] != '_')
            continue;
        if (scale_block && scale_block != p->scale_block)
            continue;
        *out_profile = p;
        return TC_OK;
    }
    return TC_EUNSUPPORTED;
}

tc_status tc_profile_find_scaled(tc_arch a, tc_instr i, const char *kind_name, tc_fmt in,
                                 tc_fmt scale, unsigned scale_block,
                                 const tc_profile **out_profile)
{
    return tc_profile_find_scaled_ab(a, i, kind_name, in, in, scale, scale_block, out_profile);
}

tc_status tc_profile_step_of(const tc_profile *p, const tc_profile **step_profile)
{
    if (!p || !step_profile)
        return TC_EINVAL;
    if (p->kind == TC_KIND_FEDP) {
        *step_profile = p;
        return TC_OK;
    }
    if (p->kind == TC_KIND_FP8_EMU)
        return tc_profile_find(p->arch, TC_INSTR_MMA, TC_FMT_FP16, p->out, step_profile);
    return TC_EUNSUPPORTED;
}
