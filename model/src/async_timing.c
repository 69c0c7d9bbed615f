/* async_timing.c - what one asynchronous tensor-core instruction costs (tcsim_timing.h):
 * Hopper's wgmma.mma_async on the per-sub-core structure of gpu_timing.c, Blackwell's
 * tcgen05.mma on the array model of bw_timing.c. Neither adds a rate of its own: the
 * wgmma is four of the structure's m16 instructions side by side, the tcgen05.mma the
 * array's passes. Cycles only. */
#include "tcsim.h"
#include "timing_check.h"

/* The k of one instruction: 32 bytes of input (PTX ISA: wgmma and tcgen05 kind::f16 k16,
 * kind::tf32 k8, kind::f8f6f4 and kind::i8 k32, fp6/fp4 in 8-bit containers). */
static unsigned instr_k(tc_fmt in)
{
    if (in == TC_FMT_TF32)
        return 8;
    return tc_fmt_get(in)->width == 16 ? 16 : 32;
}

/* The arch has the instruction with these formats: the arithmetic's profile table is
 * the one list of what each arch multiplies. */
static tc_status has_instr(const tc_gpu_timing *g, tc_instr instr, const tc_mma_op *op)
{
    const tc_profile *p;
    if ((unsigned)op->in >= TC_FMT_COUNT || (unsigned)op->acc >= TC_FMT_COUNT)
        return TC_EUNSUPPORTED;
    return tc_profile_find(g->arch, instr, op->in, op->acc, &p) == TC_OK ? TC_OK
                                                                         : TC_EUNSUPPORTED;
}

tc_status tc_wgmma_timing_of(const tc_gpu_timing *g, const tc_mma_op *op, tc_op_timing *out)
{
    if (!g || !op || !out || tc_gpu_timing_check(g) != TC_OK)
        return TC_EINVAL;
    tc_status st = has_instr(g, TC_INSTR_WGMMA, op);
    if (st != TC_OK)
        return st;
    unsigned k = instr_k(op->in) * (op->sparse ? 2 : 1);
    if (op->m != 64 || op->n < 8 || op->n > 256 || op->n % 8 || op->k != k ||
        op->m % g->subcores)
        return TC_ESHAPE;
    /* Each sub-core runs its warp's rows as the structure's instruction of that shape,
     * without mma.sync's extra cycles per instruction (ii_extra): those were measured on
     * mma.sync alone. wgmma's rates cannot tell them: at N >= 128 two cycles are under
     * 2% of an instruction, and at small N issue and wait bound it (docs/timing.md). */
    tc_mma_op share = *op;
    share.m = op->m / g->subcores;
    tc_gpu_timing gs = *g;
    gs.ii_extra = gs.sparse_ii_extra = 0;
    st = tc_op_timing_of(&gs, &share, out);
    if (st != TC_OK)
        return st;
    /* The last step's beats: a small mma's hide under the depth, a wgmma's n/8 column
     * blocks stream out before its last result row can drain. */
    uint64_t latency = (uint64_t)out->latency + out->beats + g->async_wait;
    if (latency > 100000000u)
        return TC_ESHAPE;
    out->latency = (unsigned)latency;
    out->fmas = (uint64_t)op->m * op->n * op->k;
    return TC_OK;
}

/* PTX's (M, N) of a tcgen05.mma kind::f16/tf32/f8f6f4/i8 without block scaling. */
static int tcgen05_shape_ok(unsigned M, unsigned N, unsigned cta_group)
{
    unsigned step = cta_group == 1 ? (M == 64 ? 8 : M == 128 ? 16 : 0)
                                   : (M == 128 ? 32 : M == 256 ? 16 : 0);
    return step && N >= step && N <= 256 && N % step == 0;
}

tc_status tc_tcgen05_timing_of(const tc_gpu_timing *g, const tc_mma_op *op,
                               unsigned cta_group, int a_tmem, tc_op_timing *out)
{
    if (!g || !op || !out || tc_gpu_timing_check(g) != TC_OK ||
        (cta_group != 1 && cta_group != 2))
        return TC_EINVAL;
    tc_status st = has_instr(g, TC_INSTR_TCGEN05, op);
    if (st != TC_OK)
        return st;
    if (op->sparse)
        return TC_EUNSUPPORTED; /* tcgen05.mma.sp: no sparse path in the array model */
    if (op->k != instr_k(op->in) || !tcgen05_shape_ok(op->m, op->n, cta_group))
        return TC_ESHAPE;
    /* This SM's part: its M rows of D (half of a pair's), its half of B's N rows from
     * its shared memory, A's rows too unless A is in tensor memory. */
    unsigned M = op->m / cta_group;
    uint64_t smem_rows = op->n / cta_group + (a_tmem ? 0 : M);
    tc_bw_cost c;
    st = tc_bw_mma_cost(M, op->n, smem_rows, 0, &c);
    if (st != TC_OK)
        return st;
    /* The tensor-memory port (A, C, D) is the tc_bw_mma model's, which charges it
     * against the data; here the array and shared memory bound the instruction. */
    out->steps = 1;
    out->beats = (unsigned)c.array_passes;
    out->issue_interval = (unsigned)c.cycles;
    out->front_interval = out->issue_interval;
    out->acc_slack = 0;
    out->latency = (unsigned)c.cycles + g->depth + g->async_wait;
    out->fmas = (uint64_t)M * op->n * op->k;
    return TC_OK;
}
