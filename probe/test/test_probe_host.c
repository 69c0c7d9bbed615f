/* test_probe_host - the probe's host side without a GPU: the register fragments against
 * positions worked by hand from the PTX ISA's fragment figures for mma.m16n8k16 (.f16),
 * m16n8k8 (.tf32) and m16n8k32 (.e4m3) (lane 5 is groupID 1, threadID_in_group 1), the
 * case families' defining properties, and the form lists of four targets. */
#include <stdio.h>
#include <string.h>
#include "probe.h"
#include "check.h"


static probe_form form(unsigned k, tc_fmt in, tc_fmt acc)
{
    probe_form f = {TC_INSTR_MMA, 0, 16, 8, k, in, acc, 80, 1, 1};
    return f;
}

/* Case j's a[x] and b[x] name their place: j*32 + x (8 bits and up); c[j] = j + 1. */
static void fill(unsigned k, uint32_t *a, uint32_t *b, uint32_t *c)
{
    for (unsigned j = 0; j < 8; j++) {
        for (unsigned x = 0; x < k; x++)
            a[j * k + x] = b[j * k + x] = j * 32 + x;
        c[j] = 0x3f800000u + (j << 23); /* 1, 2, 4, ... in fp32 */
    }
}

static void fragments(void)
{
    uint32_t a[8 * 32], b[8 * 32], c[8], ar[32 * 8], br[32 * 8], cr[32 * 8];
    /* fp16 k16: a0,a1 = A[g][2t], A[g][2t+1]; a4,a5 = A[g][2t+8..9]; b0,b1 =
     * B[2t][g], B[2t+1][g]; b2,b3 = B[2t+8..9][g]; c0,c1 = C[g][2t..2t+1] */
    probe_form f = form(16, TC_FMT_FP16, TC_FMT_FP32);
    fill(16, a, b, c);
    CHECK_COND(probe_frag_pack(&f, a, b, c, ar, br, cr) == TC_OK);
    CHECK_COND(ar[5 * 4 + 0] == (35u << 16 | 34u));      /* A[1][3], A[1][2] */
    CHECK_COND(ar[5 * 4 + 1] == 0);                      /* row 9: no case */
    CHECK_COND(ar[5 * 4 + 2] == (43u << 16 | 42u));      /* A[1][11], A[1][10] */
    CHECK_COND(ar[29 * 4 + 0] == (227u << 16 | 226u));   /* lane 29: A[7][3], A[7][2] */
    CHECK_COND(br[5 * 2 + 0] == (35u << 16 | 34u));      /* B[3][1], B[2][1] */
    CHECK_COND(br[5 * 2 + 1] == (43u << 16 | 42u));      /* B[11][1], B[10][1] */
    CHECK_COND(cr[4 * 4 + 1] == c[1] && cr[4 * 4 + 0] == 0 && cr[0] == c[0]);
    CHECK_COND(cr[13 * 4 + 1] == c[3]);                  /* C[3][3] */
    /* the canned device's way back, and D's diagonal */
    uint32_t A[16 * 32], B[32 * 8], C[16 * 8], dr[32 * 8], d[8];
    probe_frag_unpack_ab(&f, ar, br, cr, A, B, C);
    CHECK_COND(A[3 * 16 + 5] == 3 * 32 + 5 && A[12 * 16 + 5] == 0 && B[5 * 8 + 3] == 3 * 32 + 5);
    CHECK_COND(C[2 * 8 + 2] == c[2] && C[2 * 8 + 3] == 0);
    for (unsigned i = 0; i < 16 * 8; i++)
        C[i] = 1000 + i;
    probe_frag_pack_d(&f, C, dr);
    probe_frag_diag(&f, dr, d);
    for (unsigned j = 0; j < 8; j++)
        CHECK_COND(d[j] == 1000 + j * 8 + j);
    /* fp16 accumulator: c0,c1 in one register, low half first */
    f = form(16, TC_FMT_FP16, TC_FMT_FP16);
    CHECK_COND(probe_frag_pack(&f, a, b, c, ar, br, cr) == TC_OK);
    CHECK_COND(cr[4 * 2 + 0] == (0x4000u << 16)); /* C[1][0] = 0, C[1][1] = 2.0 (fp16 4000) */
    /* tf32 k8: a0 = A[g][t], a2 = A[g][t+4]; b0 = B[t][g], b1 = B[t+4][g] */
    f = form(8, TC_FMT_TF32, TC_FMT_FP32);
    fill(8, a, b, c);
    CHECK_COND(probe_frag_pack(&f, a, b, c, ar, br, cr) == TC_OK);
    CHECK_COND(ar[5 * 4 + 0] == 33 && ar[5 * 4 + 1] == 0 && ar[5 * 4 + 2] == 37);
    CHECK_COND(br[5 * 2 + 0] == 33 && br[5 * 2 + 1] == 37);
    /* e4m3 k32: a0..a3 = A[g][4t..4t+3], a8..a11 = A[g][4t+16..]; b0..b3 = B[4t..][g],
     * b4..b7 = B[4t+16..][g] */
    f = form(32, TC_FMT_E4M3, TC_FMT_FP32);
    fill(32, a, b, c);
    CHECK_COND(probe_frag_pack(&f, a, b, c, ar, br, cr) == TC_OK);
    CHECK_COND(ar[5 * 4 + 0] == 0x27262524u && ar[5 * 4 + 2] == 0x37363534u && ar[5 * 4 + 1] == 0);
    CHECK_COND(br[5 * 2 + 0] == 0x27262524u && br[5 * 2 + 1] == 0x37363534u);
}

