/* gpu_vectors_sparse.h - the mma.sp sets of a GPU's measured results (data/vectors/h200/
 * mma_sp_*): beside the gpu_vectors.h files, sparse_<GPU>.txt says, one line a case,
 * which two of every four k the case's A kept ("keep I J", 0 <= I < J <= 3, one pattern a
 * case); the a and b files hold only the k/2 kept terms. Such a set runs through
 * tc_dot_sp at the dense k: the metadata from the keep line, B widened to k with the
 * file's values at the kept positions and tame random values (tc_random_fill, seeded by
 * the case's number) at the dropped ones, which must not matter. */
#ifndef GPU_VECTORS_SPARSE_H
#define GPU_VECTORS_SPARSE_H

#include "gpu_vectors.h"

typedef struct gv_sparse {
    size_t n;
    unsigned char *keep; /* 2 per case: I, J */
} gv_sparse;

/* Loads sparse_<GPU>.txt of set s for its n cases: 1 when there is none (a dense set), 0
 * when loaded, -1 with a message naming the file and line. */
int gv_sparse_load(const gv_set *s, size_t n, gv_sparse *out);
void gv_sparse_free(gv_sparse *sp);

/* Case i of cs (k kept terms) through tc_dot_sp at the dense k = 2 * cs->k. */
tc_status gv_sparse_dot(const tc_profile *p, const gv_sparse *sp, const gv_cases *cs, size_t i,
                        uint32_t *d);

#endif
