/* probe_frag.c - the register fragments of mma.sync m16n8kK, m8n8k16 and m8n8k4 (PTX
 * ISA, "Matrix fragments for mma.m16n8k4/k8/k16/k32", "mma.m8n8k16", "mma.m8n8k4"):
 * which element of A, B, C and D each lane holds in each register. The kernels only move
 * registers; the layout lives here, in one place, so that the canned device of the tests
 * runs the same mapping backwards. */
#include <string.h>
#include "probe.h"
#include "tcsim_tc.h"

enum { MAX_M = 16, MAX_N = 8, MAX_K = 256 }; /* k: b1 m16n8k256 */

/* Bits of one input element in a register. */
static unsigned ebits(tc_fmt in)
{
    return in == TC_FMT_TF32 ? 32 : tc_fmt_get(in)->width;
}

static unsigned acc_bits(const probe_form *f)
{
    return f->acc == TC_FMT_FP16 ? 16 : f->acc == TC_FMT_FP64 ? 64 : 32;
}

/* mma.m8n8k4 computes four independent 8 x 8 x 4 tiles, one per quad-pair, in the
 * layout the model's Volta fragments hold (tc_frag_map: seed 002's PTX fragments);
 * the probe's cases use tile 0. */
static int is_m8n8k4(const probe_form *f)
{
    return probe_form_tiles(f) == 4;
}

typedef enum { OP_A, OP_B, OP_C } operand;

/* Columns of A in its registers: mma.sp holds A compressed, 2 of every 4. */
static unsigned a_cols(const probe_form *f)
{
    return f->sparse ? f->k / 2 : f->k;
}

/* Elements of an operand in each lane. */
static unsigned elems(const probe_form *f, operand op)
{
    unsigned tiles = probe_form_tiles(f);
    unsigned rows = op == OP_B ? f->k : f->m, cols = op == OP_A ? a_cols(f) : f->n;
    return tiles * rows * cols / PROBE_LANES;
}

/* mma.sp's 2:4 patterns: pattern p keeps elements keep[p][0] < keep[p][1] of every
 * four consecutive k. One pattern a whole instruction, in every lane's metadata, so
 * that the metadata's own fragment layout does not matter. */
static const unsigned char keep[PROBE_SP_PATTERNS][2] = {{0, 1}, {0, 2}, {0, 3},
                                                          {1, 2}, {1, 3}, {2, 3}};

uint32_t probe_sp_meta(unsigned pattern)
{
    const unsigned char *kp = keep[pattern % PROBE_SP_PATTERNS];
    uint32_t nibble = kp[0] | (uint32_t)kp[1] << 2, w = 0;
    for (int i = 0; i < 8; i++)
        w |= nibble << 4 * i;
    return w;
}

void probe_sp_compress(const probe_form *f, unsigned pattern, size_t n, uint32_t *x)
{
    const unsigned char *kp = keep[pattern % PROBE_SP_PATTERNS];
    for (size_t i = 0; i < n * f->k / 2; i++) /* writes never pass the reads */
        x[i] = x[i / 2 * 4 + kp[i % 2]];
}

void probe_sp_kept(unsigned pattern, unsigned *first, unsigned *second)
{
    *first = keep[pattern % PROBE_SP_PATTERNS][0];
    *second = keep[pattern % PROBE_SP_PATTERNS][1];
}

void probe_sparsify(const probe_form *f, unsigned pattern, size_t n, uint32_t *a)
{
    const unsigned char *kp = keep[pattern % PROBE_SP_PATTERNS];
    for (size_t x = 0; x < n * f->k; x++)
        if (x % 4 != kp[0] && x % 4 != kp[1])
            a[x] = 0;
}

tc_status probe_frag_of(const probe_form *f, probe_frag *out)
{
    if (!f->numerics || f->instr != TC_INSTR_MMA || f->m > MAX_M || f->n != MAX_N ||
        f->k > MAX_K)
        return TC_EUNSUPPORTED;
    out->a_regs = elems(f, OP_A) * ebits(f->in) / 32 + (f->sparse ? 1 : 0); /* + metadata */
    out->b_regs = elems(f, OP_B) * ebits(f->in) / 32;
    out->c_regs = out->d_regs = elems(f, OP_C) * acc_bits(f) / 32;
    return TC_OK;
}

