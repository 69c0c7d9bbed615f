/* wgmma.cuh - Hopper's wgmma.mma_async for the probe: one wrapper per format kind
 * (probe_kinds.h) and N, A and B from shared memory through matrix descriptors, D in the
 * thread's accumulator registers (N/2 32-bit words, N/4 for fp16 accumulators: PTX ISA,
 * "Register fragments and shared memory matrix layouts" of wgmma). Compiled where the
 * target has the instruction (sm_90a); elsewhere each wrapper reports its absence.
 *
 * An inline PTX statement names its operands by number, so the register lists are
 * spelled out once per count below (WG_D*), and the descriptors follow them (WG_AB*). */
#ifndef TCSIM_PROBE_WGMMA_CUH
#define TCSIM_PROBE_WGMMA_CUH
#include <stdint.h>
#include "kmajor.cuh"
#include "probe_kinds.h"

#define WG_D2 "{%0,%1}"
#define WG_AB2 "%2, %3"
#define WG_D4 "{%0,%1,%2,%3}"
#define WG_AB4 "%4, %5"
#define WG_D8 "{%0,%1,%2,%3,%4,%5,%6,%7}"
#define WG_AB8 "%8, %9"
#define WG_D16 "{%0,%1,%2,%3,%4,%5,%6,%7,%8,%9,%10,%11,%12,%13,%14,%15}"
#define WG_AB16 "%16, %17"
#define WG_D32 "{%0,%1,%2,%3,%4,%5,%6,%7,%8,%9,%10,%11,%12,%13,%14,%15,%16,%17,%18,%19,%20,%21,%22,%23,%24,%25,%26,%27,%28,%29,%30,%31}"
#define WG_AB32 "%32, %33"
#define WG_D64 "{%0,%1,%2,%3,%4,%5,%6,%7,%8,%9,%10,%11,%12,%13,%14,%15,%16,%17,%18,%19,%20,%21,%22,%23,%24,%25,%26,%27,%28,%29,%30,%31,%32,%33,%34,%35,%36,%37,%38,%39,%40,%41,%42,%43,%44,%45,%46,%47,%48,%49,%50,%51,%52,%53,%54,%55,%56,%57,%58,%59,%60,%61,%62,%63}"
#define WG_AB64 "%64, %65"
#define WG_D128 "{%0,%1,%2,%3,%4,%5,%6,%7,%8,%9,%10,%11,%12,%13,%14,%15,%16,%17,%18,%19,%20,%21,%22,%23,%24,%25,%26,%27,%28,%29,%30,%31,%32,%33,%34,%35,%36,%37,%38,%39,%40,%41,%42,%43,%44,%45,%46,%47,%48,%49,%50,%51,%52,%53,%54,%55,%56,%57,%58,%59,%60,%61,%62,%63,%64,%65,%66,%67,%68,%69,%70,%71,%72,%73,%74,%75,%76,%77,%78,%79,%80,%81,%82,%83,%84,%85,%86,%87,%88,%89,%90,%91,%92,%93,%94,%95,%96,%97,%98,%99,%100,%101,%102,%103,%104,%105,%106,%107,%108,%109,%110,%111,%112,%113,%114,%115,%116,%117,%118,%119,%120,%121,%122,%123,%124,%125,%126,%127}"
#define WG_AB128 "%128, %129"

#define WG_O1(o) "+r"(d[o])
#define WG_O2(o) WG_O1(o), WG_O1(o + 1)
#define WG_O4(o) WG_O2(o), WG_O2(o + 2)
#define WG_O8(o) WG_O4(o), WG_O4(o + 4)
#define WG_O16(o) WG_O8(o), WG_O8(o + 8)
#define WG_O32(o) WG_O16(o), WG_O16(o + 16)
#define WG_O64(o) WG_O32(o), WG_O32(o + 32)
#define WG_O128(o) WG_O64(o), WG_O64(o + 64)

/* The accumulator words of a thread: N/2, or N/4 for fp16. */
template <int KIND>
__host__ __device__ constexpr int wg_acc16()
{
    return KIND == PK_WG_F16_F16 || KIND == PK_WG_E4M3_F16 || KIND == PK_WG_E5M2_F16 ||
           KIND == PK_WG_E4M3xE5M2_F16 || KIND == PK_WG_E5M2xE4M3_F16;
}
template <int KIND, int N>
__host__ __device__ constexpr int wg_regs()
{
    return wg_acc16<KIND>() ? N / 4 : N / 2;
}
/* The instruction's k: 32 bytes of each row of A and column of B. */
template <int KIND>
__host__ __device__ constexpr int wg_k()
{
    return KIND == PK_WG_TF32_F32 ? 8
         : KIND == PK_WG_F16_F32 || KIND == PK_WG_F16_F16 || KIND == PK_WG_BF16_F32 ? 16 : 32;
}

/* scale-d is the predicate p (true: D = A * B + D); f16/bf16 take imm-scale-a/b and
 * imm-trans-a/b (1, 1, 0, 0: no negation, both K-major), tf32 and fp8 the scales alone,
 * the integer kinds neither. */
