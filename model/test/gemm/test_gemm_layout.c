/* test_gemm_layout.c - tc_gemm reads every operand layout and leading dimension, and
 * splits work over threads, without changing a result: each element of D must equal
 * tc_dot (tc_dot_scaled for block-scaled kinds) of the packed row of A and column of B,
 * for every profile of the table (the mixed pairs too: B in its own format), random M,
 * N, K (K = 1, below, at and beyond L), row- and column-major operands with padded
 * leading dimensions, 1..4 threads and "all cores", and every SIMD path this CPU runs.
 * Then the error contract: a too-wide word in the last element of A, B, C
 * or a scale gives TC_EFORMAT with D untouched; an ld below the packed one, a NULL
 * operand or a zero size TC_EINVAL; a block-scaled K that is not a multiple of the
 * scale block TC_ESHAPE. The arithmetic itself is held to the exact reference by
 * model/test/ref; this holds the matrix plumbing to the one-dot path. */
#include <stdlib.h>
#include <string.h>
#include "tcsim.h"
#include "check.h"
#include "splitmix.h"
#include "test_args.h"

/* Any word of format f (1 in 8 zero): the dot-product paths handle every pattern. */
static uint32_t word(tk_rng *r, tc_fmt f)
{
    if (tk_mod(r, 8) == 0)
        return 0;
    return tk_bits(r, tc_fmt_get(f)->width);
}

static size_t idx(tc_layout l, size_t ld, size_t row, size_t col)
{
    return l == TC_LAYOUT_ROW ? row * ld + col : col * ld + row;
}

/* A rows x cols operand in a random layout with 0..2 elements of padding per line,
 * filled from `logical` (row-major, packed); pad words are too wide for any format
 * below 32 bits, so reading one would show as TC_EFORMAT or a wrong result. */
static tc_matrix place(tk_rng *r, const uint32_t *logical, size_t rows, size_t cols,
                       uint32_t **store)
{
    tc_layout l = tk_mod(r, 2) ? TC_LAYOUT_COL : TC_LAYOUT_ROW;
    size_t packed = l == TC_LAYOUT_ROW ? cols : rows, outer = l == TC_LAYOUT_ROW ? rows : cols;
    size_t pad = tk_mod(r, 3), ld = packed + pad;
    uint32_t *m = malloc(outer * ld * sizeof *m);
    for (size_t i = 0; i < outer * ld; i++)
        m[i] = 0xdeadbeefu;
    for (size_t i = 0; i < rows; i++)
        for (size_t j = 0; j < cols; j++)
            m[idx(l, ld, i, j)] = logical[i * cols + j];
    *store = m;
    return (tc_matrix){m, l, pad || tk_mod(r, 2) ? ld : 0};
}

typedef struct problem {
    const tc_profile *p;
    size_t M, N, K, ns;
    uint32_t *a, *b, *c, *sa, *sb; /* logical, row-major packed */
    unsigned simd;                 /* tc_gemm_opts.simd of the runs */
} problem;

static void draw(tk_rng *r, problem *q)
{
    const tc_profile *p = q->p;
    int scaled = p->kind == TC_KIND_MX || p->kind == TC_KIND_MXF4;
    size_t ks[] = {1, p->L - 1 ? p->L - 1 : 1, p->L, p->L + 3, 3 * p->L + 1};
    q->M = 1 + tk_mod(r, 7);
    q->N = 1 + tk_mod(r, 6);
    q->K = ks[tk_mod(r, 5)];
    if (scaled)
        q->K = p->scale_block * (1 + tk_mod(r, 3));
    q->ns = scaled ? q->K / p->scale_block : 0;
    q->a = malloc(q->M * q->K * sizeof *q->a);
    q->b = malloc(q->K * q->N * sizeof *q->b);
    q->c = malloc(q->M * q->N * sizeof *q->c);
    q->sa = malloc((q->M * q->ns + 1) * sizeof *q->sa);
    q->sb = malloc((q->ns * q->N + 1) * sizeof *q->sb);
    for (size_t i = 0; i < q->M * q->K; i++)
        q->a[i] = word(r, p->in);
    for (size_t i = 0; i < q->K * q->N; i++)
        q->b[i] = word(r, p->in_b);
    for (size_t i = 0; i < q->M * q->N; i++)
        q->c[i] = word(r, p->out);
    for (size_t i = 0; i < q->M * q->ns; i++)
        q->sa[i] = word(r, p->scale);
    for (size_t i = 0; i < q->ns * q->N; i++)
        q->sb[i] = word(r, p->scale);
}

