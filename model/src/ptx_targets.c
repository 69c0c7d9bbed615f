/* ptx_targets.c - which PTX target first has each tensor-core instruction.
 *
 * The timing structure times any shape its formats allow, also shapes a GPU's PTX
 * target lacks (docs/timing.md); this table lets a caller tell those what-ifs from the
 * instructions the GPU runs. Rows are the PTX ISA's (9.0) mma, mma.sp and wmma forms
 * over this library's formats, with the first target its target notes give.
 * model/test/timing/ptx_targets_check.py holds each row's target against ptxas: the
 * instruction assembles for .target sm_NN and fails for the target before it.
 * Block-scaled and fp6/fp4 forms (.kind::f8f6f4, sm_120a) are left out: no arch here
 * has them as mma. Issue 33 adds every other form: the b1 ops, the mixed-signedness
 * integer pairs and the e4m3 x e5m2 pairs, each row naming b's format (in_b) and the
 * b1 op.
 * The fp64 rows are the DMMA form (tcsim_f64.h).
 */
#include <stddef.h>
#include "tcsim.h"

#define ROW(form, m, n, k, in, acc, sm) ROW_AB(form, m, n, k, in, in, acc, sm)
#define ROW_AB(form, m, n, k, in, inb, acc, sm) \
    {TC_PTX_##form, m, n, k, TC_FMT_##in, TC_FMT_##acc, sm, TC_FMT_##inb, 0}
/* The 16-bit forms come with an fp32 and an fp16 accumulator; the integer ones with s32
 * for signed and unsigned inputs. */
#define HALF(form, m, n, k, sm) \
    ROW(form, m, n, k, FP16, FP32, sm), ROW(form, m, n, k, FP16, FP16, sm)
#define INTS(form, m, n, k, s, sm) \
    ROW(form, m, n, k, INT##s, S32, sm), ROW(form, m, n, k, UINT##s, S32, sm)
/* issue 33: a pair both ways (int8 x uint8 and uint8 x int8), one accumulator */
#define PAIR(form, m, n, k, x, y, acc, sm) \
    ROW_AB(form, m, n, k, x, y, acc, sm), ROW_AB(form, m, n, k, y, x, acc, sm)
#define INT_PAIRS(form, m, n, k, s, sm) PAIR(form, m, n, k, INT##s, UINT##s, S32, sm)
/* the e4m3 x e5m2 pairs, fp32 and fp16 accumulators */
#define FP8_PAIRS(form, m, n, k, sm) \
    PAIR(form, m, n, k, E4M3, E5M2, FP32, sm), PAIR(form, m, n, k, E4M3, E5M2, FP16, sm)
/* a b1 form with its op (.xor.popc from sm_75, .and.popc from sm_80) */
#define POPC(form, m, n, k, OP, sm) \
    {TC_PTX_##form, m, n, k, TC_FMT_B1, TC_FMT_S32, sm, TC_FMT_B1, TC_KIND_POPC_##OP}
#define FP8(form, m, n, k, sm)                                              \
    ROW(form, m, n, k, E4M3, FP32, sm), ROW(form, m, n, k, E4M3, FP16, sm), \
    ROW(form, m, n, k, E5M2, FP32, sm), ROW(form, m, n, k, E5M2, FP16, sm)

static const tc_ptx_instr ptx_instrs[] = {
    /* wmma: sm_70 brought the 16-bit tiles, sm_72 8-bit integers, sm_75 4-bit integers,
     * sm_80 bf16 and tf32. */
    HALF(WMMA, 16, 16, 16, 70), HALF(WMMA, 32, 8, 16, 70), HALF(WMMA, 8, 32, 16, 70),
    INTS(WMMA, 16, 16, 16, 8, 72), INTS(WMMA, 32, 8, 16, 8, 72), INTS(WMMA, 8, 32, 16, 8, 72),
    INTS(WMMA, 8, 8, 32, 4, 75),
    ROW(WMMA, 16, 16, 16, BF16, FP32, 80), ROW(WMMA, 32, 8, 16, BF16, FP32, 80),
    ROW(WMMA, 8, 32, 16, BF16, FP32, 80), ROW(WMMA, 16, 16, 8, TF32, FP32, 80),
    /* mma: Volta's quad-pair m8n8k4, Turing's m16n8k8 and integer tiles, Ampere's wider
     * k and the bf16/tf32 tiles, Ada's fp8. */
    HALF(MMA, 8, 8, 4, 70),
    HALF(MMA, 16, 8, 8, 75), INTS(MMA, 8, 8, 16, 8, 75), INTS(MMA, 8, 8, 32, 4, 75),
    HALF(MMA, 16, 8, 16, 80),
    ROW(MMA, 16, 8, 8, BF16, FP32, 80), ROW(MMA, 16, 8, 16, BF16, FP32, 80),
    ROW(MMA, 16, 8, 4, TF32, FP32, 80), ROW(MMA, 16, 8, 8, TF32, FP32, 80),
    INTS(MMA, 16, 8, 16, 8, 80), INTS(MMA, 16, 8, 32, 8, 80),
    INTS(MMA, 16, 8, 32, 4, 80), INTS(MMA, 16, 8, 64, 4, 80),
    FP8(MMA, 16, 8, 16, 89), FP8(MMA, 16, 8, 32, 89),
    /* mma.sp (2:4 sparse A, k the dense k): from sm_80, fp8 from sm_89 (fp32 only). */
    HALF(MMA_SP, 16, 8, 16, 80), HALF(MMA_SP, 16, 8, 32, 80),
    ROW(MMA_SP, 16, 8, 16, BF16, FP32, 80), ROW(MMA_SP, 16, 8, 32, BF16, FP32, 80),
    ROW(MMA_SP, 16, 8, 8, TF32, FP32, 80), ROW(MMA_SP, 16, 8, 16, TF32, FP32, 80),
    INTS(MMA_SP, 16, 8, 32, 8, 80), INTS(MMA_SP, 16, 8, 64, 8, 80),
    INTS(MMA_SP, 16, 8, 64, 4, 80), INTS(MMA_SP, 16, 8, 128, 4, 80),
    ROW(MMA_SP, 16, 8, 64, E4M3, FP32, 89), ROW(MMA_SP, 16, 8, 64, E5M2, FP32, 89),
    /* issue 33, b1 (held against ptxas: .b1 from sm_75, .and and the m16n8 shapes from
     * sm_80; no mma.sp): .xor.popc first, the op tc_ptx_find answers for b1 */
    POPC(WMMA, 8, 8, 128, XOR, 75), POPC(WMMA, 8, 8, 128, AND, 80),
    POPC(MMA, 8, 8, 128, XOR, 75), POPC(MMA, 8, 8, 128, AND, 80),
    POPC(MMA, 16, 8, 128, XOR, 80), POPC(MMA, 16, 8, 128, AND, 80),
    POPC(MMA, 16, 8, 256, XOR, 80), POPC(MMA, 16, 8, 256, AND, 80),
    /* issue 33, the mixed-signedness integer pairs of every integer mma and mma.sp
     * shape (wmma has none: ptxas refuses .s8.u8 there) */
    INT_PAIRS(MMA, 8, 8, 16, 8, 75), INT_PAIRS(MMA, 8, 8, 32, 4, 75),
    INT_PAIRS(MMA, 16, 8, 16, 8, 80), INT_PAIRS(MMA, 16, 8, 32, 8, 80),
    INT_PAIRS(MMA, 16, 8, 32, 4, 80), INT_PAIRS(MMA, 16, 8, 64, 4, 80),
    INT_PAIRS(MMA_SP, 16, 8, 32, 8, 80), INT_PAIRS(MMA_SP, 16, 8, 64, 8, 80),
    INT_PAIRS(MMA_SP, 16, 8, 64, 4, 80), INT_PAIRS(MMA_SP, 16, 8, 128, 4, 80),
    /* issue 33, e4m3 x e5m2 (sm_89): mma both accumulators, mma.sp fp32 only (ptxas:
     * no fp16 accumulator with fp8 for mma.sp) */
    FP8_PAIRS(MMA, 16, 8, 16, 89), FP8_PAIRS(MMA, 16, 8, 32, 89),
    PAIR(MMA_SP, 16, 8, 64, E4M3, E5M2, FP32, 89),
    /* fp64 (DMMA): m8n8k4 from sm_80, the m16n8k4/k8/k16 shapes from sm_90. */
    ROW(MMA, 8, 8, 4, FP64, FP64, 80),
    ROW(MMA, 16, 8, 4, FP64, FP64, 90), ROW(MMA, 16, 8, 8, FP64, FP64, 90),
    ROW(MMA, 16, 8, 16, FP64, FP64, 90),
};
#define N_PTX_INSTRS (sizeof ptx_instrs / sizeof ptx_instrs[0])

tc_status tc_ptx_instr_get(size_t i, tc_ptx_instr *out)
{
    if (!out)
        return TC_EINVAL;
    if (i >= N_PTX_INSTRS)
        return TC_EUNSUPPORTED;
    *out = ptx_instrs[i];
    return TC_OK;
}

tc_status tc_ptx_find(const tc_mma_op *op, int wmma, tc_ptx_instr *out)
{
    if (!op || !out || (wmma && op->sparse))
        return TC_EINVAL;
    tc_ptx_form form = wmma ? TC_PTX_WMMA : op->sparse ? TC_PTX_MMA_SP : TC_PTX_MMA;
    for (size_t i = 0; i < N_PTX_INSTRS; i++) {
        const tc_ptx_instr *p = &ptx_instrs[i];
        if (p->form == form && p->m == op->m && p->n == op->n && p->k == op->k &&
            p->in == op->in && p->in_b == op->in && p->acc == op->acc) {
            *out = *p;
            return TC_OK;
        }
    }
    return TC_EUNSUPPORTED;
}

tc_status tc_ptx_lookup(const tc_ptx_instr *key, tc_ptx_instr *out)
{
    if (!key || !out)
        return TC_EINVAL;
    for (size_t i = 0; i < N_PTX_INSTRS; i++) {
        const tc_ptx_instr *p = &ptx_instrs[i];
        if (p->form == key->form && p->m == key->m && p->n == key->n && p->k == key->k &&
            p->in == key->in && p->in_b == key->in_b && p->acc == key->acc &&
            p->op == key->op) {
            *out = *p;
            return TC_OK;
        }
    }
    return TC_EUNSUPPORTED;
}

unsigned tc_arch_ptx_sm(tc_arch a)
{
    /* The first target of each arch (GA10x's sm_86 adds no tensor-core instruction to
     * sm_80, nor does a later target of the same arch). */
    static const unsigned sm[TC_ARCH_COUNT] = {70, 75, 80, 89, 90, 100};
    return (unsigned)a < TC_ARCH_COUNT ? sm[a] : 0;
}

const char *tc_ptx_form_name(tc_ptx_form f)
{
    static const char *const names[TC_PTX_FORM_COUNT] = {"mma", "mma.sp", "wmma"};
    return (unsigned)f < TC_PTX_FORM_COUNT ? names[f] : "?";
}
