/* test_probe_f64 - the probe's fp64 (DMMA) host side without a GPU: the .f64 register
 * fragments of mma.m8n8k4, m16n8k4, m16n8k8 and m16n8k16 against positions worked by
 * hand from the PTX ISA's fragment figures (lane 5 is groupID 1, threadID_in_group 1;
 * an f64 is two registers, low word first), the case families' defining properties, and
 * the files of a canned device's results, read back and held to a chain of C99 fma()
 * calls (the C library's binary64 FMA, not the model's). */
#define _POSIX_C_SOURCE 200809L
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "probe.h"
#include "check.h"

#define SIGN UINT64_C(0x8000000000000000)

static probe_form f64_form(unsigned m, unsigned k)
{
    probe_form f = {TC_INSTR_MMA, 0, m, 8, k, TC_FMT_FP64, TC_FMT_FP64, m == 8 ? 80 : 90, 1, 0,
                    0, TC_FMT_FP64, 0, NULL, TC_FMT_COUNT, 0, 0};
    return f;
}

/* Case j's a[x] and b[x] name their place p = j*32 + x in both words: high word
 * 0xa0000000 | p, low word p; c[j] = 0xc0000000_0000000j. */
static uint64_t place(unsigned j, unsigned x)
{
    uint64_t p = j * 32 + x;
    return (UINT64_C(0xa0000000) | p) << 32 | p;
}

static void fill(unsigned k, uint64_t *a, uint64_t *b, uint64_t *c)
{
    for (unsigned j = 0; j < 8; j++) {
        for (unsigned x = 0; x < k; x++)
            a[j * k + x] = b[j * k + x] = place(j, x);
        c[j] = UINT64_C(0xc000000000000000) | j;
    }
}

/* regs[r], regs[r + 1] hold v (low word first). */
static int pair_is(const uint32_t *regs, unsigned r, uint64_t v)
{
    return regs[r] == (uint32_t)v && regs[r + 1] == (uint32_t)(v >> 32);
}

