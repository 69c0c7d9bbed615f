/* test_f64.c - the fp64 form (tcsim_f64.h) against two independent references: the MPFR
 * reference (ref_f64.c, exact product and sum rounded once per step) and the C library's
 * fma() chained in k order; the tile and GEMM against tc_dot_f64 element by element on
 * non-square shapes, both layouts and padded leading dimensions; the uint32_t API
 * refusing fp64; the profile rows where PTX has the form.
 *
 * usage: test_f64 [SEED]   (default 64) */
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "tcsim.h"
#include "ref_f64.h"
#include "check.h"
#include "test_args.h"

static uint64_t rs;
static uint64_t next(void) /* splitmix64 */
{
    uint64_t z = (rs += UINT64_C(0x9e3779b97f4a7c15));
    z = (z ^ (z >> 30)) * UINT64_C(0xbf58476d1ce4e5b9);
    z = (z ^ (z >> 27)) * UINT64_C(0x94d049bb133111eb);
    return z ^ (z >> 31);
}

#define EXP(e) ((uint64_t)(e) << 52)
#define FRAC (((uint64_t)1 << 52) - 1)
static const uint64_t specials[] = {
    0, UINT64_C(1) << 63,                      /* +-0 */
    EXP(0x7ff), EXP(0x7ff) | UINT64_C(1) << 63, /* +-Inf */
    EXP(0x7ff) | 1, UINT64_C(0xfff8000000000000), /* a signalling and a quiet NaN */
    1, FRAC, EXP(1), EXP(0x7fe) | FRAC,        /* min/max subnormal, min normal, max */
    EXP(1023), EXP(1023) | 1, EXP(1022) | FRAC,  /* 1, 1 + ulp, 1 - ulp/2 */
    EXP(1) | FRAC, EXP(2),                     /* around 2^-1021 */
};
#define NSPECIAL (sizeof specials / sizeof specials[0])

/* A pattern from every class: specials, subnormals, huge and tiny normals, and normals
 * near 1 (mostly, so that chains cancel and round rather than overflow). */
static uint64_t word(void)
{
    uint64_t r = next(), sign = r & UINT64_C(1) << 63;
    switch (r % 16) {
    case 0: return specials[(r >> 8) % NSPECIAL] ^ (r & 16 ? sign : 0);
    case 1: return sign | (next() & FRAC);                              /* subnormal */
    case 2: return next();                                              /* any */
    case 3: return sign | EXP(0x7f0 + (r >> 8) % 15) | (next() & FRAC); /* near overflow */
    case 4: return sign | EXP(1 + (r >> 8) % 40) | (next() & FRAC);    /* near underflow */
    case 5: /* few significand bits: products exact, sums that cancel exactly */
        return sign | EXP(1020 + (r >> 8) % 8) | (next() & (FRAC ^ (FRAC >> 8)));
    default: return sign | EXP(1013 + (r >> 8) % 20) | (next() & FRAC);
    }
}

static int is_nan(uint64_t x)
{
    return (x & EXP(0x7ff)) == EXP(0x7ff) && (x & FRAC);
}

/* The C library's fma() chained in k order; its NaNs made canonical (the contract's). */
static uint64_t libm_dot(size_t k, const uint64_t *a, const uint64_t *b, uint64_t c)
{
    double d = ref_f64_double(c);
    for (size_t i = 0; i < k; i++)
        d = fma(ref_f64_double(a[i]), ref_f64_double(b[i]), d);
    return isnan(d) ? TC_F64_NAN : ref_f64_bits(d);
}

static const tc_profile *p64;

