/* report_file.h - the benchmarks' JSON report files (tb/ and model/test/ benchmarks):
 * opened before the run, so that a bad path fails at once rather than after minutes
 * of measuring, and closed with the write checked, since fprintf buffers and a full
 * disk shows at the latest in fclose. Each says what went wrong on stderr, naming the
 * program and the file. */
#ifndef TCSIM_REPORT_FILE_H
#define TCSIM_REPORT_FILE_H

#include <errno.h>
#include <stdio.h>
#include <string.h>

/* path opened for writing, or NULL after "PROG: cannot write 'PATH': reason". */
static inline FILE *report_open(const char *prog, const char *path)
{
    FILE *f = fopen(path, "w");
    if (!f)
        fprintf(stderr, "%s: cannot write '%s': %s\n", prog, path, strerror(errno));
    return f;
}

/* Closes f: 0 after "wrote PATH" on stdout, 1 after the error on stderr. */
static inline int report_close(FILE *f, const char *prog, const char *path)
{
    int ok = !ferror(f);
    ok &= fclose(f) == 0;
    if (!ok) {
        fprintf(stderr, "%s: cannot write '%s': %s\n", prog, path, strerror(errno));
        return 1;
    }
    printf("wrote %s\n", path);
    return 0;
}

#endif
