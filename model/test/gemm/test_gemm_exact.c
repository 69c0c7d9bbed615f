/* test_gemm_exact.c - tc_gemm's arithmetic against the exact GMP reference
 * (model/test/ref/ref_exact.c, written from docs/contract.md without the model's code):
 * for every profile of the table (the mixed pairs too, A and B each in its format), GEMMs of random sizes (M and N off every tile size,
 * K = 1, K not a multiple of L, several steps), operands with zeros, special values,
 * wide exponent spreads and cancelling pairs; every element of D must equal the
 * reference's dot product of its row and column, for 1..4 threads alike, and for every
 * SIMD path this CPU runs.
 *
 *   test_gemm_exact [SEED]
 */
#include <stdlib.h>
#include <string.h>
#include "tcsim.h"
#include "ref_exact.h"
#include "check.h"
#include "splitmix.h"
#include "test_args.h"

/* A word of float (or int) format f: zero, a special pattern (all-ones exponent), any
 * bits, or a value near 1 (exponents within +-3: partial cancellations are common). */
static uint32_t word(tk_rng *r, tc_fmt f)
{
    const tc_fmt_info *fi = tc_fmt_get(f);
    unsigned pick = tk_mod(r, 32);
    if (fi->cls != TC_CLASS_FLOAT || pick >= 20)
        return tk_bits(r, fi->width);
    if (pick < 3)
        return pick == 0 ? 0u : (1u << (fi->width - 1)) >> fi->ignore_low << fi->ignore_low;
    uint32_t man = tk_bits(r, fi->man_bits), sign = tk_bits(r, 1), e;
    if (pick == 3) /* Inf or NaN (or e4m3's largest binade) */
        e = (1u << fi->exp_bits) - 1u;
    else {
        int x = fi->bias - 3 + (int)tk_mod(r, 7);
        e = (uint32_t)(x < 0 ? 0 : x > (1 << fi->exp_bits) - 1 ? (1 << fi->exp_bits) - 1 : x);
    }
    uint32_t v = (sign << (fi->exp_bits + fi->man_bits)) | (e << fi->man_bits) | man;
    return v << fi->ignore_low;
}

/* Products k - 1 and k of a row of A (a[k] at *ak) and a column of B (b[k] at *bk,
 * the next row of B `ldb` words on) cancel: a[k] = a[k - 1], b[k] = -b[k - 1]. For the
 * mixed pairs, whose B cannot hold A's words (all their formats are signed floats). */
static void cancel_product(const tc_profile *p, uint32_t *ak, uint32_t *bk, size_t ldb)
{
    const tc_fmt_info *fb = tc_fmt_get(p->in_b);
    ak[0] = ak[-1];
    bk[0] = *(bk - ldb) ^ (1u << (fb->width - 1));
}

/* The reference row for a model row (test_vs_ref.c pairs them the same way). */
static int ref_row(const tc_profile *mp, ref_profile *rp)
{
    memset(rp, 0, sizeof *rp);
    if (mp->kind == TC_KIND_INT || mp->kind == TC_KIND_POPC_AND || mp->kind == TC_KIND_POPC_XOR) {
        rp->kind = mp->kind; /* issue 33: the b1 kinds and the integer pairs too */
        rp->in = mp->in;
        rp->in_b = mp->in_b;
        rp->out = mp->out;
        rp->L = mp->L ? mp->L : 16;
        return 1;
    }
    int sc = mp->kind == TC_KIND_MX || mp->kind == TC_KIND_MXF4;
    const ref_profile *m = ref_profile_lookup_ab(mp->arch, mp->instr, mp->in, mp->in_b,
                                                 mp->out, mp->kind,
                                                 sc ? mp->scale : TC_FMT_COUNT,
                                                 sc ? mp->scale_block : 0);
    if (!m)
        return 0;
    *rp = *m;
    if (m->emin_align == REF_EMIN_UNSPECIFIED) /* docs/contract.md is silent: the model's */
        rp->emin_align = mp->emin_align == TC_EMIN_ALIGN_NONE ? REF_EMIN_NONE : mp->emin_align;
    return 1;
}

