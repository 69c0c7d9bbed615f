/* scoreboard.c - the testbenches' mismatch buckets and report (scoreboard.h). */
#include "scoreboard.h"
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>

static const char *const bucket_names[TK_N_BUCKETS] = {"valid/timing", "nan",    "inf",  "zero",
                                                       "subnormal",    "normal", "word", "check"};

int tk_bucket_of(tc_fmt f, uint32_t x)
{
    tc_value v;
    if (tc_decode(f, x, &v) != TC_OK)
        return TK_B_NORMAL;
    if (v.kind == TC_VAL_NAN)
        return TK_B_NAN;
    if (v.kind == TC_VAL_INF)
        return TK_B_INF;
    if (v.sig == 0)
        return TK_B_ZERO;
    return (v.sig >> tc_fmt_get(f)->man_bits) ? TK_B_NORMAL : TK_B_SUBNORMAL;
}

const char *tk_bucket_name(int bucket)
{
    return bucket >= 0 && bucket < TK_N_BUCKETS ? bucket_names[bucket] : "?";
}

int tk_score_add(tk_score *s, int bucket)
{
    s->mism[bucket]++;
    return s->printed++ < s->print_max;
}

void tk_fail(tk_score *s, int bucket, const char *fmt, ...)
{
    if (!tk_score_add(s, bucket))
        return;
    va_list ap;
    va_start(ap, fmt);
    printf("FAIL [%s] ", tk_bucket_name(bucket));
    vprintf(fmt, ap);
    printf("\n");
    va_end(ap);
}

uint64_t tk_score_total(const tk_score *s)
{
    uint64_t n = 0;
    for (int b = 0; b < TK_N_BUCKETS; b++)
        n += s->mism[b];
    return n;
}

void tk_score_print(const tk_score *s)
{
    uint64_t total = tk_score_total(s);
    printf("mismatches: %" PRIu64, total);
    const char *sep = " (";
    for (int b = 0; b < TK_N_BUCKETS; b++)
        if (s->mism[b]) {
            printf("%s%s %" PRIu64, sep, bucket_names[b], s->mism[b]);
            sep = ", ";
        }
    printf("%s\n", total ? ")" : "");
}

int tk_verdict(uint64_t bad)
{
    printf("%s\n", bad ? "FAILED" : "PASSED");
    return bad != 0;
}
