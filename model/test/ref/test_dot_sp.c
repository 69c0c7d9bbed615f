/*
 * test_dot_sp.c - mma.sp (tcsim_sparse.h) held against what does not come from its code:
 *   1. tc_dot_sp against the exact reference over the kept products (ref_sparse.c), on
 *      the random cases of test_vs_ref (specials, cancellation, ties, ...) for every
 *      profile with an mma.sp form, with random valid metadata and random bit patterns
 *      (NaN and Inf among them) at B's dropped positions;
 *   2. the selection is real: the dense dot product over all k with zeros in A's dropped
 *      places (and in B's) groups the terms otherwise, and must differ on some cases;
 *   3. the H200's measured mma.sp results (data/vectors/h200/mma_sp_*) through tc_dot_sp
 *      at the dense k, bit-exact, with random and with NaN / maximum values at B's
 *      dropped positions;
 *   4. refusals: invalid metadata, counts, profiles without mma.sp; tc_mma_sp_tile
 *      against tc_dot_sp element by element, and D untouched when it refuses.
 *   test_dot_sp [--seed N] [--cases N]   (cases per profile, default 3000)
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "check.h"
#include "gpu_vectors.h"
#include "gpu_vectors_sparse.h"
#include "ref_sparse.h"
#include "test_args.h"
#include "vs_ref.h"

/* A valid metadata nibble for a chunk of `in`, drawn uniformly. */
static uint32_t random_nibble(rng *r, tc_fmt in)
{
    static const uint8_t pairs[6] = {0x4, 0x8, 0x9, 0xc, 0xd, 0xe}; /* PTX's ascending ones */
    if (in == TC_FMT_TF32)
        return rbelow(r, 2) ? 0xe : 0x4;
    return pairs[rbelow(r, 6)];
}

/* Dense operands of a sparse case: t's k stored products become the kept positions of a
 * dense k = 2 t->k under random metadata; B's dropped positions get `fill` (random bits
 * when fill_random). A's dense form (zeros at the dropped positions) goes to a_dense. */
typedef struct sp_case {
    size_t k;
    uint32_t meta[MAXK / 8 + 1], b[2 * MAXK], a_dense[2 * MAXK], b_zero[2 * MAXK];
} sp_case;

static void make_sparse(rng *r, const tc_profile *p, test_case *t, sp_case *s)
{
    unsigned ch = tc_sp_chunk(p->in), stored = ch / 2;
    while (t->k % stored) { /* whole chunks: pad with zero products (+0 x +0) */
        if (t->k + 1 > MAXK) {
            t->k -= t->k % stored;
            break;
        }
        t->a[t->k] = t->b[t->k] = 0;
        t->k++;
    }
    s->k = 2 * t->k;
    memset(s->meta, 0, sizeof s->meta);
    for (size_t q = 0; q < s->k / ch; q++)
        s->meta[q / 8] |= random_nibble(r, p->in) << (4 * (q % 8));
    size_t kept[MAXK];
    long n = ref_sp_kept(p->in, s->k, s->meta, kept);
    unsigned wb = tc_fmt_get(p->in_b)->width;
    for (size_t x = 0; x < s->k; x++) {
        uint32_t raw = (uint32_t)rnext(r);
        s->b[x] = wb >= 32 ? raw : raw & ((1u << wb) - 1);
        s->a_dense[x] = s->b_zero[x] = 0;
    }
    for (long i = 0; i < n; i++) {
        s->b[kept[i]] = s->b_zero[kept[i]] = t->b[i];
        s->a_dense[kept[i]] = t->a[i];
    }
}