/* One case against both references. */
static void check_case(size_t k, const uint64_t *a, const uint64_t *b, uint64_t c, const char *what)
{
    uint64_t d = 0, want = ref_dot_f64(k, a, b, c), lib = libm_dot(k, a, b, c);
    tc_status st = tc_dot_f64(p64, k, a, b, c, &d);
    CHECK(st == TC_OK && d == want, "%s k=%zu (a0 %016llx b0 %016llx c %016llx): model %016llx, "
          "MPFR %016llx", what, k, (unsigned long long)a[0], (unsigned long long)b[0],
          (unsigned long long)c, (unsigned long long)d, (unsigned long long)want);
    CHECK(lib == want, "%s k=%zu: fma() %016llx, MPFR %016llx (the references disagree)", what,
          k, (unsigned long long)lib, (unsigned long long)want);
    CHECK(!is_nan(d) || d == TC_F64_NAN, "%s: NaN %016llx not canonical", what,
          (unsigned long long)d);
}

/* Hand-worked single steps: specials, signed zeros, cancellation, overflow, ties. */
static void directed(void)
{
    const uint64_t one = EXP(1023), two = EXP(1024), half = EXP(1022), mone = one | 1ull << 63;
    const uint64_t inf = EXP(0x7ff), ninf = inf | 1ull << 63, nz = 1ull << 63;
    const uint64_t max = EXP(0x7fe) | FRAC;
    typedef struct { uint64_t a, b, c, d; const char *what; } step;
    step t[13];
    size_t n = 0;
#define T(A, B, C, D, W) t[n++] = (step){A, B, C, D, W}
    T(inf, 0, one, TC_F64_NAN, "Inf * 0");
    T(inf, one, ninf, TC_F64_NAN, "Inf - Inf");
    T(inf, mone, ninf, ninf, "-Inf + -Inf");
    T(one, one, inf, inf, "finite + Inf");
    T(nz, one, nz, nz, "-0 + -0 = -0");
    T(nz, one, 0, 0, "-0 + +0 = +0");
    T(one, one, mone, 0, "exact cancellation: +0");
    T(mone, one, one, 0, "exact cancellation, negative product: +0");
    T(max, two, 0, inf, "overflow to Inf");
    /* max + 2^970 is halfway to 2^1024, and max is odd: the tie goes up, to Inf */
    T(max, one, EXP(0x7fe - 53), inf, "max + half an ulp: tie to even overflows");
    /* (1 + 2^-52)(1 - 2^-53) - 1 = 2^-53 - 2^-105 exactly (2^-54 times 2 - 2^-51): a
     * product rounded on its own (to 1) would give 0 */
    T(one | 1, EXP(1022) | FRAC, mone, EXP(969) | (FRAC ^ 1), "fused: no product rounding");
    T(half, 1, 0, 0, "half the smallest subnormal: tie to even 0");
    T(EXP(1022) | 1ull << 51, 2, 0, 2, "0.75 * 2^-1073 = 1.5 ulps: tie to even 2 ulps");
#undef T
    for (size_t i = 0; i < n; i++) {
        uint64_t d = 0;
        CHECK(tc_dot_f64(p64, 1, &t[i].a, &t[i].b, t[i].c, &d) == TC_OK && d == t[i].d,
              "directed %s: %016llx, want %016llx", t[i].what, (unsigned long long)d,
              (unsigned long long)t[i].d);
        check_case(1, &t[i].a, &t[i].b, t[i].c, t[i].what);
    }
}

static void random_chains(void)
{
    enum { CASES = 4000, KMAX = 64 };
    uint64_t a[KMAX], b[KMAX];
    for (unsigned n = 0; n < CASES; n++) {
        size_t k = 1 + n % KMAX;
        for (size_t i = 0; i < k; i++) {
            a[i] = word();
            b[i] = word();
        }
        check_case(k, a, b, word(), "random");
    }
    /* single steps, many more of them: every class against every other */
    for (unsigned n = 0; n < 200000; n++) {
        uint64_t x = word(), y = word(), z = word();
        if (n % 4 == 0) { /* c = -(a*b) exactly where the product fits 53 bits */
            x &= ~(FRAC >> 26);
            y &= ~(FRAC >> 26);
            double pr = ref_f64_double(x) * ref_f64_double(y);
            if (!isnan(pr))
                z = ref_f64_bits(-pr);
        }
        check_case(1, &x, &y, z, "single step");
    }
}

