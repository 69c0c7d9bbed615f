/* splitmix.h - the seeded stream of the testbenches and the tests that draw operands
 * (tb/, tb/baseline, synth/test, model/test/ref): the library's SplitMix64
 * (model/src/splitmix64.h, the generator of tc_random_fill), so that there is one
 * definition of it. A test prints its seed; the same seed draws the same operations on
 * every platform. The two reductions to [0, n) are both kept because seeds already
 * printed in logs must keep naming the same cases: tk_mod (x % n) serves the tensor
 * memory and baseline benches, tk_below (the high 32 bits scaled) the FEDP bench. */
#ifndef TCSIM_TESTKIT_SPLITMIX_H
#define TCSIM_TESTKIT_SPLITMIX_H

#include <stdint.h>
#include "../model/src/splitmix64.h"

typedef struct tk_rng {
    uint64_t s; /* the seed, then the state */
} tk_rng;

static inline uint64_t tk_next(tk_rng *r)
{
    return tc_splitmix64(&r->s);
}

/* [0, n) as the remainder of one draw (n > 0). */
static inline unsigned tk_mod(tk_rng *r, unsigned n)
{
    return (unsigned)(tk_next(r) % n);
}

/* [0, n) from the high half of one draw, scaled (0 when n is 0). */
static inline uint32_t tk_below(tk_rng *r, uint32_t n)
{
    return n ? (uint32_t)((tk_next(r) >> 32) * n >> 32) : 0;
}

/* The low w bits of one draw (w <= 32). */
static inline uint32_t tk_bits(tk_rng *r, unsigned w)
{
    return w >= 32 ? (uint32_t)tk_next(r) : (uint32_t)tk_next(r) & ((1u << w) - 1u);
}

#endif
