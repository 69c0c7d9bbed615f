/* ref_sparse.c - mma.sp in the reference (ref_sparse.h). */
#include <stdlib.h>
#include "ref_sparse.h"

long ref_sp_kept(tc_fmt in, size_t k, const uint32_t *meta, size_t *kept)
{
    size_t chunk = in == TC_FMT_TF32 ? 2
                 : in == TC_FMT_INT4 || in == TC_FMT_UINT4 ? 8 : 4;
    if (k == 0 || k % chunk)
        return -1;
    size_t nib_count = k / chunk, words = (nib_count + 7) / 8;
    long n = 0;
    for (size_t q = 0; q < 8 * words; q++) {
        uint32_t nib = (meta[q / 8] >> (4 * (q % 8))) & 0xfu;
        if (q >= nib_count) {
            if (nib != 0)
                return -1; /* the unused tail of the last word */
            continue;
        }
        size_t base = q * chunk;
        if (chunk == 2) {
            if (nib == 0x4)
                kept[n++] = base;
            else if (nib == 0xe)
                kept[n++] = base + 1;
            else
                return -1;
            continue;
        }
        uint32_t first = nib & 0x3u, second = (nib >> 2) & 0x3u;
        if (!(first < second))
            return -1;
        if (chunk == 4) {
            kept[n++] = base + first;
            kept[n++] = base + second;
        } else {
            kept[n++] = base + 2 * first;
            kept[n++] = base + 2 * first + 1;
            kept[n++] = base + 2 * second;
            kept[n++] = base + 2 * second + 1;
        }
    }
    return n;
}

int ref_dot_sp(ref_ctx *w, const ref_profile *p, size_t k, const uint32_t *a,
               const uint32_t *meta, const uint32_t *b, uint32_t c, uint32_t *d)
{
    size_t *kept = malloc(k * sizeof *kept);
    uint32_t *bk = malloc(k * sizeof *bk);
    long n = kept && bk ? ref_sp_kept(p->in, k, meta, kept) : -1;
    int r = -1;
    if (n > 0) {
        for (long i = 0; i < n; i++)
            bk[i] = b[kept[i]];
        r = ref_dot(w, p, (size_t)n, a, bk, c, d);
    }
    free(kept);
    free(bk);
    return r;
}
