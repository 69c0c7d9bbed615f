/* tcgen05.cuh - Blackwell's tcgen05.mma for the probe (PTX ISA 8.6+, sm_100a): tensor
 * memory (TMEM) allocated by one warp, A and B from shared memory through 64-bit matrix
 * descriptors, the 32-bit instruction descriptor, one thread issuing for the CTA
 * (cta_group::1), completion through tcgen05.commit to an mbarrier, and D moved between
 * TMEM and registers with tcgen05.st / tcgen05.ld (.32x32b: warp w of a warpgroup
 * reaches TMEM lanes 32w..32w+31, a thread its lane, one 32-bit column a register).
 * Compiled where the target has the instructions (sm_100a: __CUDA_ARCH_FEAT_SM100_ALL);
 * elsewhere every helper is empty and tc05_has() is false, so that a kernel can say so
 * (its missing flag) instead of waiting on an mbarrier nothing arrives at.
 *
 * Written and compiled (ptxas for sm_100a) but not yet run on a GPU: the descriptor
 * encodings below follow the PTX ISA's tables and are the first thing a run on a B200
 * checks (probe_device.cu's layout check finds which descriptor offset is the K step). */
#ifndef TCSIM_PROBE_TCGEN05_CUH
#define TCSIM_PROBE_TCGEN05_CUH
#include <stdint.h>
#include "kmajor.cuh"
#include "probe_kinds.h"

#if defined(__CUDA_ARCH_FEAT_SM100_ALL)
#define TC05_ON 1
#else
#define TC05_ON 0
#endif

/* A statement without operands, where the target has it. */
#if TC05_ON
#define TC_BARE(text) asm volatile(text "\n" ::: "memory")
#else
#define TC_BARE(text) (void)0
#endif

__host__ __device__ constexpr bool tc05_has()
{
    return TC05_ON;
}

/* TMEM has 512 columns of 128 lanes, 32 bits each; an allocation is a power of two of
 * columns from 32 (PTX ISA, "Tensor Memory Allocation and Management"). */
enum { TC_TMEM_COLS = 512, TC_ALLOC_MIN = 32 };
/* The numerics kernel's 32 columns: D at 0..15, the block-scaled kinds' scale factors of
 * A at 16..23 and of B at 24..31 (tc_sf_word's columns, 4 and 1 of them used). */
enum { TC_SFA_COL = 16, TC_SFB_COL = 24 };

/* ---- the two descriptors */

/* The shared-memory matrix descriptor of a K-major operand without swizzling (PTX ISA,
 * tcgen05 "Matrix Descriptors", the shared memory descriptor table):
 *   bits  0-13  start address, (addr & 0x3ffff) >> 4
 *   bits 16-29  leading dimension byte offset >> 4
 *   bits 32-45  stride dimension byte offset >> 4
 *   bits 46-48  the fixed constant 0b001 (the Blackwell descriptor's version: Hopper's
 *               wgmma descriptor has no such field)
 *   bits 49-51  base offset: 0, the operand is not in a swizzle pattern
 *   bit  52     leading offset mode: 0, relative
 *   bits 61-63  swizzling mode: 0, none
 * For the canonical K-major no-swizzle layout the leading offset is the step between the
 * two core matrices of a row group along K and the stride offset the step between row
 * groups (kmajor.cuh); swap 1 exchanges them, for the layout check of the first run. */
__host__ __device__ constexpr uint64_t tc_smem_desc_at(uint32_t a, int swap)
{
    return (uint64_t)((a & 0x3ffffu) >> 4) | (uint64_t)((swap ? KM_RSTEP : KM_KSTEP) >> 4) << 16 |
           (uint64_t)((swap ? KM_KSTEP : KM_RSTEP) >> 4) << 32 | (uint64_t)1 << 46;
}
/* Worked by hand from the table: address 0x400 -> 0x40; LBO 128 -> 8 at bit 16; SBO
 * 256 -> 16 at bit 32; the constant at bit 46. */
static_assert(tc_smem_desc_at(0x400, 0) == 0x0000401000080040ull, "smem descriptor");
static_assert(tc_smem_desc_at(0x400, 1) == 0x0000400800100040ull, "smem descriptor, swapped");

