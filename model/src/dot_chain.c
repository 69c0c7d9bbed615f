/* dot_chain.c - dot products of any k: FEDP steps of L terms chained in k order (each
 * step's rounded result is the next one's c), the fp16 emulation of fp8 on
 * hopper/blackwell mma, and the integer kinds (dot_int.c) behind one entry point. */
#include "tcsim.h"
#include "fmt_table.h"
#include "fedp_step.h"

/* The model's own step, as a tc_step_fn. */
static tc_status model_step(void *ctx, const tc_profile *sp, size_t n, const uint32_t *a,
                            const uint32_t *b, uint32_t c, uint32_t *d)
{
    (void)ctx;
    *d = tc_fedp_run(sp, n, a, b, c, 0);
    return TC_OK;
}

/* fp8 through mma on hopper/blackwell (docs/contract.md): per block of 32 k, the two
 * halves k mod 4 in {0,1} then {2,3} through the fp16 path, then c added by one
 * IEEE RNE addition. A block's operands are first arranged (converted to fp16, the
 * first half then the second, a short block padded with +0), so that tc_gemm can
 * arrange each row of A and column of B once and run the blocks on them. */
enum { EMU_HALF = TC_FP8_EMU_BLOCK / 2 };

tc_status tc_fp8_emu_arrange(const tc_profile *p, size_t k, const uint32_t *w, uint32_t *out)
{
    return tc_fp8_emu_arrange_fmt(p->in, k, w, out);
}

tc_status tc_fp8_emu_arrange_fmt(tc_fmt in, size_t k, const uint32_t *w, uint32_t *out)
{
    for (size_t base = 0; base < k; base += TC_FP8_EMU_BLOCK) {
        uint32_t *o = out + base;
        size_t nh[2] = {0, EMU_HALF};
        for (size_t j = 0; j < TC_FP8_EMU_BLOCK; j++) {
            size_t h = (j % 4) >= 2; /* k mod 4 in {2,3}: second half */
            uint32_t x = 0;
            if (base + j < k && tc_convert_exact(in, w[base + j], TC_FMT_FP16, &x) != TC_OK)
                return TC_EFORMAT;
            o[nh[h]++] = x;
        }
    }
    return TC_OK;
}

tc_status tc_fp8_emu_blocks(const tc_profile *p, const tc_profile *sp, size_t nblocks,
                            const uint32_t *ha, const uint32_t *hb, uint32_t c, uint32_t *d,
                            tc_step_fn step, void *ctx)
{
    tc_status st;
    uint32_t acc = c;
    if (!step)
        step = model_step;
    for (size_t q = 0; q < nblocks; q++) {
        const uint32_t *xa = ha + q * TC_FP8_EMU_BLOCK, *xb = hb + q * TC_FP8_EMU_BLOCK;
        uint32_t d1, d2;
        if ((st = step(ctx, sp, EMU_HALF, xa, xb, fmt_zero(p->out, 0), &d1)) != TC_OK ||
            (st = step(ctx, sp, EMU_HALF, xa + EMU_HALF, xb + EMU_HALF, d1, &d2)) != TC_OK ||
            (st = tc_add(p->out, d2, acc, TC_RNE, &acc)) != TC_OK)
            return st;
    }
    *d = acc;
    return TC_OK;
}

static tc_status dot_fp8_emu(const tc_profile *p, size_t k, const uint32_t *a,
                             const uint32_t *b, uint32_t c, uint32_t *d, tc_step_fn step,
                             void *ctx)
{
    const tc_profile *sp;
    tc_status st = tc_profile_step_of(p, &sp);
    if (st != TC_OK)
        return st;
    uint32_t acc = c;
    for (size_t base = 0; base < k; base += TC_FP8_EMU_BLOCK) {
        uint32_t xa[TC_FP8_EMU_BLOCK], xb[TC_FP8_EMU_BLOCK];
        size_t n = k - base < TC_FP8_EMU_BLOCK ? k - base : TC_FP8_EMU_BLOCK;
        if ((st = tc_fp8_emu_arrange_fmt(p->in, n, a + base, xa)) != TC_OK ||
            (st = tc_fp8_emu_arrange_fmt(p->in_b, n, b + base, xb)) != TC_OK ||
            (st = tc_fp8_emu_blocks(p, sp, 1, xa, xb, acc, &acc, step, ctx)) != TC_OK)
            return st;
    }
    *d = acc;
    return TC_OK;
}

tc_status tc_dot_engine(const tc_profile *p, size_t k, const uint32_t *a, const uint32_t *b,
                        uint32_t c, uint32_t *d, tc_step_fn step, void *ctx)
{
    if (!p || !a || !b || !d || k == 0)
        return TC_EINVAL;
    if (p->kind == TC_KIND_MX || p->kind == TC_KIND_MXF4)
        return TC_EUNSUPPORTED; /* needs scales: tc_dot_scaled */
    if (!fmt_all_fit(p->in, k, a) || !fmt_all_fit(p->in_b, k, b) || !fmt_all_fit(p->out, 1, &c))
        return TC_EFORMAT;
    if (!step)
        step = model_step;
    switch (p->kind) {
    case TC_KIND_INT:
    case TC_KIND_POPC_AND:
    case TC_KIND_POPC_XOR:
        *d = tc_dot_int_run(p, k, a, b, c);
        return TC_OK;
    case TC_KIND_FP8_EMU:
        return dot_fp8_emu(p, k, a, b, c, d, step, ctx);
    default:
        break;
    }
    uint32_t acc = c;
    for (size_t base = 0; base < k; base += p->L) {
        size_t n = k - base < p->L ? k - base : p->L;
        tc_status st = step(ctx, p, n, a + base, b + base, acc, &acc);
        if (st != TC_OK)
            return st;
    }
    *d = acc;
    return TC_OK;
}

tc_status tc_dot(const tc_profile *p, size_t k, const uint32_t *a, const uint32_t *b,
                 uint32_t c, uint32_t *d)
{
    if (p && p->kind == TC_KIND_FEDP && a && b && d && k && k <= p->L) {
        /* one step: the common case, without the chaining machinery; the fast path
         * checks the widths itself and declines anything unusual */
        if (tc_fedp_fast(p, k, a, b, c, d) == 0)
            return TC_OK;
        if (!fmt_all_fit(p->in, k, a) || !fmt_all_fit(p->in_b, k, b) || !fmt_all_fit(p->out, 1, &c))
            return TC_EFORMAT;
        *d = tc_fedp_run(p, k, a, b, c, 0);
        return TC_OK;
    }
    return tc_dot_engine(p, k, a, b, c, d, NULL, NULL);
}

