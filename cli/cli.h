/* cli.h - what every tcsim subcommand shares: its table entry and argument helpers.
 * The CLI is thin: parse, call the model's API, print. No arithmetic here. */
#ifndef TCSIM_CLI_H
#define TCSIM_CLI_H

#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include "tcsim.h"

/* A function whose argument fmt is a printf format: the compiler checks its arguments. */
#if defined(__GNUC__)
#define CLI_PRINTF(fmt, first) __attribute__((format(printf, fmt, first)))
#else
#define CLI_PRINTF(fmt, first)
#endif

/* Exit statuses: 0 success, 2 bad input or usage, 1 internal failure. */
enum { CLI_OK = 0, CLI_FAIL = 1, CLI_USAGE = 2 };

typedef struct cli_cmd {
    const char *name;
    const char *summary;                 /* one line for `tcsim --help` */
    int (*run)(int argc, char **argv);   /* argv[0] is the subcommand name */
} cli_cmd;

/* One declaration per subcommand (each defined in cmd_<name>.c). */
extern const cli_cmd cmd_dot, cmd_list, cmd_bench, cmd_demo, cmd_hmma_trace, cmd_mma, cmd_tmem_map, cmd_tmem_demo, cmd_emit_pkg;
extern const cli_cmd cmd_fedp_params;
extern const cli_cmd cmd_timing;
extern const cli_cmd cmd_conv;
extern const cli_cmd cmd_vectors;
extern const cli_cmd cmd_gemm;

/* Parse helpers: print "tcsim <cmd>: <what> '<arg>'" on stderr and return non-zero
 * when the value is bad, so every error names the argument that is wrong. */
int cli_parse_arch(const char *cmd, const char *s, tc_arch *out);
int cli_parse_instr(const char *cmd, const char *s, tc_instr *out);
int cli_parse_fmt(const char *cmd, const char *opt, const char *s, tc_fmt *out);
/* An integer in [min, max], decimal or 0x hex. */
int cli_parse_uint(const char *cmd, const char *opt, const char *s, unsigned long long min,
                   unsigned long long max, unsigned long long *out);
/* The value of option argv[*i] (advancing *i), or NULL with a message if missing. */
const char *cli_optarg(const char *cmd, int argc, char **argv, int *i);
int cli_is_help(const char *s);

/* A subcommand's options, for cli_parse_opts: each a flag or an option with a value. */
typedef struct cli_opt {
    const char *name;
    const char **value; /* an option with a value: where the value goes */
    int *flag;          /* set to 1 when the option is given; without value or parse, a flag */
    /* an option with a value: checks and converts it into dst; -1 after a message */
    int (*parse)(const char *cmd, const char *opt, const char *v, void *dst);
    void *dst;
} cli_opt;
typedef struct cli_opts {
    const char *cmd;
    const char *unknown;           /* what a word no option names is: "option", "argument" */
    int hint;                      /* the unknown word's message ends "(tcsim CMD --help)" */
    void (*help)(const void *ctx); /* prints the usage on stdout */
    const void *ctx;
    const cli_opt *opt;
    size_t n;
} cli_opts;
/* Parses argv[1..] in order: -1 when every word was an option or its value, else the exit
 * status: CLI_OK after the help for a help word, CLI_USAGE after a message for an unknown
 * word or a missing value. */
int cli_parse_opts(const cli_opts *spec, int argc, char **argv);
/* The number of elements of array a. */
#define CLI_COUNT(a) (sizeof(a) / sizeof((a)[0]))

/* User input as a message quotes it (cli_quote.c): into buf (CLI_QUOTE_SIZE(max) bytes),
 * s's n bytes as at most max characters, printable ASCII as it is, \0 \t \n \r \\ and
 * \xNN for every other byte (no escape sequence reaches the terminal); a longer s is cut,
 * then "... (N bytes)". Every message that echoes input goes through it: CLI_WORD for a
 * word or value (a few dozen characters), CLI_PATH for a file or folder name (longer:
 * its end names the file). The buffers are compound literals: they live to the end of
 * the block, long enough for the fprintf that prints them. */
enum { CLI_WORD_MAX = 40, CLI_PATH_MAX = 200 };
#define CLI_QUOTE_SIZE(max) ((max) + 40)
const char *cli_quote(char *buf, const char *s, size_t n, size_t max);
#define CLI_WORDN(s, n) \
    cli_quote((char[CLI_QUOTE_SIZE(CLI_WORD_MAX)]){0}, (s), (n), CLI_WORD_MAX)
#define CLI_WORD(s) CLI_WORDN((s), strlen(s))
#define CLI_PATH(s) \
    cli_quote((char[CLI_QUOTE_SIZE(CLI_PATH_MAX)]){0}, (s), strlen(s), CLI_PATH_MAX)

/* The longest line of text input, its newline included: far above any real case (a
 * dot product of millions of terms), and a bound on the memory a line takes, so that an
 * endless line (/dev/zero, a binary file) is refused, not read until memory runs out. */
enum { CLI_LINE_MAX = 64 << 20 };
#define CLI_LINE_MAX_TEXT "64 MiB"

/* The next line of a text input into *line (a buffer of *cap bytes that grows, as
 * getline's): its length (newline included), 0 at the end of the input, or -1 with
 * errno: EILSEQ for a NUL byte in the line (not text: its rest would be read past
 * unseen), EOVERFLOW for a line longer than CLI_LINE_MAX (read no further than that),
 * else the reason it cannot be read (ENOMEM included). */
long cli_getline(FILE *f, char **line, size_t *cap);
/* What cli_getline's -1 with error err says of its line, for a message "line N: <it>";
 * NULL when the input cannot be read at all (strerror(err) says why). */
const char *cli_line_fault(int err);

/* In a line of text: a line ends at LF, at a CR just before LF or at the end of the
 * text; a word ends at a space, a tab or the line's end. */
int cli_is_line_end(const char *p);
int cli_is_word_end(const char *p);
/* One hex word at *s (0x optional, leading zeros ignored): 0 with *out and *s advanced
 * past it; -1 if it is not a hex number, -2 for more than 16 significant digits. */
int cli_parse_hex_word(const char **s, uint64_t *out);
/* The next hex word of the line after blanks: 0 at the line's end, 1 with *word at its
 * start, *out set and *s past it; -1 for a word cli_parse_hex_word refuses, after the
 * message on stderr: where (a printf format, with its arguments: "line N: word M") and
 * " '<word>' is not a hex number" (or "is wider than 64 bits"), or ": a stray control
 * character 0xNN after '<word>'". */
int cli_next_hex_word(const char **s, const char **word, uint64_t *out, const char *where, ...)
    CLI_PRINTF(4, 5);

/* Progress of a long run on stderr (cli_progress.c): nothing in the first 2 s unless
 * forced (--progress), then each tenth, or on a terminal each hundredth on one line that
 * is rewritten: "tcsim <cmd>: NN% of TOTAL <what>, T s". */
typedef struct cli_progress {
    const char *cmd, *what;
    int force, tty, shown;
    unsigned last; /* the last tenth shown (on a terminal: hundredth) */
    double t0;
} cli_progress;
void cli_progress_start(cli_progress *p, const char *cmd, const char *what, int force);
void cli_progress_show(cli_progress *p, uint64_t done, uint64_t total);
/* A run that failed part way: ends the terminal's progress line before the message. */
void cli_progress_abandon(cli_progress *p);

#endif
