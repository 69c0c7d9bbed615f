/* fragments.c - the Volta warp fragments and the HMMA.884 sets and steps that read them.
 *
 * Lanes: threadgroup g = lane / 4 and thread t = lane % 4 in it (seed 001 III-A);
 * octet o = g % 4 and half h = g / 4, so octet X is threadgroups X (half 0) and X+4
 * (half 1) (Table II). An octet works alone on an 8 x 8 tile of D: rows (o % 2) * 8,
 * columns (o / 2) * 8 of the 16 x 16 tile (Table II: octets 0 and 2 read A rows 0:7,
 * octets 0 and 1 B columns 0:7). Half h computes rows 4h..4h+3 of the octet's tile.
 *
 * One HMMA.884 set covers k slice s (k = 4s..4s+3). Inside a set, the octet's lanes hold
 * the registers of seed 002's mma.m8n8k4 fragments (mma.m8n8k4 is one set); wmma's
 * m16n16k16 fragment is the same per k slice, with set s in elements 4s..4s+3 of A and B
 * (seed 001 Figure 7: a row-major A thread loads 16 consecutive elements of one row; a
 * column-major A thread loads four blocks of four elements of one column, 64 elements
 * (four columns) apart, so it holds columns t, t+4, t+8, t+12). */
#include <string.h>
#include "tcsim.h"

static const char *const shape_names[TC_SHAPE_COUNT] = {"m16n16k16", "m8n8k4"};
static const char *const layout_names[TC_LAYOUT_COUNT] = {"row", "col"};

/* The index of name in names[0..n), shared by the shape and layout parsers. */
static tc_status parse_name(const char *name, const char *const *names, unsigned n,
                            unsigned *index)
{
    if (!name)
        return TC_EINVAL;
    for (unsigned i = 0; i < n; i++)
        if (!strcmp(name, names[i])) {
            *index = i;
            return TC_OK;
        }
    return TC_EINVAL;
}

const char *tc_shape_name(tc_shape s)
{
    return (unsigned)s < TC_SHAPE_COUNT ? shape_names[s] : NULL;
}

tc_status tc_shape_parse(const char *name, tc_shape *out)
{
    unsigned i;
    if (!out || parse_name(name, shape_names, TC_SHAPE_COUNT, &i) != TC_OK)
        return TC_EINVAL;
    *out = (tc_shape)i;
    return TC_OK;
}

const char *tc_layout_name(tc_layout l)
{
    return (unsigned)l < TC_LAYOUT_COUNT ? layout_names[l] : NULL;
}

tc_status tc_layout_parse(const char *name, tc_layout *out)
{
    unsigned i;
    if (!out || parse_name(name, layout_names, TC_LAYOUT_COUNT, &i) != TC_OK)
        return TC_EINVAL;
    *out = (tc_layout)i;
    return TC_OK;
}

tc_status tc_shape_dims(tc_shape s, unsigned *m, unsigned *n, unsigned *k, unsigned *tiles)
{
    unsigned d[TC_SHAPE_COUNT][4] = {{16, 16, 16, 1}, {8, 8, 4, 4}};
    if ((unsigned)s >= TC_SHAPE_COUNT)
        return TC_EINVAL;
    if (m) *m = d[s][0];
    if (n) *n = d[s][1];
    if (k) *k = d[s][2];
    if (tiles) *tiles = d[s][3];
    return TC_OK;
}

/* ------------------------------------------------------- one set, inside an octet */

/* Element e (< 4) of thread t of half h, in the set's 8 x 4 slice of the octet's A. */
static void set_pos_a(tc_layout lay, unsigned h, unsigned t, unsigned e, unsigned *row,
                      unsigned *kk)
{
    if (lay == TC_LAYOUT_ROW) { /* a thread holds (part of) a row: row = lane%4 (+4) */
        *row = 4 * h + t;
        *kk = e;
    } else {                    /* a thread holds a column of its half: col = lane%4 */
        *row = 4 * h + e;
        *kk = t;
    }
}

/* Element e of thread t of half h, in the set's 4 x 8 slice of the octet's B. A
 * row-major B is distributed as a column-major A, and vice versa (Figure 7). */
static void set_pos_b(tc_layout lay, unsigned h, unsigned t, unsigned e, unsigned *kk,
                      unsigned *col)
{
    if (lay == TC_LAYOUT_ROW) {
        *kk = t;
        *col = 4 * h + e;
    } else {
        *kk = e;
        *col = 4 * h + t;
    }
}

