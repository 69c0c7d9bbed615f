/* test_batch.c - the batched paths give tc_dot's results bit for bit: tc_dot_batch
 * (lane-parallel kernel) and tc_mma_tile (a column's k-steps through it).
 *
 * tc_dot is the path the A100 vectors and the exact reference check; this holds the
 * batch kernel to it on random cases of every FEDP profile, drawn to include zeros,
 * subnormals, Inf/NaN words, wide exponent spreads, every k from 1 to L and two k
 * beyond L, plus the error contract: a word too wide for its format stops the batch
 * with TC_EFORMAT and n_done = the index of that case. Tiles of every non-scaled
 * profile, with K below, at and beyond L (not a multiple of it), must equal the
 * element-wise tc_dot in k order, and a too-wide word in the last k-step, in the
 * last column's C or in the last row of A, must give TC_EFORMAT and leave D unwritten. */
#include <stdio.h>
#include <stdlib.h>
#include "tcsim.h"
#include "test_args.h"

static uint64_t rng(uint64_t *s)
{
    *s ^= *s << 13;
    *s ^= *s >> 7;
    *s ^= *s << 17;
    return *s;
}

/* A word of format f: 1 in 8 is zero, 1 in 64 has an all-ones exponent, the rest
 * random fields (subnormals included). */
static uint32_t word(uint64_t *s, tc_fmt f)
{
    const tc_fmt_info *fi = tc_fmt_get(f);
    uint64_t r = rng(s);
    uint32_t mask = fi->width >= 32 ? 0xffffffffu : (1u << fi->width) - 1u;
    uint32_t w = (uint32_t)(r >> 16) & mask;
    if ((r & 7) == 0)
        w &= 1u << (fi->width - 1); /* signed zero */
    else if ((r & 63) == 1)
        w |= ((1u << fi->exp_bits) - 1u) << (fi->man_bits + fi->ignore_low);
    return w;
}

/* *word (one of A, B or C) set to `bad`, too wide for its format: the tile must be
 * TC_EFORMAT with D untouched (a failed call leaves its out-pointers as they were).
 * *word is restored. Returns 1 on a failure (printed while fewer than 10 were). */
static long bad_word_case(const tc_profile *p, size_t M, size_t N, size_t K,
                          const uint32_t *A, const uint32_t *B, const uint32_t *C, uint32_t *D,
                          uint32_t *word, uint32_t bad, const char *what, long fails)
{
    uint32_t keep = *word;
    *word = bad;
    for (size_t i = 0; i < M * N; i++)
        D[i] = 0xa5a5a5a5u;
    tc_status st = tc_mma_tile(p, M, N, K, A, B, C, D);
    *word = keep;
    size_t touched = 0;
    for (size_t i = 0; i < M * N; i++)
        touched += D[i] != 0xa5a5a5a5u;
    if (st == TC_EFORMAT && !touched)
        return 0;
    if (fails < 10)
        printf("FAIL %s tile %zux%zux%zu: a bad %s gave %s, %zu D words written\n", p->name, M,
               N, K, what, tc_strerror(st), touched);
    return 1;
}

/* Random tiles of profile p against tc_dot element by element; returns the failures. */
static long check_tiles(const tc_profile *p, uint64_t seed, long *cases)
{
    const size_t L = p->L, shapes[][3] = {{1, 1, 1}, {3, 5, L > 1 ? L - 1 : 1}, {7, 3, L},
                                          {16, 8, 2 * L + 3}, {9, 16, 3 * L}};
    enum { MAXE = 16 * 16 };
    static uint32_t A[MAXE * 3 * 64], B[MAXE * 3 * 64], C[MAXE], D[MAXE];
    long fails = 0;
    for (size_t sh = 0; sh < sizeof shapes / sizeof shapes[0]; sh++) {
        size_t M = shapes[sh][0], N = shapes[sh][1], K = shapes[sh][2];
        uint64_t s = seed + sh;
        for (size_t i = 0; i < M * K; i++)
            A[i] = word(&s, p->in);
        for (size_t i = 0; i < K * N; i++)
            B[i] = word(&s, p->in_b);
        for (size_t i = 0; i < M * N; i++)
            C[i] = word(&s, p->out);
        tc_status st = tc_mma_tile(p, M, N, K, A, B, C, D);
        if (st != TC_OK) {
            printf("FAIL %s tile %zux%zux%zu: %s\n", p->name, M, N, K, tc_strerror(st));
            fails++;
            continue;
        }
        for (size_t i = 0; i < M; i++)
            for (size_t j = 0; j < N; j++, (*cases)++) {
                uint32_t a[3 * 64], b[3 * 64], e = 0;
                for (size_t k = 0; k < K; k++) {
                    a[k] = A[i * K + k];
                    b[k] = B[k * N + j];
                }
                st = tc_dot(p, K, a, b, C[i * N + j], &e);
                if ((st != TC_OK || e != D[i * N + j]) && fails++ < 10)
                    printf("FAIL %s tile %zux%zux%zu (%zu,%zu): tile %08x, tc_dot %08x %s "
                           "(seed %llu)\n", p->name, M, N, K, i, j, D[i * N + j], e,
                           tc_strerror(st), (unsigned long long)seed);
            }
        /* A bad C word in the last column, and a bad word in the last k-step of the
         * last column: TC_EFORMAT, and D as it was (earlier columns were once written
         * before the word was met; C too must be checked before column 0). */
        if (tc_fmt_get(p->out)->width < 32)
            fails += bad_word_case(p, M, N, K, A, B, C, D, &C[M * N - 1],
                                   1u << tc_fmt_get(p->out)->width, "C word", fails);
        if (tc_fmt_get(p->in_b)->width < 32)
            fails += bad_word_case(p, M, N, K, A, B, C, D, &B[(K - 1) * N + N - 1],
                                   1u << tc_fmt_get(p->in_b)->width, "B word", fails);
        if (tc_fmt_get(p->in)->width < 32) {
            /* and A's last word, in the last row: the element-wise profiles (fp8
             * emulation, integer) write column 0's earlier rows before they meet it */
            fails += bad_word_case(p, M, N, K, A, B, C, D, &A[M * K - 1],
                                   1u << tc_fmt_get(p->in)->width, "A word", fails);
        }
    }
    return fails;
}

