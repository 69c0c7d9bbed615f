/* scoreboard.h - the testbenches' count of mismatches, by bucket, and their report:
 * each mismatch is counted in a bucket (the class of the expected result, or a
 * valid/timing slip), the first print_max of them are to be printed in full by the
 * caller (tk_score_add says which), and the end of the run prints one line of counts
 * per bucket and the verdict, PASSED or FAILED, which is also the exit status. In the
 * manner of Vortex's fma_unit test (docs: STYLE 4.4). */
#ifndef TCSIM_TESTKIT_SCOREBOARD_H
#define TCSIM_TESTKIT_SCOREBOARD_H

#include <stdint.h>
#include "tcsim.h"

/* The buckets of a result compared with its expected value: valid_o at the wrong cycle,
 * then the class of the expected result. */
enum { TK_B_TIMING, TK_B_NAN, TK_B_INF, TK_B_ZERO, TK_B_SUBNORMAL, TK_B_NORMAL, TK_N_BUCKETS };

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

/* All mismatches counted so far. */
uint64_t tk_score_total(const tk_score *s);

/* "mismatches: valid/timing N, nan N, inf N, zero N, subnormal N, normal N". */
void tk_score_print(const tk_score *s);

/* Prints PASSED when bad is 0, else FAILED; returns the exit status (0 or 1). */
int tk_verdict(uint64_t bad);

#endif