static void release(problem *q)
{
    free(q->a), free(q->b), free(q->c), free(q->sa), free(q->sb);
}

/* D by one dot product per element, row-major packed. */
static tc_status expected(const problem *q, uint32_t *d)
{
    uint32_t *col = malloc(q->K * sizeof *col), *scol = malloc((q->ns + 1) * sizeof *scol);
    tc_status st = TC_OK;
    for (size_t j = 0; j < q->N && st == TC_OK; j++) {
        for (size_t k = 0; k < q->K; k++)
            col[k] = q->b[k * q->N + j];
        for (size_t s = 0; s < q->ns; s++)
            scol[s] = q->sb[s * q->N + j];
        for (size_t i = 0; i < q->M && st == TC_OK; i++)
            st = q->ns ? tc_dot_scaled(q->p, q->K, q->a + i * q->K, col, q->sa + i * q->ns,
                                       scol, q->c[i * q->N + j], &d[i * q->N + j])
                       : tc_dot(q->p, q->K, q->a + i * q->K, col, q->c[i * q->N + j],
                                &d[i * q->N + j]);
    }
    free(col), free(scol);
    return st;
}

/* One tc_gemm of q with random layouts and the given thread count; D compared with
 * `want` (row-major packed). Returns the status. */
static tc_status run(tk_rng *r, const problem *q, unsigned threads, const uint32_t *want,
                     int use_c)
{
    uint32_t *sa_store = NULL, *sb_store = NULL, *as, *bs, *cs;
    tc_matrix A = place(r, q->a, q->M, q->K, &as), B = place(r, q->b, q->K, q->N, &bs);
    tc_matrix C = place(r, q->c, q->M, q->N, &cs);
    tc_gemm_opts o = {.threads = threads, .simd = q->simd};
    if (q->ns) {
        o.scale_a = place(r, q->sa, q->M, q->ns, &sa_store);
        o.scale_b = place(r, q->sb, q->ns, q->N, &sb_store);
    }
    tc_layout dl = tk_mod(r, 2) ? TC_LAYOUT_COL : TC_LAYOUT_ROW;
    size_t ldd = (dl == TC_LAYOUT_ROW ? q->N : q->M) + 1;
    size_t outer = dl == TC_LAYOUT_ROW ? q->M : q->N;
    uint32_t *d = malloc(outer * ldd * sizeof *d);
    for (size_t i = 0; i < outer * ldd; i++)
        d[i] = 0x5a5a5a5au;
    tc_matrix_out D = {d, dl, ldd};
    tc_status st = tc_gemm(q->p, q->M, q->N, q->K, &A, &B, use_c ? &C : NULL, &D, &o);
    if (st == TC_OK && want) {
        for (size_t i = 0; i < q->M; i++)
            for (size_t j = 0; j < q->N; j++)
                CHECK(d[idx(dl, ldd, i, j)] == want[i * q->N + j],
                      "%s M%zu N%zu K%zu threads %u: d[%zu][%zu] = %08x, dot gives %08x",
                      q->p->name, q->M, q->N, q->K, threads, i, j, d[idx(dl, ldd, i, j)],
                      want[i * q->N + j]);
        for (size_t o2 = 0; o2 < outer; o2++) /* the padding column stays as it was */
            CHECK(d[o2 * ldd + ldd - 1] == 0x5a5a5a5au, "%s: D padding written", q->p->name);
    }
    if (st != TC_OK)
        for (size_t i = 0; i < outer * ldd; i++)
            CHECK(d[i] == 0x5a5a5a5au, "%s: D written on error %d", q->p->name, st);
    free(as), free(bs), free(cs), free(sa_store), free(sb_store), free(d);
    return st;
}

