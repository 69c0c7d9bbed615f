/* dot_sparse.c - `tcsim dot --sparse`: mma.sp dot products from standard input
 * (docs/tcsim.md, "Sparse dot products"). A line holds, as hex words,
 *   a_0 .. a_{k/2-1}   the stored elements of A's row (the kept ones, in k order)
 *   m_0 .. m_{W-1}     its metadata words, W = tc_sp_meta_words(in, k), nibbles in the
 *                      PTX layout (tcsim_sparse.h)
 *   b_0 .. b_{k-1}     B's whole column, dense k
 *   c
 * k, the dense k, follows from the word count (k/2 + W + k + 1 grows with k, so at most
 * one k fits). Errors name the line, the word and, for metadata, the nibble. */
#include <stdio.h>
#include <string.h>
#include "cli.h"
#include "dot_stream.h"

int dot_sp_open(const char *cmd, const dot_options *o, dot_stream *ds)
{
    if (o->kind || o->rtl) {
        fprintf(stderr, "tcsim %s: --sparse goes with neither --kind nor --engine rtl "
                        "(mma.sp is modelled for the unscaled mma forms, in the model)\n", cmd);
        return -1;
    }
    if (tc_profile_sparse(ds->p) != TC_OK) {
        fprintf(stderr, "tcsim %s: --sparse: %s has no mma.sp form (PTX: mma on ampere and "
                        "later with fp16, bf16, tf32, int8, uint8, int4, uint4; e4m3, e5m2 "
                        "from ada, fp32 out)\n", cmd, ds->p->name);
        return -1;
    }
    ds->sparse = 1;
    return 0;
}

/* The dense k of a line of n words, or 0 if none fits. */
static size_t k_of(tc_fmt in, size_t n)
{
    unsigned ch = tc_sp_chunk(in);
    for (size_t k = ch; k / 2 + tc_sp_meta_words(in, k) + k + 1 <= n; k += ch)
        if (k / 2 + tc_sp_meta_words(in, k) + k + 1 == n)
            return k;
    return 0;
}

/* Why nibble q of a row of `chunks` chunks is refused, or NULL if it is valid. */
static const char *nibble_fault(tc_fmt in, size_t q, size_t chunks, uint32_t nib)
{
    if (q >= chunks)
        return nib ? "lies past the row's last chunk and must be 0" : NULL;
    size_t kept[4];
    if (tc_sp_kept(in, tc_sp_chunk(in), &nib, kept) == TC_OK)
        return NULL;
    return in == TC_FMT_TF32 ? "is not tf32 metadata (4 keeps the first of 2, e the second)"
                             : "is not two ascending 2-bit indices (4, 8, 9, c, d or e)";
}

int dot_sp_line(dot_stream *ds, const char *line, unsigned long lineno, uint32_t *d)
{
    size_t n;
    int r = dot_read_words(ds, line, lineno, &n);
    if (r)
        return r;
    const tc_profile *p = ds->p;
    unsigned ch = tc_sp_chunk(p->in);
    size_t k = k_of(p->in, n);
    if (!k) {
        fprintf(stderr, "line %lu: %zu words; expected k/2 + W + k + 1 for a dense k that is a "
                        "multiple of %u (a_0..a_{k/2-1}, W metadata words m_j, b_0..b_{k-1}, "
                        "c; k = %u: %zu words)\n", lineno, n, ch, 4 * ch,
                (size_t)(2 * ch + tc_sp_meta_words(p->in, 4 * ch) + 4 * ch + 1));
        return -1;
    }
    size_t W = tc_sp_meta_words(p->in, k), na = k / 2, nb = k;
    const tc_fmt_info *fa = tc_fmt_get(p->in), *fb = tc_fmt_get(p->in_b),
                      *fc = tc_fmt_get(p->out);
    for (size_t i = 0; i < n; i++) {
        if (i >= na && i < na + W)
            continue; /* metadata: 32 bits, checked nibble by nibble below */
        const tc_fmt_info *fi = i < na ? fa : i < na + W + nb ? fb : fc;
        uint64_t lim = fi->width >= 32 ? UINT64_C(0xffffffff) : (UINT64_C(1) << fi->width) - 1;
        if (ds->words[i] > lim) {
            char nm[32];
            if (i < na)
                snprintf(nm, sizeof nm, "a_%zu", i);
            else if (i < na + W + nb)
                snprintf(nm, sizeof nm, "b_%zu", i - na - W);
            else
                snprintf(nm, sizeof nm, "c");
            fprintf(stderr, "line %lu: word %zu (%s) = 0x%llx is wider than %s (%u bits)\n",
                    lineno, i + 1, nm, (unsigned long long)ds->words[i], fi->name, fi->width);
            return -1;
        }
    }
    uint32_t *w32 = ds->w32;
    for (size_t i = 0; i < n; i++)
        w32[i] = (uint32_t)ds->words[i];
    for (size_t q = 0; q < 8 * W; q++) {
        uint32_t nib = w32[na + q / 8] >> (4 * (q % 8)) & 15u;
        const char *why = nibble_fault(p->in, q, k / ch, nib);
        if (why) {
            fprintf(stderr, "line %lu: word %zu (m_%zu), nibble %zu (bits %zu..%zu, k %zu..%zu): "
                            "0x%x %s\n", lineno, na + q / 8 + 1, q / 8, q % 8, 4 * (q % 8) + 3,
                    4 * (q % 8), q * ch, q * ch + ch - 1, nib, why);
            return -1;
        }
    }
    tc_status st = tc_dot_sp(p, k, w32, w32 + na, w32 + na + W, w32[n - 1], d);
    if (st != TC_OK) {
        fprintf(stderr, "line %lu: %s\n", lineno, tc_strerror(st));
        return -1;
    }
    return 0;
}
