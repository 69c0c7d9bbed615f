/* test_tc_mma.c - a whole Volta warp instruction (wmma.mma m16n16k16 and mma.m8n8k4)
 * through fragments and HMMA sets and steps == an element-wise chain of tc_dot in k
 * order 0..K-1, for directed and random A, B, C, every layout, both modes.
 *
 * tc_dot is the documented arithmetic (docs/contract.md: a k > L dot product is cut into
 * consecutive blocks of L = 4, each step rounded); the instruction reaches each output
 * through the fragment mapping, the octets' buffers and four HMMA sets. A wrong lane, a
 * wrong register pair, a wrong B half or sets out of k order all change some element. */
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "tcsim.h"
#include "test_random.h"
#include "test_args.h"

static int fails;

/* D of one instruction against tc_dot, element by element. */
static void check_case(const char *what, const tc_hmma_cfg *cfg, const uint32_t *A,
                       const uint32_t *B, const uint32_t *C)
{
    unsigned M, N, K, T;
    tc_shape_dims(cfg->shape, &M, &N, &K, &T);
    uint32_t D[4 * 256];
    tc_status st = tc_volta_mma(cfg, A, B, C, D);
    if (st != TC_OK) {
        printf("FAIL %s: tc_volta_mma: %s\n", what, tc_strerror(st));
        fails++;
        return;
    }
    const tc_profile *p;
    tc_profile_find(TC_ARCH_VOLTA, TC_INSTR_MMA, TC_FMT_FP16, cfg->acc, &p);
    for (unsigned t = 0; t < T; t++)
        for (unsigned i = 0; i < M; i++)
            for (unsigned j = 0; j < N; j++) {
                uint32_t d = tile_dot_ref(p, M, N, K, A, B, C, t, i, j);
                uint32_t got = D[(t * M + i) * N + j];
                if (got != d && fails++ < 20)
                    printf("FAIL %s (%s, A %s, B %s, acc %s): tile %u D(%u,%u) = %08x, chain of "
                           "tc_dot %08x\n", what, tc_shape_name(cfg->shape),
                           tc_layout_name(cfg->a_layout), tc_layout_name(cfg->b_layout),
                           tc_fmt_get(cfg->acc)->name, t, i, j, got, d);
            }
}

static void fill(uint32_t *x, size_t n, uint32_t (*gen)(void))
{
    for (size_t i = 0; i < n; i++)
        x[i] = gen();
}

static int g_wild;
static tc_fmt g_acc;
static uint32_t gen_in(void) { return rnd_fp16(g_wild); }
static uint32_t gen_acc(void) { return rnd_acc(g_acc, g_wild); }

