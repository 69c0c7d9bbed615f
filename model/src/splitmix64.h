/* splitmix64.h - the library's one seeded generator (tc_random_fill), and through
 * testkit/splitmix.h the testbenches' and tests': Steele, Lea and Flood's SplitMix64,
 * the same sequence for a seed on every platform, and any seed (0 included) gives a
 * good stream. Header-only, so that the tests share the definition without linking
 * anything of the library's internals. */
#ifndef TCSIM_SPLITMIX64_H
#define TCSIM_SPLITMIX64_H

#include <stdint.h>

/* The next value of the stream whose state is *s (advanced). */
static inline uint64_t tc_splitmix64(uint64_t *s)
{
    uint64_t z = (*s += UINT64_C(0x9e3779b97f4a7c15));
    z = (z ^ (z >> 30)) * UINT64_C(0xbf58476d1ce4e5b9);
    z = (z ^ (z >> 27)) * UINT64_C(0x94d049bb133111eb);
    return z ^ (z >> 31);
}

#endif
