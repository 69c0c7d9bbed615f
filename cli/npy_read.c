/* npy_read.c - reads a 2-D .npy matrix (npy.h): the header checked word by word, its
 * shape against the file's size before any allocation, then the data widened to words. */
#define _POSIX_C_SOURCE 200809L
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include "cli.h"
#include "npy_format.h"

/* Far above the header of any 2-D array (NumPy writes about 128 bytes and itself refuses
 * headers over 10000 bytes unless told otherwise): a bound on what a bad file makes us
 * allocate before its shape is known. */
enum { NPY_HEADER_MAX = 65536 };

/* The header dict, as it is parsed. */
typedef struct header {
    const char *p, *end;
    int have_descr, have_order, have_shape;
    npy_dtype dtype;
    int fortran;
    size_t ndim;
    unsigned long long dim[2];
} header;

static void skip_blanks(header *h)
{
    while (h->p < h->end && (*h->p == ' ' || *h->p == '\t' || *h->p == '\n' || *h->p == '\r'))
        h->p++;
}

static int expect(header *h, char c, const char *where, char *err)
{
    skip_blanks(h);
    if (h->p == h->end || *h->p != c) {
        size_t left = (size_t)(h->end - h->p);
        if (!left)
            return npy_fail(err, "bad header: it ends where '%c' %s was expected", c, where);
        return npy_fail(err, "bad header: '%c' %s expected at '%s'", c, where,
                        CLI_WORDN(h->p, left < 12 ? left : 12));
    }
    h->p++;
    return 0;
}

/* A Python string literal in ' or " quotes, without escapes (no key or dtype of ours has
 * one): *s and *n its content. */
static int string(header *h, const char **s, size_t *n, const char *what, char *err)
{
    skip_blanks(h);
    if (h->p == h->end || (*h->p != '\'' && *h->p != '"'))
        return npy_fail(err, "bad header: %s is not a quoted string", what);
    char q = *h->p++;
    const char *start = h->p;
    while (h->p < h->end && *h->p != q && *h->p != '\\')
        h->p++;
    if (h->p == h->end || *h->p != q)
        return npy_fail(err, "bad header: %s is not a plain quoted string", what);
    *s = start;
    *n = (size_t)(h->p - start);
    h->p++;
    return 0;
}

static int is_word(const char *s, size_t n, const char *w)
{
    return n == strlen(w) && !memcmp(s, w, n);
}

static int descr(header *h, char *err)
{
    skip_blanks(h);
    if (h->p < h->end && *h->p == '[')
        return npy_fail(err, "a structured dtype (descr is a list); tcsim reads uint8, uint16, "
                        "uint32, uint64, float16, float32 or float64");
    const char *s;
    size_t n;
    if (string(h, &s, &n, "descr", err))
        return -1;
    for (int t = 0; t < NPY_DTYPE_COUNT; t++) {
        const char *d = npy_dtype_descr((npy_dtype)t);
        /* one byte has no byte order: NumPy writes '|', other writers '<' or '=' */
        if (is_word(s, n, d) || (npy_dtype_bytes((npy_dtype)t) == 1 && n == 3 &&
                                 strchr("<>=", s[0]) && !memcmp(s + 1, d + 1, 2))) {
            h->dtype = (npy_dtype)t;
            return 0;
        }
        if (n == 3 && s[0] == '>' && !memcmp(s + 1, d + 1, 2))
            return npy_fail(err, "dtype '%s' (%s) is big-endian; tcsim reads little-endian "
                            "only (numpy: a.astype('%s'))", CLI_WORDN(s, n),
                            npy_dtype_name((npy_dtype)t), d);
    }
    return npy_fail(err, "unknown dtype '%s'; tcsim reads uint8 (|u1), uint16 (<u2), uint32 "
                    "(<u4), uint64 (<u8), float16 (<f2), float32 (<f4) or float64 (<f8)",
                    CLI_WORDN(s, n));
}

static int fortran_order(header *h, char *err)
{
    skip_blanks(h);
    size_t left = (size_t)(h->end - h->p);
    if (left >= 4 && !memcmp(h->p, "True", 4)) {
        h->fortran = 1;
        h->p += 4;
    } else if (left >= 5 && !memcmp(h->p, "False", 5)) {
        h->fortran = 0;
        h->p += 5;
    } else {
        return npy_fail(err, "bad header: fortran_order is neither True nor False");
    }
    return 0;
}

