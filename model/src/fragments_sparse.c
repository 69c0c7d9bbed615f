/* fragments_sparse.c - the warp fragments of mma.sp.m16n8kK: which lane holds which
 * stored element of A, and which lanes' metadata registers hold which chunks' nibbles,
 * per sparsity selector (tcsim_sparse.h states the layout and its sources: PTX ISA 9.0
 * 9.7.14.6.1-2; Volta's wmma/HMMA fragments are fragments.c). */
#include <string.h>
#include "tcsim.h"

/* Stored elements of A in one 32-bit register. */
static unsigned per_reg(tc_fmt in)
{
    return in == TC_FMT_TF32 ? 1 : 32 / tc_fmt_get(in)->width;
}

tc_status tc_sp_frag_shape(tc_fmt in, unsigned K, tc_sp_frag_info *out)
{
    if (!out)
        return TC_EINVAL;
    tc_ptx_instr r;
    size_t i = 0;
    while (tc_ptx_instr_get(i, &r) == TC_OK &&
           !(r.form == TC_PTX_MMA_SP && r.m == 16 && r.n == 8 && r.k == K && r.in == in))
        i++;
    if (tc_ptx_instr_get(i, &r) != TC_OK || !tc_sp_chunk(in))
        return TC_EUNSUPPORTED;
    unsigned per = per_reg(in);
    /* a lane holds 16 * K/2 / 32 = K/4 stored elements */
    out->per_reg = per;
    out->a_regs = K / 4 / per;
    /* nibbles per register: its elements over the stored elements per chunk */
    unsigned reg_bits = 4 * per / (tc_sp_chunk(in) / 2);
    /* the group's metadata: a_regs registers of four lanes, 32 bits a holding lane */
    out->meta_threads = out->a_regs * 4 * reg_bits / 32;
    out->selectors = 4 / out->meta_threads;
    return TC_OK;
}

static void a_pos(const tc_sp_frag_info *f, unsigned lane, unsigned i, unsigned *row,
                  unsigned *scol)
{
    unsigned g = lane / 4, t = lane % 4, r = i / f->per_reg, e = i % f->per_reg;
    *row = g + 8 * (r % 2);
    *scol = f->per_reg * t + e + 4 * f->per_reg * (r / 2);
}

tc_status tc_sp_frag_a_map(tc_fmt in, unsigned K, unsigned lane, unsigned i, unsigned *row,
                           unsigned *scol)
{
    tc_sp_frag_info f;
    tc_status st = tc_sp_frag_shape(in, K, &f);
    if (st != TC_OK)
        return st;
    if (!row || !scol || lane >= TC_WARP_LANES || i >= f.a_regs * f.per_reg)
        return TC_EINVAL;
    a_pos(&f, lane, i, row, scol);
    return TC_OK;
}

/* Walks the metadata stream of every group of four lanes: for bit-stream position `bit`
 * of group g (the holding lanes' registers in order), the row of A and the chunk whose
 * nibble goes there. Calls fn(ctx, lane, shift, row, chunk) once per nibble. */
typedef void (*nibble_fn)(void *ctx, unsigned lane, unsigned shift, unsigned row,
                          unsigned chunk);
static void walk_meta(tc_fmt in, const tc_sp_frag_info *f, unsigned selector, nibble_fn fn,
                      void *ctx)
{
    unsigned stored_per_chunk = tc_sp_chunk(in) / 2;
    for (unsigned g = 0; g < 8; g++) {
        unsigned bit = 0;
        for (unsigned r = 0; r < f->a_regs; r++)
            for (unsigned t = 0; t < 4; t++)
                /* the register's elements, one nibble per chunk they come from */
                for (unsigned e = 0; e < f->per_reg; e += stored_per_chunk, bit += 4) {
                    unsigned row, scol;
                    a_pos(f, 4 * g + t, r * f->per_reg + e, &row, &scol);
                    unsigned lane = 4 * g + f->meta_threads * selector + bit / 32;
                    fn(ctx, lane, bit % 32, row, scol / stored_per_chunk);
                }
    }
}

typedef struct meta_io {
    const uint32_t *src;
    uint32_t *dst;
    size_t W; /* words per row of E */
} meta_io;

static void put_nibble(void *ctx, unsigned lane, unsigned shift, unsigned row, unsigned chunk)
{
    meta_io *io = ctx;
    uint32_t nib = io->src[row * io->W + chunk / 8] >> (4 * (chunk % 8)) & 15u;
    io->dst[lane] |= nib << shift;
}

static void get_nibble(void *ctx, unsigned lane, unsigned shift, unsigned row, unsigned chunk)
{
    meta_io *io = ctx;
    uint32_t nib = io->src[lane] >> shift & 15u;
    io->dst[row * io->W + chunk / 8] |= nib << (4 * (chunk % 8));
}

/* Every row of E valid for in at k = K (tc_sp_kept decides). */
static tc_status rows_valid(tc_fmt in, unsigned K, const uint32_t *E, size_t W)
{
    size_t kept[64];
    for (unsigned row = 0; row < 16; row++) {
        tc_status st = tc_sp_kept(in, K, E + row * W, kept);
        if (st != TC_OK)
            return st;
    }
    return TC_OK;
}

/* The checks shared by pack and unpack: the shape, both pointers, the selector. */
static tc_status meta_setup(tc_fmt in, unsigned K, unsigned selector, const void *x,
                            const void *y, tc_sp_frag_info *f, size_t *W)
{
    tc_status st = tc_sp_frag_shape(in, K, f);
    if (st != TC_OK)
        return st;
    *W = tc_sp_meta_words(in, K);
    return !x || !y || selector >= f->selectors ? TC_EINVAL : TC_OK;
}

tc_status tc_sp_meta_pack(tc_fmt in, unsigned K, unsigned selector, const uint32_t *E,
                          uint32_t meta[32])
{
    tc_sp_frag_info f;
    size_t W;
    tc_status st = meta_setup(in, K, selector, E, meta, &f, &W);
    if (st != TC_OK)
        return st;
    if ((st = rows_valid(in, K, E, W)) != TC_OK)
        return st;
    memset(meta, 0, TC_WARP_LANES * sizeof *meta);
    meta_io io = {E, meta, W};
    walk_meta(in, &f, selector, put_nibble, &io);
    return TC_OK;
}

tc_status tc_sp_meta_unpack(tc_fmt in, unsigned K, unsigned selector, const uint32_t meta[32],
                            uint32_t *E)
{
    tc_sp_frag_info f;
    size_t W;
    tc_status st = meta_setup(in, K, selector, meta, E, &f, &W);
    if (st != TC_OK)
        return st;
    uint32_t rows[16 * 2] = {0}; /* W <= 2: K / chunk <= 16 nibbles a row */
    meta_io io = {meta, rows, W};
    walk_meta(in, &f, selector, get_nibble, &io);
    if ((st = rows_valid(in, K, rows, W)) != TC_OK)
        return st;
    memcpy(E, rows, 16 * W * sizeof *E);
    return TC_OK;
}