/* The k of a row's batch cases, 0 after the last: 1 to 4, doubling up to L, then L + 1
 * and 2L, where tc_dot chains steps of L and the batch must too (the lane kernel does
 * one step, so it may only take k <= L). */
static size_t next_k(size_t k, size_t L)
{
    if (k < L)
        return k < 4 ? k + 1 : k * 2;
    return k == L ? L + 1 : k == L + 1 ? 2 * L : 0;
}

int main(int argc, char **argv)
{
    uint64_t seed = 12345;
    if (test_one_number("test_batch", "SEED", argc, argv, UINT64_MAX, &seed))
        return 2;
    enum { N = 4099 }; /* not a multiple of the kernel's lane count */
    const tc_profile *rows;
    size_t nrows = tc_profile_table(&rows);
    uint32_t *a = malloc(N * 64 * sizeof *a), *b = malloc(N * 64 * sizeof *b);
    uint32_t *c = malloc(N * sizeof *c), *d = malloc(N * sizeof *d);
    long fails = 0, cases = 0;
    for (size_t r = 0; a && b && c && d && r < nrows; r++) {
        const tc_profile *p = &rows[r];
        if (p->kind != TC_KIND_FEDP)
            continue;
        for (size_t k = 1; k; k = next_k(k, p->L)) {
            uint64_t s = seed + r * 1000 + k;
            for (size_t i = 0; i < N * k; i++) {
                a[i] = word(&s, p->in);
                b[i] = word(&s, p->in_b);
            }
            for (size_t i = 0; i < N; i++)
                c[i] = word(&s, p->out);
            size_t done = 0;
            tc_status st = tc_dot_batch(p, N, k, a, b, c, d, &done);
            if (st != TC_OK || done != N) {
                printf("FAIL %s k=%zu: batch status %s, done %zu\n", p->name, k,
                       tc_strerror(st), done);
                fails++;
                continue;
            }
            for (size_t i = 0; i < N; i++, cases++) {
                uint32_t e;
                tc_dot(p, k, a + i * k, b + i * k, c[i], &e);
                if (e != d[i] && fails++ < 10)
                    printf("FAIL %s k=%zu case %zu: batch %08x, single %08x (seed %llu)\n",
                           p->name, k, i, d[i], e, (unsigned long long)seed);
            }
            if (tc_fmt_get(p->in)->width < 32) { /* a bad word in case 13 */
                a[13 * k + k - 1] = 1u << tc_fmt_get(p->in)->width;
                st = tc_dot_batch(p, N, k, a, b, c, d, &done);
                if (st != TC_EFORMAT || done != 13) {
                    printf("FAIL %s k=%zu: bad word gave %s, done %zu (expected 13)\n",
                           p->name, k, tc_strerror(st), done);
                    fails++;
                }
            }
        }
    }
    for (size_t r = 0; r < nrows; r++)
        if (rows[r].kind != TC_KIND_MX && rows[r].kind != TC_KIND_MXF4 &&
            rows[r].kind != TC_KIND_FP64) /* 64-bit words: test_f64 */
            fails += check_tiles(&rows[r], seed + 7919 * r, &cases);
    free(a); free(b); free(c); free(d);
    printf("%ld cases, %s\n", cases, fails ? "FAILED" : "PASSED");
    return fails ? 1 : 0;
}
