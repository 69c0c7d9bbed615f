/* ptx_targets.c - which PTX target first has each tensor-core instruction.
 *
 * The timing structure times any shape its formats allow, also shapes a GPU's PTX
 * target lacks (docs/timing.md); this table lets a caller tell those what-ifs from the
 * instructions the GPU runs. Rows are the PTX ISA's (9.0) mma, mma.sp and wmma forms
 * over this library's formats, with the first target its target notes give.
 * model/test/timing/ptx_targets_check.py holds each row's target against ptxas: the
 * instruction assembles for .target sm_NN and fails for the target before it.
 * Block-scaled, fp6/fp4 (.kind::f8f6f4, sm_120a) and mixed-format forms are left out:
 * no arch here has them as mma. The fp64 rows are the DMMA form (tcsim_f64.h).
 */
#include <stddef.h>
#include "tcsim.h"

#define ROW(form, m, n, k, in, acc, sm) \
    {TC_PTX_##form, m, n, k, TC_FMT_##in, TC_FMT_##acc, sm}
/* The 16-bit forms come with an fp32 and an fp16 accumulator; the integer ones with s32
 * for signed and unsigned inputs. */
#define HALF(form, m, n, k, sm) \
    ROW(form, m, n, k, FP16, FP32, sm), ROW(form, m, n, k, FP16, FP16, sm)
#define INTS(form, m, n, k, s, sm) \
    ROW(form, m, n, k, INT##s, S32, sm), ROW(form, m, n, k, UINT##s, S32, sm)
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
            p->in == op->in && p->acc == op->acc) {
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