/* The descriptor of an operand at p in shared memory. */
__device__ __forceinline__ uint64_t tc_smem_desc(const void *p, int swap)
{
    return tc_smem_desc_at((uint32_t)__cvta_generic_to_shared(p), swap);
}

/* The instruction descriptor of kind::f16, tf32, f8f6f4 and i8 (PTX ISA, tcgen05.mma
 * "Instruction descriptor format for .kind::f16, .kind::tf32, .kind::f8f6f4 and
 * .kind::i8"):
 *   bits  0-1   sparsity selector: 0 (dense)
 *   bit   2     sparsity: 0, dense
 *   bit   3     saturate (i8): 0, wrap
 *   bits  4-5   D's format (dfmt: probe_kinds.h)
 *   bits  7-9   A's format (afmt), bits 10-12 B's (bfmt): kind::f8f6f4 mixes them
 *   bits 13, 14 negate A, negate B: 0
 *   bits 15, 16 transpose A, transpose B: 0, both K-major
 *   bits 17-22  N >> 3
 *   bits 24-28  M >> 4
 *   bits 30-31  maximum shift (.ws only): 0 */
__host__ __device__ constexpr uint32_t tc_idesc(unsigned dfmt, unsigned afmt, unsigned bfmt,
                                                unsigned m, unsigned n)
{
    return dfmt << 4 | afmt << 7 | bfmt << 10 | (n >> 3) << 17 | (m >> 4) << 24;
}

/* The instruction descriptor of the block-scaled kinds (PTX ISA, tcgen05.mma
 * "Instruction descriptor format for .kind::mxf8f6f4, .kind::mxf4 and .kind::mxf4nvf4"):
 *   bits  0-2   sparsity: 0, dense
 *   bits  4-5   B's scale-factor ID: 0, the first byte of its TMEM word
 *   bits  7-9   A's format (afmt), bits 10-12 B's (bfmt: probe_kinds.h)
 *   bits 13-16  negate and transpose A and B: 0, K-major
 *   bits 17-22  N >> 3
 *   bit  23     scale type (sfmt): ue4m3 0, ue8m0 1
 *   bits 24-28  M >> 4 (M = 128: 8, bit 27; the later tables' M >> 7 at bits 27-28 is
 *               the same bit)
 *   bits 29-30  A's scale-factor ID: 0
 *   bit  31     K size: 0, the dense K (32 for mxf8f6f4, 64 for mxf4 and mxf4nvf4) */
__host__ __device__ constexpr uint32_t tc_idesc_scaled(unsigned afmt, unsigned bfmt,
                                                       unsigned sfmt, unsigned m, unsigned n)
{
    return afmt << 7 | bfmt << 10 | (n >> 3) << 17 | sfmt << 23 | (m >> 4) << 24;
}

/* The instruction descriptor of kind KIND (PK_TC_FORMS or PK_TC_SCALED), shape m x n. */
template <int KIND>
__host__ __device__ constexpr uint32_t tc_idesc_of(unsigned m, unsigned n)
{
#define TC_IDESC_CASE(kind, in, inb, acc, ptx, dfmt, afmt, bfmt, k) \
    if (KIND == kind)                                                \
        return tc_idesc(dfmt, afmt, bfmt, m, n);
#define TC_IDESC_SCALED(kind, in, inb, scale, block, ptx, vec, afmt, bfmt, sfmt, k) \
    if (KIND == kind)                                                      \
        return tc_idesc_scaled(afmt, bfmt, sfmt, m, n);
    PK_TC_FORMS(TC_IDESC_CASE)
    PK_TC_PAIR_FORMS(TC_IDESC_CASE)
    PK_TC_SCALED(TC_IDESC_SCALED)
#undef TC_IDESC_CASE
#undef TC_IDESC_SCALED
    return 0;
}

/* Worked by hand from the first table, m128n256: M >> 4 = 8 at bit 24 (0x08000000), N >>
 * 3 = 32 at bit 17 (0x00400000); f16 -> f32: D 1 at bit 4 (0x10); bf16: A and B 1 at
 * bits 7 and 10 (0x480); tf32: 2 (0x900); e5m2 -> f16: D 0, A and B 1; s8: D 2 (0x20), 1.
 * The fp6/fp4 codes and a mixed pair: e3m2 -> f32: A and B 4 (0x200 | 0x1000); e4m3 x
 * e2m1 -> f32, n16 (N >> 3 = 2: 0x40000): A 0, B 5 at bit 10 (0x1400); e2m1 x e3m2 ->
 * f16: A 5 (0x280), B 4 (0x1000). */
