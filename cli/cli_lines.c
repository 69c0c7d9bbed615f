/* cli_lines.c - the one way tcsim's commands read their text input: lines, and the hex
 * words in them. */
#define _POSIX_C_SOURCE 200809L /* getc_unlocked */
#include <errno.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include "cli.h"

/* Not getline: it has no bound, and an endless line (/dev/zero) takes all the memory
 * before it fails. A character at a time, through the stream's buffer, without its lock
 * (the commands read one stream from one thread); the common character costs one test
 * for the end of the buffer and one for a byte that needs a look (NUL, LF and below). */
long cli_getline(FILE *f, char **line, size_t *cap)
{
    char *buf = *line;
    size_t len = 0, size = *cap;
    int c, err = 0;
    errno = 0; /* a read error's reason, if one comes */
    while ((c = getc_unlocked(f)) != EOF) {
        if (len + 1 >= size) { /* room for c and the terminating NUL */
            if (size > CLI_LINE_MAX) {
                err = EOVERFLOW; /* len is CLI_LINE_MAX: read no further */
                break;
            }
            size = size < 64 ? 128 : 2 * size > CLI_LINE_MAX + 1 ? CLI_LINE_MAX + 1 : 2 * size;
            char *p = realloc(buf, size);
            if (!p) {
                err = ENOMEM;
                break;
            }
            *line = buf = p;
            *cap = size;
        }
        buf[len++] = (char)c;
        if ((unsigned)c <= '\n' && (c == '\n' || c == 0)) {
            if (c == 0) /* the rest would be read past unseen: stop here */
                err = EILSEQ;
            break;
        }
    }
    if (!err && ferror(f))
        err = errno ? errno : EIO;
    if (err) {
        errno = err;
        return -1;
    }
    if (len)
        buf[len] = 0;
    return (long)len;
}

const char *cli_line_fault(int err)
{
    return err == EILSEQ      ? "a NUL byte: not a text line"
           : err == EOVERFLOW ? "longer than " CLI_LINE_MAX_TEXT " (the limit of a line)"
                              : NULL;
}

/* 1 + the value of each hex digit character, 0 for every other character. */
static const unsigned char hex1[256] = {
    ['0'] = 1, ['1'] = 2, ['2'] = 3, ['3'] = 4, ['4'] = 5, ['5'] = 6, ['6'] = 7, ['7'] = 8,
    ['8'] = 9, ['9'] = 10, ['a'] = 11, ['b'] = 12, ['c'] = 13, ['d'] = 14, ['e'] = 15,
    ['f'] = 16, ['A'] = 11, ['B'] = 12, ['C'] = 13, ['D'] = 14, ['E'] = 15, ['F'] = 16};

int cli_is_line_end(const char *p)
{
    /* A CR ends a line only before its LF (or at the end of the text): elsewhere it is a
     * stray character, and taking it as an end would drop the rest of the line unseen. */
    return !*p || *p == '\n' || (*p == '\r' && (!p[1] || p[1] == '\n'));
}

int cli_is_word_end(const char *p)
{
    return *p == ' ' || *p == '\t' || cli_is_line_end(p);
}

int cli_parse_hex_word(const char **s, uint64_t *out)
{
    const char *p = *s;
    if (p[0] == '0' && (p[1] == 'x' || p[1] == 'X'))
        p += 2;
    const char *digits = p;
    while (*p == '0')
        p++;
    const char *sig = p;
    uint64_t v = 0;
    unsigned h;
    while ((h = hex1[(unsigned char)*p]) != 0) {
        v = v << 4 | (h - 1);
        p++;
    }
    if (p == digits || !cli_is_word_end(p))
        return -1;
    if (p - sig > 16)
        return -2;
    *s = p;
    *out = v;
    return 0;
}

/* The rest of the message "<where> word N" for a word cli_parse_hex_word refused with
 * why: " '<word>' is not a hex number" (or "is wider than 64 bits"), or ": a stray
 * control character 0xNN after '<word>'", and a newline. */
static void print_bad_hex_word(FILE *f, const char *start, int why)
{
    const char *e = start;
    while (!cli_is_word_end(e) && (unsigned char)*e >= 0x20)
        e++;
    if (!cli_is_word_end(e)) /* a control character: named, not printed */
        fprintf(f, ": a stray control character 0x%02x after '%s'\n", (unsigned char)*e,
                CLI_WORDN(start, (size_t)(e - start)));
    else
        fprintf(f, " '%s' %s\n", CLI_WORDN(start, (size_t)(e - start)),
                why == -2 ? "is wider than 64 bits" : "is not a hex number");
}

int cli_next_hex_word(const char **s, const char **word, uint64_t *out, const char *where, ...)
{
    while (**s == ' ' || **s == '\t')
        (*s)++;
    if (cli_is_line_end(*s))
        return 0;
    *word = *s;
    int r = cli_parse_hex_word(s, out);
    if (!r)
        return 1;
    va_list ap;
    va_start(ap, where);
    vfprintf(stderr, where, ap);
    va_end(ap);
    print_bad_hex_word(stderr, *word, r);
    return -1;
}
