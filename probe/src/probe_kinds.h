/* probe_kinds.h - the kernels' kinds: one number per instruction and format pair, shared
 * by the host's mapping of a form (probe_device.c) and the CUDA kernels that run it
 * (cuda/probe_device.cu), so that the two cannot disagree. */
#ifndef TCSIM_PROBE_KINDS_H
#define TCSIM_PROBE_KINDS_H

enum probe_kind {
    /* mma.sync: m16n8k16 fp16/bf16, m16n8k8 tf32, m16n8k32 fp8 and 8-bit integers */
    PK_MMA_F16_F32, PK_MMA_F16_F16, PK_MMA_BF16_F32, PK_MMA_TF32_F32, PK_MMA_E4M3_F32,
    PK_MMA_E5M2_F32, PK_MMA_S8_S32, PK_MMA_U8_S32,
    /* wgmma.mma_async m64nNkK, A and B from shared memory */
    PK_WG_F16_F32, PK_WG_F16_F16, PK_WG_BF16_F32, PK_WG_TF32_F32, PK_WG_E4M3_F32,
    PK_WG_E4M3_F16, PK_WG_E5M2_F32, PK_WG_E5M2_F16, PK_WG_S8_S32, PK_WG_U8_S32,
    PK_COUNT
};
#define PK_IS_WGMMA(k) ((k) >= PK_WG_F16_F32 && (k) < PK_COUNT)
/* The wgmma numerics kernels run m64n8 (8 cases a warpgroup, on D's diagonal). */
#define PK_WG_NUMERICS_N 8

#endif
