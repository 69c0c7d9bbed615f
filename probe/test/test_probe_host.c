/* test_probe_host - the probe's host side without a GPU: the register fragments against
 * positions worked by hand from the PTX ISA's fragment figures for mma.m16n8k16 (.f16),
 * m16n8k8 (.tf32, .f16), m16n8k4 (.tf32), m16n8k32 (.e4m3), m8n8k16 (.s8), m8n8k4
 * (.f16), m16n8k64 (.s4), m16n8k256 and m8n8k128 (.b1) (lane 5 is groupID 1,
 * threadID_in_group 1), the case families' defining properties (float and integer), the
 * form lists of four targets and their coverage of the PTX target table, and
 * tcgen05.mma's tiles. */
#include <stdio.h>
#include <string.h>
#include "probe.h"
#include "check.h"
#include "probe_kinds.h"
#include "tcsim_timing.h"


static probe_form form(unsigned k, tc_fmt in, tc_fmt acc)
{
    probe_form f = {TC_INSTR_MMA, 0, 16, 8, k, in, acc, 80, 1, 1, 0, in, 0, NULL, TC_FMT_COUNT, 0, 0};
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

/* Every case's a[x] = b[x] = x mod 3 (0, 1, 2: an int4, uint4 or b1 value where x mod
 * 3 < 2 for b1: a[x] = (x mod 3 == 0)); c[j] = j. */
static void fill_mod3(unsigned k, int b1, uint32_t *a, uint32_t *b, uint32_t *c)
{
    for (unsigned j = 0; j < 8; j++) {
        for (unsigned x = 0; x < k; x++)
            a[j * k + x] = b[j * k + x] = b1 ? x % 3 == 0 : x % 3;
        c[j] = j;
    }
}

/* Issue 33's sub-byte layouts (PTX ISA, "Matrix fragments for mma.m16n8k64" (.s4/.u4)
 * and "mma.m16n8k256" (.b1)), lane 5 (g 1, t 1) and lane 4 (t 0), worked by hand. */
static void fragments_subbyte(void)
{
    static uint32_t a[8 * 256], b[8 * 256], c[8], ar[32 * 8], br[32 * 8], cr[32 * 8];
    /* int4 k64: a0..a7 = A[g][8t..8t+7] (nibble i element i), a8..a15 row g+8,
     * a16..a23 = A[g][8t+32..]; b0..b7 = B[8t..8t+7][g], b8..b15 = B[8t+32..][g].
     * Lane 5: cols 8..15 are 2,0,1,2,0,1,2,0 (0x02102102), cols 40..47 1,2,0,1,2,0,1,2
     * (0x21021021) */
    probe_form f = form(64, TC_FMT_INT4, TC_FMT_S32);
    fill_mod3(64, 0, a, b, c);
    CHECK_COND(probe_frag_pack(&f, a, b, c, ar, br, cr) == TC_OK);
    CHECK_COND(ar[5 * 4 + 0] == 0x02102102u && ar[5 * 4 + 1] == 0);
    CHECK_COND(ar[5 * 4 + 2] == 0x21021021u && ar[5 * 4 + 3] == 0);
    CHECK_COND(br[5 * 2 + 0] == 0x02102102u && br[5 * 2 + 1] == 0x21021021u);
    /* lane 4: cols 0..7 are 0,1,2,0,1,2,0,1 (0x10210210) */
    CHECK_COND(ar[4 * 4 + 0] == 0x10210210u && br[4 * 2 + 0] == 0x10210210u);
    CHECK_COND(cr[4 * 4 + 1] == c[1] && cr[5 * 4 + 0] == 0);
    /* b1 k256: a0..a31 = A[g][32t..32t+31] (bit i element i), a32..a63 row g+8,
     * a64..a95 = A[g][32t+128..]; b0..b31 = B[32t..][g], b32..b63 = B[32t+128..][g].
     * Lane 5: cols 32..63 have x mod 3 = 0 at bits 1, 4, .., 31 (0x92492492), cols
     * 160..191 at bits 2, 5, .., 29 (0x24924924); lane 4's cols 0..31 at bits 0, 3, ..
     * (0x49249249) */
    f = form(256, TC_FMT_B1, TC_FMT_S32);
    f.op = TC_KIND_POPC_AND;
    fill_mod3(256, 1, a, b, c);
    CHECK_COND(probe_frag_pack(&f, a, b, c, ar, br, cr) == TC_OK);
    CHECK_COND(ar[5 * 4 + 0] == 0x92492492u && ar[5 * 4 + 1] == 0);
    CHECK_COND(ar[5 * 4 + 2] == 0x24924924u && ar[5 * 4 + 3] == 0);
    CHECK_COND(br[5 * 2 + 0] == 0x92492492u && br[5 * 2 + 1] == 0x24924924u);
    CHECK_COND(ar[4 * 4 + 0] == 0x49249249u);
    /* b1 m8n8k128: one register, a0..a31 = A[g][32t..], b0..b31 = B[32t..][g] */
    f.m = 8;
    f.k = 128;
    fill_mod3(128, 1, a, b, c);
    CHECK_COND(probe_frag_pack(&f, a, b, c, ar, br, cr) == TC_OK);
    CHECK_COND(ar[5] == 0x92492492u && br[5] == 0x92492492u && ar[4] == 0x49249249u);
    /* the way back (the canned device's) */
    uint32_t A[8 * 128], B[128 * 8], C[8 * 8];
    probe_frag_unpack_ab(&f, ar, br, cr, A, B, C);
    CHECK_COND(A[3 * 128 + 99] == 1 && A[3 * 128 + 100] == 0 && B[99 * 8 + 3] == 1);
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
    /* fp16 k8: a0,a1 = A[g][2t..2t+1], a2,a3 = A[g+8][..]; b0,b1 = B[2t..2t+1][g] */
    f = form(8, TC_FMT_FP16, TC_FMT_FP32);
    fill(8, a, b, c);
    CHECK_COND(probe_frag_pack(&f, a, b, c, ar, br, cr) == TC_OK);
    CHECK_COND(ar[5 * 2 + 0] == (35u << 16 | 34u) && ar[5 * 2 + 1] == 0);
    CHECK_COND(ar[29 * 2 + 0] == (227u << 16 | 226u) && br[5] == (35u << 16 | 34u));
    /* tf32 k4: a0 = A[g][t], a1 = A[g+8][t]; b0 = B[t][g] */
    f = form(4, TC_FMT_TF32, TC_FMT_FP32);
    fill(4, a, b, c);
    CHECK_COND(probe_frag_pack(&f, a, b, c, ar, br, cr) == TC_OK);
    CHECK_COND(ar[5 * 2 + 0] == 33 && ar[5 * 2 + 1] == 0 && br[5] == 33);
    /* int8 m8n8k16: a0..a3 = A[g][4t..4t+3]; b0..b3 = B[4t..4t+3][g]; c0,c1 =
     * C[g][2t..2t+1], an s32 c as it is */
    f = form(16, TC_FMT_INT8, TC_FMT_S32);
    f.m = 8;
    fill(16, a, b, c);
    CHECK_COND(probe_frag_pack(&f, a, b, c, ar, br, cr) == TC_OK);
    CHECK_COND(ar[5] == 0x27262524u && br[5] == 0x27262524u);
    CHECK_COND(cr[4 * 2 + 1] == c[1] && cr[4 * 2 + 0] == 0 && cr[5 * 2 + 0] == 0);
    /* fp16 m8n8k4 (row A, col B): quad-pair 0 is lanes 0-3 and 16-19, tile 0, the only
     * one the cases use; lane 16 + i holds row 4 + i of A and column 4 + i of B */
    f = form(4, TC_FMT_FP16, TC_FMT_FP32);
    f.m = 8;
    fill(4, a, b, c);
    CHECK_COND(probe_frag_pack(&f, a, b, c, ar, br, cr) == TC_OK);
    CHECK_COND(ar[17 * 2 + 0] == (161u << 16 | 160u) && ar[17 * 2 + 1] == (163u << 16 | 162u));
    CHECK_COND(br[17 * 2 + 0] == (161u << 16 | 160u) && br[17 * 2 + 1] == (163u << 16 | 162u));
    CHECK_COND(ar[4 * 2 + 0] == 0 && br[8 * 2 + 1] == 0); /* tiles 1 and 2 */
    /* mma.sp m16n8k16 fp16, pattern 1 (keep 0 and 2 of every 4): A compressed in the
     * layout of a dense k8 A (lane 5: A[1][4], A[1][6]), then the metadata word (index
     * 0 | 2 << 2 = 0x8 a group); B as the dense k16's; back to the dense A unchanged */
    f = form(16, TC_FMT_FP16, TC_FMT_FP32);
    f.sparse = 1;
    fill(16, a, b, c);
    probe_sparsify(&f, 1, 8, a);
    CHECK_COND(a[1 * 16 + 5] == 0 && a[1 * 16 + 6] == 38 && a[1 * 16 + 7] == 0);
    CHECK_COND(probe_frag_pack_sp(&f, 1, a, b, c, ar, br, cr) == TC_OK);
    CHECK_COND(ar[5 * 3 + 0] == (38u << 16 | 36u) && ar[5 * 3 + 2] == 0x88888888u);
    CHECK_COND(ar[5 * 3 + 1] == 0 && br[5 * 2 + 0] == (35u << 16 | 34u));
    CHECK_COND(probe_sp_meta(0) == 0x44444444u && probe_sp_meta(5) == 0xeeeeeeeeu);
    probe_frag_unpack_ab(&f, ar, br, cr, A, B, C);
    CHECK_COND(A[1 * 16 + 4] == 36 && A[1 * 16 + 5] == 0 && A[1 * 16 + 6] == 38 &&
               A[7 * 16 + 14] == 7 * 32 + 14 && A[7 * 16 + 15] == 0);
    uint32_t D8[8 * 8], d8[8];
    for (unsigned i = 0; i < 64; i++)
        D8[i] = 500 + i;
    probe_frag_pack_d(&f, D8, dr);
    probe_frag_diag(&f, dr, d8);
    for (unsigned j = 0; j < 8; j++)
        CHECK_COND(d8[j] == 500 + j * 8 + j);
}

/* The integer families: what each promises (int8, k 32). */
static void int_cases(void)
{
    uint32_t a[32], b[32], c;
    for (size_t i = 0; i < 60; i++) {
        probe_case(TC_FMT_INT8, 32, 3, i, a, b, &c);
        int64_t s = (int32_t)c;
        for (unsigned j = 0; j < 32; j++) {
            CHECK_COND(a[j] <= 0xff && b[j] <= 0xff);
            s += (int64_t)(int8_t)a[j] * (int8_t)b[j];
        }
        switch (i % PROBE_FAMILIES) {
        case PROBE_CANCEL:
            CHECK_COND((int8_t)a[0] * (int8_t)b[0] + (int8_t)a[1] * (int8_t)b[1] == 0);
            break;
        case PROBE_SUBNORMAL: /* the exact sum leaves the s32 range */
            CHECK_COND(s > INT32_MAX || s < INT32_MIN);
            break;
        case PROBE_C_ZERO:
            CHECK_COND(c == 0);
            break;
        }
    }
    probe_case(TC_FMT_UINT8, 32, 3, PROBE_SUBNORMAL, a, b, &c);
    CHECK_COND(a[0] == 0xff && b[31] == 0xff);
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
    /* cases are not each other's values shifted (the streams of cases i and i + 2 once
     * overlapped, two draws apart): no 4 consecutive draws of a random-family case
     * appear in another's (uint8: every draw's low 8 bits) */
    enum { K = 32, NC = 40 };
    static uint32_t ra[NC][K], rb[NC][K];
    uint32_t rc;
    for (unsigned i = 0; i < NC; i++)
        probe_case(TC_FMT_UINT8, K, 1, i * PROBE_FAMILIES, ra[i], rb[i], &rc);
    unsigned shifted = 0;
    for (unsigned i = 0; i < NC; i++)
        for (unsigned j = 0; j < NC; j++)
            for (unsigned x = 0; i != j && x + 4 <= K; x++)
                for (unsigned y = 0; y + 4 <= K; y++)
                    shifted += !memcmp(&ra[i][x], &ra[j][y], 4 * sizeof(uint32_t));
    CHECK_COND(shifted == 0);
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
    /* every mma form of sm_90 has a numerics kernel, but mma.sp with tf32 (1:2
     * sparsity) and int4 (kept pairs): timing only; every one-format form a timing
     * kernel */
    static probe_form fs[512];
    size_t nf = probe_forms(90, fs, 512), dense = 0, b1 = 0, mixed = 0, f64 = 0;
    for (size_t i = 0; i < nf; i++)
        if (fs[i].instr == TC_INSTR_MMA) {
            CHECK_COND(fs[i].numerics == !(fs[i].sparse && (fs[i].in == TC_FMT_TF32 ||
                                                            fs[i].in == TC_FMT_INT4 ||
                                                            fs[i].in == TC_FMT_UINT4)));
            CHECK_COND(fs[i].timing == !(fs[i].mixed || fs[i].op || fs[i].in == TC_FMT_FP64));
            dense += !fs[i].sparse;
            f64 += fs[i].in == TC_FMT_FP64;
            b1 += fs[i].in == TC_FMT_B1;
            mixed += (size_t)fs[i].mixed;
        }
    /* 24 one-format (the m16n8k4..k32, m8n8k16 and m8n8k4 shapes; Hopper's profiles
     * have no int4), 6 b1 (and, xor at m8n8k128, m16n8k128, m16n8k256), 6 int8 pairs
     * (3 shapes both ways), 8 e4m3 x e5m2 (2 shapes, both ways, 2 accumulators), 4 fp64
     * (m8n8k4, m16n8k4/k8/k16: numerics only); mma.sp adds 4 int8 and 2 fp8 pairs */
    CHECK_COND(dense == 24 + 6 + 6 + 8 + 4 && b1 == 6 && mixed == 6 + 8 + 6 && f64 == 4);
    CHECK_COND(listed(80, TC_INSTR_MMA, 8, 8, 4, TC_FMT_FP64, TC_FMT_FP64) &&
               !listed(80, TC_INSTR_MMA, 16, 8, 16, TC_FMT_FP64, TC_FMT_FP64) &&
               listed(100, TC_INSTR_MMA, 16, 8, 16, TC_FMT_FP64, TC_FMT_FP64));
    /* sm_100's tcgen05.mma: numerics at m128n16 for the kinds of PK_TC_FORMS and
     * PK_TC_SCALED, timing for every N of fp16 -> fp32 and N = 256 of each one-format
     * kind; the mixed pairs and block-scaled kinds at N = 16 only, numerics only */
    nf = probe_forms(100, fs, 512);
    size_t tc_num = 0, tc_time = 0, f6f4 = 0, pairs = 0, scaled = 0, pair2 = 0;
    for (size_t i = 0; i < nf; i++) {
        const probe_form *f = &fs[i];
        if (f->instr != TC_INSTR_TCGEN05)
            continue;
        if (f->pair) { /* the CTA pair's m256n32 of each one-format kind with a 32-bit
                          accumulator (numerics; fp16's timing too), fp16's m256n256 */
            int f16 = f->in == TC_FMT_FP16;
            CHECK_COND(f->m == 256 && !f->mixed && !f->kind && f->timing == f16 &&
                       f->numerics == (f->n == 32) && probe_kind(f) >= 0 &&
                       PK_IS_TC_PAIR(probe_kind(f)) &&
                       (f->acc == TC_FMT_FP32 || f->acc == TC_FMT_S32));
            CHECK_COND(!f16 || probe_kind(f) == PK_TC2_F16_F32);
            pair2 += f->n == 32 ? 1 : f->n == 256 && f16 ? 100 : 1000;
            continue;
        }
        CHECK_COND(f->m == 128 && f->sm == 100);
        CHECK_COND(f->numerics == (f->n == 16 && probe_kind(f) >= 0));
        tc_num += (size_t)f->numerics;
        tc_time += (size_t)f->timing;
        if (!f->mixed && !f->kind &&
            (f->in == TC_FMT_E3M2 || f->in == TC_FMT_E2M3 || f->in == TC_FMT_E2M1))
            f6f4 += (size_t)(f->numerics && f->k == 32);
        if (f->mixed) {
            CHECK_COND(f->n == 16 && f->numerics && !f->timing && f->in_b != f->in);
            pairs++;
        }
        if (f->kind) {
            CHECK_COND(f->n == 16 && f->numerics && !f->timing && f->acc == TC_FMT_FP32);
            CHECK_COND(f->k == (strcmp(f->kind, "mxf8f6f4") ? 64u : 32u) &&
                       f->block == (strcmp(f->kind, "mxf4nvf4") ? 32u : 16u));
            scaled++;
        }
        if (f->n == 16 && f->in == TC_FMT_FP16 && f->acc == TC_FMT_FP32)
            CHECK_COND(f->numerics && f->timing && f->k == 16);
        if (f->n == 256 && f->in == TC_FMT_TF32)
            CHECK_COND(f->timing && !f->numerics && f->k == 8);
        if (f->n == 64 && f->in == TC_FMT_BF16)
            CHECK_COND(!f->timing && !f->numerics);
    }
    /* fp16 (two accumulators), bf16, tf32, e4m3, e5m2, e3m2, e2m3 and e2m1 (two each),
     * int8, uint8; the 20 ordered pairs of distinct f8f6f4 formats with two accumulators
     * and kind::i8's 2 signedness pairs; mxf8f6f4 of the 5 formats and their 20 pairs,
     * mxf4, and mxf4nvf4 with ue8m0 and ue4m3 */
    CHECK_COND(f6f4 == 6 && pairs == 40 + 2 + 20 && scaled == 8 + 20);
    /* the pair: fp16, bf16, tf32, e4m3, e5m2, e3m2, e2m3, e2m1 -> fp32, int8 and uint8
     * -> s32 at m256n32; fp16's m256n256 */
    CHECK_COND(pair2 == 10 + 100);
    CHECK_COND(tc_num == 16 + 40 + 2 + 8 + 20);
    probe_form mx = {TC_INSTR_TCGEN05, 0, 128, 16, 64, TC_FMT_E2M1, TC_FMT_FP32, 100, 1, 0,
                     0, TC_FMT_E2M1, 0, "mxf4nvf4", TC_FMT_UE4M3, 16, 0};
    CHECK_COND(probe_kind(&mx) == PK_TCS_NVF4_UE4M3);
    mx.block = 32;
    CHECK_COND(probe_kind(&mx) == -1); /* the model has no such row, nor the table */
    probe_form pair = {TC_INSTR_TCGEN05, 0, 128, 16, 32, TC_FMT_E2M1, TC_FMT_FP16, 100, 1, 0,
                       1, TC_FMT_E3M2, 0, NULL, TC_FMT_COUNT, 0, 0};
    CHECK_COND(probe_kind(&pair) == PK_TC_E2M1xE3M2_F16);
    char in[32];
    probe_form_in(&pair, in, sizeof in);
    CHECK_COND(!strcmp(in, "e2m1xe3m2"));
    probe_form_in(&mx, in, sizeof in);
    CHECK_COND(!strcmp(in, "e2m1.ue4m3"));
    CHECK_COND(tc_time == 16 + 4); /* N = 256 of the 16, and fp16 -> fp32's N 16..128 */
}

/* Every mma and mma.sp row of the PTX target table up to target sm is in its list
 * (tcsim-probe --list --sm NN prints probe_forms), with a numerics kernel, and a timing
 * kernel where it is one format; and every wgmma (sm_90) and tcgen05.mma (sm_100)
 * profile of the arch has a numerics form. The exceptions, named:
 *  - wmma rows: the same arithmetic as mma's of the same formats (wmma's fragments are
 *    opaque, so no case can be placed in them); the probe runs the mma forms;
 *  - mma.sp with tf32 (1:2) and with int4/uint4 (kept pairs of elements): metadata
 *    rules of their own that probe_frag.c's 2:4 patterns do not write: timing only;
 *  - sm_90's and sm_100's int4 rows: the profile table has no Hopper or Blackwell
 *    int4 mma (int8 alone there), so the probe has nothing to hold them to;
 *  - pairs, b1 and fp64 have no timing: a pair runs at its formats' rate, and the
 *    timing model has no b1 op and no fp64 one. */
static void ptx_coverage(void)
{
    static const unsigned sms[] = {80, 89, 90, 100};
    static probe_form fs[1024];
    for (size_t s = 0; s < sizeof sms / sizeof sms[0]; s++) {
        unsigned sm = sms[s];
        size_t nf = probe_forms(sm, fs, 1024);
        CHECK_COND(nf > 0 && nf <= 1024);
        tc_ptx_instr r;
        unsigned f64 = 0; /* the PTX table's fp64 rows: m8n8k4 from sm_80, 3 more at sm_90 */
        for (size_t i = 0; tc_ptx_instr_get(i, &r) == TC_OK; i++) {
            if (r.sm > sm || r.form == TC_PTX_WMMA)
                continue;
            f64 += r.in == TC_FMT_FP64;
            int sp = r.form == TC_PTX_MMA_SP, found = 0;
            probe_form key = {TC_INSTR_MMA, sp, r.m, r.n, r.k, r.in, r.acc, r.sm, 0, 0,
                              r.in_b != r.in, r.in_b, r.op, NULL, TC_FMT_COUNT, 0, 0};
            const tc_profile *q;
            if (probe_profile(probe_arch_of_sm(sm), &key, &q) != TC_OK) {
                /* a row the arch's profile table lacks has nothing to check against:
                 * only Hopper's and Blackwell's int4 (the table keeps int8 alone) */
                if (!(sm >= 90 && tc_fmt_get(r.in)->width == 4))
                    printf("sm_%u: PTX row %zu has no profile\n", sm, i);
                CHECK_COND(sm >= 90 && tc_fmt_get(r.in)->width == 4);
                continue;
            }
            for (size_t j = 0; j < nf; j++) {
                const probe_form *f = &fs[j];
                if (f->instr != TC_INSTR_MMA || f->sparse != sp || f->m != r.m ||
                    f->n != r.n || f->k != r.k || f->in != r.in || probe_fmt_b(f) != r.in_b ||
                    f->acc != r.acc || f->op != r.op)
                    continue;
                found++;
                int sp_rule = sp && (r.in == TC_FMT_TF32 || tc_fmt_get(r.in)->width == 4);
                CHECK_COND(f->numerics == !sp_rule && probe_kind(f) >= 0);
                CHECK_COND(f->timing == !(r.in_b != r.in || r.op || r.in == TC_FMT_FP64));
                CHECK_COND(f->mixed == (r.in_b != r.in));
            }
            if (found != 1)
                printf("sm_%u: PTX row %zu (%s m%un%uk%u %s x %s -> %s) listed %d times\n", sm,
                       i, tc_ptx_form_name(r.form), r.m, r.n, r.k, tc_fmt_get(r.in)->name,
                       tc_fmt_get(r.in_b)->name, tc_fmt_get(r.acc)->name, found);
            CHECK_COND(found == 1);
        }
        CHECK_COND(f64 == (sm >= 90 ? 4u : 1u));
        tc_arch arch = probe_arch_of_sm(sm);
        tc_instr async = sm == 90 ? TC_INSTR_WGMMA : sm == 100 ? TC_INSTR_TCGEN05 : TC_INSTR_COUNT;
        const tc_profile *rows;
        size_t np = tc_profile_table(&rows);
        for (size_t i = 0; async != TC_INSTR_COUNT && i < np; i++) {
            const tc_profile *p = &rows[i], *q;
            if (p->arch != arch || p->instr != async)
                continue;
            int found = 0;
            for (size_t j = 0; j < nf; j++)
                found += fs[j].instr == async && !fs[j].pair && fs[j].numerics &&
                         probe_profile(arch, &fs[j], &q) == TC_OK && q == p;
            if (found != 1)
                printf("sm_%u: profile %s has %d numerics forms\n", sm, p->name, found);
            CHECK_COND(found == 1);
        }
    }
}

/* A tcgen05.mma m128n16's tiles: case j is row j of A (128 x k), column j of B (k x 16)
 * and C[j][j]; rows 16.. of A and the rest of C zero; D's diagonal read back. */
static void tcgen05_tiles(void)
{
    probe_form f = {TC_INSTR_TCGEN05, 0, 128, 16, 32, TC_FMT_E4M3, TC_FMT_FP32, 100, 1, 1,
                    0, TC_FMT_E4M3, 0, NULL, TC_FMT_COUNT, 0, 0};
    static uint32_t a[16 * 32], b[16 * 32], c[16], A[128 * 32], B[32 * 16], C[128 * 16];
    uint32_t d[16];
    for (unsigned j = 0; j < 16; j++) {
        for (unsigned x = 0; x < 32; x++)
            a[j * 32 + x] = b[j * 32 + x] = (j * 32 + x) & 0x77; /* finite e4m3 */
        c[j] = 0x3f800000u + (j << 23);
    }
    CHECK_COND(probe_tile_pack(&f, a, b, c, A, B, C) == TC_OK);
    CHECK_COND(A[15 * 32 + 31] == ((15 * 32 + 31) & 0x77) && A[16 * 32] == 0 &&
               A[127 * 32 + 5] == 0);
    CHECK_COND(B[5 * 16 + 3] == ((3 * 32 + 5) & 0x77) && B[31 * 16 + 15] == ((15 * 32 + 31) & 0x77));
    CHECK_COND(C[15 * 16 + 15] == c[15] && C[15 * 16 + 14] == 0 && C[16 * 16 + 0] == 0);
    for (unsigned i = 0; i < 128 * 16; i++)
        C[i] = 7000 + i;
    probe_tile_diag(&f, C, d);
    for (unsigned j = 0; j < 16; j++)
        CHECK_COND(d[j] == 7000 + j * 16 + j);
    /* an fp16 accumulator gets c rounded to fp16: 1.0 is 0x3c00 */
    f.acc = TC_FMT_FP16;
    CHECK_COND(probe_tile_pack(&f, a, b, c, A, B, C) == TC_OK && C[0] == 0x3c00);
    /* no tile for mma.sync, nor for a form without a numerics kernel */
    f.instr = TC_INSTR_MMA;
    CHECK_COND(probe_tile_pack(&f, a, b, c, A, B, C) == TC_EUNSUPPORTED);
    f.instr = TC_INSTR_TCGEN05;
    f.numerics = 0;
    CHECK_COND(probe_tile_pack(&f, a, b, c, A, B, C) == TC_EUNSUPPORTED);
}

/* The record is calibrated on m16n8k16 fp16 -> fp32 even where other mma points come
 * first (on Hopper, m8n8k4 and fp8 mma.sync are emulations whose cycles say nothing
 * of the tensor core's depth): measured = the h100 record's prediction with depth + 3,
 * a point before it 40 cycles off. */
/* probe_write_record's text (record `name`) for the points into buf: 0, or -1. */
static int write_record(const char *name, const probe_gpu *gpu, const probe_point *pts,
                        size_t n, char *buf, size_t size)
{
    FILE *f = tmpfile();
    if (!f || probe_write_record(f, name, gpu, pts, n) != 0) {
        if (f)
            fclose(f);
        return -1;
    }
    rewind(f);
    size_t got = fread(buf, 1, size - 1, f);
    fclose(f);
    buf[got] = 0;
    return 0;
}

static void record(void)
{
    tc_gpu_timing g;
    tc_bench_result b;
    probe_gpu gpu = {"NVIDIA H100", "test", 90, 132, 1830};
    probe_point pts[2] = {{form(8, TC_FMT_FP16, TC_FMT_FP32), 1, 1, 100, 0},
                          {form(16, TC_FMT_FP16, TC_FMT_FP32), 1, 1, 100, 0}};
    CHECK_COND(tc_gpu_timing_find("h100", &g) == TC_OK);
    g.depth += 3;
    tc_mma_op k8 = {16, 8, 8, TC_FMT_FP16, TC_FMT_FP32, 0}, k16 = {16, 8, 16, TC_FMT_FP16, TC_FMT_FP32, 0};
    CHECK_COND(tc_bench_mma(&g, &k8, 1, 1, 100, &b) == TC_OK);
    pts[0].cycles = b.cycles + 40 * 100;
    CHECK_COND(tc_bench_mma(&g, &k16, 1, 1, 100, &b) == TC_OK);
    pts[1].cycles = b.cycles;
    char buf[8192] = {0};
    CHECK_COND(write_record("h100", &gpu, pts, 2, buf, sizeof buf) == 0);
    char want[32];
    snprintf(want, sizeof want, " depth %u ", g.depth);
    CHECK_COND(strstr(buf, want) != NULL);
}

/* The issue keys from the H200's own measurement (data/vectors/h200/timing.txt: cycles
 * per iteration, 100 iterations here): m16n8k16 fp16 takes 96.5 cycles at 16 warps x
 * ILP 4 (16 instructions a sub-core: 6 each, 4 of beats), m16n8k8 66.0 (4: 2 of
 * beats), m8n8k16 int8 64.7 (4: 1 of beats, the floor), mma.sp m16n8k16 97.5 (6: 2 of
 * kept beats) and m16n8k32 130.6 (8: 4), fp8 mma.sync 190.8 and 279.1 (the fp16
 * emulation, 12 and 17). The record must say ii_extra 2, sparse_ii_extra 2, ii_min 4,
 * and the emulation must not pass for a floor when m8n8k16 is not there. */
static void record_h200(void)
{
    probe_gpu gpu = {"NVIDIA H200", "test", 90, 132, 1980};
    probe_form sp16 = form(16, TC_FMT_FP16, TC_FMT_FP32), sp32 = form(32, TC_FMT_FP16, TC_FMT_FP32);
    probe_form m8 = form(16, TC_FMT_INT8, TC_FMT_S32);
    sp16.sparse = sp32.sparse = 1;
    m8.m = 8;
    probe_point pts[] = {
        {form(16, TC_FMT_FP16, TC_FMT_FP32), 1, 1, 100, 2470},
        {form(16, TC_FMT_FP16, TC_FMT_FP32), 16, 4, 100, 9650},
        {form(8, TC_FMT_FP16, TC_FMT_FP32), 16, 4, 100, 6600},
        {form(16, TC_FMT_E4M3, TC_FMT_FP32), 16, 4, 100, 19080},
        {form(32, TC_FMT_E4M3, TC_FMT_FP32), 16, 4, 100, 27910},
        {sp16, 16, 4, 100, 9750},
        {sp32, 16, 4, 100, 13060},
        {m8, 16, 4, 100, 6470}, /* last: left out below */
    };
    size_t n = sizeof pts / sizeof pts[0];
    for (int with_floor = 1; with_floor >= 0; with_floor--) {
        char buf[8192] = {0};
        tc_gpu_timing r;
        CHECK_COND(write_record("h200", &gpu, pts, n - !with_floor, buf, sizeof buf) == 0);
        CHECK_COND(tc_gpu_timing_parse(buf, "h200", &r) == TC_OK);
        unsigned marks = 0;
        for (unsigned i = 0; tc_gpu_timing_key(i); i++)
            if (!strcmp(tc_gpu_timing_key(i), "ii_extra") ||
                !strcmp(tc_gpu_timing_key(i), "sparse_ii_extra") ||
                !strcmp(tc_gpu_timing_key(i), "ii_min") || !strcmp(tc_gpu_timing_key(i), "depth"))
                marks |= r.uncalibrated & 1u << i;
        CHECK_COND(r.depth == 13 && r.ii_extra == 2 && r.sparse_ii_extra == 2 && r.ii_min == 4);
        /* without m8n8k16 nothing measures the floor: ii_min keeps the built-in mark */
        CHECK_COND(with_floor ? marks == 0 : marks != 0);
    }
}

/* The shared-memory rows of kind::f8f6f4's fp6 and fp4 and of mxf4, worked by hand from
 * the PTX ISA's packing figures: e2m1 elements 3, 0xa, 1, 0xf, then zeros, pack into
 * bytes 0xa3, 0xf1 and 0 up to byte 7, bytes 8..15 padding; e3m2 0x3f, 0x01, 0x2a, zeros:
 * the bit stream 0x3f | 0x01 << 6 | 0x2a << 12 is bytes 0x7f, 0xa0, 0x02; mxf4's packed
 * e2m1 (every other element of x: stride 2) 3, 0xa, 1, 0xf -> 0xa3, 0xf1; e4m3 as it is. */
static void smem_bytes(void)
{
    uint32_t x[32] = {3, 0xa, 1, 0xf}, y[32] = {0x3f, 0x01, 0x2a}, out[32];
    CHECK_COND(probe_smem_row(TC_FMT_E2M1, 0, x, 32, 1, out) == 32);
    CHECK_COND(out[0] == 0xa3 && out[1] == 0xf1 && out[2] == 0 && out[8] == 0 && out[15] == 0);
    x[16] = 0x7; /* the second group's first element: byte 16 */
    CHECK_COND(probe_smem_row(TC_FMT_E2M1, 0, x, 32, 1, out) == 32 && out[16] == 0x07);
    CHECK_COND(probe_smem_row(TC_FMT_E3M2, 0, y, 32, 1, out) == 32);
    CHECK_COND(out[0] == 0x7f && out[1] == 0xa0 && out[2] == 0x02 && out[3] == 0 && out[12] == 0);
    y[15] = 0x3f; /* element 15: bits 90..95, byte 11's bits 2..7 (0xfc); byte 12 pads */
    CHECK_COND(probe_smem_row(TC_FMT_E2M3, 0, y, 16, 1, out) == 16 && out[11] == 0xfc &&
               out[12] == 0);
    const uint32_t p[8] = {3, 9, 0xa, 9, 1, 9, 0xf, 9};
    CHECK_COND(probe_smem_row(TC_FMT_E2M1, 1, p, 4, 2, out) == 2 && out[0] == 0xa3 && out[1] == 0xf1);
    const uint32_t e[2] = {0xab, 0x01};
    CHECK_COND(probe_smem_row(TC_FMT_E4M3, 0, e, 2, 1, out) == 2 && out[0] == 0xab && out[1] == 1);
}

/* Scale factors: near 1 (ue8m0 123..131, ue4m3 0x18..0x58: 2^-4 .. 2^4), the extremes
 * only in cases 7 mod 8; a case's draw repeats, A's and B's differ. */
static void scales(void)
{
    int ends = 0, differ = 0;
    for (size_t i = 0; i < 64; i++) {
        uint32_t s[4], t[4], u[4];
        probe_scales(TC_FMT_UE8M0, 5, i, 0, 4, s);
        probe_scales(TC_FMT_UE8M0, 5, i, 0, 4, t);
        probe_scales(TC_FMT_UE4M3, 5, i, 1, 4, u);
        for (unsigned j = 0; j < 4; j++) {
            CHECK_COND(s[j] == t[j]);
            int near8 = s[j] >= 123 && s[j] <= 131, near4 = u[j] >= 0x18 && u[j] <= 0x58;
            CHECK_COND(i % 8 == 7 || (near8 && near4));
            ends += !near8 || !near4;
        }
        probe_scales(TC_FMT_UE8M0, 5, i, 1, 4, t);
        differ += memcmp(s, t, sizeof s) != 0;
    }
    CHECK_COND(ends > 0 && differ > 32);
}

int main(void)
{
    smem_bytes();
    scales();
    record();
    record_h200();
    fragments();
    fragments_subbyte();
    cases();
    int_cases();
    forms();
    ptx_coverage();
    tcgen05_tiles();
    printf("probe host: %lu checks, %d failed\n", checks, failures);
    return failures ? 1 : 0;
}
