/* cli_quote.c - user input as a message shows it. A message echoes the word, value or
 * name that is wrong, but a bad word can be 100 kB long (one line of it buries the
 * message) and can hold an escape sequence the terminal would act on: so at most a few
 * dozen characters are shown, and every byte that is not printable ASCII is named. */
#include "cli.h"

const char *cli_quote(char *buf, const char *s, size_t n, size_t max)
{
    static const char hex[] = "0123456789abcdef";
    size_t o = 0, i = 0;
    for (; i < n; i++) {
        unsigned char c = (unsigned char)s[i];
        char e[5] = {'\\', 0, 0, 0, 0};
        size_t w = 2;
        switch (c) {
        case '\0': e[1] = '0'; break;
        case '\t': e[1] = 't'; break;
        case '\n': e[1] = 'n'; break;
        case '\r': e[1] = 'r'; break;
        case '\\': e[1] = '\\'; break;
        default:
            if (c >= 0x20 && c < 0x7f) { /* printable ASCII: as it is */
                e[0] = (char)c;
                w = 1;
            } else { /* a control character, DEL, or a byte of another charset */
                e[1] = 'x';
                e[2] = hex[c >> 4];
                e[3] = hex[c & 15];
                w = 4;
            }
        }
        if (o + w > max)
            break;
        for (size_t j = 0; j < w; j++)
            buf[o++] = e[j];
    }
    if (i < n) /* cut: say so, and how long it was */
        o += (size_t)snprintf(buf + o, CLI_QUOTE_SIZE(max) - o, "... (%zu bytes)", n);
    buf[o] = 0;
    return buf;
}
