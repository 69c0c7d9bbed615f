/* cli_lines.c - the one way tcsim's commands read their text input: lines, and the hex
 * words in them. */
#define _POSIX_C_SOURCE 200809L /* getline */
#include <errno.h>
#include <string.h>
#include "cli.h"

long cli_getline(FILE *f, char **line, size_t *cap)
{
    errno = 0;
    ssize_t len = getline(line, cap, f);
    if (len < 0) {
        /* getline's -1 is the end of the input only when the stream says so: a read error
         * sets the error flag, and out of memory sets neither flag. */
        if (ferror(f) || !feof(f)) {
            if (!errno)
                errno = EIO;
            return -1;
        }
        return 0;
    }
    if (strlen(*line) != (size_t)len) { /* the rest would be read past unseen */
        errno = EILSEQ;
        return -1;
    }
    return (long)len;
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

int cli_next_hex_word(const char **s, const char **word, uint64_t *out)
{
    while (**s == ' ' || **s == '\t')
        (*s)++;
    if (cli_is_line_end(*s))
        return 0;
    *word = *s;
    int r = cli_parse_hex_word(s, out);
    return r ? r : 1;
}

void cli_print_bad_hex_word(FILE *f, const char *start, int why)
{
    const char *e = start;
    while (!cli_is_word_end(e) && (unsigned char)*e >= 0x20)
        e++;
    if (!cli_is_word_end(e)) /* a control character: named, not printed */
        fprintf(f, ": a stray control character 0x%02x after '%.*s'\n", (unsigned char)*e,
                (int)(e - start), start);
    else
        fprintf(f, " '%.*s' %s\n", (int)(e - start), start,
                why == -2 ? "is wider than 64 bits" : "is not a hex number");
}
