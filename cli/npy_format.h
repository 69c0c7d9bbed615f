/* npy_format.h - what the .npy reader and writer share of NumPy's file layout. */
#ifndef TCSIM_NPY_FORMAT_H
#define TCSIM_NPY_FORMAT_H

#include "cli.h"
#include "npy.h"

/* "\x93NUMPY", then the major and minor version bytes. */
#define NPY_MAGIC "\x93NUMPY"
enum { NPY_MAGIC_LEN = 6 };

/* NumPy pads the magic, version, length and header together to a multiple of this, so
 * that the data is aligned (numpy.lib.format's ARRAY_ALIGN). */
enum { NPY_ALIGN = 64 };

/* The descr NumPy writes for t: "|u1", "<u2", "<u4", "<f2", "<f4", "<u8", "<f8". */
const char *npy_dtype_descr(npy_dtype t);

/* The reason of an error, printf-style, into err (NPY_ERR_SIZE bytes): returns -1. */
int npy_fail(char *err, const char *fmt, ...) CLI_PRINTF(2, 3);

#endif