static_assert(tc_idesc_of<PK_TC_F16_F32>(128, 256) == 0x08400010u, "f16 -> f32");
static_assert(tc_idesc_of<PK_TC_BF16_F32>(128, 256) == 0x08400490u, "bf16 -> f32");
static_assert(tc_idesc_of<PK_TC_TF32_F32>(128, 256) == 0x08400910u, "tf32 -> f32");
static_assert(tc_idesc_of<PK_TC_E5M2_F16>(128, 256) == 0x08400480u, "e5m2 -> f16");
static_assert(tc_idesc_of<PK_TC_S8_S32>(128, 16) == 0x080404a0u, "s8 -> s32, n16");
/* The pair's m256n256: M >> 4 = 16 at bit 24 (0x10000000), f16 -> f32 as above; its
 * s8 m256n32: M 0x10000000, N >> 3 = 4 at bit 17 (0x80000), D s32 and signed A and B as
 * s8's above (0x4a0). */
static_assert(tc_idesc_of<PK_TC2_S8_S32>(256, 32) == 0x100804a0u, "the pair's s8 m256n32");
static_assert(tc_idesc_of<PK_TC_E3M2_F32>(128, 256) == 0x08401210u &&
                  tc_idesc_of<PK_TC_E4M3xE2M1_F32>(128, 16) == 0x08041410u &&
                  tc_idesc_of<PK_TC_E2M1xE3M2_F16>(128, 256) == 0x08401280u &&
                  tc_idesc_of<PK_TC2_F16_F32>(256, 256) == 0x10400010u,
              "fp6/fp4, the mixed pairs' A and B fields, the pair's m256");
/* Worked by hand from the second table: mxf8f6f4 e2m1 m128n16: A and B 5 (0x280 |
 * 0x1400), N 2 at bit 17 (0x40000), ue8m0 1 at bit 23 (0x800000), M 8 at bit 24;
 * mxf4nvf4 with ue4m3 m128n256: A and B 1 (0x80 | 0x400), N 32 (0x400000), scale type
 * 0; mxf4 (ue8m0) m128n16: 0x480 | 0x40000 | 0x800000 | M. */
static_assert(tc_idesc_of<PK_TCS_MX_E2M1>(128, 16) == 0x08841680u &&
                  tc_idesc_of<PK_TCS_NVF4_UE4M3>(128, 256) == 0x08400480u &&
                  tc_idesc_of<PK_TCS_MXF4>(128, 16) == 0x08840480u,
              "the block-scaled descriptor: formats, scale type, N and M");

/* D of KIND is fp16: two elements a register with tcgen05.ld/st's pack::16b. */
template <int KIND>
__host__ __device__ constexpr bool tc_acc16()
{
#define TC_ACC16_CASE(kind, in, inb, acc, ptx, dfmt, afmt, bfmt, k) \
    if (KIND == kind)                                                \
        return dfmt == 0;
    PK_TC_FORMS(TC_ACC16_CASE)
    PK_TC_PAIR_FORMS(TC_ACC16_CASE)
#undef TC_ACC16_CASE
    return false;
}

/* ---- tensor memory */

/* Allocates cols columns (one whole warp; with G = 2, cta_group::2, one warp in each CTA
 * of the pair together): the address lands in *slot (shared memory). */
template <int G = 1>
__device__ __forceinline__ void tc_alloc(uint32_t *slot, unsigned cols)
{
#if TC05_ON
    if constexpr (G == 2) {
        asm volatile("tcgen05.alloc.cta_group::2.sync.aligned.shared::cta.b32 [%0], %1;\n"
                     :: "r"((uint32_t)__cvta_generic_to_shared(slot)), "r"(cols) : "memory");
        asm volatile("tcgen05.relinquish_alloc_permit.cta_group::2.sync.aligned;\n" ::: "memory");
    } else {
        asm volatile("tcgen05.alloc.cta_group::1.sync.aligned.shared::cta.b32 [%0], %1;\n"
                     :: "r"((uint32_t)__cvta_generic_to_shared(slot)), "r"(cols) : "memory");
        /* this CTA allocates no more: a CTA waiting to allocate need not wait for it */
        asm volatile("tcgen05.relinquish_alloc_permit.cta_group::1.sync.aligned;\n" ::: "memory");
    }
#endif
    (void)slot, (void)cols;
}

