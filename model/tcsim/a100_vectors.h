/* a100_vectors.h - reader of the A100 hardware vectors (../shared/vectors/a100).
 * Files: a_*.txt, b_*.txt (k fp32 hex words a line), c_*_fp32.txt and d_*_fp32/fp16.txt
 * (32-character binary strings of fp32 bits; an fp16 result is widened to fp32). */
#ifndef A100_VECTORS_H
#define A100_VECTORS_H

#include <stddef.h>
#include <stdint.h>
#include "tcsim.h"

typedef struct a100_set {
    const char *name;    /* "fp16_fp32" ... */
    const char *dir;     /* sub-folder: fp16, bf16, tf32 */
    tc_fmt in, out;
    size_t k;
} a100_set;

extern const a100_set a100_sets[4];

/* The cases of one set, in the model's formats: a, b (n*k words of `in`), c, d
 * (n words of `out`: c rounded RNE to fp16 for fp16 output, d the GPU's result). */
typedef struct a100_cases {
    size_t n, k;
    uint32_t *a, *b, *c, *d;
} a100_cases;

/* Loads a set; returns 0, or -1 with a message on stderr. */
int a100_load(const char *root, const a100_set *s, a100_cases *out);
void a100_free(a100_cases *c);

#endif