/* Element i of a lane's fragment of op: its row and column in the tile (A m x k, B
 * k x n, C and D m x n). 0 for an element of another tile (m8n8k4's tiles 1..3). The
 * m16n8kK layouts are the PTX ISA's "Matrix fragments for mma.m16n8kK" (groupID g =
 * lane / 4, threadID_in_group t = lane % 4), m8n8k16's, m8n8k32's and m8n8k128's its
 * figures of those shapes (one register of A and of B: the same rule's first step).
 * Every width follows one rule over the e elements of a register (32 tf32, 16-bit,
 * 8-bit, 4-bit and 1-bit: e = 1, 2, 4, 8, 32); fp64's .f64 fragments are tf32's rule
 * with an f64 register for a 32-bit one (e = 1; m8n8k4's A is (g, t), B (t, g), C/D
 * (g, 2t..2t+1): the m16n8 rule's first rows). */
static int pos(const probe_form *f, operand op, unsigned lane, unsigned i, unsigned *row,
               unsigned *col)
{
    unsigned g = lane >> 2, t = lane & 3, eb = ebits(f->in);
    if (is_m8n8k4(f)) {
        tc_frag_spec s = {TC_ARCH_VOLTA, TC_SHAPE_M8N8K4, (tc_operand)op,
                          op == OP_B ? TC_LAYOUT_COL : TC_LAYOUT_ROW, f->acc};
        tc_frag_elem e;
        if (tc_frag_map(&s, lane, i, &e) != TC_OK)
            return 0;
        *row = e.row;
        *col = e.col;
        return e.tile == 0;
    }
    /* e elements a register; A's registers walk k in steps of e (a step of 4e after
     * two registers, the second holding rows g + 8), B's walk k down column g */
    unsigned e = eb >= 32 ? 1 : 32 / eb;
    if (op == OP_C) {
        *row = g + 8 * (i >> 1);
        *col = t * 2 + (i & 1);
    } else if (op == OP_B) {
        *col = g;
        *row = t * e + i % e + 4 * e * (i / e);
    } else {
        *row = g + 8 * (i / e & 1);
        *col = t * e + i % e + 4 * e * (i / (2 * e));
    }
    return 1;
}

/* Moves the elements of op between a tile (row stride `stride`; tile64 for fp64's
 * binary64 elements, else tile) and registers (nregs a lane): to_regs 1 packs (elements
 * of other tiles become 0), 0 unpacks (they are skipped). An fp64 element takes two
 * registers, its low word first. */
static void walk(const probe_form *f, operand op, int to_regs, uint32_t *regs, unsigned nregs,
                 uint32_t *tile, uint64_t *tile64, unsigned stride)
{
    unsigned bits = op == OP_C ? acc_bits(f) : ebits(f->in), per = bits > 32 ? 1 : 32 / bits;
    unsigned ne = elems(f, op);
    uint32_t mask = bits >= 32 ? 0xffffffffu : (1u << bits) - 1u;
    for (unsigned lane = 0; lane < PROBE_LANES; lane++)
        for (unsigned i = 0; i < ne; i++) {
            unsigned row = 0, col = 0;
            int mine = pos(f, op, lane, i, &row, &col);
            if (tile64) {
                uint32_t *pair = &regs[lane * nregs + 2 * i];
                uint64_t v = mine ? tile64[row * stride + col] : 0;
                if (to_regs) {
                    pair[0] = (uint32_t)v;
                    pair[1] = (uint32_t)(v >> 32);
                } else if (mine) {
                    tile64[row * stride + col] = pair[0] | (uint64_t)pair[1] << 32;
                }
                continue;
            }
            uint32_t *reg = &regs[lane * nregs + i / per];
            unsigned sh = (i % per) * bits;
            if (to_regs)
                *reg = (*reg & ~(mask << sh)) | (mine ? tile[row * stride + col] & mask : 0) << sh;
            else if (mine)
                tile[row * stride + col] = *reg >> sh & mask;
        }
}

/* Cases [0, f->n) into an m x k A, a k x n B and an m x n C (f->m, f->n): case j is row
 * j of A, column j of B and C[j][j], converted to the accumulator format RNE. */
static tc_status tiles(const probe_form *f, const uint32_t *a, const uint32_t *b, const uint32_t *c,
                       uint32_t *A, uint32_t *B, uint32_t *C)
{
    memset(A, 0, f->m * f->k * sizeof *A);
    memset(B, 0, f->k * f->n * sizeof *B);
    memset(C, 0, f->m * f->n * sizeof *C);
    for (unsigned j = 0; j < f->n; j++) {
        for (unsigned x = 0; x < f->k; x++) {
            A[j * f->k + x] = a[j * f->k + x];
            B[x * f->n + j] = b[j * f->k + x];
        }
        /* c is an fp32 pattern for the float accumulators, an s32 one for s32 */
        tc_status st = tc_fmt_get(f->acc)->cls == TC_CLASS_INT
                           ? (C[j * f->n + j] = c[j], TC_OK)
                           : tc_convert_rne(TC_FMT_FP32, c[j], f->acc, &C[j * f->n + j]);
        if (st != TC_OK)
            return st;
    }
    return TC_OK;
}

