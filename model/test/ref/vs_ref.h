/* vs_ref.h - the parts of test_vs_ref (the golden model against the exact reference)
 * shared between its files: test_vs_ref.c (the random run, its scoreboard and main),
 * test_vs_ref_selftest.c (the reference against hand-computed cases),
 * test_vs_ref_table.c (the model's profile table against our transcription) and
 * test_vs_ref_stimulus.c (the scenarios that draw the cases). */
#ifndef TCSIM_VS_REF_H
#define TCSIM_VS_REF_H

#include <stddef.h>
#include <stdint.h>
#include "ref_exact.h"
#include "splitmix.h"
#include "tcsim.h"

/* ======================================================================= rng */

/* xoshiro256** seeded through splitmix64 (testkit/splitmix.h): small, fast, reproducible everywhere. */
typedef struct rng {
    uint64_t s[4];
} rng;

static inline void rng_seed(rng *r, uint64_t seed)
{
    for (int i = 0; i < 4; i++)
        r->s[i] = tc_splitmix64(&seed);
}

static inline uint64_t rotl(uint64_t x, int k)
{
    return (x << k) | (x >> (64 - k));
}

static inline uint64_t rnext(rng *r)
{
    uint64_t *s = r->s, res = rotl(s[1] * 5, 7) * 9, t = s[1] << 17;
    s[2] ^= s[0];
    s[3] ^= s[1];
    s[1] ^= s[2];
    s[0] ^= s[3];
    s[2] ^= t;
    s[3] = rotl(s[3], 45);
    return res;
}

/* uniform in [0, n), n > 0 (the modulo bias is irrelevant for a test) */
static inline uint32_t rbelow(rng *r, uint32_t n)
{
    return (uint32_t)((rnext(r) >> 32) % n);
}

/* uniform in [lo, hi] */
static inline int rrange(rng *r, int lo, int hi)
{
    return hi <= lo ? lo : lo + (int)rbelow(r, (uint32_t)(hi - lo + 1));
}

static inline int rpct(rng *r, unsigned pct)
{
    return rbelow(r, 100) < pct;
}

static inline int clampi(int v, int lo, int hi)
{
    return v < lo ? lo : v > hi ? hi : v;
}


/* ---- the cases */

#define MAXK 192 /* 3 steps of the longest L (mxf4: 64) */

/* The exact kinds: integer products, b1 popcounts (issue 33); no rounding, one s32. */
static inline int is_exact_kind(tc_kind k)
{
    return k == TC_KIND_INT || k == TC_KIND_POPC_AND || k == TC_KIND_POPC_XOR;
}

typedef enum scenario {
    SC_RANDOM,    /* raw random patterns (specials mostly re-drawn) */
    SC_TAME,      /* exponents near 0 */
    SC_SPREAD,    /* every exponent anywhere in its range: huge spreads, subnormals */
    SC_CANCEL,    /* a*b and -a*b pairs, c = -(sum): zero and tiny results */
    SC_CARRY,     /* all-ones significands of one sign: carries into new binades */
    SC_OVERFLOW,  /* results near the output's largest binade */
    SC_UNDERFLOW, /* results near and below the output's smallest normal */
    SC_TIE,       /* c plus half an ulp plus a tiny term: ties and truncation edges */
    SC_SPECIAL,   /* Inf, NaN, Inf*0, Inf-Inf, NaN scales */
    SC_ZEROS,     /* mostly zeros of both signs */
    SC_COUNT
} scenario;

/* Each scenario's name and its share of the cases (test_vs_ref_stimulus.c). */
extern const char *const SC_NAMES[SC_COUNT];
extern const unsigned SC_WEIGHT[SC_COUNT];

typedef enum frac_style { FR_RANDOM, FR_ZERO, FR_ONES, FR_FEW } frac_style;

/* One row of the model's table, paired with our parameters for it. */
typedef struct row_ctx {
    const tc_profile *mp;
    ref_profile rp;          /* ours (integer rows: kind/in/out only) */
    const ref_fmt *fin, *fout;
    const ref_fmt *fin_b;    /* b's format: fin, but for the mixed pairs */
    unsigned block;          /* terms per step as far as k goes: L, 32 for emulation */
    unsigned out_p;          /* fraction bits of the result (13 for e8m13) */
    int scaled;
} row_ctx;

typedef struct test_case {
    scenario sc;
    size_t k;
    uint32_t a[MAXK], b[MAXK], sa[MAXK / 16], sb[MAXK / 16], c;
} test_case;

/* ---- test_vs_ref_selftest.c */

/* The reference against hand-computed cases: the exit status. */
int run_selftest(void);

/* ---- test_vs_ref_table.c */

int is_scaled_kind(tc_kind k);
/* Our transcription's row for a model row, or NULL. */
const ref_profile *my_row_for(const tc_profile *r);
/* The model's profile table against ours, both ways: the exit status. */
int run_table(void);
/* A model row paired with ours (integer rows: kind/in/out only): 0 when there is no
 * such row or it does not fit the cases (3 blocks above MAXK). */
int make_row_ctx(const tc_profile *mp, row_ctx *rc);

/* ---- test_vs_ref_stimulus.c */

/* The reference's result of case t on row rc: 0, or non-zero when it refuses. */
int ref_run(ref_ctx *w, const row_ctx *rc, const test_case *t, uint32_t *d);
/* A case of row rc, its scenario drawn by weight. */
void gen_case(rng *r, ref_ctx *w, const row_ctx *rc, test_case *t);

#endif