template <int G = 1>
__device__ __forceinline__ void tc_dealloc(uint32_t taddr, unsigned cols)
{
#if TC05_ON
    if constexpr (G == 2)
        asm volatile("tcgen05.dealloc.cta_group::2.sync.aligned.b32 %0, %1;\n"
                     :: "r"(taddr), "r"(cols) : "memory");
    else
        asm volatile("tcgen05.dealloc.cta_group::1.sync.aligned.b32 %0, %1;\n"
                     :: "r"(taddr), "r"(cols) : "memory");
#endif
    (void)taddr, (void)cols;
}

/* This CTA's rank in its cluster, and a barrier of the whole cluster (release before,
 * acquire after: the pair's shared memory and TMEM writes seen across it). */
__device__ __forceinline__ unsigned cl_rank()
{
    unsigned r = 0;
#if TC05_ON
    asm volatile("mov.u32 %0, %%cluster_ctarank;\n" : "=r"(r));
#endif
    return r;
}
__device__ __forceinline__ void cl_sync()
{
    TC_BARE("barrier.cluster.arrive.release.aligned;\nbarrier.cluster.wait.acquire.aligned;");
}

/* Order tcgen05 operations across a thread synchronisation (__syncthreads, an mbarrier
 * wait): before_sync in the thread whose tcgen05 work must come first, after_sync in
 * the one whose work must come after (PTX ISA, "tcgen05 memory consistency model"). */
__device__ __forceinline__ void tc_fence_before_sync()
{
    TC_BARE("tcgen05.fence::before_thread_sync;");
}
__device__ __forceinline__ void tc_fence_after_sync()
{
    TC_BARE("tcgen05.fence::after_thread_sync;");
}

/* The address of TMEM lane (32 * quarter), column col: lane in bits 31-16, column in 15-0. */
__device__ __forceinline__ uint32_t tc_at(uint32_t base, unsigned quarter, unsigned col)
{
    return base + ((32u * quarter) << 16) + col;
}

#define TC_R8 "{%0,%1,%2,%3,%4,%5,%6,%7}"
#define TC_OUT8 "=r"(v[0]), "=r"(v[1]), "=r"(v[2]), "=r"(v[3]), "=r"(v[4]), "=r"(v[5]), \
                "=r"(v[6]), "=r"(v[7])
#define TC_IN8 "r"(v[0]), "r"(v[1]), "r"(v[2]), "r"(v[3]), "r"(v[4]), "r"(v[5]), "r"(v[6]), \
               "r"(v[7])

/* 8 registers of a warp's 32 lanes to TMEM at taddr: 8 columns, or with PACK16 16
 * columns of 16-bit elements, two a register (low half the lower column). An fp16 D
 * is taken to hold an element a column, the layout pack::16b and unpack::16b move: the
 * fp16-output sets of the first run on a GPU confirm it or not. */
template <bool PACK16>
__device__ __forceinline__ void tc_st8(uint32_t taddr, const uint32_t *v)
{
#if TC05_ON
    if constexpr (PACK16)
        asm volatile("tcgen05.st.sync.aligned.32x32b.x8.unpack::16b.b32 [%8], " TC_R8 ";\n"
                     :: TC_IN8, "r"(taddr) : "memory");
    else
        asm volatile("tcgen05.st.sync.aligned.32x32b.x8.b32 [%8], " TC_R8 ";\n"
                     :: TC_IN8, "r"(taddr) : "memory");
#endif
    (void)taddr, (void)v;
}