tc_status probe_tile_pack(const probe_form *f, const uint32_t *a, const uint32_t *b,
                          const uint32_t *c, uint32_t *A, uint32_t *B, uint32_t *C)
{
    if (f->instr == TC_INSTR_MMA || !f->numerics)
        return TC_EUNSUPPORTED;
    return tiles(f, a, b, c, A, B, C);
}

void probe_tile_diag(const probe_form *f, const uint32_t *D, uint32_t *d)
{
    for (unsigned j = 0; j < f->n; j++)
        d[j] = D[j * f->n + j];
}

tc_status probe_frag_pack_sp(const probe_form *f, unsigned pattern, const uint32_t *a,
                             const uint32_t *b, const uint32_t *c, uint32_t *a_regs,
                             uint32_t *b_regs, uint32_t *c_regs)
{
    probe_frag fr;
    tc_status st = probe_frag_of(f, &fr);
    if (st != TC_OK)
        return st;
    uint32_t A[MAX_M * MAX_K], B[MAX_K * MAX_N], C[MAX_M * MAX_N];
    if ((st = tiles(f, a, b, c, A, B, C)) != TC_OK)
        return st;
    memset(a_regs, 0, PROBE_LANES * fr.a_regs * sizeof *a_regs);
    memset(b_regs, 0, PROBE_LANES * fr.b_regs * sizeof *b_regs);
    memset(c_regs, 0, PROBE_LANES * fr.c_regs * sizeof *c_regs);
    if (f->sparse) { /* A compressed in place: the kept two of every four, in order */
        probe_sp_compress(f, pattern, f->m, A);
        for (unsigned lane = 0; lane < PROBE_LANES; lane++)
            a_regs[lane * fr.a_regs + fr.a_regs - 1] = probe_sp_meta(pattern);
    }
    walk(f, OP_A, 1, a_regs, fr.a_regs, A, NULL, a_cols(f));
    walk(f, OP_B, 1, b_regs, fr.b_regs, B, NULL, f->n);
    walk(f, OP_C, 1, c_regs, fr.c_regs, C, NULL, f->n);
    return TC_OK;
}

tc_status probe_frag_pack(const probe_form *f, const uint32_t *a, const uint32_t *b,
                          const uint32_t *c, uint32_t *a_regs, uint32_t *b_regs,
                          uint32_t *c_regs)
{
    return probe_frag_pack_sp(f, 0, a, b, c, a_regs, b_regs, c_regs);
}

void probe_frag_unpack_ab(const probe_form *f, const uint32_t *a_regs, const uint32_t *b_regs,
                          const uint32_t *c_regs, uint32_t *A, uint32_t *B, uint32_t *C)
{
    probe_frag fr;
    if (probe_frag_of(f, &fr) != TC_OK)
        return;
    memset(A, 0, f->m * f->k * sizeof *A);
    memset(B, 0, f->k * f->n * sizeof *B);
    memset(C, 0, f->m * f->n * sizeof *C);
    walk(f, OP_A, 0, (uint32_t *)a_regs, fr.a_regs, A, NULL, a_cols(f));
    walk(f, OP_B, 0, (uint32_t *)b_regs, fr.b_regs, B, NULL, f->n);
    walk(f, OP_C, 0, (uint32_t *)c_regs, fr.c_regs, C, NULL, f->n);
    if (f->sparse) { /* expand A by lane 0's metadata: two 2-bit indices a group of 4 */
        uint32_t meta = a_regs[fr.a_regs - 1], packed[MAX_M * MAX_K / 2];
        memcpy(packed, A, f->m * (f->k / 2) * sizeof *A);
        for (unsigned r = 0; r < f->m; r++)
            for (unsigned x = 0; x < f->k; x++) {
                unsigned g = x / 4, s = 0;
                while (s < 2 && (meta >> (4 * (g % 8) + 2 * s) & 3u) != x % 4)
                    s++;
                A[r * f->k + x] = s < 2 ? packed[r * (f->k / 2) + 2 * g + s] : 0;
            }
    }
}

void probe_frag_pack_d(const probe_form *f, const uint32_t *D, uint32_t *d_regs)
{
    probe_frag fr;
    if (probe_frag_of(f, &fr) != TC_OK)
        return;
    memset(d_regs, 0, PROBE_LANES * fr.d_regs * sizeof *d_regs);
    walk(f, OP_C, 1, d_regs, fr.d_regs, (uint32_t *)D, NULL, f->n);
}