#define WG_ASM(R, shape, types, tail)                                                        \
    asm volatile("{\n.reg .pred p;\nsetp.ne.b32 p, 1, 0;\nwgmma.mma_async.sync.aligned." shape \
                 types " " WG_D##R ", " WG_AB##R ", p" tail ";\n}\n"                         \
                 : WG_O##R(0)                                                               \
                 : "l"(da), "l"(db)                                                         \
                 : "memory")
#define WG_ROW(kind, n, r, k, types, tail)           \
    if constexpr (KIND == kind && N == n) {          \
        WG_ASM(r, "m64n" #n "k" #k, types, tail);   \
        return 1;                                    \
    }
#define WG_KIND32(kind, k, types, tail)                                                  \
    WG_ROW(kind, 8, 4, k, types, tail) WG_ROW(kind, 16, 8, k, types, tail)               \
    WG_ROW(kind, 32, 16, k, types, tail) WG_ROW(kind, 64, 32, k, types, tail)            \
    WG_ROW(kind, 128, 64, k, types, tail) WG_ROW(kind, 256, 128, k, types, tail)
#define WG_KIND16(kind, k, types, tail)                                                  \
    WG_ROW(kind, 8, 2, k, types, tail) WG_ROW(kind, 16, 4, k, types, tail)               \
    WG_ROW(kind, 32, 8, k, types, tail) WG_ROW(kind, 64, 16, k, types, tail)             \
    WG_ROW(kind, 128, 32, k, types, tail) WG_ROW(kind, 256, 64, k, types, tail)

/* One wgmma of kind KIND, shape m64nNk: d += A * B. 0 where the target lacks it. */
template <int KIND, int N>
__device__ __forceinline__ int wgmma(uint32_t *d, uint64_t da, uint64_t db)
{
#if defined(__CUDA_ARCH_FEAT_SM90_ALL)
    WG_KIND32(PK_WG_F16_F32, 16, ".f32.f16.f16", ", 1, 1, 0, 0")
    WG_KIND16(PK_WG_F16_F16, 16, ".f16.f16.f16", ", 1, 1, 0, 0")
    WG_KIND32(PK_WG_BF16_F32, 16, ".f32.bf16.bf16", ", 1, 1, 0, 0")
    WG_KIND32(PK_WG_TF32_F32, 8, ".f32.tf32.tf32", ", 1, 1")
    WG_KIND32(PK_WG_E4M3_F32, 32, ".f32.e4m3.e4m3", ", 1, 1")
    WG_KIND16(PK_WG_E4M3_F16, 32, ".f16.e4m3.e4m3", ", 1, 1")
    WG_KIND32(PK_WG_E5M2_F32, 32, ".f32.e5m2.e5m2", ", 1, 1")
    WG_KIND16(PK_WG_E5M2_F16, 32, ".f16.e5m2.e5m2", ", 1, 1")
    WG_KIND32(PK_WG_S8_S32, 32, ".s32.s8.s8", "")
    WG_KIND32(PK_WG_U8_S32, 32, ".s32.u8.u8", "")
    WG_KIND32(PK_WG_E4M3xE5M2_F32, 32, ".f32.e4m3.e5m2", ", 1, 1")
    WG_KIND16(PK_WG_E4M3xE5M2_F16, 32, ".f16.e4m3.e5m2", ", 1, 1")
    WG_KIND32(PK_WG_E5M2xE4M3_F32, 32, ".f32.e5m2.e4m3", ", 1, 1")
    WG_KIND16(PK_WG_E5M2xE4M3_F16, 32, ".f16.e5m2.e4m3", ", 1, 1")
    WG_KIND32(PK_WG_S8xU8_S32, 32, ".s32.s8.u8", "")
    WG_KIND32(PK_WG_U8xS8_S32, 32, ".s32.u8.s8", "")
#endif
    (void)d, (void)da, (void)db;
    return 0;
}

__device__ __forceinline__ void wg_fence()
{
#if defined(__CUDA_ARCH_FEAT_SM90_ALL)
    asm volatile("wgmma.fence.sync.aligned;\n" ::: "memory");
#endif
}
/* Commits the wgmmas issued since the last commit as a group and waits for all groups. */
__device__ __forceinline__ void wg_commit_wait()
{
#if defined(__CUDA_ARCH_FEAT_SM90_ALL)
    asm volatile("wgmma.commit_group.sync.aligned;\n" ::: "memory");
    asm volatile("wgmma.wait_group.sync.aligned 0;\n" ::: "memory");
#endif
}
/* The matrix descriptor of a K-major operand in kmajor.cuh's layout (PTX ISA, "Matrix
 * Descriptor Format"): start address, leading and stride byte offsets in 16-byte units,
 * no swizzle. Which offset the hardware takes as the K step is checked on the GPU
 * (probe_device.cu, layout_check): swap 1 exchanges them. */
__device__ __forceinline__ uint64_t wg_desc(const void *p, int swap)
{
    uint32_t a = (uint32_t)__cvta_generic_to_shared(p);
    uint64_t lbo = swap ? KM_RSTEP : KM_KSTEP, sbo = swap ? KM_KSTEP : KM_RSTEP;
    return (uint64_t)((a & 0x3ffffu) >> 4) | (lbo >> 4) << 16 | (sbo >> 4) << 32;
}

#endif