/* A tuple of non-negative integers. More than two are counted, not kept. */
static int shape(header *h, char *err)
{
    if (expect(h, '(', "opening the shape", err))
        return -1;
    h->ndim = 0;
    for (;;) {
        skip_blanks(h);
        if (h->p < h->end && *h->p == ')') {
            h->p++;
            return 0;
        }
        if (h->p == h->end || *h->p < '0' || *h->p > '9')
            return npy_fail(err, "bad header: the shape holds something other than integers");
        unsigned long long v = 0;
        int too_big = 0;
        for (; h->p < h->end && *h->p >= '0' && *h->p <= '9'; h->p++) {
            unsigned d = (unsigned)(*h->p - '0');
            if (v > (UINT64_MAX - d) / 10)
                too_big = 1;
            else
                v = v * 10 + d;
        }
        if (too_big)
            return npy_fail(err, "shape: a dimension wider than 64 bits");
        if (h->ndim < 2)
            h->dim[h->ndim] = v;
        h->ndim++;
        skip_blanks(h);
        if (h->p < h->end && *h->p == ',')
            h->p++;
        else if (h->p < h->end && *h->p != ')')
            return npy_fail(err, "bad header: ',' or ')' expected in the shape");
    }
}

/* The dict: each of the three keys once, in any order, a trailing comma allowed; after
 * '}' only blanks (NumPy pads with spaces and ends with a newline). */
static int parse_header(header *h, char *err)
{
    if (expect(h, '{', "opening the header dict", err))
        return -1;
    for (;;) {
        skip_blanks(h);
        if (h->p < h->end && *h->p == '}') {
            h->p++;
            break;
        }
        const char *k;
        size_t n;
        if (string(h, &k, &n, "a key of the header dict", err) ||
            expect(h, ':', "after a key", err))
            return -1;
        int *have = is_word(k, n, "descr") ? &h->have_descr
                    : is_word(k, n, "fortran_order") ? &h->have_order
                    : is_word(k, n, "shape") ? &h->have_shape : NULL;
        if (!have)
            return npy_fail(err, "bad header: unknown key '%s'", CLI_WORDN(k, n));
        if (*have)
            return npy_fail(err, "bad header: key '%s' twice", CLI_WORDN(k, n));
        *have = 1;
        if ((have == &h->have_descr ? descr(h, err)
             : have == &h->have_order ? fortran_order(h, err) : shape(h, err)))
            return -1;
        skip_blanks(h);
        if (h->p < h->end && *h->p == ',')
            h->p++;
        else if (h->p == h->end || *h->p != '}')
            return npy_fail(err, "bad header: ',' or '}' expected after the value of '%s'",
                            CLI_WORDN(k, n));
    }
    skip_blanks(h);
    if (h->p != h->end)
        return npy_fail(err, "bad header: text after the header dict");
    if (!h->have_descr || !h->have_order || !h->have_shape)
        return npy_fail(err, "bad header: no '%s' key", !h->have_descr ? "descr"
                        : !h->have_order ? "fortran_order" : "shape");
    return 0;
}

/* The magic, version and header length: the header's size in *len and the bytes before
 * it in *pre. */
static int preamble(FILE *f, size_t *pre, size_t *len, char *err)
{
    unsigned char b[12];
    size_t got = fread(b, 1, 10, f);
    if (got < NPY_MAGIC_LEN || memcmp(b, NPY_MAGIC, NPY_MAGIC_LEN))
        return npy_fail(err, "not a .npy file (no \\x93NUMPY magic at its start)");
    if (got < 10)
        return npy_fail(err, "truncated: the file ends inside its version and header length");
    unsigned major = b[6], minor = b[7];
    if ((major != 1 && major != 2 && major != 3) || minor != 0)
        return npy_fail(err, "unsupported .npy version %u.%u (tcsim reads 1.0, 2.0 and 3.0)", major,
                        minor);
    if (major == 1) {
        *pre = 10;
        *len = (size_t)b[8] | (size_t)b[9] << 8;
        return 0;
    }
    if (fread(b + 10, 1, 2, f) != 2)
        return npy_fail(err, "truncated: the file ends inside its header length");
    uint32_t l = (uint32_t)b[8] | (uint32_t)b[9] << 8 | (uint32_t)b[10] << 16 |
                 (uint32_t)b[11] << 24;
    if (l > NPY_HEADER_MAX)
        return npy_fail(err, "bad header: %lu bytes long (at most %d)", (unsigned long)l,
                        NPY_HEADER_MAX);
    *pre = 12;
    *len = l;
    return 0;
}

