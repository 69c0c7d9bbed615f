/* probe_device.c - the probe's device on a CUDA GPU: maps a form to the kernels of
 * cuda/probe_device.cu (probe_cuda_*, a C ABI; the kinds of probe_kinds.h) and back. */
#include <stdlib.h>
#include <string.h>
#include "probe.h"
#include "probe_kinds.h"

int probe_cuda_open(char *name, size_t name_size, char *driver, size_t drv_size,
                    unsigned *sm, unsigned *sms, unsigned *clock_mhz, char *err, size_t size);
int probe_cuda_mma(int kind, size_t nmma, unsigned na, unsigned nb, unsigned nc,
                   const uint32_t *a, const uint32_t *b, const uint32_t *c, uint32_t *d,
                   char *err, size_t size);
int probe_cuda_tile(int kind, size_t ntiles, unsigned ebytes, unsigned k, const uint32_t *A,
                    const uint32_t *B, const uint32_t *C, uint32_t *D, const uint32_t *SA,
                    const uint32_t *SB, unsigned nsf, char *err, size_t size);
int probe_cuda_time(int kind, unsigned n, unsigned warps, unsigned ilp, unsigned iters,
                    unsigned long long *cycles, char *err, size_t size);

int probe_dev_open(probe_gpu *g, char *err, size_t size)
{
    return probe_cuda_open(g->name, sizeof g->name, g->driver, sizeof g->driver, &g->sm,
                           &g->sms, &g->clock_mhz, err, size);
}

int probe_dev_mma(const probe_form *f, size_t nmma, const uint32_t *a_regs,
                  const uint32_t *b_regs, const uint32_t *c_regs, uint32_t *d_regs,
                  char *err, size_t size)
{
    probe_frag fr;
    int k = probe_kind(f);
    if (k < 0 || PK_IS_WGMMA(k) || probe_frag_of(f, &fr) != TC_OK) {
        snprintf(err, size, "no numerics kernel for this form");
        return -1;
    }
    return probe_cuda_mma(k, nmma, fr.a_regs, fr.b_regs, fr.c_regs, a_regs, b_regs, c_regs,
                          d_regs, err, size);
}

/* The tiles as the kernels copy them to shared memory (probe_smem_row), then run. */
static int tile(const probe_form *f, size_t ntiles, const uint32_t *A, const uint32_t *B,
                const uint32_t *SA, const uint32_t *SB, const uint32_t *C, uint32_t *D,
                char *err, size_t size)
{
    int k = probe_kind(f);
    int wg = k >= 0 && PK_IS_WGMMA(k) && f->m == 64 && f->n == PK_WG_NUMERICS_N;
    int tc = k >= 0 && PK_IS_TCGEN05(k) &&
             (PK_IS_TC_PAIR(k) ? f->m == PK_TC2_NUMERICS_M && f->n == PK_TC2_NUMERICS_N
                               : f->m == PK_TC_NUMERICS_M && f->n == PK_TC_NUMERICS_N);
    if (!(wg || tc) || !f->numerics || !SA != !PK_IS_TC_SCALED(k)) {
        snprintf(err, size, "no wgmma or tcgen05.mma numerics kernel for this form");
        return -1;
    }
    const int packed = f->kind && strcmp(f->kind, "mxf8f6f4") != 0;
    const size_t mk = (size_t)f->m * f->k, kn = (size_t)f->k * f->n;
    uint32_t *sA = malloc(ntiles * mk * sizeof *sA), *sB = malloc(ntiles * kn * sizeof *sB);
    if (!sA || !sB) {
        free(sA), free(sB);
        snprintf(err, size, "out of memory");
        return -1;
    }
    unsigned kw = f->k; /* words a row: f->k, or mxf4's bytes */
    for (size_t t = 0; t < ntiles; t++) { /* B by columns, back row-major (k x n) */
        uint32_t col[64];
        for (unsigned i = 0; i < f->m; i++)
            kw = probe_smem_row(f->in, packed, A + t * mk + i * f->k, f->k, 1, sA + t * mk + i * kw);
        for (unsigned j = 0; j < f->n; j++) {
            probe_smem_row(probe_fmt_b(f), packed, B + t * kn + j, f->k, f->n, col);
            for (unsigned x = 0; x < kw; x++)
                sB[t * kn + x * f->n + j] = col[x];
        }
    }
    for (size_t t = 1; kw != f->k && t < ntiles; t++) { /* tiles at their packed size */
        memmove(sA + t * f->m * kw, sA + t * mk, f->m * kw * sizeof *sA);
        memmove(sB + t * kw * f->n, sB + t * kn, kw * f->n * sizeof *sB);
    }
    unsigned ebytes = f->in == TC_FMT_TF32 ? 4 : tc_fmt_get(f->in)->width > 8 ? 2 : 1;
    int rc = probe_cuda_tile(k, ntiles, ebytes, kw, sA, sB, C, D, SA, SB,
                             f->kind ? f->k / f->block : 0, err, size);
    free(sA), free(sB);
    return rc;
}

int probe_dev_tile(const probe_form *f, size_t ntiles, const uint32_t *A, const uint32_t *B,
                   const uint32_t *C, uint32_t *D, char *err, size_t size)
{
    return tile(f, ntiles, A, B, NULL, NULL, C, D, err, size);
}

int probe_dev_tile_scaled(const probe_form *f, size_t ntiles, const uint32_t *A,
                          const uint32_t *B, const uint32_t *SA, const uint32_t *SB,
                          const uint32_t *C, uint32_t *D, char *err, size_t size)
{
    return tile(f, ntiles, A, B, SA, SB, C, D, err, size);
}

int probe_dev_time(const probe_form *f, unsigned warps, unsigned ilp, unsigned iters,
                   uint64_t *cycles, char *err, size_t size)
{
    int k = probe_kind(f);
    unsigned long long c = 0;
    if (k < 0) {
        snprintf(err, size, "no timing kernel for this form");
        return -1;
    }
    int rc = probe_cuda_time(k, f->n, warps, ilp, iters, &c, err, size);
    *cycles = c;
    return rc;
}