static void cases(void)
{
    uint32_t a[16], b[16], c, a2[16], b2[16], c2;
    for (size_t i = 0; i < 50; i++) {
        probe_case(TC_FMT_FP16, 16, 7, i, a, b, &c);
        probe_case(TC_FMT_FP16, 16, 7, i, a2, b2, &c2);
        CHECK_COND(!memcmp(a, a2, sizeof a) && !memcmp(b, b2, sizeof b) && c == c2);
        for (unsigned j = 0; j < 16; j++)
            CHECK_COND(a[j] <= 0xffff && b[j] <= 0xffff);
        switch (i % PROBE_FAMILIES) {
        case PROBE_CANCEL:
            CHECK_COND(a[1] == (a[0] ^ 0x8000u) && b[1] == b[0]);
            break;
        case PROBE_SUBNORMAL:
            for (unsigned j = 0; j < 16; j++)
                CHECK_COND((a[j] >> 10 & 0x1f) <= 2 && (b[j] >> 10 & 0x1f) <= 2);
            break;
        case PROBE_C_ZERO:
            CHECK_COND(c == 0);
            break;
        case PROBE_FLOOR: /* c = +-0; 2^e and its tie half-ulp, of one sign, then 2^t */
            CHECK_COND((c & 0x7fffffffu) == 0 && a[3] == 0 && b[3] == 0);
            CHECK_COND(a[0] != 0 && (a[0] ^ a[1]) >> 15 == 0);
            break;
        }
    }
    probe_case(TC_FMT_FP16, 16, 7, 0, a, b, &c);
    probe_case(TC_FMT_FP16, 16, 8, 0, a2, b2, &c2);
    CHECK_COND(memcmp(a, a2, sizeof a) != 0); /* the seed matters */
    probe_case(TC_FMT_TF32, 8, 7, 0, a, b, &c);
    for (unsigned j = 0; j < 8; j++)
        CHECK_COND((a[j] & 0x1fff) == 0); /* tf32's ignored bits are clear */
}

/* Whether target sm lists form op with in/acc. */
static int listed(unsigned sm, tc_instr instr, unsigned m, unsigned n, unsigned k, tc_fmt in,
                  tc_fmt acc)
{
    static probe_form fs[512];
    size_t nf = probe_forms(sm, fs, 512);
    for (size_t i = 0; i < nf && i < 512; i++)
        if (fs[i].instr == instr && !fs[i].sparse && fs[i].m == m && fs[i].n == n &&
            fs[i].k == k && fs[i].in == in && fs[i].acc == acc)
            return 1;
    return 0;
}

static void forms(void)
{
    CHECK_COND(listed(80, TC_INSTR_MMA, 16, 8, 16, TC_FMT_FP16, TC_FMT_FP32));
    CHECK_COND(listed(80, TC_INSTR_MMA, 16, 8, 8, TC_FMT_TF32, TC_FMT_FP32));
    CHECK_COND(!listed(80, TC_INSTR_MMA, 16, 8, 32, TC_FMT_E4M3, TC_FMT_FP32));
    CHECK_COND(listed(89, TC_INSTR_MMA, 16, 8, 32, TC_FMT_E4M3, TC_FMT_FP32));
    CHECK_COND(!listed(89, TC_INSTR_WGMMA, 64, 256, 16, TC_FMT_FP16, TC_FMT_FP32));
    CHECK_COND(listed(90, TC_INSTR_WGMMA, 64, 256, 16, TC_FMT_FP16, TC_FMT_FP32));
    CHECK_COND(listed(90, TC_INSTR_WGMMA, 64, 8, 32, TC_FMT_E4M3, TC_FMT_FP32));
    CHECK_COND(listed(100, TC_INSTR_TCGEN05, 128, 256, 16, TC_FMT_BF16, TC_FMT_FP32));
    CHECK_COND(!listed(100, TC_INSTR_WGMMA, 64, 256, 16, TC_FMT_FP16, TC_FMT_FP32));
    CHECK_COND(probe_forms(60, NULL, 0) == 0);
}

int main(void)
{
    fragments();
    cases();
    forms();
    printf("probe host: %lu checks, %d failed\n", checks, failures);
    return failures ? 1 : 0;
}