/* Element (r, c) of a matrix stored with layout l and leading dimension ld. */
static size_t at(tc_layout l, size_t ld, size_t r, size_t c)
{
    return l == TC_LAYOUT_ROW ? r * ld + c : c * ld + r;
}

static void tiles_and_gemms(void)
{
    static const size_t shapes[][3] = {{8, 8, 4}, {16, 8, 16}, {3, 5, 7}, {17, 1, 9},
                                       {1, 23, 64}, {33, 19, 5}};
    for (size_t s = 0; s < sizeof shapes / sizeof shapes[0]; s++) {
        size_t M = shapes[s][0], N = shapes[s][1], K = shapes[s][2], pad = 3;
        size_t big = (M + pad) * (N + pad) + (M + pad) * (K + pad) + (K + pad) * (N + pad);
        uint64_t *A = malloc(big * 8), *B = malloc(big * 8), *C = malloc(big * 8);
        uint64_t *D = malloc(big * 8), *want = malloc(M * N * 8), *col = malloc(K * 8);
        if (!A || !B || !C || !D || !want || !col)
            return;
        for (size_t i = 0; i < big; i++)
            A[i] = word(), B[i] = word(), C[i] = word();
        /* the tile: row-major, packed */
        for (size_t i = 0; i < M; i++)
            for (size_t j = 0; j < N; j++) {
                for (size_t k = 0; k < K; k++)
                    col[k] = B[k * N + j];
                tc_dot_f64(p64, K, A + i * K, col, C[i * N + j], &want[i * N + j]);
            }
        CHECK(tc_mma_tile_f64(p64, M, N, K, A, B, C, D) == TC_OK &&
              !memcmp(D, want, M * N * 8), "tile %zux%zux%zu", M, N, K);
        /* the GEMM: every layout of A, B, C and D, packed or padded, 1..4 threads */
        for (unsigned v = 0; v < 32; v++) {
            tc_layout la = v & 1 ? TC_LAYOUT_COL : TC_LAYOUT_ROW, lb = v & 2 ? TC_LAYOUT_COL : TC_LAYOUT_ROW;
            tc_layout lc = v & 4 ? TC_LAYOUT_COL : TC_LAYOUT_ROW, ld_ = v & 8 ? TC_LAYOUT_COL : TC_LAYOUT_ROW;
            size_t p_ = v & 16 ? pad : 0, no_c = v % 7 == 3;
            size_t lda = (la == TC_LAYOUT_ROW ? K : M) + p_, ldb = (lb == TC_LAYOUT_ROW ? N : K) + p_;
            size_t ldc = (lc == TC_LAYOUT_ROW ? N : M) + p_, ldd = (ld_ == TC_LAYOUT_ROW ? N : M) + p_;
            uint64_t *a2 = calloc(big, 8), *b2 = calloc(big, 8), *c2 = calloc(big, 8), *d2 = calloc(big, 8);
            if (!a2 || !b2 || !c2 || !d2)
                return;
            for (size_t i = 0; i < M; i++)
                for (size_t k = 0; k < K; k++)
                    a2[at(la, lda, i, k)] = A[i * K + k];
            for (size_t k = 0; k < K; k++)
                for (size_t j = 0; j < N; j++)
                    b2[at(lb, ldb, k, j)] = B[k * N + j];
            for (size_t i = 0; i < M; i++)
                for (size_t j = 0; j < N; j++)
                    c2[at(lc, ldc, i, j)] = C[i * N + j];
            tc_matrix64 ma = {a2, la, p_ ? lda : 0}, mb = {b2, lb, p_ ? ldb : 0},
                        mc = {c2, lc, p_ ? ldc : 0};
            tc_matrix64_out md = {d2, ld_, p_ ? ldd : 0};
            tc_gemm_opts o = {.threads = 1 + v % 4};
            tc_status st = tc_gemm_f64(p64, M, N, K, &ma, &mb, no_c ? NULL : &mc, &md, &o);
            int ok = st == TC_OK;
            for (size_t i = 0; ok && i < M; i++)
                for (size_t j = 0; ok && j < N; j++) {
                    uint64_t w = want[i * N + j];
                    if (no_c) {
                        for (size_t k = 0; k < K; k++)
                            col[k] = B[k * N + j];
                        tc_dot_f64(p64, K, A + i * K, col, 0, &w);
                    }
                    ok = d2[at(ld_, ldd, i, j)] == w;
                }
            CHECK(ok, "gemm %zux%zux%zu variant %u: %s", M, N, K, v, tc_strerror(st));
            free(a2), free(b2), free(c2), free(d2);
        }
        free(A), free(B), free(C), free(D), free(want), free(col);
    }
    /* bad arguments: nothing written */
    uint64_t x[4] = {0}, d[4] = {5, 5, 5, 5};
    tc_matrix64 m = {x, TC_LAYOUT_ROW, 1};
    tc_matrix64_out md = {d, TC_LAYOUT_ROW, 0};
    CHECK(tc_gemm_f64(p64, 2, 2, 2, &m, &m, NULL, &md, NULL) == TC_EINVAL && d[0] == 5,
          "an ld smaller than the packed one");
    m.ld = 0;
    CHECK(tc_gemm_f64(p64, 2, 2, 0, &m, &m, NULL, &md, NULL) == TC_EINVAL, "K = 0");
    CHECK(tc_gemm_f64(p64, 2, 2, 2, NULL, &m, NULL, &md, NULL) == TC_EINVAL, "A NULL");
    tc_matrix64 bad = {x, (tc_layout)7, 0};
    CHECK(tc_gemm_f64(p64, 2, 2, 2, &bad, &m, NULL, &md, NULL) == TC_EINVAL, "bad layout");
    CHECK(tc_gemm_f64(p64, 2, 2, 2, &m, &m, NULL, &md, NULL) == TC_OK, "2x2x2 packed");
}