int main(int argc, char **argv)
{
    uint64_t rounds = 20;
    if (test_one_number("test_tc_mma", "ROUNDS", argc, argv, UINT_MAX, &rounds))
        return 2;
    rng = 0x9e3779b97f4a7c15u;
    uint32_t A[4 * 256], B[4 * 256], C[4 * 256];
    unsigned cases = 0;
    for (unsigned ci = 0; ci < TK_HMMA_CFGS; ci++) {
        tc_hmma_cfg cfg = tk_hmma_cfg(ci);
        int acc = cfg.acc == TC_FMT_FP16, sh = cfg.shape;
        g_acc = cfg.acc;
        /* directed: zeros with C = -0 (a zero sum is +0); 1*1 sums (exact
         * small integers); Inf * 0 (NaN) in one place; huge products
         * (fp16 overflow to Inf); subnormal products; and ordered magnitudes
         * whose value depends on the k order (below) */
        uint32_t negz = acc ? 0x8000u : 0x80000000u;
        for (unsigned i = 0; i < 1024; i++) {
            A[i] = 0;
            B[i] = 0x3c00;
            C[i] = negz;
        }
        check_case("zeros, C = -0", &cfg, A, B, C);
        for (unsigned i = 0; i < 1024; i++) {
            A[i] = i % 3 ? 0x3c00 : 0xbc00;
            C[i] = acc ? 0x3c00 : 0x3f800000;
        }
        A[5] = 0x7c00;
        B[17] = 0;
        check_case("+-1 sums, one Inf * 0", &cfg, A, B, C);
        for (unsigned i = 0; i < 1024; i++) {
            A[i] = 0x7bff;
            B[i] = i % 2 ? 0x7bff : 0x5800;
        }
        check_case("huge products", &cfg, A, B, C);
        for (unsigned i = 0; i < 1024; i++) {
            A[i] = 0x0001 + i % 7;
            B[i] = i % 5 ? 0x0200 : 0x8400;
            C[i] = acc ? 0x0003 : 0x00000100;
        }
        check_case("subnormal products", &cfg, A, B, C);
        /* k slice 0 holds 2^10 products, the later slices 2^-13: each HMMA
         * rounds, so the sum depends on the order of the sets */
        for (unsigned i = 0; i < 1024; i++) {
            unsigned k = i % 16; /* A is MxK row-major: i % K is k (K = 16) */
            A[i] = sh == 0 ? (k < 4 ? 0x6400 : 0x0800) : 0x3c00;
            B[i] = 0x3c00 | (i % 3);
            C[i] = acc ? 0x0000 : 0x00000000;
        }
        check_case("k-ordered magnitudes", &cfg, A, B, C);
        cases += 5;
        for (uint64_t r = 0; r < rounds; r++) {
            g_wild = r % 4 == 3;
            fill(A, 1024, gen_in);
            fill(B, 1024, gen_in);
            fill(C, 1024, gen_acc);
            check_case(g_wild ? "random (every class)" : "random", &cfg, A, B, C);
            cases++;
        }
    }

    /* The k-ordered case is a real check of the order: summed in reverse (the sets
     * backwards), the chain gives another result. */
    {
        const tc_profile *p;
        tc_profile_find(TC_ARCH_VOLTA, TC_INSTR_MMA, TC_FMT_FP16, TC_FMT_FP32, &p);
        uint32_t a[16], b[16], ar[16], br[16], d1, d2;
        for (unsigned k = 0; k < 16; k++) {
            a[k] = k < 4 ? 0x6400 : 0x0800;
            b[k] = 0x3c00 | (k % 3);
            ar[15 - k] = a[k];
            br[15 - k] = b[k];
        }
        tc_dot(p, 16, a, b, 0, &d1);
        tc_dot(p, 16, ar, br, 0, &d2);
        if (d1 == d2) {
            printf("FAIL the k-ordered case does not depend on the order (%08x)\n", d1);
            fails++;
        }
    }
    /* Bad arguments */
    tc_hmma_cfg bad = {TC_SHAPE_M16N16K16, TC_LAYOUT_ROW, TC_LAYOUT_ROW, TC_FMT_FP32};
    if (tc_volta_mma(&bad, A, B, NULL, C) != TC_EINVAL) {
        printf("FAIL NULL C accepted\n");
        fails++;
    }
    A[3] = 0x12345; /* wider than fp16: the arithmetic refuses it */
    if (tc_volta_mma(&bad, A, B, C, C) != TC_EFORMAT) {
        printf("FAIL a 17-bit A element accepted\n");
        fails++;
    }
    /* An HMMA that meets such an element writes no accumulator (its steps run as one
     * batch, and the batch's error comes before any write). */
    {
        tc_warp_frags w;
        memset(&w, 0, sizeof w);
        for (unsigned l = 0; l < TC_WARP_LANES; l++)
            for (unsigned e = 0; e < TC_FRAG_MAX; e++) {
                w.a[l][e] = w.b[l][e] = 0x3c00;
                w.c[l][e] = 0x3f800000u + l;
            }
        w.a[12][0] = 0x12345; /* threadgroup 3: after octets 0-2 */
        tc_warp_frags before = w;
        if (tc_hmma_exec(&bad, 0, 0, &w, NULL, NULL) != TC_EFORMAT ||
            memcmp(w.c, before.c, sizeof w.c)) {
            printf("FAIL an HMMA with a 17-bit A element: not TC_EFORMAT, or accumulators "
                   "written\n");
            fails++;
        }
    }
    printf("%s: %u instructions, %d failure(s)\n", fails ? "FAILED" : "PASSED", cases, fails);
    return fails != 0;
}
