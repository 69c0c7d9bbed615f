/* scoreboard.h - the testbenches' count of mismatches, by bucket, and their report:
 * each mismatch is counted in a bucket (the class of the expected result, a valid or
 * timing slip, a word of storage, another check), the first print_max of them are
 * printed in full (by tk_fail, or by the caller where tk_score_add says so), and the
 * end of the run prints one line of counts by bucket and the verdict, PASSED or
 * FAILED, which is also the exit status. Every testbench of tb/ reports through it, in
 * the manner of Vortex's fma_unit test (docs: STYLE 4.4). */
#ifndef TCSIM_TESTKIT_SCOREBOARD_H
#define TCSIM_TESTKIT_SCOREBOARD_H

#include <stdint.h>
#include "tcsim.h"

/* The buckets of a mismatch: a valid, ready or grant at the wrong cycle (or a cycle
 * count that differs); the class of an expected numeric result; a word of storage,
 * which has no value class (tensor memory); any other check (an API answer, a refusal). */
enum {
    TK_B_TIMING,
    TK_B_NAN,
    TK_B_INF,
    TK_B_ZERO,
    TK_B_SUBNORMAL,
    TK_B_NORMAL,
    TK_B_WORD,
    TK_B_CHECK,
    TK_N_BUCKETS
};

typedef struct tk_score {
    uint64_t mism[TK_N_BUCKETS];
    uint64_t printed, print_max; /* mismatches seen; how many of them to print */
} tk_score;

/* The bucket of an expected result x of format f (a pattern tc_decode refuses: normal). */
int tk_bucket_of(tc_fmt f, uint32_t x);

/* The bucket's name, as the report prints it. */
const char *tk_bucket_name(int bucket);

/* Counts a mismatch in bucket; 1 if it is among the first print_max (print it). */
int tk_score_add(tk_score *s, int bucket);

/* Counts a mismatch in bucket and, if it is among the first print_max, prints
 * "FAIL [bucket] " and the message on a line of its own. */
#if defined(__GNUC__)
__attribute__((format(printf, 3, 4)))
#endif
void tk_fail(tk_score *s, int bucket, const char *fmt, ...);

/* All mismatches counted so far. */
uint64_t tk_score_total(const tk_score *s);

/* "mismatches: 0", or "mismatches: N (bucket n, ...)" naming the buckets counted. */
void tk_score_print(const tk_score *s);

/* Prints PASSED when bad is 0, else FAILED; returns the exit status (0 or 1). */
int tk_verdict(uint64_t bad);

#endif