/* Accumulator element i (< 8) of thread t of half h, in the octet's 8 x 8 C/D: the
 * layout depends on the format only (seed 001 III-B; seed 002 Figures 50-52). */
static void pos_c(tc_fmt acc, unsigned h, unsigned t, unsigned i, unsigned *row,
                  unsigned *col)
{
    if (acc == TC_FMT_FP32) {
        *row = 4 * h + (t & 1u) + (i & 2u);
        *col = (i & 4u) + (t & 2u) + (i & 1u);
    } else {
        *row = 4 * h + t;
        *col = i;
    }
}

/* ------------------------------------------------------------------- fragments */

static int acc_ok(tc_fmt acc)
{
    return acc == TC_FMT_FP32 || acc == TC_FMT_FP16;
}

static tc_status spec_ok(const tc_frag_spec *s)
{
    if (!s || (unsigned)s->shape >= TC_SHAPE_COUNT || (unsigned)s->op >= TC_OPERAND_COUNT)
        return TC_EINVAL;
    if (s->op != TC_OPERAND_C && (unsigned)s->layout >= TC_LAYOUT_COUNT)
        return TC_EINVAL;
    if (s->op == TC_OPERAND_C && !acc_ok(s->acc))
        return TC_EFORMAT;
    if (s->arch != TC_ARCH_VOLTA)
        return TC_EUNSUPPORTED;
    return TC_OK;
}

tc_status tc_frag_count(const tc_frag_spec *s, unsigned *n)
{
    tc_status st = spec_ok(s);
    if (st != TC_OK)
        return st;
    if (!n)
        return TC_EINVAL;
    /* A and B: 4 per set; C: a half's 4 x 8 over its 4 threads. */
    unsigned sets = s->shape == TC_SHAPE_M16N16K16 ? 4 : 1;
    *n = s->op == TC_OPERAND_C ? 8 : 4 * sets;
    return TC_OK;
}

/* The element lane `lane` holds at i, for a checked spec. */
static void elem_at(const tc_frag_spec *s, unsigned lane, unsigned i, tc_frag_elem *e)
{
    unsigned g = lane / 4, t = lane % 4, o = g % 4, h = g / 4;
    unsigned wmma = s->shape == TC_SHAPE_M16N16K16;
    unsigned row0 = wmma ? (o % 2) * 8 : 0, col0 = wmma ? (o / 2) * 8 : 0;
    unsigned set = i / 4, r, c;
    e->tile = wmma ? 0 : o;
    switch (s->op) {
    case TC_OPERAND_A:
        set_pos_a(s->layout, h, t, i % 4, &r, &c);
        e->row = row0 + r;
        e->col = 4 * set + c;
        break;
    case TC_OPERAND_B:
        set_pos_b(s->layout, h, t, i % 4, &r, &c);
        e->row = 4 * set + r;
        e->col = col0 + c;
        break;
    default:
        pos_c(s->acc, h, t, i, &r, &c);
        e->row = row0 + r;
        e->col = col0 + c;
        break;
    }
}

tc_status tc_frag_map(const tc_frag_spec *s, unsigned lane, unsigned i, tc_frag_elem *e)
{
    unsigned count;
    tc_status st = tc_frag_count(s, &count);
    if (st != TC_OK)
        return st;
    if (!e || lane >= TC_WARP_LANES || i >= count)
        return TC_EINVAL;
    elem_at(s, lane, i, e);
    return TC_OK;
}

/* Rows and columns of one tile of the operand. */
static void operand_dims(tc_shape shape, tc_operand op, unsigned *rows, unsigned *cols)
{
    unsigned m, n, k;
    tc_shape_dims(shape, &m, &n, &k, NULL);
    *rows = op == TC_OPERAND_B ? k : m;
    *cols = op == TC_OPERAND_A ? k : n;
}

/* Checks a transfer; gives the element count, one tile's size and the row length. */
static tc_status transfer_setup(const tc_frag_spec *s, const void *mat, const void *frag,
                                unsigned *count, size_t *tile_elems, unsigned *cols)
{
    unsigned rows;
    tc_status st = tc_frag_count(s, count);
    if (st != TC_OK)
        return st;
    if (!mat || !frag)
        return TC_EINVAL;
    operand_dims(s->shape, s->op, &rows, cols);
    *tile_elems = (size_t)rows * *cols;
    return TC_OK;
}