/* Parts 1 and 2 over every row with an mma.sp form. */
static void vs_reference(uint64_t seed, uint64_t cases)
{
    const tc_profile *rows;
    size_t nrows = tc_profile_table(&rows), sparse_rows = 0;
    ref_ctx *w = ref_ctx_new();
    unsigned long regrouped = 0, float_cases = 0;
    CHECK(w != NULL, "ref_ctx_new");
    for (size_t ri = 0; w && ri < nrows; ri++) {
        const tc_profile *p = &rows[ri];
        row_ctx rc;
        if (tc_profile_sparse(p) != TC_OK)
            continue;
        sparse_rows++;
        CHECK(make_row_ctx(p, &rc), "%s: no reference row", p->name);
        if (!make_row_ctx(p, &rc))
            continue;
        rng r;
        rng_seed(&r, seed ^ (0x9e3779b97f4a7c15ull * (ri + 1)));
        unsigned long bad = 0;
        for (uint64_t ci = 0; ci < cases; ci++) {
            test_case t;
            sp_case s;
            gen_case(&r, w, &rc, &t);
            make_sparse(&r, p, &t, &s);
            uint32_t dm = 0, dr = 0, dd = 0;
            tc_status st = tc_dot_sp(p, s.k, t.a, s.meta, s.b, t.c, &dm);
            int rr = ref_dot_sp(w, &rc.rp, s.k, t.a, s.meta, s.b, t.c, &dr);
            if (st != TC_OK || rr != 0 || dm != dr) {
                if (bad++ < 3)
                    CHECK(0, "%s case %" PRIu64 " (%s, k %zu): model %08x (%s), reference "
                             "%08x (%s)", p->name, ci, SC_NAMES[t.sc], s.k, dm,
                          tc_strerror(st), dr, rr ? "refused" : "ok");
                else
                    failures++;
            }
            /* 2: all k, zeros in place: the same products, grouped by dense position */
            if (rc.rp.kind != TC_KIND_INT &&
                tc_dot(p, s.k, s.a_dense, s.b_zero, t.c, &dd) == TC_OK) {
                float_cases++;
                regrouped += dd != dm;
            }
        }
        checks += cases;
    }
    ref_ctx_free(w);
    CHECK(sparse_rows >= 20, "only %zu profiles with an mma.sp form", sparse_rows);
    printf("reference: %zu profiles x %" PRIu64 " cases; dense over all k with zeros in "
           "place differs in %lu of %lu floating-point cases\n", sparse_rows, cases,
           regrouped, float_cases);
    CHECK(regrouped > 0, "the dense dot product with zeros never differs: the selection "
                         "is not shown to matter");
}

/* Part 3: the H200's mma.sp sets. */
static void h200(void)
{
    static gv_set sets[GV_MAX_SETS];
    size_t n = 0, results = 0;
    if (gv_find(TCSIM_DATA_DIR "/vectors/h200", sets, GV_MAX_SETS, &n)) {
        CHECK(0, "cannot read %s", TCSIM_DATA_DIR "/vectors/h200");
        return;
    }
    for (size_t si = 0; si < n; si++) {
        const gv_set *s = &sets[si];
        if (!strstr(s->dir, "mma_sp_"))
            continue;
        const tc_profile *p;
        gv_cases cs;
        gv_sparse sp;
        if (tc_profile_find(TC_ARCH_HOPPER, TC_INSTR_MMA, s->in, s->out, &p) != TC_OK ||
            gv_load(s, &cs)) {
            CHECK(0, "%s %s: no profile or unreadable", s->dir, s->name);
            continue;
        }
        if (gv_sparse_load(s, cs.n, &sp) != 0) {
            CHECK(0, "%s: no sparse_H200.txt", s->dir);
            gv_free(&cs);
            continue;
        }
        size_t k = 2 * cs.k, differ = 0;
        unsigned wb = tc_fmt_get(p->in_b)->width;
        uint32_t fill = (1u << (wb - 1)) - 1; /* NaN of every float input, an int's max */
        for (size_t i = 0; i < cs.n; i++) {
            uint32_t meta[2] = {0}, b[128], d1 = 0, d2 = 0;
            uint32_t nib = sp.keep[2 * i] | (uint32_t)sp.keep[2 * i + 1] << 2;
            for (size_t q = 0; q < k / 4; q++)
                meta[q / 8] |= nib << (4 * (q % 8));
            for (size_t x = 0; x < k; x++)
                b[x] = fill;
            for (size_t x = 0; x < cs.k; x++) /* kept: I and J of each group of four */
                b[x / 2 * 4 + sp.keep[2 * i + x % 2]] = cs.b[i * cs.k + x];
            tc_status s1 = tc_dot_sp(p, k, cs.a + i * cs.k, meta, b, cs.c[i], &d1);
            tc_status s2 = gv_sparse_dot(p, &sp, &cs, i, &d2);
            differ += s1 != TC_OK || s2 != TC_OK || d1 != cs.d[i] || d2 != cs.d[i];
        }
        CHECK(differ == 0, "%s %s: %zu of %zu differ from the H200", s->dir, s->name, differ,
              cs.n);
        results += cs.n;
        gv_sparse_free(&sp);
        gv_free(&cs);
    }
    printf("h200: %zu mma.sp results through tc_dot_sp\n", results);
    CHECK(results == 60000, "expected 60000 H200 mma.sp results, read %zu", results);
}