static void fragments(void)
{
    static uint64_t a[8 * 16], b[8 * 16], c[8], A[16 * 16], B[16 * 8], C[16 * 8], D[16 * 8];
    static uint32_t ar[32 * 16], br[32 * 8], cr[32 * 8], dr[32 * 8];
    probe_frag fr;
    /* m8n8k4: a0 = A[g][t], b0 = B[t][g], c0, c1 = C[g][2t], C[g][2t+1]: one tile */
    probe_form f = f64_form(8, 4);
    CHECK_COND(probe_form_tiles(&f) == 1);
    CHECK_COND(probe_frag_of(&f, &fr) == TC_OK && fr.a_regs == 2 && fr.b_regs == 2 &&
               fr.c_regs == 4 && fr.d_regs == 4);
    fill(4, a, b, c);
    CHECK_COND(probe_frag_pack_f64(&f, a, b, c, ar, br, cr) == TC_OK);
    CHECK_COND(pair_is(ar, 5 * 2, place(1, 1)) && pair_is(br, 5 * 2, place(1, 1)));
    CHECK_COND(pair_is(ar, 29 * 2, place(7, 1)) && pair_is(br, 30 * 2, place(7, 2)));
    CHECK_COND(pair_is(cr, 5 * 4, 0) && pair_is(cr, 5 * 4 + 2, 0)); /* C[1][2..3] */
    CHECK_COND(pair_is(cr, 4 * 4 + 2, c[1]) && pair_is(cr, 0, c[0])); /* C[1][1], C[0][0] */
    CHECK_COND(pair_is(cr, 31 * 4 + 2, c[7]));                       /* C[7][7] */
    /* m16n8k4: a0 = A[g][t], a1 = A[g+8][t]; b0 = B[t][g]; c0..c3 = C[g][2t..2t+1],
     * C[g+8][2t..2t+1] */
    f = f64_form(16, 4);
    CHECK_COND(probe_frag_of(&f, &fr) == TC_OK && fr.a_regs == 4 && fr.b_regs == 2 &&
               fr.c_regs == 8);
    CHECK_COND(probe_frag_pack_f64(&f, a, b, c, ar, br, cr) == TC_OK);
    CHECK_COND(pair_is(ar, 5 * 4, place(1, 1)) && pair_is(ar, 5 * 4 + 2, 0));
    CHECK_COND(pair_is(br, 5 * 2, place(1, 1)) && pair_is(cr, 4 * 8 + 2, c[1]));
    CHECK_COND(pair_is(cr, 4 * 8 + 4, 0) && pair_is(cr, 4 * 8 + 6, 0)); /* rows 9: none */
    /* m16n8k8: a0..a3 = A[g][t], A[g+8][t], A[g][t+4], A[g+8][t+4]; b0, b1 = B[t][g],
     * B[t+4][g] */
    f = f64_form(16, 8);
    fill(8, a, b, c);
    CHECK_COND(probe_frag_of(&f, &fr) == TC_OK && fr.a_regs == 8 && fr.b_regs == 4);
    CHECK_COND(probe_frag_pack_f64(&f, a, b, c, ar, br, cr) == TC_OK);
    CHECK_COND(pair_is(ar, 5 * 8, place(1, 1)) && pair_is(ar, 5 * 8 + 2, 0) &&
               pair_is(ar, 5 * 8 + 4, place(1, 5)) && pair_is(ar, 5 * 8 + 6, 0));
    CHECK_COND(pair_is(br, 5 * 4, place(1, 1)) && pair_is(br, 5 * 4 + 2, place(1, 5)));
    /* m16n8k16: a(2i) = A[g][t + 4i], a(2i+1) = A[g+8][..]; b(i) = B[t + 4i][g] */
    f = f64_form(16, 16);
    fill(16, a, b, c);
    CHECK_COND(probe_frag_of(&f, &fr) == TC_OK && fr.a_regs == 16 && fr.b_regs == 8 &&
               fr.c_regs == 8 && fr.a_regs <= PROBE_MAX_REGS);
    CHECK_COND(probe_frag_pack_f64(&f, a, b, c, ar, br, cr) == TC_OK);
    for (unsigned i = 0; i < 4; i++) {
        CHECK_COND(pair_is(ar, 5 * 16 + 4 * i, place(1, 1 + 4 * i)));
        CHECK_COND(pair_is(ar, 5 * 16 + 4 * i + 2, 0));
        CHECK_COND(pair_is(br, 5 * 8 + 2 * i, place(1, 1 + 4 * i)));
        CHECK_COND(pair_is(ar, 29 * 16 + 4 * i, place(7, 1 + 4 * i)));
    }
    /* the canned device's way back, and D's diagonal */
    probe_frag_unpack_f64(&f, ar, br, cr, A, B, C);
    CHECK_COND(A[3 * 16 + 5] == place(3, 5) && A[12 * 16 + 5] == 0 && B[5 * 8 + 3] == place(3, 5));
    CHECK_COND(C[2 * 8 + 2] == c[2] && C[2 * 8 + 3] == 0);
    for (unsigned i = 0; i < 16 * 8; i++)
        D[i] = UINT64_C(0x4000000000000000) + i * UINT64_C(0x100000001);
    uint64_t d[8];
    probe_frag_pack_d_f64(&f, D, dr);
    probe_frag_diag_f64(&f, dr, d);
    for (unsigned j = 0; j < 8; j++)
        CHECK_COND(d[j] == D[j * 8 + j]);
    /* no f64 packing for a 32-bit form */
    probe_form h = f64_form(16, 16);
    h.in = h.in_b = TC_FMT_FP16;
    h.acc = TC_FMT_FP32;
    CHECK_COND(probe_frag_pack_f64(&h, a, b, c, ar, br, cr) == TC_EUNSUPPORTED);
}

static int exp_of(uint64_t x)
{
    return (int)(x >> 52 & 0x7ff);
}

/* The families (k 16 and 4): what each promises. */
static void cases(void)
{
    uint64_t a[16], b[16], c, a2[16], b2[16], c2;
    int specials = 0, subnormal_c = 0;
    for (size_t i = 0; i < 120; i++) {
        unsigned k = i < 60 ? 16 : 4;
        probe_case_f64(k, 7, i, a, b, &c);
        probe_case_f64(k, 7, i, a2, b2, &c2);
        CHECK_COND(!memcmp(a, a2, k * sizeof *a) && !memcmp(b, b2, k * sizeof *b) && c == c2);
        switch (i % PROBE_FAMILIES) {
        case PROBE_SPECIALS:
            for (unsigned j = 0; j < k; j++)
                specials += exp_of(a[j]) == 0x7ff || exp_of(b[j]) == 0x7ff;
            break;
        case PROBE_CANCEL: { /* a[1]b[1] = -a[0]b[0] exactly */
            double x0, y0, x1, y1;
            memcpy(&x0, &a[0], 8), memcpy(&y0, &b[0], 8), memcpy(&x1, &a[1], 8), memcpy(&y1, &b[1], 8);
            CHECK_COND(a[1] == (a[0] ^ SIGN) && b[1] == b[0] && x1 * y1 == -(x0 * y0));
            break;
        }
        case PROBE_SUBNORMAL: /* normal factors whose exponents sum to -1080..-1020 */
            for (unsigned j = 0; j < k; j++) {
                int e = exp_of(a[j]) + exp_of(b[j]) - 2046;
                CHECK_COND(exp_of(a[j]) && exp_of(b[j]) && e >= -1080 && e <= -1020);
            }
            CHECK_COND(exp_of(c) == 0);
            subnormal_c += c != 0;
            break;
        case PROBE_C_ZERO:
            CHECK_COND(c == 0);
            break;
        case PROBE_FLOOR: /* c = +-0, pairs that cancel */
            CHECK_COND((c & ~SIGN) == 0);
            for (unsigned j = 0; j + 1 < k; j += 2)
                CHECK_COND(a[j + 1] == (a[j] ^ SIGN) && b[j + 1] == b[j]);
            break;
        }
    }
    CHECK_COND(specials > 0 && subnormal_c > 0);
    probe_case_f64(16, 8, 0, a2, b2, &c2);
    probe_case_f64(16, 7, 0, a, b, &c);
    CHECK_COND(memcmp(a, a2, sizeof a) != 0); /* the seed matters */
}