void probe_frag_diag(const probe_form *f, const uint32_t *d_regs, uint32_t *d)
{
    probe_frag fr;
    uint32_t D[MAX_M * MAX_N] = {0};
    if (probe_frag_of(f, &fr) != TC_OK)
        return;
    walk(f, OP_C, 0, (uint32_t *)d_regs, fr.d_regs, D, NULL, f->n);
    probe_tile_diag(f, D, d);
}

/* ---- fp64 (DMMA): binary64 tiles through the same walk */

tc_status probe_frag_pack_f64(const probe_form *f, const uint64_t *a, const uint64_t *b,
                              const uint64_t *c, uint32_t *a_regs, uint32_t *b_regs,
                              uint32_t *c_regs)
{
    probe_frag fr;
    if (f->in != TC_FMT_FP64 || probe_frag_of(f, &fr) != TC_OK)
        return TC_EUNSUPPORTED;
    /* case j: row j of A, column j of B, C[j][j] (as tiles() for 32-bit words) */
    uint64_t A[MAX_M * MAX_K] = {0}, B[MAX_K * MAX_N] = {0}, C[MAX_M * MAX_N] = {0};
    for (unsigned j = 0; j < f->n; j++) {
        for (unsigned x = 0; x < f->k; x++) {
            A[j * f->k + x] = a[j * f->k + x];
            B[x * f->n + j] = b[j * f->k + x];
        }
        C[j * f->n + j] = c[j];
    }
    walk(f, OP_A, 1, a_regs, fr.a_regs, NULL, A, f->k);
    walk(f, OP_B, 1, b_regs, fr.b_regs, NULL, B, f->n);
    walk(f, OP_C, 1, c_regs, fr.c_regs, NULL, C, f->n);
    return TC_OK;
}

void probe_frag_unpack_f64(const probe_form *f, const uint32_t *a_regs, const uint32_t *b_regs,
                           const uint32_t *c_regs, uint64_t *A, uint64_t *B, uint64_t *C)
{
    probe_frag fr;
    if (f->in != TC_FMT_FP64 || probe_frag_of(f, &fr) != TC_OK)
        return;
    memset(A, 0, f->m * f->k * sizeof *A);
    memset(B, 0, f->k * f->n * sizeof *B);
    memset(C, 0, f->m * f->n * sizeof *C);
    walk(f, OP_A, 0, (uint32_t *)a_regs, fr.a_regs, NULL, A, f->k);
    walk(f, OP_B, 0, (uint32_t *)b_regs, fr.b_regs, NULL, B, f->n);
    walk(f, OP_C, 0, (uint32_t *)c_regs, fr.c_regs, NULL, C, f->n);
}

void probe_frag_pack_d_f64(const probe_form *f, const uint64_t *D, uint32_t *d_regs)
{
    probe_frag fr;
    if (f->in == TC_FMT_FP64 && probe_frag_of(f, &fr) == TC_OK)
        walk(f, OP_C, 1, d_regs, fr.d_regs, NULL, (uint64_t *)D, f->n);
}

void probe_frag_diag_f64(const probe_form *f, const uint32_t *d_regs, uint64_t *d)
{
    probe_frag fr;
    uint64_t D[MAX_M * MAX_N] = {0};
    if (f->in != TC_FMT_FP64 || probe_frag_of(f, &fr) != TC_OK)
        return;
    walk(f, OP_C, 0, (uint32_t *)d_regs, fr.d_regs, NULL, D, f->n);
    for (unsigned j = 0; j < f->n; j++)
        d[j] = D[j * f->n + j];
}

unsigned probe_smem_row(tc_fmt fmt, int packed, const uint32_t *x, unsigned k, unsigned stride,
                        uint32_t *out)
{
    if (packed) {
        for (unsigned j = 0; j < k / 2; j++)
            out[j] = (x[2 * j * stride] & 0xfu) | (x[(2 * j + 1) * stride] & 0xfu) << 4;
        return k / 2;
    }
    const unsigned w = tc_fmt_get(fmt)->width;
    if (w >= 8) {
        for (unsigned j = 0; j < k; j++)
            out[j] = x[j * stride];
        return k;
    }
    /* fp6 / fp4: each 16 elements a little-endian bit stream, then zero padding to 16
     * bytes */
    for (unsigned g = 0; g < k / 16; g++) {
        uint32_t *o = out + 16 * g;
        for (unsigned j = 0; j < 16; j++)
            o[j] = 0;
        for (unsigned e = 0; e < 16; e++) {
            uint32_t v = x[(16 * g + e) * stride] & ((1u << w) - 1);
            unsigned bit = e * w;
            o[bit / 8] |= (v << bit % 8) & 0xffu;
            if (bit % 8 + w > 8)
                o[bit / 8 + 1] |= v >> (8 - bit % 8);
        }
    }
    return k;
}