/* Part 4: refusals and the tile. */
static void refusals_and_tile(void)
{
    const tc_profile *p, *volta, *wg;
    uint32_t a[8] = {0x3c00, 0x4000, 0x3c00, 0x4000, 0x3c00, 0x4000, 0x3c00, 0x4000};
    uint32_t b[16], d = 0x1234, meta;
    for (int i = 0; i < 16; i++)
        b[i] = 0x3c00;
    CHECK_COND(tc_profile_find(TC_ARCH_AMPERE, TC_INSTR_MMA, TC_FMT_FP16, TC_FMT_FP32, &p) ==
               TC_OK);
    /* every nibble PTX calls invalid or leaves undefined (equal or descending indices) */
    unsigned refused = 0;
    for (uint32_t nib = 0; nib < 16; nib++) {
        meta = 0x8808 | nib << 4; /* chunk 1 carries the nibble under test */
        tc_status st = tc_dot_sp(p, 16, a, &meta, b, 0, &d);
        int valid = (nib & 3u) < (nib >> 2);
        CHECK(valid ? st == TC_OK : st == TC_EINVAL, "nibble %x: %s", nib, tc_strerror(st));
        refused += st == TC_EINVAL;
    }
    CHECK(refused == 10, "%u of 16 nibbles refused, expected 10", refused);
    d = 0x1234;
    meta = 0x18888; /* a nibble past the row's 4 chunks */
    CHECK_COND(tc_dot_sp(p, 16, a, &meta, b, 0, &d) == TC_EINVAL && d == 0x1234);
    meta = 0x8888;
    CHECK_COND(tc_dot_sp(p, 6, a, &meta, b, 0, &d) == TC_EINVAL);  /* not whole chunks */
    CHECK_COND(tc_dot_sp(p, 0, a, &meta, b, 0, &d) == TC_EINVAL);
    CHECK_COND(tc_dot_sp(p, 16, a, NULL, b, 0, &d) == TC_EINVAL);
    b[1] = 0x10000; /* a dropped position wider than fp16 */
    CHECK_COND(tc_dot_sp(p, 16, a, &meta, b, 0, &d) == TC_EFORMAT);
    b[1] = 0x3c00;
    /* one product 1*1 per chunk: 0x8888 keeps 0 and 2: 2 * (1 + 2) = 6 per chunk pair */
    CHECK_COND(tc_dot_sp(p, 16, a, &meta, b, 0, &d) == TC_OK && d == 0x41400000); /* 12.0 */
    CHECK_COND(tc_profile_find(TC_ARCH_VOLTA, TC_INSTR_MMA, TC_FMT_FP16, TC_FMT_FP32,
                               &volta) == TC_OK);
    CHECK_COND(tc_dot_sp(volta, 16, a, &meta, b, 0, &d) == TC_EUNSUPPORTED);
    if (tc_profile_find(TC_ARCH_HOPPER, TC_INSTR_WGMMA, TC_FMT_FP16, TC_FMT_FP32, &wg) == TC_OK)
        CHECK_COND(tc_profile_sparse(wg) == TC_EUNSUPPORTED);
    /* tf32: 0x4 and 0xe only */
    const tc_profile *tf;
    CHECK_COND(tc_profile_find(TC_ARCH_AMPERE, TC_INSTR_MMA, TC_FMT_TF32, TC_FMT_FP32, &tf) ==
               TC_OK);
    uint32_t ta[2] = {0x3f800000, 0x40000000}, tb[4] = {0x40400000, 0x40800000, 0x40a00000,
                                                        0x40c00000};
    meta = 0xe4; /* keep k 0 (3.0) and k 3 (6.0): 1*3 + 2*6 = 15 */
    CHECK_COND(tc_dot_sp(tf, 4, ta, &meta, tb, 0, &d) == TC_OK && d == 0x41700000);
    meta = 0x84;
    CHECK_COND(tc_dot_sp(tf, 4, ta, &meta, tb, 0, &d) == TC_EINVAL);
    /* int4: pairs; 0x9 keeps pairs 1 and 2 (k 2,3,4,5) of a chunk of 8 */
    const tc_profile *i4;
    if (tc_profile_find(TC_ARCH_AMPERE, TC_INSTR_MMA, TC_FMT_INT4, TC_FMT_S32, &i4) == TC_OK) {
        uint32_t ia[4] = {1, 2, 3, 4}, ib[8] = {0xf, 0xf, 1, 2, 3, 4, 0xf, 0xf};
        meta = 0x9; /* 1*1 + 2*2 + 3*3 + 4*4 = 30; the dropped -1s take no part */
        CHECK_COND(tc_dot_sp(i4, 8, ia, &meta, ib, 0, &d) == TC_OK && d == 30);
    }
    /* the tile: each element its row's tc_dot_sp; D untouched on a refusal */
    enum { M = 3, N = 2, K = 32 };
    uint32_t A[M * K / 2], E[M], B[K * N], C[M * N], D[M * N], col[K];
    rng r;
    rng_seed(&r, 7);
    for (size_t i = 0; i < M * K / 2; i++)
        A[i] = (uint32_t)rnext(&r) & 0x7fffu & ~0x7c00u; /* finite fp16 */
    for (size_t i = 0; i < K * N; i++)
        B[i] = (uint32_t)rnext(&r) & 0xbfffu & ~0x4000u;
    for (size_t i = 0; i < M * N; i++)
        C[i] = 0x3f800000u;
    for (size_t i = 0; i < M; i++) {
        E[i] = 0;
        for (int q = 0; q < 8; q++)
            E[i] |= random_nibble(&r, TC_FMT_FP16) << (4 * q);
    }
    CHECK_COND(tc_mma_sp_tile(p, M, N, K, A, E, B, C, D) == TC_OK);
    for (size_t j = 0; j < N; j++) {
        for (size_t x = 0; x < K; x++)
            col[x] = B[x * N + j];
        for (size_t i = 0; i < M; i++) {
            uint32_t want = 0;
            CHECK_COND(tc_dot_sp(p, K, A + i * K / 2, E + i, col, C[i * N + j], &want) == TC_OK);
            CHECK(D[i * N + j] == want, "tile (%zu,%zu): %08x, tc_dot_sp %08x", i, j,
                  D[i * N + j], want);
        }
    }
    uint32_t D2[M * N];
    memcpy(D2, D, sizeof D);
    E[2] = 0x88880000u | 0x5; /* row 2: an invalid nibble */
    CHECK_COND(tc_mma_sp_tile(p, M, N, K, A, E, B, C, D) == TC_EINVAL);
    CHECK_COND(!memcmp(D, D2, sizeof D));
}

int main(int argc, char **argv)
{
    uint64_t seed = 1, cases = 3000;
    const test_opt opts[] = {{"--seed", &seed, UINT64_MAX, NULL, NULL},
                             {"--cases", &cases, 1000000, NULL, NULL},
                             {NULL, NULL, 0, NULL, NULL}};
    int rc = test_parse_opts("test_dot_sp", argc, argv, opts,
                             "usage: test_dot_sp [--seed N] [--cases N]\n");
    if (rc != TEST_RUN)
        return rc;
    printf("test_dot_sp: seed %" PRIu64 "\n", seed);
    vs_reference(seed, cases);
    h200();
    refusals_and_tile();
    printf("%lu checks, %d failures: %s\n", checks, failures, failures ? "FAILED" : "PASSED");
    return failures != 0;
}
