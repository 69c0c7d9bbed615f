/* dot_sparse.c - mma.sp arithmetic (tcsim_sparse.h): the metadata decoded to the kept k
 * positions, then the profile's dense dot product over the kept products in k order
 * (docs/contract.md, "Forms beyond one input format"; measured bit-exact on an H200,
 * data/vectors/h200/mma_sp_*). The metadata encodings are the PTX ISA's (9.0, 9.7.14.6.1
 * "Sparse matrix storage"), quoted in tcsim_sparse.h. */
#include <stdlib.h>
#include "tcsim.h"
#include "fmt_table.h"

unsigned tc_sp_chunk(tc_fmt in)
{
    switch (in) {
    case TC_FMT_FP16: case TC_FMT_BF16: case TC_FMT_E4M3: case TC_FMT_E5M2:
    case TC_FMT_INT8: case TC_FMT_UINT8:
        return 4; /* 2:4 */
    case TC_FMT_TF32:
        return 2; /* 1:2 */
    case TC_FMT_INT4: case TC_FMT_UINT4:
        return 8; /* 4:8 in pairs */
    default:
        return 0;
    }
}

size_t tc_sp_meta_words(tc_fmt in, size_t k)
{
    unsigned ch = tc_sp_chunk(in);
    if (!ch || !k || k % ch)
        return 0;
    return (k / ch + 7) / 8;
}

/* Does the PTX target table have mma.sp for (in, acc) on arch a? */
static int ptx_has_sp(tc_arch a, tc_fmt in, tc_fmt acc)
{
    tc_ptx_instr r;
    for (size_t i = 0; tc_ptx_instr_get(i, &r) == TC_OK; i++)
        if (r.form == TC_PTX_MMA_SP && r.in == in && r.acc == acc && r.sm <= tc_arch_ptx_sm(a))
            return 1;
    return 0;
}

tc_status tc_profile_sparse(const tc_profile *p)
{
    if (!p)
        return TC_EINVAL;
    /* mma.sp is an mma form; wgmma.sp and tcgen05.mma.sp are not modelled (yet). A mixed
     * pair (e4m3 x e5m2) needs both formats' rows, as PTX lists each kind of f8 operand. */
    if (p->instr != TC_INSTR_MMA || p->kind == TC_KIND_MX || p->kind == TC_KIND_MXF4 ||
        !ptx_has_sp(p->arch, p->in, p->out) || !ptx_has_sp(p->arch, p->in_b, p->out))
        return TC_EUNSUPPORTED;
    return TC_OK;
}

/* The kept positions (within its chunk) of one nibble, in ascending order; 0 for a nibble
 * PTX calls invalid or undefined. */
static int nibble_kept(unsigned ch, unsigned nib, unsigned pos[4])
{
    if (ch == 2) { /* tf32: 0b0100 keeps element 0, 0b1110 element 1 */
        if (nib != 0x4 && nib != 0xe)
            return 0;
        pos[0] = nib == 0xe;
        return 1;
    }
    unsigned lo = nib & 3u, hi = nib >> 2;
    if (lo >= hi) /* equal indices, or descending: refused */
        return 0;
    if (ch == 4) {
        pos[0] = lo;
        pos[1] = hi;
    } else { /* 4:8 in pairs: index j keeps elements 2j, 2j+1 */
        pos[0] = 2 * lo;
        pos[1] = 2 * lo + 1;
        pos[2] = 2 * hi;
        pos[3] = 2 * hi + 1;
    }
    return 1;
}

tc_status tc_sp_kept(tc_fmt in, size_t k, const uint32_t *meta, size_t *kept)
{
    unsigned ch = tc_sp_chunk(in);
    if (!ch)
        return TC_EUNSUPPORTED;
    size_t words = tc_sp_meta_words(in, k);
    if (!words || !meta || !kept)
        return TC_EINVAL;
    size_t chunks = k / ch, n = 0;
    for (size_t q = 0; q < words * 8; q++) {
        unsigned nib = meta[q / 8] >> (4 * (q % 8)) & 15u, pos[4];
        if (q >= chunks) { /* past the row: must be zero */
            if (nib)
                return TC_EINVAL;
            continue;
        }
        if (!nibble_kept(ch, nib, pos))
            return TC_EINVAL;
        for (unsigned j = 0; j < ch / 2; j++)
            kept[n++] = q * ch + pos[j];
    }
    return TC_OK;
}

/* k up to this many is served from the stack (mma.sp's largest k is 128). */
enum { SP_STACK_K = 256 };

tc_status tc_dot_sp(const tc_profile *p, size_t k, const uint32_t *a, const uint32_t *meta,
                    const uint32_t *b, uint32_t c, uint32_t *d)
{
    tc_status st = tc_profile_sparse(p);
    if (st != TC_OK)
        return st;
    if (!a || !meta || !b || !d || !tc_sp_meta_words(p->in, k))
        return TC_EINVAL;
    /* the dropped B elements take no part, but garbage in them is still an error */
    if (!fmt_all_fit(p->in_b, k, b))
        return TC_EFORMAT;
    size_t kbuf[SP_STACK_K / 2], *kept = kbuf;
    uint32_t bbuf[SP_STACK_K / 2], *bsel = bbuf;
    if (k > SP_STACK_K) {
        kept = malloc(k / 2 * sizeof *kept);
        bsel = malloc(k / 2 * sizeof *bsel);
        if (!kept || !bsel) {
            free(kept);
            free(bsel);
            return TC_ENOMEM;
        }
    }
    st = tc_sp_kept(p->in, k, meta, kept);
    if (st == TC_OK) {
        for (size_t i = 0; i < k / 2; i++)
            bsel[i] = b[kept[i]];
        st = tc_dot(p, k / 2, a, bsel, c, d);
    }
    if (kept != kbuf) {
        free(kept);
        free(bsel);
    }
    return st;
}

tc_status tc_mma_sp_tile(const tc_profile *p, size_t M, size_t N, size_t K,
                         const uint32_t *A, const uint32_t *E, const uint32_t *B,
                         const uint32_t *C, uint32_t *D)
{
    tc_status st = tc_profile_sparse(p);
    if (st != TC_OK)
        return st;
    size_t W = tc_sp_meta_words(p->in, K);
    if (!A || !E || !B || !C || !D || !M || !N || !W)
        return TC_EINVAL;
    /* everything checked first: a failed call leaves D as it was */
    if (!fmt_all_fit(p->in, M * (K / 2), A) || !fmt_all_fit(p->in_b, K * N, B) ||
        !fmt_all_fit(p->out, M * N, C))
        return TC_EFORMAT;
    size_t *kept = malloc(K / 2 * sizeof *kept);
    uint32_t *col = malloc(K * sizeof *col);
    if (!kept || !col) {
        free(kept);
        free(col);
        return TC_ENOMEM;
    }
    for (size_t i = 0; i < M && st == TC_OK; i++)
        st = tc_sp_kept(p->in, K, E + i * W, kept);
    for (size_t j = 0; j < N && st == TC_OK; j++) {
        for (size_t x = 0; x < K; x++)
            col[x] = B[x * N + j];
        for (size_t i = 0; i < M && st == TC_OK; i++)
            st = tc_dot_sp(p, K, A + i * (K / 2), E + i * W, col, C[i * N + j], &D[i * N + j]);
    }
    free(kept);
    free(col);
    return st;
}