static void errors(tk_rng *r, const problem *q)
{
    const tc_profile *p = q->p;
    /* a too-wide word in the last element of each operand (formats under 32 bits) */
    uint32_t *lists[] = {q->a, q->b, q->c, q->sa, q->sb};
    size_t counts[] = {q->M * q->K, q->K * q->N, q->M * q->N, q->M * q->ns, q->ns * q->N};
    tc_fmt fmts[] = {p->in, p->in_b, p->out, p->scale, p->scale};
    for (int o = 0; o < 5; o++) {
        if (!counts[o] || tc_fmt_get(fmts[o])->width >= 32)
            continue;
        uint32_t keep = lists[o][counts[o] - 1];
        lists[o][counts[o] - 1] = 1u << tc_fmt_get(fmts[o])->width;
        CHECK(run(r, q, 2, NULL, 1) == TC_EFORMAT, "%s: wide word in operand %d", p->name, o);
        lists[o][counts[o] - 1] = keep;
    }
    uint32_t d = 0x5a5a5a5au;
    tc_matrix A = {q->a, TC_LAYOUT_ROW, q->K - 1}, B = {q->b, TC_LAYOUT_ROW, 0};
    tc_matrix_out D = {&d, TC_LAYOUT_ROW, 0};
    tc_gemm_opts o = {.threads = 1, .scale_a = {q->sa, TC_LAYOUT_ROW, 0},
                      .scale_b = {q->sb, TC_LAYOUT_ROW, 0}};
    if (q->K > 1)
        CHECK(tc_gemm(p, 1, 1, q->K, &A, &B, NULL, &D, &o) == TC_EINVAL, "%s: ld < K", p->name);
    A.ld = 0;
    CHECK(tc_gemm(p, 1, 1, q->K, NULL, &B, NULL, &D, &o) == TC_EINVAL, "%s: NULL A", p->name);
    CHECK(tc_gemm(p, 0, 1, q->K, &A, &B, NULL, &D, &o) == TC_EINVAL, "%s: M = 0", p->name);
    tc_matrix bad = {q->a, (tc_layout)7, 0};
    CHECK(tc_gemm(p, 1, 1, q->K, &bad, &B, NULL, &D, &o) == TC_EINVAL, "%s: layout 7", p->name);
    if (q->ns && q->K > 1)
        CHECK(tc_gemm(p, 1, 1, q->K - 1, &A, &B, NULL, &D, &o) == TC_ESHAPE,
              "%s: K not a multiple of the scale block", p->name);
    CHECK(d == 0x5a5a5a5au, "%s: D written by a failed call", p->name);
}

int main(int argc, char **argv)
{
    uint64_t seed = 20261127;
    if (test_one_number("test_gemm_layout", "SEED", argc, argv, UINT64_MAX, &seed))
        return 2;
    enum { REPS = 4 };
    tk_rng r = {seed};
    const tc_profile *rows;
    size_t n = tc_profile_table(&rows);
    for (size_t pi = 0; pi < n; pi++)
        for (unsigned rep = 0; rep < REPS && rows[pi].kind != TC_KIND_FP64;
             rep++) { /* fp64: test_f64 */
            problem q = {.p = &rows[pi]};
            draw(&r, &q);
            uint32_t *want = malloc(q.M * q.N * sizeof *want);
            tc_status st = expected(&q, want);
            CHECK(st == TC_OK, "%s: tc_dot failed: %s", q.p->name, tc_strerror(st));
            if (st == TC_OK)
                for (unsigned t = 0; t <= 4; t++)
                    CHECK(run(&r, &q, t, want, 1) == TC_OK, "%s: tc_gemm failed", q.p->name);
            /* every SIMD path this CPU runs, held to tc_dot the same way */
            for (q.simd = TC_SIMD_PORTABLE; st == TC_OK && q.simd <= TC_SIMD_AVX512; q.simd++)
                if (tc_gemm_simd_available(q.simd))
                    CHECK(run(&r, &q, 2, want, 1) == TC_OK, "%s: tc_gemm simd %u failed",
                          q.p->name, q.simd);
            q.simd = TC_SIMD_AUTO;
            if (rep == 0)
                errors(&r, &q);
            free(want);
            release(&q);
        }
    /* no C: every c is +0 */
    const tc_profile *p;
    if (tc_profile_find(TC_ARCH_AMPERE, TC_INSTR_MMA, TC_FMT_FP16, TC_FMT_FP32, &p) == TC_OK) {
        problem q = {.p = p};
        draw(&r, &q);
        memset(q.c, 0, q.M * q.N * sizeof *q.c);
        uint32_t *want = malloc(q.M * q.N * sizeof *want);
        CHECK(expected(&q, want) == TC_OK, "c = 0 reference");
        CHECK(run(&r, &q, 2, want, 0) == TC_OK, "tc_gemm without C");
        free(want);
        release(&q);
    } else
        CHECK(0, "no ampere mma fp16->fp32 profile");
    printf("%s: %lu checks over %zu profiles, seed %llu\n", failures ? "FAILED" : "PASSED",
           checks, n, (unsigned long long)seed);
    return failures != 0;
}
