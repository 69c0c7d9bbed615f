/* gpu_vectors.h - reader of measured tensor-core results in the layout of
 * data/vectors/a100 (docs/contract.md "Reference data"), for any GPU.
 *
 * A folder holds one set per input format, either in sub-folders or in the folder itself:
 *   a_<GPU>_<in>.txt, b_<GPU>_<in>.txt  one case per line, k words (k from the first
 *                                       line; every line must have as many): the
 *                                       inputs as fp32 bit patterns, exact in <in>
 *   c_<GPU>_<fmt>.txt                   c, one word a line (fp32 bits; for fp16 output
 *                                       rounded RNE to fp16 first, as docs/contract.md says,
 *                                       unless a c_<GPU>_fp16.txt is given)
 *   d_<GPU>_<out>.txt                   the GPU's result (fp32 bits; an fp16 result
 *                                       widened exactly), one file per output format
 * A word is hex (at most 8 digits, 0x optional) or a 32-character binary string. An fp64
 * (DMMA) set is a_, b_, c_ and d_<GPU>_fp64.txt, each word a binary64 bit pattern: hex
 * of at most 16 digits (the probe writes 16) or a 64-character binary string. <in>
 * and <out> are format names as tcsim spells them (tcsim list). For the integer formats
 * (int8, uint8, ..., s32) a word is the value as a 32-bit two's-complement integer
 * (int8 -1 is ffffffff) and c is given as c_<GPU>_s32.txt.
 * A mixed pair (tcgen05 kind::f8f6f4, fp8 mma) names b in its own format: the one
 * b_<GPU>_<in_b>.txt beside a_<GPU>_<in>.txt. A block-scaled set (tcgen05 kind::mxf8f6f4,
 * mxf4, mxf4nvf4) adds
 *   sa_<GPU>_<scale>.txt, sb_<GPU>_<scale>.txt  a case a line, k / block words: the scale
 *                                       factors' own bit patterns (ue8m0, ue4m3), in k order
 *   kind_<GPU>.txt                      the kind's name, one word
 * A b1 set (a_<GPU>_b1.txt: words 0 or 1) names its popc op in kind_<GPU>.txt: "and" or
 * "xor" (the .and.popc and .xor.popc forms). */
#ifndef GPU_VECTORS_H
#define GPU_VECTORS_H

#include <stddef.h>
#include <stdint.h>
#include "tcsim.h"

enum { GV_PATH = 1024, GV_NAME = 64, GV_MAX_SETS = 64 };

/* One set: an input format's a, b and c with one output format's d. */
typedef struct gv_set {
    char dir[GV_PATH];      /* the folder of its files */
    char gpu[GV_NAME];      /* as the file names spell it: "A100" */
    char name[GV_NAME];     /* "<in>_<out>": "fp16_fp32" */
    tc_fmt in, c_fmt, out;  /* c_fmt: the format c's file holds (fp32, or out) */
    /* (zero: one format, not block-scaled, as a set filled by hand has it) */
    int mixed;              /* b in in_b, else in `in` */
    tc_fmt in_b;
    int scaled;             /* block-scaled: scale factors of `scale`, kind `kind` */
    tc_fmt scale;
    char kind[GV_NAME];     /* kind_<GPU>.txt's word (block-scaled; b1: and, xor) */
} gv_set;

/* Its cases in the model's formats: a, b (n*k words of `in`), c, d (n words of `out`);
 * for an fp64 set a64, b64, c64, d64 instead (binary64 patterns), a .. d NULL. */
typedef struct gv_cases {
    size_t n, k;
    uint32_t *a, *b, *c, *d;
    uint64_t *a64, *b64, *c64, *d64;
    size_t nsf;             /* block-scaled: scale factors a case of a and of b */
    uint32_t *sa, *sb;      /* n * nsf patterns of scale each, else NULL */
} gv_cases;

/* The sets under root (root itself, then its sub-folders, in name order; within a
 * folder by input, then output format name). Returns 0, or -1 with a message on stderr
 * naming the file or folder that is wrong (also when there is no set at all). */
int gv_find(const char *root, gv_set *sets, size_t cap, size_t *n);

/* Loads one set. Returns 0, or -1 with a message on stderr naming the file and line. */
int gv_load(const gv_set *s, gv_cases *out);
void gv_free(gv_cases *c);

#endif
