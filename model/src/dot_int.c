/* dot_int.c - the integer kinds: exact products, s32 accumulation with wrap-around
 * (two's complement, as the hardware's adders), in k order. a and b decode each in its
 * own format (int8 x uint8, issue 33). The 1-bit kinds count in the same accumulator:
 * with one bit per word, popcount(a AND b) adds a*b and popcount(a XOR b) adds a^b. */
#include "tcsim.h"
#include "fmt_table.h"
#include "fedp_step.h"

uint32_t tc_dot_int_run(const tc_profile *p, size_t k, const uint32_t *a, const uint32_t *b,
                        uint32_t c)
{
    const tc_fmt_info *fi = tc_fmt_get(p->in), *fib = tc_fmt_get(p->in_b);
    uint32_t acc = c;
    if (p->kind == TC_KIND_POPC_XOR) {
        for (size_t i = 0; i < k; i++)
            acc += a[i] ^ b[i];
        return acc;
    }
    for (size_t i = 0; i < k; i++)
        acc += (uint32_t)fmt_int_value(fi, a[i]) * (uint32_t)fmt_int_value(fib, b[i]);
    return acc;
}