/* The inverse of tc_st8; tc_wait_ld before the registers are read. */
template <bool PACK16>
__device__ __forceinline__ void tc_ld8(uint32_t taddr, uint32_t *v)
{
#if TC05_ON
    if constexpr (PACK16)
        asm volatile("tcgen05.ld.sync.aligned.32x32b.x8.pack::16b.b32 " TC_R8 ", [%8];\n"
                     : TC_OUT8 : "r"(taddr) : "memory");
    else
        asm volatile("tcgen05.ld.sync.aligned.32x32b.x8.b32 " TC_R8 ", [%8];\n"
                     : TC_OUT8 : "r"(taddr) : "memory");
#else
    for (int i = 0; i < 8; i++)
        v[i] = 0;
#endif
    (void)taddr;
}

/* The wait for this thread's tcgen05.st (before the mma may read them) and tcgen05.ld
 * (before their registers are read). */
__device__ __forceinline__ void tc_wait_st() { TC_BARE("tcgen05.wait::st.sync.aligned;"); }
__device__ __forceinline__ void tc_wait_ld() { TC_BARE("tcgen05.wait::ld.sync.aligned;"); }

/* ---- the instruction and its completion */

/* One tcgen05.mma of kind KIND from one thread: D (TMEM at d) = A * B + (acc ? D : 0),
 * the shape in idesc. 0 where the target lacks it. */
template <int KIND>
__device__ __forceinline__ int tc_mma(uint32_t d, uint64_t da, uint64_t db, uint32_t idesc,
                                      int acc)
{
#if TC05_ON
#define TC_MMA_ASM(kind, ptx, group)                                                       \
    if constexpr (KIND == kind) {                                                          \
        asm volatile("{\n.reg .pred p;\nsetp.ne.b32 p, %4, 0;\n"                           \
                     "tcgen05.mma.cta_group::" group ".kind::" ptx " [%0], %1, %2, %3, p;\n}\n" \
                     :: "r"(d), "l"(da), "l"(db), "r"(idesc), "r"(acc) : "memory");        \
        return 1;                                                                          \
    }
#define TC_MMA_CASE(kind, in, inb, acc_, ptx, dfmt, afmt, bfmt, k) TC_MMA_ASM(kind, ptx, "1")
#define TC_MMA2_CASE(kind, in, inb, acc_, ptx, dfmt, afmt, bfmt, k) TC_MMA_ASM(kind, ptx, "2")
    PK_TC_FORMS(TC_MMA_CASE)
    PK_TC_PAIR_FORMS(TC_MMA2_CASE)
#undef TC_MMA_CASE
#undef TC_MMA2_CASE
#undef TC_MMA_ASM
#endif
    (void)d, (void)da, (void)db, (void)idesc, (void)acc;
    return 0;
}

/* One block-scaled tcgen05.mma of kind KIND (PK_TC_SCALED) from one thread: as tc_mma,
 * A's scale factors from TMEM at sfa, B's at sfb (tc_sf_words lays them out). */
template <int KIND>
__device__ __forceinline__ int tc_mma_scaled(uint32_t d, uint64_t da, uint64_t db,
                                             uint32_t idesc, uint32_t sfa, uint32_t sfb,
                                             int acc)
{
#if TC05_ON
#define TC_MMAS_CASE(kind, in, inb, scale, block, ptx, vec, afmt, bfmt, sfmt, k)                       \
    if constexpr (KIND == kind) {                                                         \
        asm volatile("{\n.reg .pred p;\nsetp.ne.b32 p, %6, 0;\n"                           \
                     "tcgen05.mma.cta_group::1.kind::" ptx ".block_scale.scale_vec::" vec  \
                     " [%0], %1, %2, %3, [%4], [%5], p;\n}\n"                              \
                     :: "r"(d), "l"(da), "l"(db), "r"(idesc), "r"(sfa), "r"(sfb), "r"(acc)  \
                     : "memory");                                                         \
        return 1;                                                                         \
    }
    PK_TC_SCALED(TC_MMAS_CASE)
#undef TC_MMAS_CASE
#endif
    (void)d, (void)da, (void)db, (void)idesc, (void)sfa, (void)sfb, (void)acc;
    return 0;
}

