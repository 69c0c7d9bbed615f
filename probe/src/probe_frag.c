/* probe_frag.c - the register fragments of mma.sync m16n8kK (PTX ISA, "Matrix fragments
 * for mma.m16n8k8/k16/k32"): which element of A, B, C and D each lane holds in each
 * register. The kernels only move registers; the layout lives here, in one place, so
 * that the canned device of the tests runs the same mapping backwards. */
#include <string.h>
#include "probe.h"

enum { M = 16, N = 8, MAX_K = 32 };

/* Bits of one input element in a register. */
static unsigned ebits(tc_fmt in)
{
    return in == TC_FMT_TF32 ? 32 : tc_fmt_get(in)->width;
}

tc_status probe_frag_of(const probe_form *f, probe_frag *out)
{
    if (!f->numerics || f->instr != TC_INSTR_MMA)
        return TC_EUNSUPPORTED;
    unsigned per = 32 / ebits(f->in);
    out->a_regs = M * f->k / PROBE_LANES / per;
    out->b_regs = f->k * N / PROBE_LANES / per;
    out->c_regs = out->d_regs = f->acc == TC_FMT_FP16 ? 2 : 4;
    return TC_OK;
}

/* Element i of a lane's A fragment: (row, col) of A. */
static void a_pos(tc_fmt in, unsigned lane, unsigned i, unsigned *row, unsigned *col)
{
    unsigned g = lane >> 2, t = lane & 3;
    if (ebits(in) == 16) {
        *row = g + 8 * (i >> 1 & 1);
        *col = t * 2 + (i & 1) + 8 * (i >> 2);
    } else if (ebits(in) == 32) {
        *row = g + 8 * (i & 1);
        *col = t + 4 * (i >> 1);
    } else {
        *row = g + 8 * (i >> 2 & 1);
        *col = t * 4 + (i & 3) + 16 * (i >> 3);
    }
}

/* Element i of a lane's B fragment: (k row, column) of B. */
static void b_pos(tc_fmt in, unsigned lane, unsigned i, unsigned *row, unsigned *col)
{
    unsigned g = lane >> 2, t = lane & 3;
    *col = g;
    if (ebits(in) == 16)
        *row = t * 2 + (i & 1) + 8 * (i >> 1);
    else if (ebits(in) == 32)
        *row = t + 4 * i;
    else
        *row = t * 4 + (i & 3) + 16 * (i >> 2);
}

/* Element i (0..3) of a lane's C or D fragment. */
static void c_pos(unsigned lane, unsigned i, unsigned *row, unsigned *col)
{
    *row = (lane >> 2) + 8 * (i >> 1);
    *col = (lane & 3) * 2 + (i & 1);
}

/* Moves elements between a tile and registers: to_regs 1 packs, 0 unpacks. */
static void walk(unsigned nregs, unsigned bits, unsigned elems, int to_regs, uint32_t *regs,
                 uint32_t *tile, unsigned stride, tc_fmt in,
                 void (*pos)(tc_fmt, unsigned, unsigned, unsigned *, unsigned *))
{
    unsigned per = 32 / bits;
    uint32_t mask = bits == 32 ? 0xffffffffu : (1u << bits) - 1u;
    for (unsigned lane = 0; lane < PROBE_LANES; lane++)
        for (unsigned i = 0; i < elems; i++) {
            unsigned row, col;
            pos(in, lane, i, &row, &col);
            uint32_t *reg = &regs[lane * nregs + i / per];
            unsigned sh = (i % per) * bits;
            if (to_regs)
                *reg = (*reg & ~(mask << sh)) | (tile[row * stride + col] & mask) << sh;
            else
                tile[row * stride + col] = *reg >> sh & mask;
        }
}

static void c_pos3(tc_fmt in, unsigned lane, unsigned i, unsigned *row, unsigned *col)
{
    (void)in;
    c_pos(lane, i, row, col);
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
        tc_status st = tc_convert_rne(TC_FMT_FP32, c[j], f->acc, &C[j * f->n + j]);
        if (st != TC_OK)
            return st;
    }
    return TC_OK;
}

