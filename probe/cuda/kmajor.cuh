/* kmajor.cuh - the shared-memory layout of a K-major operand without swizzling, which
 * wgmma (wgmma.cuh) and tcgen05.mma (tcgen05.cuh) both read through their matrix
 * descriptors: 8-row x 16-byte core matrices of 128 contiguous bytes (PTX ISA, "Shared
 * Memory Matrix Layout" / the canonical layouts of "Matrix Descriptors"). One
 * instruction's k is 32 bytes of each row (fp16 k16, tf32 k8, 8-bit k32), so a row group
 * holds two core matrices side by side, KM_KSTEP apart, and row groups are KM_RSTEP
 * apart. The descriptors name both steps; which one the hardware takes as the K step is
 * found on the GPU (probe_device.cu, layout_check). */
#ifndef TCSIM_PROBE_KMAJOR_CUH
#define TCSIM_PROBE_KMAJOR_CUH
#include <stdint.h>

enum { KM_KSTEP = 128, KM_RSTEP = 256, KM_ROW_BYTES = 32 };

/* The offset of byte b (< 32) of row r. */
__device__ __forceinline__ unsigned km_smem_at(unsigned r, unsigned b)
{
    return r / 8 * KM_RSTEP + b / 16 * KM_KSTEP + r % 8 * 16 + b % 16;
}

/* The tiles of one instruction into shared memory: A (m x k, row-major) as rows, B (k x n,
 * row-major, rows ldb apart: n, or a CTA pair's whole N of which this CTA holds n) by
 * columns (B's column j is the K-major operand's row j); elements of ebytes bytes,
 * little-endian, in 32-bit words. All the block's threads take part. */
__device__ __forceinline__ void km_load(uint8_t *sa, uint8_t *sb, const uint32_t *A,
                                        const uint32_t *B, unsigned m, unsigned n,
                                        unsigned ebytes, unsigned ldb)
{
    unsigned k = KM_ROW_BYTES / ebytes;
    for (unsigned i = threadIdx.x; i < m * KM_ROW_BYTES; i += blockDim.x) {
        unsigned r = i / KM_ROW_BYTES, b = i % KM_ROW_BYTES;
        sa[km_smem_at(r, b)] = (uint8_t)(A[r * k + b / ebytes] >> (b % ebytes * 8));
    }
    for (unsigned i = threadIdx.x; i < n * KM_ROW_BYTES; i += blockDim.x) {
        unsigned j = i / KM_ROW_BYTES, b = i % KM_ROW_BYTES;
        sb[km_smem_at(j, b)] = (uint8_t)(B[b / ebytes * ldb + j] >> (b % ebytes * 8));
    }
}

/* Generic-proxy stores to shared memory made visible to the tensor core's reads (the
 * async proxy: PTX ISA, "Proxies"). */
__device__ __forceinline__ void km_smem_fence()
{
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 900
    asm volatile("fence.proxy.async.shared::cta;\n" ::: "memory");
#endif
}

#endif
