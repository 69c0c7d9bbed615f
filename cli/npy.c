/* npy.c - the dtypes of .npy matrices (npy.h): what NumPy calls them, in the header
 * ('descr') and in messages; and the reasons of errors. Shared by the reader
 * (npy_read.c) and the writer (npy_write.c). */
#include <stdarg.h>
#include <stdio.h>
#include "npy.h"
#include "npy_format.h"

/* descr as NumPy writes it: '<' little-endian, '|' for one byte (no byte order). */
static const struct {
    const char *name, *descr;
    unsigned bytes;
    int is_float;
} dtypes[NPY_DTYPE_COUNT] = {
    [NPY_UINT8] = {"uint8", "|u1", 1, 0},
    [NPY_UINT16] = {"uint16", "<u2", 2, 0},
    [NPY_UINT32] = {"uint32", "<u4", 4, 0},
    [NPY_FLOAT16] = {"float16", "<f2", 2, 1},
    [NPY_FLOAT32] = {"float32", "<f4", 4, 1},
    [NPY_UINT64] = {"uint64", "<u8", 8, 0},
    [NPY_FLOAT64] = {"float64", "<f8", 8, 1},
};

const char *npy_dtype_name(npy_dtype t) { return dtypes[t].name; }
unsigned npy_dtype_bytes(npy_dtype t) { return dtypes[t].bytes; }
int npy_dtype_is_float(npy_dtype t) { return dtypes[t].is_float; }
const char *npy_dtype_descr(npy_dtype t) { return dtypes[t].descr; }

int npy_fail(char *err, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(err, NPY_ERR_SIZE, fmt, ap);
    va_end(ap);
    return -1;
}