/* The scale factors' layout in TMEM, as the 32x128b copy to all four lane quarters
 * (tcgen05.cp .32x128b.warpx4) leaves it: the scale of row r (A's row, or B's column)
 * and K block b of one instruction (b < k / block <= 4) is byte b of the word at lane
 * r % 32 of every quarter, column r / 32 from the base. A 128-row operand takes 4
 * columns, B's 16 columns one. Assumed from the PTX ISA's scale-factor figures, not yet
 * run: the first B200 run's scaled sets confirm it (every case of a set wrong: not so).
 * The word of lane `lane`, column col of rows (A: 128, B: n) with nsf scales a row. */
__host__ __device__ constexpr uint32_t tc_sf_word(const uint32_t *sf, unsigned rows,
                                                  unsigned nsf, unsigned lane, unsigned col)
{
    uint32_t w = 0;
    for (unsigned b = 0; b < nsf && lane + 32 * col < rows; b++)
        w |= (sf[(lane + 32 * col) * nsf + b] & 0xffu) << (8 * b);
    return w;
}
/* Worked by hand: rows 0..39 with two scales each, row r's (2r, 2r+1): lane 3, column 1
 * is row 35: bytes 70 (0x46) and 71 (0x47); lane 9, column 1 is row 41: none. */
constexpr uint32_t tc_sf_test[80] = {
    0,  1,  2,  3,  4,  5,  6,  7,  8,  9,  10, 11, 12, 13, 14, 15, 16, 17, 18, 19,
    20, 21, 22, 23, 24, 25, 26, 27, 28, 29, 30, 31, 32, 33, 34, 35, 36, 37, 38, 39,
    40, 41, 42, 43, 44, 45, 46, 47, 48, 49, 50, 51, 52, 53, 54, 55, 56, 57, 58, 59,
    60, 61, 62, 63, 64, 65, 66, 67, 68, 69, 70, 71, 72, 73, 74, 75, 76, 77, 78, 79};
static_assert(tc_sf_word(tc_sf_test, 40, 2, 3, 1) == 0x4746u, "scale word, row 35");
static_assert(tc_sf_word(tc_sf_test, 40, 2, 9, 1) == 0u, "scale word past the rows");

/* The tcgen05.mma this thread issued since its last commit arrive, when done, once on
 * the mbarrier at bar (shared memory of this CTA, in the cluster window). */
__device__ __forceinline__ void tc_commit(uint64_t *bar)
{
#if TC05_ON
    asm volatile("tcgen05.commit.cta_group::1.mbarrier::arrive::one.shared::cluster.b64 [%0];\n"
                 :: "r"((uint32_t)__cvta_generic_to_shared(bar)) : "memory");
#endif
    (void)bar;
}

/* The pair's tcgen05.mma this thread issued since its last commit arrive, when done,
 * once on the mbarrier at bar's offset in each CTA of the pair (multicast, mask 0b11). */
__device__ __forceinline__ void tc_commit2(uint64_t *bar)
{
#if TC05_ON
    asm volatile("tcgen05.commit.cta_group::2.mbarrier::arrive::one.shared::cluster"
                 ".multicast::cluster.b64 [%0], %1;\n"
                 :: "r"((uint32_t)__cvta_generic_to_shared(bar)), "h"((uint16_t)3) : "memory");
#endif
    (void)bar;
}

/* An mbarrier of `count` arrivals a phase (one thread, before the CTA synchronises). */
__device__ __forceinline__ void mbar_init(uint64_t *bar, unsigned count)
{
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 800
    asm volatile("mbarrier.init.shared::cta.b64 [%0], %1;\n"
                 :: "r"((uint32_t)__cvta_generic_to_shared(bar)), "r"(count) : "memory");
#endif
    (void)bar, (void)count;
}

/* Waits until the phase of parity `parity` of the mbarrier at bar has completed. */
__device__ __forceinline__ void mbar_wait(uint64_t *bar, unsigned parity)
{
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 900
    uint32_t a = (uint32_t)__cvta_generic_to_shared(bar), done = 0;
    while (!done)
        asm volatile("{\n.reg .pred p;\nmbarrier.try_wait.parity.shared::cta.b64 p, [%1], %2;\n"
                     "selp.u32 %0, 1, 0, p;\n}\n"
                     : "=r"(done) : "r"(a), "r"(parity) : "memory");
#endif
    (void)bar, (void)parity;
}

#endif
