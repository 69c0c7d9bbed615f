/* probe_canned.c - the device of the probe's tests (ctest -L probe): no GPU, results
 * from the model. Its mma runs the register fragments backwards (probe_frag.c) through
 * tc_mma_tile, so that the host's packing, the files and their reading by `tcsim vectors`
 * are tested end to end; its timing is the model's benchmark on the built-in record with
 * depth, ii_min, ii_extra, sparse_ii_extra and async_wait raised by
 * PROBE_CANNED_DEPTH_PLUS (default 3), PROBE_CANNED_II_PLUS (1), PROBE_CANNED_EXTRA_PLUS
 * (1), PROBE_CANNED_SPARSE_PLUS (1) and PROBE_CANNED_WAIT_PLUS (5) cycles, which the
 * record writer must find again. PROBE_CANNED_SM picks the target (default 90),
 * PROBE_CANNED_FLIP=1 flips the low bit of case 2's result of each mma form and case 3's
 * of each wgmma and tcgen05.mma form (a GPU that disagrees with the model). Mixed pairs
 * and the block-scaled kinds go through the model's profiles of them, fp64 (DMMA)
 * through tc_mma_tile_f64. */
#include <stdlib.h>
#include <string.h>
#include "probe.h"

static unsigned env_u(const char *name, unsigned def)
{
    const char *s = getenv(name);
    return s && *s ? (unsigned)strtoul(s, NULL, 10) : def;
}

int probe_dev_open(probe_gpu *g, char *err, size_t size)
{
    (void)err, (void)size;
    memset(g, 0, sizeof *g);
    g->sm = env_u("PROBE_CANNED_SM", 90);
    snprintf(g->name, sizeof g->name, "NVIDIA %s (canned: the tcsim model)",
             g->sm >= 100 ? "B200" : g->sm == 90 ? "H100" : g->sm == 89 ? "L40S" : "A100");
    snprintf(g->driver, sizeof g->driver, "canned");
    g->sms = 132;
    g->clock_mhz = 1830;
    return 0;
}

int probe_dev_mma(const probe_form *f, size_t nmma, const uint32_t *a_regs,
                  const uint32_t *b_regs, const uint32_t *c_regs, uint32_t *d_regs,
                  char *err, size_t size)
{
    probe_frag fr;
    const tc_profile *p;
    tc_arch arch = probe_arch_of_sm(env_u("PROBE_CANNED_SM", 90));
    if (probe_frag_of(f, &fr) != TC_OK || probe_profile(arch, f, &p) != TC_OK) {
        snprintf(err, size, "canned device: no mma for this form");
        return -1;
    }
    static uint32_t A[16 * 256], B[256 * 8]; /* k up to 256 (b1 m16n8k256) */
    uint32_t C[16 * 8], D[16 * 8];
    for (size_t t = 0; f->in == TC_FMT_FP64 && t < nmma; t++) { /* DMMA: binary64 tiles */
        uint64_t A64[16 * 16], B64[16 * 8], C64[16 * 8], D64[16 * 8];
        probe_frag_unpack_f64(f, a_regs + t * PROBE_LANES * fr.a_regs,
                              b_regs + t * PROBE_LANES * fr.b_regs,
                              c_regs + t * PROBE_LANES * fr.c_regs, A64, B64, C64);
        if (tc_mma_tile_f64(p, f->m, f->n, f->k, A64, B64, C64, D64) != TC_OK) {
            snprintf(err, size, "canned device: tc_mma_tile_f64 failed");
            return -1;
        }
        if (t == 0 && env_u("PROBE_CANNED_FLIP", 0))
            D64[2 * f->n + 2] ^= 1; /* case 2, as below */
        probe_frag_pack_d_f64(f, D64, d_regs + t * PROBE_LANES * fr.d_regs);
    }
    for (size_t t = 0; f->in != TC_FMT_FP64 && t < nmma; t++) {
        probe_frag_unpack_ab(f, a_regs + t * PROBE_LANES * fr.a_regs,
                             b_regs + t * PROBE_LANES * fr.b_regs,
                             c_regs + t * PROBE_LANES * fr.c_regs, A, B, C);
        unsigned k = f->k;
        if (f->sparse) { /* the contract's mma.sp: the dense step over the kept terms of
                            the metadata's pattern, in k order (A row-major m x k, B k x n) */
            uint32_t meta = a_regs[t * PROBE_LANES * fr.a_regs + fr.a_regs - 1];
            unsigned kept[2] = {meta & 3u, meta >> 2 & 3u};
            k = f->k / 2;
            for (unsigned r = 0; r < f->m; r++)
                for (unsigned x = 0; x < k; x++)
                    A[r * k + x] = A[r * f->k + x / 2 * 4 + kept[x % 2]];
            for (unsigned x = 0; x < k; x++)
                for (unsigned col = 0; col < f->n; col++)
                    B[x * f->n + col] = B[(x / 2 * 4 + kept[x % 2]) * f->n + col];
        }
        if (tc_mma_tile(p, f->m, f->n, k, A, B, C, D) != TC_OK) {
            snprintf(err, size, "canned device: tc_mma_tile failed");
            return -1;
        }
        if (t == 0 && env_u("PROBE_CANNED_FLIP", 0))
            D[2 * f->n + 2] ^= 1; /* case 2: the cancellation family, finite */
        probe_frag_pack_d(f, D, d_regs + t * PROBE_LANES * fr.d_regs);
    }
    return 0;
}

