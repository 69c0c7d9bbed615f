/* dot_int.c - the integer kinds: exact products, s32 accumulation with wrap-around
 * (two's complement, as the hardware's adders), in k order. */
#include "tcsim.h"
#include "fmt_table.h"
#include "fedp_step.h"

uint32_t tc_dot_int_run(const tc_profile *p, size_t k, const uint32_t *a, const uint32_t *b,
                        uint32_t c)
{
    const tc_fmt_info *fi = tc_fmt_get(p->in), *fib = tc_fmt_get(p->in_b);
    uint32_t acc = c;
    for (size_t i = 0; i < k; i++)
        acc += (uint32_t)fmt_int_value(fi, a[i]) * (uint32_t)fmt_int_value(fib, b[i]);
    return acc;
}
