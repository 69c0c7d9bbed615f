/* npy_write.c - writes a 2-D .npy matrix (npy.h), whole or not at all: into a temporary
 * file beside the target, renamed over it only once every byte is written and closed. */
#define _POSIX_C_SOURCE 200809L
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include "cli.h"
#include "npy_format.h"

/* Magic, version 1.0, length and the header dict as NumPy writes it, padded with spaces
 * to NPY_ALIGN bytes and ended by a newline: its length, or 0 if buf is too small. */
static size_t header(char *buf, size_t cap, npy_dtype t, size_t rows, size_t cols)
{
    char dict[160];
    int n = snprintf(dict, sizeof dict,
                     "{'descr': '%s', 'fortran_order': False, 'shape': (%zu, %zu), }",
                     npy_dtype_descr(t), rows, cols);
    if (n < 0 || (size_t)n >= sizeof dict)
        return 0;
    size_t pre = NPY_MAGIC_LEN + 4;
    size_t total = (pre + (size_t)n + 1 + NPY_ALIGN - 1) / NPY_ALIGN * NPY_ALIGN;
    if (total > cap)
        return 0;
    size_t len = total - pre;
    memcpy(buf, NPY_MAGIC, NPY_MAGIC_LEN);
    buf[6] = 1;
    buf[7] = 0;
    buf[8] = (char)(len & 0xff);
    buf[9] = (char)(len >> 8);
    memcpy(buf + pre, dict, (size_t)n);
    memset(buf + pre + n, ' ', total - pre - (size_t)n - 1);
    buf[total - 1] = '\n';
    return total;
}

/* The header, then the elements in C order, little-endian, through stdio's buffer: from
 * d32, or from d64 when it is not NULL. */
static int write_all(FILE *f, npy_dtype t, size_t rows, size_t cols, const uint32_t *d32,
                     const uint64_t *d64)
{
    char head[256];
    size_t hn = header(head, sizeof head, t, rows, cols);
    if (!hn || fwrite(head, 1, hn, f) != hn)
        return -1;
    unsigned bytes = npy_dtype_bytes(t);
    for (size_t i = 0; i < rows * cols; i++) {
        uint64_t v = d64 ? d64[i] : d32[i];
        unsigned char e[8];
        for (unsigned j = 0; j < 8; j++)
            e[j] = (unsigned char)(v >> 8 * j);
        if (fwrite(e, 1, bytes, f) != bytes)
            return -1;
    }
    return 0;
}

static int write_file(const char *path, npy_dtype t, size_t rows, size_t cols,
                      const uint32_t *d32, const uint64_t *d64, char *err)
{
    /* a device or a folder is no file to replace (rename would replace /dev/null itself) */
    struct stat st;
    if (stat(path, &st) == 0 && !S_ISREG(st.st_mode))
        return npy_fail(err, "not a regular file (a .npy result is written to a new file, then "
                        "renamed over it)");
    /* the temporary name: path's folder, ".<name>.XXXXXX" (hidden, and never a .npy that
     * a glob of the folder would take for a result) */
    const char *slash = strrchr(path, '/');
    size_t dir = slash ? (size_t)(slash - path) + 1 : 0;
    size_t n = strlen(path);
    char *tmp = malloc(n + 9);
    if (!tmp)
        return npy_fail(err, "out of memory");
    memcpy(tmp, path, dir);
    tmp[dir] = '.';
    memcpy(tmp + dir + 1, path + dir, n - dir);
    memcpy(tmp + n + 1, ".XXXXXX", 8);
    int fd = mkstemp(tmp);
    if (fd < 0) {
        int e = errno;
        free(tmp);
        return npy_fail(err, "cannot create a file in its folder: %s", strerror(e));
    }
    /* mkstemp makes the file private (0600): give it a new file's usual mode */
    mode_t mask = umask(0);
    umask(mask);
    FILE *f = fdopen(fd, "wb");
    int bad = !f || fchmod(fd, 0666 & ~mask) != 0 || write_all(f, t, rows, cols, d32, d64) != 0;
    int e = errno;
    if (f ? fclose(f) != 0 : close(fd) != 0) {
        if (!bad)
            e = errno;
        bad = 1;
    }
    if (!bad && rename(tmp, path) != 0) {
        e = errno;
        bad = 1;
    }
    if (bad) {
        remove(tmp);
        free(tmp);
        return npy_fail(err, "cannot write: %s", strerror(e));
    }
    free(tmp);
    return 0;
}

int npy_write(const char *path, npy_dtype t, size_t rows, size_t cols, const uint32_t *data,
              char err[NPY_ERR_SIZE])
{
    return write_file(path, t, rows, cols, data, NULL, err);
}

int npy_write64(const char *path, npy_dtype t, size_t rows, size_t cols, const uint64_t *data,
                char err[NPY_ERR_SIZE])
{
    return write_file(path, t, rows, cols, NULL, data, err);
}
