/* probe_device.c - the probe's device on a CUDA GPU: maps a form to the kernels of
 * cuda/probe_device.cu (probe_cuda_*, a C ABI; the kinds of probe_kinds.h) and back. */
#include "probe.h"
#include "probe_kinds.h"

int probe_cuda_open(char *name, size_t name_size, char *driver, size_t drv_size,
                    unsigned *sm, unsigned *sms, unsigned *clock_mhz, char *err, size_t size);
int probe_cuda_mma(int kind, size_t nmma, unsigned na, unsigned nb, unsigned nc,
                   const uint32_t *a, const uint32_t *b, const uint32_t *c, uint32_t *d,
                   char *err, size_t size);
int probe_cuda_tile(int kind, size_t ntiles, unsigned ebytes, unsigned k, const uint32_t *A,
                    const uint32_t *B, const uint32_t *C, uint32_t *D, char *err, size_t size);
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

int probe_dev_tile(const probe_form *f, size_t ntiles, const uint32_t *A, const uint32_t *B,
                   const uint32_t *C, uint32_t *D, char *err, size_t size)
{
    int k = probe_kind(f);
    int wg = k >= 0 && PK_IS_WGMMA(k) && f->m == 64 && f->n == PK_WG_NUMERICS_N;
    int tc = k >= 0 && PK_IS_TCGEN05(k) && f->m == PK_TC_NUMERICS_M && f->n == PK_TC_NUMERICS_N;
    if (!(wg || tc) || !f->numerics) {
        snprintf(err, size, "no wgmma or tcgen05.mma numerics kernel for this form");
        return -1;
    }
    unsigned ebytes = f->in == TC_FMT_TF32 ? 4 : tc_fmt_get(f->in)->width / 8;
    return probe_cuda_tile(k, ntiles, ebytes, f->k, A, B, C, D, err, size);
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