/* The profile rows and the uint32_t API refusing fp64. */
static void api(void)
{
    const tc_profile *p;
    static const struct { tc_arch a; int has; } archs[] = {
        {TC_ARCH_VOLTA, 0}, {TC_ARCH_TURING, 0}, {TC_ARCH_AMPERE, 1}, {TC_ARCH_ADA, 1},
        {TC_ARCH_HOPPER, 1}, {TC_ARCH_BLACKWELL, 1}};
    for (size_t i = 0; i < sizeof archs / sizeof archs[0]; i++) {
        tc_status st = tc_profile_find(archs[i].a, TC_INSTR_MMA, TC_FMT_FP64, TC_FMT_FP64, &p);
        CHECK(archs[i].has ? st == TC_OK && p->kind == TC_KIND_FP64 : st == TC_EUNSUPPORTED,
              "%s mma fp64: %s", tc_arch_name(archs[i].a), tc_strerror(st));
    }
    CHECK(tc_profile_find(TC_ARCH_HOPPER, TC_INSTR_WGMMA, TC_FMT_FP64, TC_FMT_FP64, &p) ==
          TC_EUNSUPPORTED, "no wgmma fp64");
    CHECK(tc_profile_find(TC_ARCH_AMPERE, TC_INSTR_MMA, TC_FMT_FP64, TC_FMT_FP32, &p) ==
          TC_EUNSUPPORTED, "no fp64 -> fp32");
    tc_fmt f;
    CHECK(tc_fmt_parse("fp64", &f) == TC_OK && f == TC_FMT_FP64 && TC_FMT_FP64 == 16,
          "fp64 parses to 16");
    const tc_fmt_info *fi = tc_fmt_get(TC_FMT_FP64);
    CHECK(fi && fi->width == 64 && fi->exp_bits == 11 && fi->man_bits == 52 && fi->bias == 1023,
          "fp64's row");
    /* the uint32_t API: TC_EFORMAT, outputs untouched */
    tc_value v = {TC_VAL_NAN, 1, 7, 7};
    uint32_t w = 0x3c00, a32[4] = {0}, out = 0xdeadbeef, D32[4] = {9, 9, 9, 9};
    CHECK(tc_decode(TC_FMT_FP64, 0, &v) == TC_EFORMAT && v.sig == 7, "tc_decode");
    CHECK(tc_convert_exact(TC_FMT_FP16, w, TC_FMT_FP64, &out) == TC_EFORMAT, "convert to fp64");
    CHECK(tc_convert_rne(TC_FMT_FP64, 0, TC_FMT_FP32, &out) == TC_EFORMAT, "convert from fp64");
    CHECK(tc_canonical_nan(TC_FMT_FP64) == 0 && out == 0xdeadbeef, "no 32-bit NaN of fp64");
    int32_t iv;
    CHECK(tc_int_value(TC_FMT_FP64, 0, &iv) == TC_EFORMAT, "tc_int_value");
    CHECK(tc_int_pattern(TC_FMT_FP64, 0, &out) == TC_EFORMAT, "tc_int_pattern");
    CHECK(tc_add(TC_FMT_FP64, 0, 0, TC_RNE, &out) == TC_EFORMAT, "tc_add");
    CHECK(tc_dot(p64, 2, a32, a32, 0, &out) == TC_EFORMAT && out == 0xdeadbeef, "tc_dot");
    size_t done = 99;
    CHECK(tc_dot_batch(p64, 2, 2, a32, a32, a32, D32, &done) == TC_EFORMAT && done == 0 &&
          D32[0] == 9, "tc_dot_batch");
    CHECK(tc_mma_tile(p64, 2, 2, 1, a32, a32, a32, D32) == TC_EFORMAT && D32[0] == 9,
          "tc_mma_tile");
    tc_matrix m32 = {a32, TC_LAYOUT_ROW, 0};
    tc_matrix_out d32 = {D32, TC_LAYOUT_ROW, 0};
    CHECK(tc_gemm(p64, 2, 2, 1, &m32, &m32, NULL, &d32, NULL) == TC_EFORMAT && D32[0] == 9,
          "tc_gemm");
    CHECK(tc_fedp_step(p64, 1, a32, a32, 0, &out, NULL) != TC_OK, "tc_fedp_step");
    CHECK(tc_dot_scaled(p64, 32, a32, a32, a32, a32, 0, &out) != TC_OK, "tc_dot_scaled");
    const tc_profile *sp;
    CHECK(tc_profile_step_of(p64, &sp) == TC_EUNSUPPORTED, "no FEDP step");
    /* the fp64 API on another profile, and bad arguments */
    uint64_t x = 0, d = 5;
    CHECK(tc_profile_find(TC_ARCH_AMPERE, TC_INSTR_MMA, TC_FMT_FP16, TC_FMT_FP32, &p) == TC_OK &&
          tc_dot_f64(p, 1, &x, &x, 0, &d) == TC_EUNSUPPORTED && d == 5, "fp16 profile");
    CHECK(tc_dot_f64(p64, 0, &x, &x, 0, &d) == TC_EINVAL, "k = 0");
    CHECK(tc_dot_f64(p64, 1, NULL, &x, 0, &d) == TC_EINVAL, "NULL a");
    CHECK(tc_mma_tile_f64(p, 1, 1, 1, &x, &x, &x, &d) == TC_EUNSUPPORTED, "tile, fp16 profile");
}

int main(int argc, char **argv)
{
    uint64_t seed = 64;
    if (test_one_number("test_f64", "SEED", argc, argv, UINT64_MAX, &seed))
        return 2;
    rs = seed;
    if (tc_profile_find(TC_ARCH_AMPERE, TC_INSTR_MMA, TC_FMT_FP64, TC_FMT_FP64, &p64) != TC_OK) {
        printf("FAIL: no ampere mma fp64 profile\n");
        return 1;
    }
    api();
    directed();
    random_chains();
    tiles_and_gemms();
    printf("test_f64: %lu checks, %d failures (seed %llu)\n", checks, failures,
           (unsigned long long)seed);
    return failures != 0;
}
