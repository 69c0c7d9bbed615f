/* cli_args.c - argument parsing shared by the subcommands. */
#include <ctype.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include "cli.h"

int cli_is_help(const char *s)
{
    return !strcmp(s, "-h") || !strcmp(s, "--help") || !strcmp(s, "help");
}

int cli_parse_opts(const cli_opts *spec, int argc, char **argv)
{
    for (int i = 1; i < argc; i++) {
        if (cli_is_help(argv[i])) {
            spec->help(spec->ctx);
            return CLI_OK;
        }
        const cli_opt *o = spec->opt;
        while (o < spec->opt + spec->n && strcmp(argv[i], o->name))
            o++;
        if (o == spec->opt + spec->n) {
            fprintf(stderr, "tcsim %s: unknown %s '%s'", spec->cmd, spec->unknown,
                    CLI_WORD(argv[i]));
            if (spec->hint)
                fprintf(stderr, " (tcsim %s --help)", spec->cmd);
            fputc('\n', stderr);
            return CLI_USAGE;
        }
        if (o->value || o->parse) {
            const char *v = cli_optarg(spec->cmd, argc, argv, &i);
            if (!v || (o->parse && o->parse(spec->cmd, o->name, v, o->dst)))
                return CLI_USAGE;
            if (o->value)
                *o->value = v;
        }
        if (o->flag)
            *o->flag = 1;
    }
    return -1;
}

const char *cli_optarg(const char *cmd, int argc, char **argv, int *i)
{
    if (*i + 1 >= argc) {
        fprintf(stderr, "tcsim %s: option '%s' needs a value\n", cmd, CLI_WORD(argv[*i]));
        return NULL;
    }
    return argv[++*i];
}

/* The message for a name s that none of the count names name(i) is: "tcsim CMD: unknown
 * WHAT 's' (one of: ...)". Returns -1. */
static int unknown_name(const char *cmd, const char *what, const char *s, int count,
                        const char *(*name)(int))
{
    fprintf(stderr, "tcsim %s: unknown %s '%s' (one of:", cmd, what, CLI_WORD(s));
    for (int i = 0; i < count; i++)
        if (name(i)) /* a format code without a row is skipped */
            fprintf(stderr, " %s", name(i));
    fprintf(stderr, ")\n");
    return -1;
}

static const char *arch_name(int i) { return tc_arch_name((tc_arch)i); }
static const char *instr_name(int i) { return tc_instr_name((tc_instr)i); }
static const char *fmt_name(int i)
{
    const tc_fmt_info *fi = tc_fmt_get((tc_fmt)i);
    return fi ? fi->name : NULL;
}

int cli_parse_arch(const char *cmd, const char *s, tc_arch *out)
{
    if (tc_arch_parse(s, out) == TC_OK)
        return 0;
    return unknown_name(cmd, "--arch", s, TC_ARCH_COUNT, arch_name);
}

int cli_parse_instr(const char *cmd, const char *s, tc_instr *out)
{
    if (tc_instr_parse(s, out) == TC_OK)
        return 0;
    return unknown_name(cmd, "--instr", s, TC_INSTR_COUNT, instr_name);
}

int cli_parse_fmt(const char *cmd, const char *opt, const char *s, tc_fmt *out)
{
    if (tc_fmt_parse(s, out) == TC_OK)
        return 0;
    char what[64];
    snprintf(what, sizeof what, "format for %s", opt);
    return unknown_name(cmd, what, s, TC_FMT_COUNT, fmt_name);
}

int cli_parse_uint(const char *cmd, const char *opt, const char *s, unsigned long long min,
                   unsigned long long max, unsigned long long *out)
{
    /* Decimal, or hex after 0x; strtoull alone would also take a sign, leading blanks
     * and octal (a leading 0: "010" would be 8). */
    int hex = s[0] == '0' && (s[1] == 'x' || s[1] == 'X');
    const char *digits = hex ? s + 2 : s;
    int ok = hex ? isxdigit((unsigned char)digits[0]) : isdigit((unsigned char)digits[0]);
    char *end = NULL;
    errno = 0;
    unsigned long long v = ok ? strtoull(digits, &end, hex ? 16 : 10) : 0;
    if (!ok || *end || errno || v < min || v > max) {
        fprintf(stderr, "tcsim %s: bad value for %s '%s' (an integer from %llu to %llu)\n",
                cmd, opt, CLI_WORD(s), min, max);
        return -1;
    }
    *out = v;
    return 0;
}
