/* cli_lines.c - the one way tcsim's commands read a line of their text input. */
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
