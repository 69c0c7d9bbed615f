/* a100_vectors.h - the four A100 sets of data/vectors/a100 (docs/contract.md "Reference
 * data"), read through gpu_vectors.h: the sets the tests must find there, and their k. */
#ifndef A100_VECTORS_H
#define A100_VECTORS_H

#include <stddef.h>
#include <stdint.h>
#include "gpu_vectors.h"

typedef struct a100_set {
    const char *name;    /* "fp16_fp32" ... */
    const char *dir;     /* sub-folder: fp16, bf16, tf32 */
    tc_fmt in, out;
    size_t k;
} a100_set;

extern const a100_set a100_sets[4];

typedef gv_cases a100_cases;

/* Loads a set (its k must be the table's); returns 0, or -1 with a message on stderr. */
int a100_load(const char *root, const a100_set *s, a100_cases *out);
void a100_free(a100_cases *c);

#endif
