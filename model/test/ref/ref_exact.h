/*
 * ref_exact.h - an exact, independent reference of the contract (docs/contract.md).
 *
 * Written from docs/contract.md alone, without reading model/src: the point is a second
 * reading of the spec that the golden model is compared against bit for bit.
 * Every value is the exact real number it encodes, held in GMP integers as
 * (-1)^neg * mag * 2^q; exponents, truncation, rounding and overflow are decided on
 * those numbers with integer arithmetic only (no host floating point).
 *
 * Only the enum names of tcsim.h are used here (tc_fmt, tc_arch, ...), so that the
 * test can pair the model's rows with ours; no model function is called.
 */
#ifndef REF_EXACT_H
#define REF_EXACT_H

#include <stddef.h>
#include <stdint.h>
#include "tcsim.h"

/* ------------------------------------------------------------------ formats */

typedef enum ref_fmt_cls { REF_CLS_FLOAT, REF_CLS_SCALE, REF_CLS_INT } ref_fmt_cls;

/* Which encodings are not finite numbers. */
typedef enum ref_special {
    REF_SPEC_NONE,   /* every pattern is finite (fp6, fp4) */
    REF_SPEC_IEEE,   /* all-ones exponent: Inf (zero fraction) or NaN */
    REF_SPEC_E4M3,   /* OCP e4m3: only S.1111.111 is NaN, no Inf */
    REF_SPEC_UE8M0   /* 0xff is NaN; every other x is 2^(x-127) */
} ref_special;

/* Our own transcription of the "Formats" section of docs/contract.md. */
typedef struct ref_fmt {
    tc_fmt id;
    const char *name;
    ref_fmt_cls cls;
    unsigned width;      /* bits of the word (tf32: 32) */
    unsigned ebits;      /* exponent bits (floats, scales) */
    unsigned mbits;      /* fraction bits (floats, scales) */
    int bias;
    unsigned ignore_low; /* low bits carrying no value (tf32: 13) */
    ref_special spec;
    int is_signed;       /* floats: has a sign bit; ints: two's complement */
    int emin;            /* exponent of the smallest normal binade (ue8m0: -127) */
    int emax;            /* exponent of the largest finite binade */
} ref_fmt;

/* NULL for an id without a row (e.g. TC_FMT_COUNT). */
const ref_fmt *ref_fmt_get(tc_fmt f);

/* A decoded float or scale: NaN, Inf, or the exact value (-1)^neg * sig * 2^q. */
typedef enum ref_cls { REF_FIN, REF_INF, REF_NAN } ref_cls;
typedef struct ref_num {
    ref_cls cls;
    int neg;
    uint64_t sig;        /* 0 for a zero */
    int q;
} ref_num;

/* 0 on success, -1 if f is not a float/scale format or bits do not fit its width. */
int ref_decode(tc_fmt f, uint32_t bits, ref_num *out);

/* floor(log2|x|) for a non-zero finite x, raised to emin (docs/contract.md step 1). */
long ref_align_exp(const ref_num *x, int emin);

/* ------------------------------------------------------------------ profiles */

#define REF_EMIN_NONE        (-1000000)  /* the table's "none": no floor */
#define REF_EMIN_UNSPECIFIED (-2000000)  /* docs/contract.md gives no value (mxf4) */

/* One row of our own transcription of the docs/contract.md parameter table. Fields that
 * docs/contract.md does not give for a row are marked in `unspecified` (REF_UNSPEC_*). */
enum {
    REF_UNSPEC_L = 1, REF_UNSPEC_F = 2, REF_UNSPEC_ROUND = 4, REF_UNSPEC_EMIN = 8,
    REF_UNSPEC_MAN = 16
};
typedef struct ref_profile {
    const char *what;     /* our own label, for messages */
    tc_arch arch;
    tc_instr instr;
    tc_fmt in;            /* a's format (b's too, but in the mixed pairs: in_b) */
    tc_fmt out;
    tc_kind kind;
    unsigned L;
    unsigned F;
    tc_round round;
    int emin_align;       /* REF_EMIN_NONE, REF_EMIN_UNSPECIFIED or the floor */
    unsigned out_man_bits;/* 13 for e8m13, else the output format's fraction bits */
    tc_fmt scale;         /* TC_FMT_COUNT when not block scaled */
    unsigned scale_block; /* 0 when not block scaled */
    const char *scaled_kind; /* "mxf8f6f4", "mxf4", "mxf4nvf4" or NULL */
    unsigned unspecified; /* REF_UNSPEC_* bits */
    int zero_plus;        /* step 7: a result rounding to zero is +0 (fp16 out, Hopper on) */
    tc_fmt in_b;          /* b's format: in, but for the mixed pairs */
} ref_profile;

size_t ref_profile_table(const ref_profile **rows);

/* The row of (arch, instr, in, out, kind, scale, scale_block); NULL if none.
 * For unscaled kinds pass scale = TC_FMT_COUNT and scale_block = 0. */
const ref_profile *ref_profile_lookup(tc_arch arch, tc_instr instr, tc_fmt in, tc_fmt out,
                                      tc_kind kind, tc_fmt scale, unsigned scale_block);
/* The same with a in `in` and b in `in_b` (the mixed pairs). */
const ref_profile *ref_profile_lookup_ab(tc_arch arch, tc_instr instr, tc_fmt in, tc_fmt in_b,
                                         tc_fmt out, tc_kind kind, tc_fmt scale,
                                         unsigned scale_block);

/* ------------------------------------------------------------------ dot products */

/* Scratch space (GMP integers), reused across calls; one per thread. */
typedef struct ref_ctx ref_ctx;
ref_ctx *ref_ctx_new(void);
void ref_ctx_free(ref_ctx *w);

/* d = c + sum_{i<k} a[i]*b[i] in the arithmetic of row p (FEDP, FP8_EMU or INT), a in
 * p->in and b in p->in_b.
 * Integer rows may use any in = int8/uint8/int4/uint4 with out = s32; for them p
 * only needs kind, in, in_b and out; so do the b1 kinds (TC_KIND_POPC_AND/_XOR, b1 in
 * and in_b, issue 33). 0 on success, -1 on a bad argument or pattern. */
int ref_dot(ref_ctx *w, const ref_profile *p, size_t k, const uint32_t *a,
            const uint32_t *b, uint32_t c, uint32_t *d);

/* Block-scaled rows (MX, MXF4): scale_a/scale_b hold k / p->scale_block patterns. */
int ref_dot_scaled(ref_ctx *w, const ref_profile *p, size_t k, const uint32_t *a,
                   const uint32_t *b, const uint32_t *scale_a, const uint32_t *scale_b,
                   uint32_t c, uint32_t *d);

/* One IEEE 754 addition x + y in fp32 or fp16, round to nearest even, canonical NaN
 * (the CUDA-core addition that ends the fp8 emulation). -1 on a bad argument. */
int ref_add_rne(ref_ctx *w, tc_fmt f, uint32_t x, uint32_t y, uint32_t *out);

#endif /* REF_EXACT_H */
