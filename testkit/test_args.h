/* test_args.h - the arguments of the test programs and testbenches: options that take
 * a value, and numbers (a seed, a count). A number is digits only, decimal or 0x hex, at
 * most max: a sign, trailing text or an overflow would otherwise run a different test
 * than the one asked for (strtoull reads "-1" as 2^64-1, "abc" as 0). Each function
 * prints what is wrong, named ("PROG: bad value for OPT 'S'"), and fails; the caller
 * exits 2, the status for bad arguments. */
#ifndef TCSIM_TEST_ARGS_H
#define TCSIM_TEST_ARGS_H

#include <ctype.h>
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

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

/* argv[*i], one of the options in opts (NULL-terminated), all of which take a value:
 * that value, with *i advanced to it; NULL if argv[*i] is not one of them or has no
 * value. */
static inline const char *test_option(const char *prog, int argc, char **argv, int *i,
                                      const char *const *opts)
{
    const char *a = argv[*i];
    while (*opts && strcmp(*opts, a))
        opts++;
    if (!*opts) {
        fprintf(stderr, "%s: unknown option '%s'\n", prog, a);
        return NULL;
    }
    if (*i + 1 >= argc) {
        fprintf(stderr, "%s: %s needs a value\n", prog, a);
        return NULL;
    }
    return argv[++*i];
}

/* The usage text on f: status 0 on stdout (--help), 2 on stderr (bad arguments). */
static inline int test_usage(FILE *f, const char *text)
{
    fputs(text, f);
    return f == stdout ? 0 : 2;
}

/* One option of a testbench's table (test_parse_opts): a number up to max into *num, a
 * word into *word, or, with neither, a flag without a value that sets *flag to 1. */
typedef struct test_opt {
    const char *name;
    uint64_t *num;
    uint64_t max;
    const char **word;
    int *flag;
} test_opt;

/* test_parse_opts's answer when the program is to run. */
#define TEST_RUN (-1)

/* argv[1..] against opts (ended by a NULL name): TEST_RUN, or the status to exit with:
 * 0 after the usage text on stdout (-h, --help), 2 after a message naming the bad
 * argument (and, for an unknown option or a missing value, the usage) on stderr. */
static inline int test_parse_opts(const char *prog, int argc, char **argv, const test_opt *opts,
                                  const char *usage_text)
{
    const char *names[32];
    size_t n = 0;
    for (const test_opt *o = opts; o->name && n + 1 < sizeof names / sizeof names[0]; o++)
        if (!o->flag)
            names[n++] = o->name;
    names[n] = NULL;
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        if (!strcmp(a, "-h") || !strcmp(a, "--help"))
            return test_usage(stdout, usage_text);
        const test_opt *o = opts;
        while (o->name && strcmp(o->name, a))
            o++;
        if (o->name && o->flag) {
            *o->flag = 1;
            continue;
        }
        const char *v = test_option(prog, argc, argv, &i, names);
        if (!v)
            return test_usage(stderr, usage_text);
        if (o->num ? test_parse_u64(prog, a, v, o->max, o->num) != 0 : (*o->word = v, 0))
            return 2;
    }
    return TEST_RUN;
}

/* The one optional argument of a test program, a number up to max, into *out (which
 * keeps its default when absent): 0, or -1 after the usage line "usage: PROG [NAME]". */
static inline int test_one_number(const char *prog, const char *name, int argc, char **argv,
                                  uint64_t max, uint64_t *out)
{
    if (argc > 2 || (argc > 1 && test_parse_u64(prog, name, argv[1], max, out))) {
        fprintf(stderr, "usage: %s [%s]\n", prog, name);
        return -1;
    }
    return 0;
}

#endif
