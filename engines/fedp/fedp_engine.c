/* fedp_engine.c - FEDP steps through a Verilated instance of rtl/fedp.sv.
 *
 * Each step is one operation driven alone through the pipeline: the result is read
 * `latency` rising edges later, so a step costs latency cycles of simulation. That is
 * what a chained dot product needs anyway (step j+1 takes step j's result as c). */
#include <stdlib.h>
#include "fedp_dut.h"
#include "fedp_engine.h"

struct fedp_engine {
    fedp_dut *dut;
};

tc_status fedp_engine_open(const tc_profile *step_profile, fedp_engine **out)
{
    if (!step_profile || !out)
        return TC_EINVAL;
    const fedp_dut_ops *ops = fedp_instance_for(step_profile);
    if (!ops)
        return TC_EUNSUPPORTED;
    fedp_engine *e = malloc(sizeof *e);
    if (!e)
        return TC_ENOMEM;
    e->dut = dut_new(ops, NULL);
    if (!e->dut) {
        free(e);
        return TC_ENOMEM;
    }
    *out = e;
    return TC_OK;
}

static int fits(tc_fmt f, uint32_t x)
{
    unsigned w = tc_fmt_get(f)->width;
    return w >= 32 || (x >> w) == 0;
}

tc_status fedp_engine_step(void *ctx, const tc_profile *step_profile, size_t n,
                           const uint32_t *a, const uint32_t *b, uint32_t c, uint32_t *d)
{
    fedp_engine *e = ctx;
    if (!e || !step_profile || !d || (n && (!a || !b)))
        return TC_EINVAL;
    const fedp_params *q = dut_params(e->dut);
    if (!fedp_implements(q, step_profile))
        return TC_EUNSUPPORTED;
    if (n > q->L)
        return TC_ESHAPE;
    for (size_t i = 0; i < n; i++)
        if (!fits(step_profile->in, a[i]) || !fits(step_profile->in_b, b[i]))
            return TC_EFORMAT;
    if (!fits(step_profile->out, c))
        return TC_EFORMAT;
    dut_drive(e->dut, 1, step_profile->in, step_profile->in_b, step_profile->out, n, a, b, c);
    dut_step(e->dut);
    dut_drive(e->dut, 0, step_profile->in, step_profile->in_b, step_profile->out, 0, a, b, 0);
    for (unsigned i = 1; i < q->latency; i++)
        dut_step(e->dut);
    uint32_t r;
    if (!dut_sample(e->dut, &r))
        return TC_EIO; /* the RTL lost the operation: the engine failed, not the input */
    *d = r;
    return TC_OK;
}

void fedp_engine_close(fedp_engine *e)
{
    if (e)
        dut_free(e->dut);
    free(e);
}