/* d = c, then d = fma(a_x, b_x, d) for x in order, a NaN as the canonical one: the C
 * library's binary64 FMA. */
static uint64_t fma_chain(unsigned k, const uint64_t *a, const uint64_t *b, uint64_t c)
{
    double d, x, y;
    memcpy(&d, &c, 8);
    for (unsigned i = 0; i < k; i++) {
        memcpy(&x, &a[i], 8);
        memcpy(&y, &b[i], 8);
        d = fma(x, y, d);
    }
    uint64_t bits;
    memcpy(&bits, &d, 8);
    return isnan(d) ? TC_F64_NAN : bits;
}

/* The n words of 16 hex digits of dir/name's lines (per a line) into w; the lines read. */
static size_t read_words(const char *dir, const char *name, unsigned per, size_t n, uint64_t *w)
{
    char path[512], line[1024];
    snprintf(path, sizeof path, "%s/%s", dir, name);
    FILE *f = fopen(path, "r");
    size_t lines = 0;
    while (f && fgets(line, sizeof line, f) && lines < n) {
        char *p = line;
        for (unsigned j = 0; j < per; j++) {
            char *end;
            p += j > 0 && *p == ' '; /* one space between words */
            w[lines * per + j] = strtoull(p, &end, 16);
            CHECK_COND(end - p == 16 && (*end == ' ' || *end == '\n'));
            p = end;
        }
        lines++;
    }
    if (f)
        fclose(f);
    return lines;
}

/* Every fp64 form of sm_90: 64 cases through the canned device (the model's
 * tc_mma_tile_f64 behind the fragments), written, read back, held to fma_chain. */
static void canned_files(void)
{
    enum { N = 64 };
    static uint64_t a[N * 16], b[N * 16], c[N], d[N], ra[N * 16], rd[N];
    static uint32_t ar[32 * 16], br[32 * 8], cr[32 * 8], dr[32 * 8];
    char dir[] = "/tmp/test_probe_f64_XXXXXX";
    CHECK_COND(mkdtemp(dir) != NULL);
    const unsigned shapes[4][2] = {{8, 4}, {16, 4}, {16, 8}, {16, 16}};
    for (unsigned s = 0; s < 4; s++) {
        probe_form f = f64_form(shapes[s][0], shapes[s][1]);
        unsigned k = f.k;
        char err[128];
        for (size_t i = 0; i < N; i++)
            probe_case_f64(k, 11, i, a + i * k, b + i * k, c + i);
        for (size_t t = 0; t < N / 8; t++) {
            CHECK_COND(probe_frag_pack_f64(&f, a + t * 8 * k, b + t * 8 * k, c + t * 8, ar, br,
                                           cr) == TC_OK);
            CHECK_COND(probe_dev_mma(&f, 1, ar, br, cr, dr, err, sizeof err) == 0);
            probe_frag_diag_f64(&f, dr, d + t * 8);
        }
        CHECK_COND(probe_write_vectors_f64(dir, "H100", &f, N, a, b, c, d) == 0);
        CHECK_COND(read_words(dir, "a_H100_fp64.txt", k, N, ra) == N &&
                   !memcmp(ra, a, N * k * sizeof *a));
        CHECK_COND(read_words(dir, "d_H100_fp64.txt", 1, N, rd) == N);
        unsigned wrong = 0;
        for (size_t i = 0; i < N; i++)
            wrong += rd[i] != fma_chain(k, a + i * k, b + i * k, c[i]);
        if (wrong)
            printf("m%un8k%u: %u of %d results differ from the fma() chain\n", f.m, k, wrong, N);
        CHECK_COND(wrong == 0);
    }
    const char *files[] = {"a", "b", "c", "d"};
    for (unsigned i = 0; i < 4; i++) {
        char path[512];
        snprintf(path, sizeof path, "%s/%s_H100_fp64.txt", dir, files[i]);
        CHECK_COND(remove(path) == 0);
    }
    CHECK_COND(rmdir(dir) == 0);
}

int main(void)
{
    fragments();
    cases();
    canned_files();
    printf("probe fp64: %lu checks, %d failed\n", checks, failures);
    return failures ? 1 : 0;
}