int main(int argc, char **argv)
{
    uint64_t seed = 3030;
    if (test_one_number("test_gemm_exact", "SEED", argc, argv, UINT64_MAX, &seed))
        return 2;
    tk_rng r = {seed};
    ref_ctx *w = ref_ctx_new();
    const tc_profile *rows;
    size_t nrows = tc_profile_table(&rows);
    for (size_t pi = 0; pi < nrows; pi++) {
        const tc_profile *p = &rows[pi];
        ref_profile rp;
        if (p->kind == TC_KIND_FP64)
            continue; /* 64-bit words, tc_gemm_f64: test_f64 */
        if (!ref_row(p, &rp)) {
            CHECK(0, "%s: no reference row", p->name);
            continue;
        }
        int scaled = p->kind == TC_KIND_MX || p->kind == TC_KIND_MXF4;
        size_t blk = scaled ? p->scale_block : p->kind == TC_KIND_FP8_EMU ? 32 : p->L;
        size_t ks[] = {1, blk + 1 + tk_mod(&r, blk), 3 * blk - 1, 2 * blk + 3};
        /* block-scaled: whole scale blocks, one block to three steps (mxf4: a short
         * last step, scale blocks of 16 or 32 in steps of 64) */
        size_t L = p->L, kscaled[] = {blk, L + blk, 3 * L - blk, 2 * L + blk};
        for (unsigned rep = 0; rep < 4; rep++) {
            size_t M = 1 + tk_mod(&r, 37), N = 1 + tk_mod(&r, 37);
            size_t K = scaled ? kscaled[rep] : ks[rep];
            size_t ns = scaled ? K / p->scale_block : 0;
            uint32_t *a = malloc(M * K * 4), *b = malloc(K * N * 4), *c = malloc(M * N * 4);
            uint32_t *sa = malloc((M * ns + 1) * 4), *sb = malloc((ns * N + 1) * 4);
            uint32_t *d = malloc(M * N * 4), *d2 = malloc(M * N * 4), *col = malloc(K * 4);
            uint32_t *scol = malloc((ns + 1) * 4);
            for (size_t i = 0; i < M * K; i++)
                a[i] = word(&r, p->in);
            for (size_t i = 0; i < K * N; i++)
                b[i] = word(&r, p->in_b);
            /* cancelling pairs: some columns of B are rows of A negated; a mixed pair's
             * B cannot hold A's words, so there products k and k + 1 cancel instead */
            for (size_t j = 0; j < N && j < M; j += 3)
                for (size_t k = 0; k < K; k++)
                    if (p->in_b == p->in)
                        b[k * N + j] = a[j * K + k] ^ (tc_fmt_get(p->in)->is_signed && tc_fmt_get(p->in)->cls == TC_CLASS_FLOAT
                                                           ? 1u << (tc_fmt_get(p->in)->width - 1) : 0u);
                    else if (k % 2)
                        cancel_product(p, a + j * K + k, b + k * N + j, N);
            for (size_t i = 0; i < M * N; i++)
                c[i] = word(&r, p->out);
            for (size_t i = 0; i < M * ns; i++)
                sa[i] = p->scale == TC_FMT_UE8M0 ? 120 + tk_mod(&r, 16) + (tk_mod(&r, 50) == 0) * 200
                                                  : tk_bits(&r, 8);
            for (size_t i = 0; i < ns * N; i++)
                sb[i] = p->scale == TC_FMT_UE8M0 ? 120 + tk_mod(&r, 16) : tk_bits(&r, 8);
            for (size_t i = 0; i < M * ns; i++) /* 200 + 120.. may exceed 8 bits: NaN */
                sa[i] = sa[i] > 255 ? 255 : sa[i];
            tc_matrix A = {a, TC_LAYOUT_ROW, 0}, B = {b, TC_LAYOUT_ROW, 0};
            tc_matrix C = {c, TC_LAYOUT_ROW, 0};
            tc_matrix_out D = {d, TC_LAYOUT_ROW, 0}, D2 = {d2, TC_LAYOUT_ROW, 0};
            tc_gemm_opts o = {.threads = 1, .scale_a = {sa, TC_LAYOUT_ROW, 0},
                              .scale_b = {sb, TC_LAYOUT_ROW, 0}};
            tc_status st = tc_gemm(p, M, N, K, &A, &B, &C, &D, &o);
            CHECK(st == TC_OK, "%s M%zu N%zu K%zu: %s", p->name, M, N, K, tc_strerror(st));
            if (st != TC_OK)
                goto next;
            /* every element against the exact reference */
            for (size_t j = 0; j < N; j++) {
                for (size_t k = 0; k < K; k++)
                    col[k] = b[k * N + j];
                for (size_t s = 0; s < ns; s++)
                    scol[s] = sb[s * N + j];
                for (size_t i = 0; i < M; i++) {
                    uint32_t want = 0;
                    int rc = scaled ? ref_dot_scaled(w, &rp, K, a + i * K, col, sa + i * ns,
                                                     scol, c[i * N + j], &want)
                                    : ref_dot(w, &rp, K, a + i * K, col, c[i * N + j], &want);
                    CHECK(rc == 0 && d[i * N + j] == want,
                          "%s M%zu N%zu K%zu d[%zu][%zu] = %08x, reference %08x (rc %d)",
                          p->name, M, N, K, i, j, d[i * N + j], want, rc);
                }
            }
            /* the same bits for 2..4 threads and for every SIMD path this CPU runs */
            for (unsigned t = 2; t <= 4; t++) {
                o.threads = t;
                CHECK(tc_gemm(p, M, N, K, &A, &B, &C, &D2, &o) == TC_OK &&
                          !memcmp(d, d2, M * N * 4), "%s: %u threads differ", p->name, t);
            }
            o.threads = 2;
            for (unsigned s = TC_SIMD_PORTABLE; s <= TC_SIMD_AVX512; s++) {
                o.simd = s;
                if (!tc_gemm_simd_available(s))
                    continue;
                CHECK(tc_gemm(p, M, N, K, &A, &B, &C, &D2, &o) == TC_OK &&
                          !memcmp(d, d2, M * N * 4), "%s: simd %u differs", p->name, s);
            }
        next:
            free(a), free(b), free(c), free(sa), free(sb), free(d), free(d2), free(col), free(scol);
        }
    }
    ref_ctx_free(w);
    printf("%s: %lu checks over %zu profiles, seed %llu\n", failures ? "FAILED" : "PASSED",
           checks, nrows, (unsigned long long)seed);
    return failures != 0;
}
