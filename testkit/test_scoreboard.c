/* test_scoreboard.c - the testbenches' scoreboard (scoreboard.h) on hand-picked values:
 * the bucket of each class of an fp16 and an fp32 result (patterns written out from the
 * IEEE 754 encodings, not from the model), the print limit, the report line naming only
 * the buckets counted, and the verdict's status. */
#define _POSIX_C_SOURCE 200809L /* fileno, dup */
#include <stdio.h>
#include <string.h>
#include <unistd.h>
#include "check.h"
#include "scoreboard.h"

/* What f(s) prints on stdout, into buf. */
static void capture(void (*f)(const tk_score *), const tk_score *s, char *buf, size_t cap)
{
    fflush(stdout);
    FILE *tmp = tmpfile();
    int saved = dup(1);
    if (!tmp || saved < 0 || dup2(fileno(tmp), 1) < 0) {
        CHECK(0, "cannot redirect stdout");
        return;
    }
    f(s);
    fflush(stdout);
    dup2(saved, 1);
    close(saved);
    rewind(tmp);
    size_t n = fread(buf, 1, cap - 1, tmp);
    buf[n] = '\0';
    fclose(tmp);
}

int main(void)
{
    static const struct { tc_fmt f; uint32_t x; int bucket; } cases[] = {
        {TC_FMT_FP16, 0x7e00, TK_B_NAN},       {TC_FMT_FP16, 0xfc00, TK_B_INF},
        {TC_FMT_FP16, 0x8000, TK_B_ZERO},      {TC_FMT_FP16, 0x0001, TK_B_SUBNORMAL},
        {TC_FMT_FP16, 0x03ff, TK_B_SUBNORMAL}, {TC_FMT_FP16, 0x0400, TK_B_NORMAL},
        {TC_FMT_FP32, 0x7fc00000, TK_B_NAN},   {TC_FMT_FP32, 0x7f800000, TK_B_INF},
        {TC_FMT_FP32, 0x00000000, TK_B_ZERO},  {TC_FMT_FP32, 0x007fffff, TK_B_SUBNORMAL},
        {TC_FMT_FP32, 0x3f800000, TK_B_NORMAL},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++)
        CHECK(tk_bucket_of(cases[i].f, cases[i].x) == cases[i].bucket,
              "%s %08x: bucket %s, want %s", tc_fmt_get(cases[i].f)->name, cases[i].x,
              tk_bucket_name(tk_bucket_of(cases[i].f, cases[i].x)),
              tk_bucket_name(cases[i].bucket));

    char buf[256];
    tk_score s = {.print_max = 2};
    capture(tk_score_print, &s, buf, sizeof buf);
    CHECK(!strcmp(buf, "mismatches: 0\n"), "empty report '%s'", buf);
    CHECK(tk_score_add(&s, TK_B_WORD) == 1, "first mismatch is printed");
    CHECK(tk_score_add(&s, TK_B_TIMING) == 1, "second mismatch is printed");
    CHECK(tk_score_add(&s, TK_B_WORD) == 0, "third is past print_max");
    CHECK(tk_score_total(&s) == 3, "total %llu", (unsigned long long)tk_score_total(&s));
    capture(tk_score_print, &s, buf, sizeof buf);
    CHECK(!strcmp(buf, "mismatches: 3 (valid/timing 1, word 2)\n"), "report '%s'", buf);
    CHECK(!strcmp(tk_bucket_name(TK_B_CHECK), "check"), "check bucket name");
    CHECK(!strcmp(tk_bucket_name(TK_N_BUCKETS), "?"), "out-of-range bucket name");
    /* the verdict: PASSED/0 with nothing bad, FAILED/1 otherwise */
    printf("verdicts: ");
    CHECK(tk_verdict(0) == 0, "verdict of 0");
    CHECK(tk_verdict(3) == 1, "verdict of 3");
    printf("%s: %lu checks\n", failures ? "FAILED" : "PASSED", checks);
    return failures != 0;
}
