/* test_gemm_simd.c - every SIMD path this CPU runs (tc_gemm_opts.simd: AVX2, AVX-512)
 * gives the portable C path's bits, on millions of random FEDP steps: every FEDP,
 * mxf8f6f4 and mxf4 profile (the kinds the panel kernel computes; the mixed pairs with
 * B in its own format), D of 96 x 97 (a
 * partial panel of 16 columns, a partial block of 32 rows), K of three steps and a
 * remainder (mxf8f6f4: its steps are its scale blocks), operands whose words are any
 * bits (specials included) or close in exponent (cancellations), scales near 1 or any
 * bits (NaN, zero).
 * Which paths ran is printed; one this CPU lacks is said to be skipped.
 *
 *   test_gemm_simd [SEED]
 */
#include <stdlib.h>
#include <string.h>
#include "tcsim.h"
#include "check.h"
#include "splitmix.h"
#include "test_args.h"

/* Any bits (one word in 4) or a sign, an exponent field within 2 of the bias and any
 * fraction. */
static uint32_t word(tk_rng *r, const tc_fmt_info *fi)
{
    if (tk_mod(r, 4) == 0 || fi->cls != TC_CLASS_FLOAT)
        return tk_bits(r, fi->width);
    int x = fi->bias - 2 + (int)tk_mod(r, 5), top = (1 << fi->exp_bits) - 1;
    uint32_t e = (uint32_t)(x < 0 ? 0 : x > top ? top : x);
    uint32_t v = (tk_bits(r, 1) << (fi->exp_bits + fi->man_bits)) | (e << fi->man_bits) |
                 tk_bits(r, fi->man_bits);
    return v << fi->ignore_low;
}

/* A scale word of format fs: any bits or all ones (NaN in both scale formats: the step
 * goes to the general path), one in 64 each, or within about 2^+-3 of 1. */
static uint32_t scale(tk_rng *r, const tc_fmt_info *fs)
{
    unsigned pick = tk_mod(r, 64);
    if (pick < 2)
        return pick ? tk_bits(r, fs->width) : (1u << fs->width) - 1u;
    if (fs->man_bits == 0) /* ue8m0 */
        return (uint32_t)fs->bias - 10 + tk_mod(r, 20);
    return (((uint32_t)fs->bias - 3 + tk_mod(r, 6)) << fs->man_bits) | tk_bits(r, fs->man_bits);
}

int main(int argc, char **argv)
{
    uint64_t seed = 30;
    if (test_one_number("test_gemm_simd", "SEED", argc, argv, UINT64_MAX, &seed))
        return 2;
    tk_rng r = {seed};
    const char *names[] = {"", "portable", "avx2", "avx512"};
    for (unsigned s = TC_SIMD_AVX2; s <= TC_SIMD_AVX512; s++)
        if (!tc_gemm_simd_available(s))
            printf("skipped: this CPU has no %s\n", names[s]);
    const tc_profile *rows;
    size_t nrows = tc_profile_table(&rows), steps = 0;
    enum { M = 96, N = 97 };
    for (size_t pi = 0; pi < nrows; pi++) {
        const tc_profile *p = &rows[pi];
        if (p->kind != TC_KIND_FEDP && p->kind != TC_KIND_MX && p->kind != TC_KIND_MXF4)
            continue;
        size_t K = 3 * p->L, blocks = p->kind == TC_KIND_FEDP ? 0 : p->L / p->scale_block;
        if (p->kind == TC_KIND_FEDP)
            K += 1 + tk_mod(&r, p->L - 1);
        else if (blocks > 1) /* mxf4: a remainder of whole scale blocks (K must be such) */
            K += p->scale_block * (1 + tk_mod(&r, blocks - 1));
        size_t ns = p->kind == TC_KIND_FEDP ? 0 : K / p->scale_block;
        const tc_fmt_info *fi = tc_fmt_get(p->in), *fib = tc_fmt_get(p->in_b);
        const tc_fmt_info *fo = tc_fmt_get(p->out);
        uint32_t *a = malloc(M * K * 4), *b = malloc(K * N * 4), *c = malloc(M * N * 4);
        uint32_t *sa = malloc((M * ns + 1) * 4), *sb = malloc((ns * N + 1) * 4);
        uint32_t *want = malloc(M * N * 4), *got = malloc(M * N * 4);
        for (size_t i = 0; i < M * K; i++)
            a[i] = word(&r, fi);
        for (size_t i = 0; i < K * N; i++)
            b[i] = word(&r, fib); /* B in its own format (the mixed pairs) */
        for (size_t i = 0; i < M * N; i++)
            c[i] = word(&r, fo);
        for (size_t i = 0; i < M * ns; i++)
            sa[i] = scale(&r, tc_fmt_get(p->scale));
        for (size_t i = 0; i < ns * N; i++)
            sb[i] = scale(&r, tc_fmt_get(p->scale));
        tc_matrix A = {a, TC_LAYOUT_ROW, 0}, B = {b, TC_LAYOUT_ROW, 0};
        tc_matrix C = {c, TC_LAYOUT_ROW, 0};
        tc_gemm_opts o = {.threads = 2, .scale_a = {sa, TC_LAYOUT_ROW, 0},
                          .scale_b = {sb, TC_LAYOUT_ROW, 0}, .simd = TC_SIMD_PORTABLE};
        tc_matrix_out Dw = {want, TC_LAYOUT_ROW, 0}, Dg = {got, TC_LAYOUT_ROW, 0};
        tc_status st = tc_gemm(p, M, N, K, &A, &B, &C, &Dw, &o);
        CHECK(st == TC_OK, "%s portable: %s", p->name, tc_strerror(st));
        for (unsigned s = TC_SIMD_AVX2; st == TC_OK && s <= TC_SIMD_AVX512; s++) {
            if (!tc_gemm_simd_available(s))
                continue;
            o.simd = s;
            CHECK(tc_gemm(p, M, N, K, &A, &B, &C, &Dg, &o) == TC_OK, "%s %s failed", p->name,
                  names[s]);
            size_t diff = 0, first = 0;
            for (size_t i = 0; i < M * N; i++)
                if (got[i] != want[i] && !diff++)
                    first = i;
            CHECK(diff == 0, "%s %s: %zu of %d elements differ, first d[%zu][%zu] = %08x, "
                  "portable %08x", p->name, names[s], diff, M * N, first / N, first % N,
                  got[first], want[first]);
            steps += (size_t)M * N * ((K + p->L - 1) / p->L);
        }
        free(a), free(b), free(c), free(sa), free(sb), free(want), free(got);
    }
    printf("%s: %lu checks, %zu FEDP steps compared with the portable path, seed %llu\n",
           failures ? "FAILED" : "PASSED", checks, steps, (unsigned long long)seed);
    return failures != 0;
}
