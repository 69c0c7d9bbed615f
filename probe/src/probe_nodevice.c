/* probe_nodevice.c - the device of a tcsim-probe built without nvcc: it lists targets
 * (--list --sm NN) and says why it measures nothing. */
#include "probe.h"

int probe_dev_open(probe_gpu *g, char *err, size_t size)
{
    (void)g;
    snprintf(err, size, "built without CUDA (nvcc was not found): no GPU to measure");
    return -1;
}

int probe_dev_mma(const probe_form *f, size_t nmma, const uint32_t *a_regs,
                  const uint32_t *b_regs, const uint32_t *c_regs, uint32_t *d_regs,
                  char *err, size_t size)
{
    (void)f, (void)nmma, (void)a_regs, (void)b_regs, (void)c_regs, (void)d_regs;
    snprintf(err, size, "built without CUDA");
    return -1;
}

int probe_dev_tile(const probe_form *f, size_t ntiles, const uint32_t *A, const uint32_t *B,
                   const uint32_t *C, uint32_t *D, char *err, size_t size)
{
    (void)f, (void)ntiles, (void)A, (void)B, (void)C, (void)D;
    snprintf(err, size, "built without CUDA");
    return -1;
}

int probe_dev_tile_scaled(const probe_form *f, size_t ntiles, const uint32_t *A,
                          const uint32_t *B, const uint32_t *SA, const uint32_t *SB,
                          const uint32_t *C, uint32_t *D, char *err, size_t size)
{
    (void)f, (void)ntiles, (void)A, (void)B, (void)SA, (void)SB, (void)C, (void)D;
    snprintf(err, size, "built without CUDA");
    return -1;
}

int probe_dev_time(const probe_form *f, unsigned warps, unsigned ilp, unsigned iters,
                   uint64_t *cycles, char *err, size_t size)
{
    (void)f, (void)warps, (void)ilp, (void)iters, (void)cycles;
    snprintf(err, size, "built without CUDA");
    return -1;
}