/* The shape of a parsed header is a non-empty 2-D matrix whose data fits the file. */
static int check_shape(const header *h, unsigned long long data_bytes, size_t *rows,
                       size_t *cols, char *err)
{
    if (h->ndim != 2) {
        char dims[64] = "";
        if (h->ndim == 1)
            snprintf(dims, sizeof dims, " (shape (%llu,))", h->dim[0]);
        return npy_fail(err, "a %zu-D array%s; a 2-D matrix is needed", h->ndim, dims);
    }
    unsigned long long r = h->dim[0], c = h->dim[1], bytes = npy_dtype_bytes(h->dtype);
    if (r == 0 || c == 0)
        return npy_fail(err, "an empty matrix (shape (%llu, %llu))", r, c);
    /* the words it is widened to must be addressable; the file must hold the data */
    if (r > SIZE_MAX / (bytes > 4 ? bytes : 4) / c)
        return npy_fail(err, "shape (%llu, %llu) is too large to hold in memory", r, c);
    unsigned long long need = r * c * bytes;
    if (data_bytes < need)
        return npy_fail(err, "truncated: shape (%llu, %llu) of %s needs %llu bytes of data, the "
                        "file has %llu", r, c, npy_dtype_name(h->dtype), need, data_bytes);
    if (data_bytes > need)
        return npy_fail(err, "%llu bytes after the data of shape (%llu, %llu) of %s (not one "
                        ".npy array?)", data_bytes - need, r, c, npy_dtype_name(h->dtype));
    *rows = (size_t)r;
    *cols = (size_t)c;
    return 0;
}

/* n elements of `bytes` bytes each, little-endian, at the start of w: widened in place to
 * words from the last down. Word i covers bytes [4i, 4i+4), at or after the end of every
 * earlier element's bytes (bytes * i), so no element is overwritten before it is read. */
static void widen(uint32_t *w, size_t n, unsigned bytes)
{
    unsigned char *b = (unsigned char *)w;
    for (size_t i = n; i-- > 0;) {
        unsigned char e[4] = {0, 0, 0, 0};
        memcpy(e, b + i * bytes, bytes);
        w[i] = (uint32_t)e[0] | (uint32_t)e[1] << 8 | (uint32_t)e[2] << 16 |
               (uint32_t)e[3] << 24;
    }
}

/* The same for 8-byte elements, in place: each word is exactly its element's bytes. */
static void words64(uint64_t *w, size_t n)
{
    unsigned char *b = (unsigned char *)w;
    for (size_t i = 0; i < n; i++) {
        uint64_t v = 0;
        for (unsigned j = 8; j-- > 0;)
            v = v << 8 | b[8 * i + j];
        w[i] = v;
    }
}

static int read_file(FILE *f, npy_matrix *m, char *err)
{
    struct stat st;
    if (fstat(fileno(f), &st) != 0)
        return npy_fail(err, "cannot read: %s", strerror(errno));
    if (!S_ISREG(st.st_mode))
        return npy_fail(err, "not a regular file (tcsim reads its size before its data)");
    size_t pre = 0, len = 0;
    if (preamble(f, &pre, &len, err))
        return -1;
    if ((unsigned long long)st.st_size < pre + len)
        return npy_fail(err, "truncated: the file ends inside its %zu-byte header", len);
    char *text = malloc(len ? len : 1);
    if (!text)
        return npy_fail(err, "out of memory");
    if (fread(text, 1, len, f) != len) {
        free(text);
        return npy_fail(err, "truncated: the file ends inside its %zu-byte header", len);
    }
    header h = {.p = text, .end = text + len};
    int bad = len == 0 || text[len - 1] != '\n';
    if (bad)
        npy_fail(err, "bad header: it does not end with a newline");
    else if (memchr(text, '\0', len))
        bad = npy_fail(err, "bad header: a NUL byte in it");
    else
        bad = parse_header(&h, err);
    free(text);
    size_t rows = 0, cols = 0;
    if (bad || check_shape(&h, (unsigned long long)st.st_size - pre - len, &rows, &cols, err))
        return -1;
    size_t n = rows * cols, bytes = npy_dtype_bytes(h.dtype);
    void *w = malloc(n * (bytes == 8 ? 8 : sizeof(uint32_t)));
    if (!w)
        return npy_fail(err, "out of memory for a %zu x %zu matrix", rows, cols);
    if (fread(w, bytes, n, f) != n) {
        int e = ferror(f) ? errno : 0;
        free(w);
        return e ? npy_fail(err, "cannot read the data: %s", strerror(e))
                            : npy_fail(err, "truncated: the file ended while its data was read");
    }
    *m = (npy_matrix){.dtype = h.dtype, .fortran = h.fortran, .rows = rows, .cols = cols};
    if (bytes == 8) {
        words64(w, n);
        m->data64 = w;
    } else {
        widen(w, n, (unsigned)bytes);
        m->data = w;
    }
    return 0;
}

int npy_read(const char *path, npy_matrix *m, char err[NPY_ERR_SIZE])
{
    memset(m, 0, sizeof *m);
    FILE *f = fopen(path, "rb");
    if (!f)
        return npy_fail(err, "cannot open: %s", strerror(errno));
    int r = read_file(f, m, err);
    fclose(f);
    return r;
}

void npy_free(npy_matrix *m)
{
    free(m->data);
    free(m->data64);
    m->data = NULL;
    m->data64 = NULL;
}