/* Index in the stacked matrices of element i of lane l. */
static size_t mat_index(const tc_frag_spec *s, unsigned l, unsigned i, size_t tile_elems,
                        unsigned cols)
{
    tc_frag_elem e;
    elem_at(s, l, i, &e);
    return e.tile * tile_elems + (size_t)e.row * cols + e.col;
}

tc_status tc_frag_load(const tc_frag_spec *s, const uint32_t *mat,
                       uint32_t frag[TC_WARP_LANES][TC_FRAG_MAX])
{
    unsigned count, cols;
    size_t te;
    tc_status st = transfer_setup(s, mat, frag, &count, &te, &cols);
    for (unsigned l = 0; st == TC_OK && l < TC_WARP_LANES; l++)
        for (unsigned i = 0; i < count; i++)
            frag[l][i] = mat[mat_index(s, l, i, te, cols)];
    return st;
}

tc_status tc_frag_store(const tc_frag_spec *s, const uint32_t frag[TC_WARP_LANES][TC_FRAG_MAX],
                        uint32_t *mat)
{
    unsigned count, cols;
    size_t te;
    tc_status st = transfer_setup(s, mat, frag, &count, &te, &cols);
    for (unsigned l = 0; st == TC_OK && l < TC_WARP_LANES; l++)
        for (unsigned i = 0; i < count; i++)
            mat[mat_index(s, l, i, te, cols)] = frag[l][i];
    return st;
}

/* ---------------------------------------------------------------- HMMA sets, steps */

tc_status tc_hmma_geometry(const tc_hmma_cfg *cfg, unsigned *sets, unsigned *steps,
                           unsigned *beats)
{
    if (!cfg || (unsigned)cfg->shape >= TC_SHAPE_COUNT ||
        (unsigned)cfg->a_layout >= TC_LAYOUT_COUNT || (unsigned)cfg->b_layout >= TC_LAYOUT_COUNT)
        return TC_EINVAL;
    if (!acc_ok(cfg->acc))
        return TC_EFORMAT;
    unsigned k, st = cfg->acc == TC_FMT_FP32 ? 4 : 2;
    tc_shape_dims(cfg->shape, NULL, NULL, &k, NULL);
    if (sets) *sets = k / 4;
    if (steps) *steps = st;
    /* A half owns a 4 x 8 accumulator; a step writes 1/steps of it, 4 FEDPs at a time. */
    if (beats) *beats = 32 / st / 4;
    return TC_OK;
}

tc_status tc_hmma_access_of(const tc_hmma_cfg *cfg, unsigned set, unsigned step,
                            unsigned half, tc_hmma_access *out)
{
    unsigned sets, steps;
    tc_status st = tc_hmma_geometry(cfg, &sets, &steps, NULL);
    if (st != TC_OK)
        return st;
    if (!out || set >= sets || step >= steps || half > 1)
        return TC_EINVAL;
    /* The outputs of step p are the accumulator elements of register pair p; their
     * places (pos_c) make the sub-tiles of Figure 10: mixed a[2 rows] x [4 columns],
     * rows alternating with the step and columns with every second step; fp16 a
     * [4 rows] x [4 columns] per step. */
    out->k0 = 4 * set;
    out->acc_pair = step;
    if (cfg->acc == TC_FMT_FP32) {
        out->row0 = 4 * half + 2 * (step % 2);
        out->rows = 2;
        out->col0 = 4 * (step / 2);
    } else {
        out->row0 = 4 * half;
        out->rows = 4;
        out->col0 = 4 * step;
    }
    out->cols = 4;
    return TC_OK;
}

