/* dot_f64.c - the fp64 form's dot product (tcsim_f64.h): d = c, then one binary64 FMA
 * per k in k order (docs/contract.md, "Forms beyond one input format"). */
#include "tcsim.h"
#include "fma_f64.h"

tc_status tc_dot_f64(const tc_profile *p, size_t k, const uint64_t *a, const uint64_t *b,
                     uint64_t c, uint64_t *d)
{
    if (!p || !a || !b || !d || k == 0)
        return TC_EINVAL;
    if (p->kind != TC_KIND_FP64)
        return TC_EUNSUPPORTED;
    uint64_t acc = c;
    for (size_t i = 0; i < k; i++)
        acc = tc_fma_f64(a[i], b[i], acc);
    *d = acc;
    return TC_OK;
}
