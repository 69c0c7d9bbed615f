/* test_args.h - the numeric arguments of the test programs and testbenches (a seed, a
 * count). A value is digits only, decimal or 0x hex, at most max: a sign, trailing text
 * or an overflow would otherwise run a different test than the one asked for (strtoull
 * reads "-1" as 2^64-1, "abc" as 0). On a bad value it prints "PROG: bad value for OPT 'S'" and returns -1:
 * the caller exits 2, the status for bad arguments. */
#ifndef TCSIM_TEST_ARGS_H
#define TCSIM_TEST_ARGS_H

#include <ctype.h>
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

static inline int test_parse_u64(const char *prog, const char *opt, const char *s, uint64_t max,
                               uint64_t *out)
{
    /* base 10 or 16, never strtoull's base 0: "010" is ten, not octal eight */
    int hex = s && s[0] == '0' && (s[1] == 'x' || s[1] == 'X');
    const char *d = s ? s + 2 * hex : "";
    char *end = NULL;
    unsigned long long v = 0;
    int ok = hex ? isxdigit((unsigned char)*d) : *d >= '0' && *d <= '9';
    if (ok) {
        errno = 0;
        v = strtoull(d, &end, hex ? 16 : 10);
        ok = !*end && !errno && v <= max;
    }
    if (!ok) {
        fprintf(stderr, "%s: bad value for %s '%s' (an integer from 0 to %llu)\n", prog, opt,
                s ? s : "", (unsigned long long)max);
        return -1;
    }
    *out = (uint64_t)v;
    return 0;
}

#endif