/* A wgmma's or tcgen05.mma's tiles straight through tc_mma_tile with the arch's profile
 * of the instruction. */
int probe_dev_tile(const probe_form *f, size_t ntiles, const uint32_t *A, const uint32_t *B,
                   const uint32_t *C, uint32_t *D, char *err, size_t size)
{
    const tc_profile *p;
    tc_arch arch = probe_arch_of_sm(env_u("PROBE_CANNED_SM", 90));
    if (f->kind || probe_profile(arch, f, &p) != TC_OK) {
        snprintf(err, size, "canned device: no %s for this form", tc_instr_name(f->instr));
        return -1;
    }
    size_t mk = (size_t)f->m * f->k, kn = (size_t)f->k * f->n, mn = (size_t)f->m * f->n;
    for (size_t t = 0; t < ntiles; t++) {
        if (tc_mma_tile(p, f->m, f->n, f->k, A + t * mk, B + t * kn, C + t * mn, D + t * mn) !=
            TC_OK) {
            snprintf(err, size, "canned device: tc_mma_tile failed");
            return -1;
        }
        if (t == 0 && env_u("PROBE_CANNED_FLIP", 0))
            D[3 * f->n + 3] ^= 1; /* case 3: the subnormal-product family, finite */
    }
    return 0;
}

/* A block-scaled tcgen05.mma's tiles element by element through tc_dot_scaled (the
 * model has no block-scaled tile). */
int probe_dev_tile_scaled(const probe_form *f, size_t ntiles, const uint32_t *A,
                          const uint32_t *B, const uint32_t *SA, const uint32_t *SB,
                          const uint32_t *C, uint32_t *D, char *err, size_t size)
{
    const tc_profile *p;
    tc_arch arch = probe_arch_of_sm(env_u("PROBE_CANNED_SM", 90));
    if (!f->kind || probe_profile(arch, f, &p) != TC_OK || f->k > 64) {
        snprintf(err, size, "canned device: no block-scaled tcgen05 for this form");
        return -1;
    }
    const unsigned nsf = f->k / f->block;
    const size_t mk = (size_t)f->m * f->k, kn = (size_t)f->k * f->n, mn = (size_t)f->m * f->n;
    for (size_t t = 0; t < ntiles; t++) {
        for (unsigned i = 0; i < f->m; i++)
            for (unsigned j = 0; j < f->n; j++) {
                uint32_t b[64];
                for (unsigned x = 0; x < f->k; x++)
                    b[x] = B[t * kn + x * f->n + j];
                if (tc_dot_scaled(p, f->k, A + t * mk + i * f->k, b, SA + (t * f->m + i) * nsf,
                                  SB + (t * f->n + j) * nsf, C[t * mn + i * f->n + j],
                                  &D[t * mn + i * f->n + j]) != TC_OK) {
                    snprintf(err, size, "canned device: tc_dot_scaled failed");
                    return -1;
                }
            }
        if (t == 0 && env_u("PROBE_CANNED_FLIP", 0))
            D[3 * f->n + 3] ^= 1; /* case 3, as probe_dev_tile's */
    }
    return 0;
}

int probe_dev_time(const probe_form *f, unsigned warps, unsigned ilp, unsigned iters,
                   uint64_t *cycles, char *err, size_t size)
{
    tc_gpu_timing g;
    tc_arch arch = probe_arch_of_sm(env_u("PROBE_CANNED_SM", 90));
    /* a CTA pair: this SM's half (tc_async_tcgen05_mma's cta_group 2) */
    tc_mma_op op = {f->pair ? f->m / 2 : f->m, f->n, f->k, f->in, f->acc, f->sparse};
    tc_bench_result r;
    if (tc_gpu_timing_find(tc_arch_name(arch), &g) != TC_OK) {
        snprintf(err, size, "canned device: no record");
        return -1;
    }
    g.depth += env_u("PROBE_CANNED_DEPTH_PLUS", 3);
    g.ii_min += env_u("PROBE_CANNED_II_PLUS", 1);
    g.ii_extra += env_u("PROBE_CANNED_EXTRA_PLUS", 1);
    g.sparse_ii_extra += env_u("PROBE_CANNED_SPARSE_PLUS", 1);
    g.async_wait += env_u("PROBE_CANNED_WAIT_PLUS", 5);
    tc_status st = f->instr == TC_INSTR_MMA ? tc_bench_mma(&g, &op, warps, ilp, iters, &r)
                                            : tc_bench_async(&g, &op, f->instr, warps, ilp,
                                                             iters, &r);
    if (st == TC_EUNSUPPORTED) { /* a form the timing model lacks (m8n8k4 after Volta):
                                    no point, as where a point does not fit */
        snprintf(err, size, "canned device: the model has no timing for this form");
        return 1;
    }
    if (st != TC_OK) {
        snprintf(err, size, "canned device: %s", tc_strerror(st));
        return -1;
    }
    *cycles = r.cycles;
    return 0;
}
