/* npy.h - NumPy .npy files of 2-D matrices of bit patterns, read into and written from
 * uint32_t words (the model's tc_matrix), or uint64_t words for the 64-bit dtypes (fp64:
 * tc_matrix64), for `tcsim gemm`.
 *
 * The format is NumPy's own (numpy.lib.format, versions 1.0, 2.0 and 3.0): a magic
 * "\x93NUMPY", a version, a header length, a Python dict literal with 'descr',
 * 'fortran_order' and 'shape', then the elements in C or Fortran order. Only what a
 * matrix of bit patterns needs is read: little-endian uint8, uint16, uint32, uint64,
 * float16, float32 and float64, two dimensions, no pickled objects. Everything else is refused with a reason.
 */
#ifndef TCSIM_NPY_H
#define TCSIM_NPY_H

#include <stddef.h>
#include <stdint.h>

typedef enum npy_dtype {
    NPY_UINT8 = 0,
    NPY_UINT16,
    NPY_UINT32,
    NPY_FLOAT16,
    NPY_FLOAT32,
    NPY_UINT64,
    NPY_FLOAT64,
    NPY_DTYPE_COUNT
} npy_dtype;

const char *npy_dtype_name(npy_dtype t); /* "uint8", ..., "float64" as NumPy names it */
unsigned npy_dtype_bytes(npy_dtype t);   /* 1, 2, 4 or 8 */
int npy_dtype_is_float(npy_dtype t);

/* A matrix as read: element (r, c) is data[r * cols + c] in C order, data[c * rows + r]
 * in Fortran order (fortran set): the file's order, kept (tc_matrix's TC_LAYOUT_ROW or
 * TC_LAYOUT_COL with a packed ld), each element widened to a uint32_t word. The 8-byte
 * dtypes (uint64, float64) fill data64 in the same order instead, and data is NULL. */
typedef struct npy_matrix {
    npy_dtype dtype;
    int fortran;
    size_t rows, cols;
    uint32_t *data;
    uint64_t *data64;
} npy_matrix;

/* Messages of npy_read and npy_write: the reason alone (the caller names the file). */
enum { NPY_ERR_SIZE = 320 };

/* Reads the 2-D matrix of file path into *m: 0, or -1 with the reason in err (a bad
 * magic, version or header, an unknown or big-endian dtype, not two dimensions, an empty
 * matrix, data shorter or longer than the shape says, a read error). The header is
 * checked against the file's size before anything is allocated: a huge shape is refused,
 * never allocated. On failure *m is left empty (nothing to free). */
int npy_read(const char *path, npy_matrix *m, char err[NPY_ERR_SIZE]);
void npy_free(npy_matrix *m);

/* Writes the rows x cols matrix data (C order, each element the low bits of its word) to
 * path as a version 1.0 .npy file of dtype t in C order. The file appears whole or not at
 * all: it is written to a temporary file in the same folder, then renamed over path.
 * 0, or -1 with the reason in err (and no file left behind). */
int npy_write(const char *path, npy_dtype t, size_t rows, size_t cols, const uint32_t *data,
              char err[NPY_ERR_SIZE]);

/* The same for 64-bit words (t is uint64 or float64). */
int npy_write64(const char *path, npy_dtype t, size_t rows, size_t cols, const uint64_t *data,
                char err[NPY_ERR_SIZE]);

#endif