tc_status tc_hmma_exec(const tc_hmma_cfg *cfg, unsigned set, unsigned step,
                       tc_warp_frags *w, tc_step_fn fn, void *ctx)
{
    unsigned sets, steps;
    tc_status st = tc_hmma_geometry(cfg, &sets, &steps, NULL);
    if (st != TC_OK)
        return st;
    if (!w || set >= sets || step >= steps)
        return TC_EINVAL;
    const tc_profile *p;
    st = tc_profile_find(TC_ARCH_VOLTA, TC_INSTR_MMA, TC_FMT_FP16, cfg->acc, &p);
    if (st != TC_OK)
        return st;
    /* Elements of accumulator register pair `step`: one fp32 or two fp16 per register. */
    unsigned per = cfg->acc == TC_FMT_FP32 ? 2 : 4, i0 = step * per;
    /* The HMMA's FEDP steps, one per accumulator element it updates: each reads the A
     * and B fragments and its own element only, so they are independent and run as
     * one batch (tc_dot_batch), or one by one through fn. */
    enum { MAX_CASES = 4 * 2 * 4 * 4 };
    uint32_t ca[MAX_CASES][4], cb[MAX_CASES][4], cc[MAX_CASES], cd[MAX_CASES];
    uint32_t *acc[MAX_CASES];
    size_t n = 0;

    for (unsigned o = 0; o < 4; o++) {
        /* The octet's B buffer: columns 0-3 come from threadgroup X, 4-7 from X+4. */
        uint32_t bbuf[4][8];
        for (unsigned h = 0; h < 2; h++)
            for (unsigned t = 0; t < 4; t++)
                for (unsigned e = 0; e < 4; e++) {
                    unsigned kk, col;
                    set_pos_b(cfg->b_layout, h, t, e, &kk, &col);
                    bbuf[kk][col] = w->b[4 * (o + 4 * h) + t][4 * set + e];
                }
        for (unsigned h = 0; h < 2; h++) {
            unsigned g = o + 4 * h;
            uint32_t abuf[4][4]; /* the threadgroup's own rows */
            for (unsigned t = 0; t < 4; t++)
                for (unsigned e = 0; e < 4; e++) {
                    unsigned row, kk;
                    set_pos_a(cfg->a_layout, h, t, e, &row, &kk);
                    abuf[row - 4 * h][kk] = w->a[4 * g + t][4 * set + e];
                }
            for (unsigned t = 0; t < 4; t++)
                for (unsigned i = i0; i < i0 + per; i++, n++) {
                    unsigned row, col;
                    pos_c(cfg->acc, h, t, i, &row, &col);
                    for (unsigned kk = 0; kk < 4; kk++) {
                        ca[n][kk] = abuf[row - 4 * h][kk];
                        cb[n][kk] = bbuf[kk][col];
                    }
                    acc[n] = &w->c[4 * g + t][i];
                    cc[n] = *acc[n];
                }
        }
    }
    if (fn) {
        for (size_t j = 0; j < n; j++)
            if ((st = fn(ctx, p, 4, ca[j], cb[j], cc[j], &cd[j])) != TC_OK)
                return st;
    } else if ((st = tc_dot_batch(p, n, 4, &ca[0][0], &cb[0][0], cc, cd, NULL)) != TC_OK) {
        return st;
    }
    for (size_t j = 0; j < n; j++)
        *acc[j] = cd[j];
    return TC_OK;
}

tc_status tc_hmma_run(const tc_hmma_cfg *cfg, tc_warp_frags *w, tc_step_fn fn, void *ctx)
{
    unsigned sets, steps;
    tc_status st = tc_hmma_geometry(cfg, &sets, &steps, NULL);
    for (unsigned s = 0; st == TC_OK && s < sets; s++)
        for (unsigned p = 0; st == TC_OK && p < steps; p++)
            st = tc_hmma_exec(cfg, s, p, w, fn, ctx);
    return st;
}

tc_status tc_volta_mma(const tc_hmma_cfg *cfg, const uint32_t *A, const uint32_t *B,
                       const uint32_t *C, uint32_t *D)
{
    tc_status st = tc_hmma_geometry(cfg, NULL, NULL, NULL);
    if (st != TC_OK)
        return st;
    if (!A || !B || !C || !D)
        return TC_EINVAL;
    tc_warp_frags w;
    tc_frag_spec sa = {TC_ARCH_VOLTA, cfg->shape, TC_OPERAND_A, cfg->a_layout, cfg->acc};
    tc_frag_spec sb = {TC_ARCH_VOLTA, cfg->shape, TC_OPERAND_B, cfg->b_layout, cfg->acc};
    tc_frag_spec sc = {TC_ARCH_VOLTA, cfg->shape, TC_OPERAND_C, TC_LAYOUT_ROW, cfg->acc};
    if ((st = tc_frag_load(&sa, A, w.a)) != TC_OK || (st = tc_frag_load(&sb, B, w.b)) != TC_OK ||
        (st = tc_frag_load(&sc, C, w.c)) != TC_OK)
        return st;
    if ((st = tc_hmma_run(cfg, &w, NULL, NULL)) != TC_OK)
        return st;
    return tc_frag_store(&sc, w.c, D);
}