tc_status probe_tile_pack(const probe_form *f, const uint32_t *a, const uint32_t *b,
                          const uint32_t *c, uint32_t *A, uint32_t *B, uint32_t *C)
{
    if (f->instr != TC_INSTR_WGMMA || !f->numerics)
        return TC_EUNSUPPORTED;
    return tiles(f, a, b, c, A, B, C);
}

void probe_tile_diag(const probe_form *f, const uint32_t *D, uint32_t *d)
{
    for (unsigned j = 0; j < f->n; j++)
        d[j] = D[j * f->n + j];
}

tc_status probe_frag_pack(const probe_form *f, const uint32_t *a, const uint32_t *b,
                          const uint32_t *c, uint32_t *a_regs, uint32_t *b_regs,
                          uint32_t *c_regs)
{
    probe_frag fr;
    tc_status st = probe_frag_of(f, &fr);
    if (st != TC_OK)
        return st;
    uint32_t A[M * MAX_K], B[MAX_K * N], C[M * N];
    if ((st = tiles(f, a, b, c, A, B, C)) != TC_OK)
        return st;
    unsigned eb = ebits(f->in), ab = f->acc == TC_FMT_FP16 ? 16 : 32;
    memset(a_regs, 0, PROBE_LANES * fr.a_regs * sizeof *a_regs);
    memset(b_regs, 0, PROBE_LANES * fr.b_regs * sizeof *b_regs);
    memset(c_regs, 0, PROBE_LANES * fr.c_regs * sizeof *c_regs);
    walk(fr.a_regs, eb, fr.a_regs * (32 / eb), 1, a_regs, A, f->k, f->in, a_pos);
    walk(fr.b_regs, eb, fr.b_regs * (32 / eb), 1, b_regs, B, N, f->in, b_pos);
    walk(fr.c_regs, ab, 4, 1, c_regs, C, N, f->in, c_pos3);
    return TC_OK;
}

void probe_frag_unpack_ab(const probe_form *f, const uint32_t *a_regs, const uint32_t *b_regs,
                          const uint32_t *c_regs, uint32_t *A, uint32_t *B, uint32_t *C)
{
    probe_frag fr;
    if (probe_frag_of(f, &fr) != TC_OK)
        return;
    unsigned eb = ebits(f->in), ab = f->acc == TC_FMT_FP16 ? 16 : 32;
    walk(fr.a_regs, eb, fr.a_regs * (32 / eb), 0, (uint32_t *)a_regs, A, f->k, f->in, a_pos);
    walk(fr.b_regs, eb, fr.b_regs * (32 / eb), 0, (uint32_t *)b_regs, B, N, f->in, b_pos);
    walk(fr.c_regs, ab, 4, 0, (uint32_t *)c_regs, C, N, f->in, c_pos3);
}

void probe_frag_pack_d(const probe_form *f, const uint32_t *D, uint32_t *d_regs)
{
    probe_frag fr;
    if (probe_frag_of(f, &fr) != TC_OK)
        return;
    memset(d_regs, 0, PROBE_LANES * fr.d_regs * sizeof *d_regs);
    walk(fr.d_regs, f->acc == TC_FMT_FP16 ? 16 : 32, 4, 1, d_regs, (uint32_t *)D, N, f->in,
         c_pos3);
}

void probe_frag_diag(const probe_form *f, const uint32_t *d_regs, uint32_t *d)
{
    probe_frag fr;
    uint32_t D[M * N];
    if (probe_frag_of(f, &fr) != TC_OK)
        return;
    walk(fr.d_regs, f->acc == TC_FMT_FP16 ? 16 : 32, 4, 0, (uint32_t *)d_regs, D, N, f->in,
         c_pos3);
    probe_tile_diag(f, D, d);
}
