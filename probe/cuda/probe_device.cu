/* probe_device.cu - the kernels of tcsim-probe: run mma.sync on register words the host
 * packed (probe_frag.c holds the layouts), wgmma and tcgen05.mma on tiles (the
 * shared-memory layout is kmajor.cuh's; tcgen05.cuh's kernels are compiled but not yet
 * run on a GPU), and time seed 004's loops (clock64 around the loop, the empty loop's
 * cycles subtracted) for all three. A thin C ABI (probe_cuda_*) for
 * probe_device.c; no host logic here. Each instruction is compiled for the targets that
 * have it (__CUDA_ARCH__ guards); a kernel run on a target without it reports so through
 * its flag. */
#include <cuda_runtime.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include "probe_kinds.h"
#include "tcgen05.cuh"
#include "wgmma.cuh"

/* The register lists of the fragments (probe_kinds.h's regs names): A, B, C/D. */
#define PK_OUT2 "=r"(d[0]), "=r"(d[1])
#define PK_OUT4 PK_OUT2, "=r"(d[2]), "=r"(d[3])
#define PK_OUT8 PK_OUT4, "=r"(d[4]), "=r"(d[5]), "=r"(d[6]), "=r"(d[7])
#define PK_IN1(x) "r"(x[0])
#define PK_IN2(x) PK_IN1(x), "r"(x[1])
#define PK_IN4(x) PK_IN2(x), "r"(x[2]), "r"(x[3])
#define PK_IN8(x) PK_IN4(x), "r"(x[4]), "r"(x[5]), "r"(x[6]), "r"(x[7])
/* One instruction: its opcode, shape and types, operand list and registers. */
#define PK_ASM(op, t, list, out, ...) asm volatile(op t list ";\n" : out : __VA_ARGS__)
#define PK_DENSE "mma.sync.aligned."
#define PK_ASM_A4B2C4(t) PK_ASM(PK_DENSE, t, " {%0,%1,%2,%3}, {%4,%5,%6,%7}, {%8,%9}, {%10,%11,%12,%13}", PK_OUT4, PK_IN4(a), PK_IN2(b), PK_IN4(c))
#define PK_ASM_A4B2C2(t) PK_ASM(PK_DENSE, t, " {%0,%1}, {%2,%3,%4,%5}, {%6,%7}, {%8,%9}", PK_OUT2, PK_IN4(a), PK_IN2(b), PK_IN2(c))
#define PK_ASM_A2B1C4(t) PK_ASM(PK_DENSE, t, " {%0,%1,%2,%3}, {%4,%5}, {%6}, {%7,%8,%9,%10}", PK_OUT4, PK_IN2(a), PK_IN1(b), PK_IN4(c))
#define PK_ASM_A2B1C2(t) PK_ASM(PK_DENSE, t, " {%0,%1}, {%2,%3}, {%4}, {%5,%6}", PK_OUT2, PK_IN2(a), PK_IN1(b), PK_IN2(c))
#define PK_ASM_A1B1C2(t) PK_ASM(PK_DENSE, t, " {%0,%1}, {%2}, {%3}, {%4,%5}", PK_OUT2, PK_IN1(a), PK_IN1(b), PK_IN2(c))
#define PK_ASM_A2B2C8(t) PK_ASM(PK_DENSE, t, " {%0,%1,%2,%3,%4,%5,%6,%7}, {%8,%9}, {%10,%11}, {%12,%13,%14,%15,%16,%17,%18,%19}", PK_OUT8, PK_IN2(a), PK_IN2(b), PK_IN8(c))
#define PK_ASM_A2B2C4(t) PK_ASM(PK_DENSE, t, " {%0,%1,%2,%3}, {%4,%5}, {%6,%7}, {%8,%9,%10,%11}", PK_OUT4, PK_IN2(a), PK_IN2(b), PK_IN4(c))
/* mma.sp: the metadata register e and sparsity selector 0 after C */
#define PK_SPARSE "mma.sp::ordered_metadata.sync.aligned."
#define PK_ASM_SP_A2B2C4(t) PK_ASM(PK_SPARSE, t, " {%0,%1,%2,%3}, {%4,%5}, {%6,%7}, {%8,%9,%10,%11}, %12, 0x0", PK_OUT4, PK_IN2(a), PK_IN2(b), PK_IN4(c), "r"(e))
#define PK_ASM_SP_A2B2C2(t) PK_ASM(PK_SPARSE, t, " {%0,%1}, {%2,%3}, {%4,%5}, {%6,%7}, %8, 0x0", PK_OUT2, PK_IN2(a), PK_IN2(b), PK_IN2(c), "r"(e))
#define PK_ASM_SP_A4B4C4(t) PK_ASM(PK_SPARSE, t, " {%0,%1,%2,%3}, {%4,%5,%6,%7}, {%8,%9,%10,%11}, {%12,%13,%14,%15}, %16, 0x0", PK_OUT4, PK_IN4(a), PK_IN4(b), PK_IN4(c), "r"(e))
#define PK_ASM_SP_A4B4C2(t) PK_ASM(PK_SPARSE, t, " {%0,%1}, {%2,%3,%4,%5}, {%6,%7,%8,%9}, {%10,%11}, %12, 0x0", PK_OUT2, PK_IN4(a), PK_IN4(b), PK_IN2(c), "r"(e))
/* fp64 (DMMA, the D_ register lists): .f64 registers ("d"), each joined from a pair of
 * the host's words, low word first (probe_frag.c), and D split back the same way. */
#define PK_DOUT2 "=d"(dd[0]), "=d"(dd[1])
#define PK_DOUT4 PK_DOUT2, "=d"(dd[2]), "=d"(dd[3])
#define PK_DIN1(x) "d"(x[0])
#define PK_DIN2(x) PK_DIN1(x), "d"(x[1])
#define PK_DIN4(x) PK_DIN2(x), "d"(x[2]), "d"(x[3])
#define PK_DIN8(x) PK_DIN4(x), "d"(x[4]), "d"(x[5]), "d"(x[6]), "d"(x[7])
#define PK_F64(na, nb, nc, stmt)                                         \
    {                                                                    \
        double da[8], db[4], dc[4], dd[4];                               \
        pk_join(da, a, na), pk_join(db, b, nb), pk_join(dc, c, nc);      \
        stmt;                                                            \
        pk_split(d, dd, nc);                                             \
    }
#define PK_ASM_D_A1B1C2(t) PK_F64(1, 1, 2, PK_ASM(PK_DENSE, t, " {%0,%1}, {%2}, {%3}, {%4,%5}", PK_DOUT2, PK_DIN1(da), PK_DIN1(db), PK_DIN2(dc)))
#define PK_ASM_D_A2B1C4(t) PK_F64(2, 1, 4, PK_ASM(PK_DENSE, t, " {%0,%1,%2,%3}, {%4,%5}, {%6}, {%7,%8,%9,%10}", PK_DOUT4, PK_DIN2(da), PK_DIN1(db), PK_DIN4(dc)))
#define PK_ASM_D_A4B2C4(t) PK_F64(4, 2, 4, PK_ASM(PK_DENSE, t, " {%0,%1,%2,%3}, {%4,%5,%6,%7}, {%8,%9}, {%10,%11,%12,%13}", PK_DOUT4, PK_DIN4(da), PK_DIN2(db), PK_DIN4(dc)))
#define PK_ASM_D_A8B4C4(t) PK_F64(8, 4, 4, PK_ASM(PK_DENSE, t, " {%0,%1,%2,%3}, {%4,%5,%6,%7,%8,%9,%10,%11}, {%12,%13,%14,%15}, {%16,%17,%18,%19}", PK_DOUT4, PK_DIN8(da), PK_DIN4(db), PK_DIN4(dc)))

__device__ __forceinline__ void pk_join(double *x, const uint32_t *w, int n)
{
    for (int i = 0; i < n; i++)
        x[i] = __hiloint2double((int)w[2 * i + 1], (int)w[2 * i]);
}
__device__ __forceinline__ void pk_split(uint32_t *w, const double *x, int n)
{
    for (int i = 0; i < n; i++) {
        w[2 * i] = (uint32_t)__double2loint(x[i]);
        w[2 * i + 1] = (uint32_t)__double2hiint(x[i]);
    }
}

#ifdef __CUDA_ARCH__
#define PK_ARCH __CUDA_ARCH__
#else
#define PK_ARCH 0
#endif

/* One mma of kind K: d = a * b + c, registers as the PTX fragments (a[16], b[8], c[8],
 * d[8] hold the largest: fp64 m16n8k16's words), e mma.sp's metadata word. Returns 0 where the target lacks the instruction: each form is
 * compiled only for the targets from its sm on (a discarded if constexpr branch is not
 * instantiated, so ptxas never sees an instruction its target lacks). */
template <int K>
__device__ __forceinline__ int mma(uint32_t *d, const uint32_t *a, const uint32_t *b,
                                   const uint32_t *c, uint32_t e)
{
#define PK_MMA_CASE(kind, sp, m, n, k, in, inb, acc, op, regs, types, sm) \
    if constexpr (K == kind && PK_ARCH >= sm) {                  \
        PK_ASM_##regs(types);                                    \
        return 1;                                                \
    }
    PK_MMA_FORMS(PK_MMA_CASE)
#undef PK_MMA_CASE
    (void)d, (void)a, (void)b, (void)c, (void)e;
    return 0;
}

/* Whether kind K is an mma.sp. */
template <int K>
__device__ constexpr bool pk_sparse()
{
#define PK_SP_CASE(kind, sp, m, n, k, in, inb, acc, op, regs, types, sm) \
    if (K == kind)                                              \
        return sp;
    PK_MMA_FORMS(PK_SP_CASE)
#undef PK_SP_CASE
    return false;
}

/* Whether kind K's inputs are fp8 (e4m3, e5m2). */
enum { PK_FP8_FP16 = 0, PK_FP8_BF16 = 0, PK_FP8_TF32 = 0, PK_FP8_INT8 = 0, PK_FP8_UINT8 = 0,
       PK_FP8_INT4 = 0, PK_FP8_UINT4 = 0, PK_FP8_B1 = 0, PK_FP8_E4M3 = 1, PK_FP8_E5M2 = 1,
       PK_FP8_FP64 = 0 };
template <int K>
__device__ constexpr bool pk_fp8()
{
#define PK_FP8_CASE(kind, sp, m, n, k, in, inb, acc, op, regs, types, sm) \
    if (K == kind)                                               \
        return PK_FP8_##in;
    PK_MMA_FORMS(PK_FP8_CASE)
#undef PK_FP8_CASE
    return false;
}

/* Numerics: warp w runs mma w on its lanes' registers. */
template <int K>
__global__ void mma_run(size_t nmma, unsigned na, unsigned nb, unsigned nc,
                        const uint32_t *a, const uint32_t *b, const uint32_t *c, uint32_t *d,
                        int *missing)
{
    size_t w = (blockIdx.x * (size_t)blockDim.x + threadIdx.x) / 32;
    unsigned lane = threadIdx.x % 32;
    if (w >= nmma)
        return;
    uint32_t ar[16] = {0}, br[8] = {0}, cr[8] = {0}, dr[8] = {0}; /* fp64 m16n8k16's */
    for (unsigned i = 0; i < na; i++)
        ar[i] = a[(w * 32 + lane) * na + i];
    for (unsigned i = 0; i < nb; i++)
        br[i] = b[(w * 32 + lane) * nb + i];
    for (unsigned i = 0; i < nc; i++)
        cr[i] = c[(w * 32 + lane) * nc + i];
    /* mma.sp: A's last register is the metadata (probe_frag_pack_sp) */
    if (!mma<K>(dr, ar, br, cr, pk_sparse<K>() ? ar[na - 1] : 0))
        *missing = 1;
    for (unsigned i = 0; i < nc; i++)
        d[(w * 32 + lane) * nc + i] = dr[i];
}

/* Timing: each warp iters iterations of ILP independent mma, each into its own
 * accumulator (iteration i+1's j-th waits for iteration i's), between two clock64
 * reads (the SM's clock), out[2 warp] and out[2 warp + 1]. With iters 0 it times the
 * empty loop. */
template <int K, int ILP>
__global__ void mma_time(unsigned iters, unsigned long long *out, uint32_t *sink,
                         int *missing)
{
    uint32_t a[ILP][4], b[4], acc[ILP][8];
    for (int j = 0; j < ILP; j++)
        for (int i = 0; i < 8; i++) {
            if (i < 4)
                a[j][i] = threadIdx.x * 0x01010101u + i;
            acc[j][i] = 0;
        }
    b[0] = b[1] = b[2] = b[3] = 0x3c003c00u;
    __syncthreads();
    unsigned long long t0 = clock64();
    for (unsigned it = 0; it < iters; it++)
        for (int j = 0; j < ILP; j++) {
#if __CUDA_ARCH__ >= 900
            /* Hopper and later run fp8 mma.sync as conversions, two HMMA and an add on
             * the CUDA cores (docs/contract.md, the fp16 emulation): the HMMA never read
             * the accumulator, so with fixed operands the compiler computes them once
             * for many iterations. Feeding each result into A keeps them in the chain. */
            if (pk_fp8<K>())
                a[j][0] = acc[j][0];
#endif
            /* mma.sp's metadata: the first two of every four (0x4 a group) */
            if (!mma<K>(acc[j], a[j], b, acc[j], 0x44444444u))
                *missing = 1;
        }
    __syncwarp();
    unsigned long long t1 = clock64();
    if (threadIdx.x % 32 == 0) {
        out[2 * (threadIdx.x / 32)] = t0;
        out[2 * (threadIdx.x / 32) + 1] = t1;
    }
    uint32_t x = 0;
    for (int j = 0; j < ILP; j++)
        x ^= acc[j][0];
    if (x == 0x12345678u) /* keeps the chain alive; never true for these operands */
        *sink = x;
}

/* Numerics: block t runs one wgmma m64n8 of kind KIND on tile t. A (64 x k) and B
 * (k x 8) are patterns row-major, ebytes bytes an element (little-endian in shared
 * memory), C and D (64 x 8) accumulator patterns; swap is wg_desc's. */
template <int KIND>
__global__ void wg_run(unsigned ebytes, const uint32_t *A, const uint32_t *B,
                       const uint32_t *C, uint32_t *D, int swap, int *missing)
{
    enum { N = PK_WG_NUMERICS_N, R = wg_regs<KIND, N>(), K = wg_k<KIND>() };
    __shared__ __align__(256) uint8_t sa[64 * KM_ROW_BYTES], sb[N * KM_ROW_BYTES];
    const size_t t = blockIdx.x;
    km_load(sa, sb, A + t * 64 * K, B + t * K * N, 64, N, ebytes, N);
    km_smem_fence();
    __syncthreads();
    /* the accumulator fragment: warp w holds rows 16w.., lane l rows l/4 and l/4 + 8,
     * columns 2(l%4) and 2(l%4) + 1 (one fp16 pair per word, or a word each) */
    unsigned w = threadIdx.x / 32, l = threadIdx.x % 32, row = 16 * w + l / 4, col = 2 * (l % 4);
    const uint32_t *Ct = C + t * 64 * N;
    uint32_t d[R];
    for (int i = 0; i < R; i++) {
        unsigned r = row + 8 * (wg_acc16<KIND>() ? i : i >> 1);
        d[i] = wg_acc16<KIND>() ? (Ct[r * N + col] & 0xffff) | Ct[r * N + col + 1] << 16
                                : Ct[r * N + col + (i & 1)];
    }
    wg_fence();
    if (!wgmma<KIND, N>(d, wg_desc(sa, swap), wg_desc(sb, swap)))
        *missing = 1;
    wg_commit_wait();
    uint32_t *Dt = D + t * 64 * N;
    for (int i = 0; i < R; i++) {
        unsigned r = row + 8 * (wg_acc16<KIND>() ? i : i >> 1);
        if (wg_acc16<KIND>()) {
            Dt[r * N + col] = d[i] & 0xffff;
            Dt[r * N + col + 1] = d[i] >> 16;
        } else {
            Dt[r * N + col + (i & 1)] = d[i];
        }
    }
}

/* Timing of wgmma m64nNk: each warpgroup iterates fence, ILP wgmma into its
 * accumulators (back to back, as a GEMM's k loop), commit_group, wait_group 0. */
template <int KIND, int N>
__global__ void wg_time(unsigned iters, unsigned ilp, unsigned long long *out, uint32_t *sink,
                        int *missing)
{
    __shared__ __align__(256) uint8_t sa[64 * 32], sb[N * 32];
    for (unsigned i = threadIdx.x; i < 64 * 32; i += blockDim.x)
        sa[i] = 0x3c;
    for (unsigned i = threadIdx.x; i < N * 32; i += blockDim.x)
        sb[i] = 0x3c;
    km_smem_fence();
    uint32_t d[wg_regs<KIND, N>()];
    for (int i = 0; i < wg_regs<KIND, N>(); i++)
        d[i] = 0;
    uint64_t da = wg_desc(sa, 0), db = wg_desc(sb, 0);
    int ok = 1;
    __syncthreads();
    unsigned long long t0 = clock64();
    for (unsigned it = 0; it < iters; it++) {
        wg_fence();
        for (unsigned j = 0; j < ilp; j++)
            ok &= wgmma<KIND, N>(d, da, db);
        wg_commit_wait();
    }
    unsigned long long t1 = clock64();
    if (!ok)
        *missing = 1;
    if (threadIdx.x % 32 == 0) {
        out[2 * (threadIdx.x / 32)] = t0;
        out[2 * (threadIdx.x / 32) + 1] = t1;
    }
    uint32_t x = 0;
    for (int i = 0; i < wg_regs<KIND, N>(); i++)
        x ^= d[i];
    if (x == 0x12345678u) /* keeps the results alive */
        *sink = x;
}

/* Numerics: block t runs one tcgen05.mma m128n16 of kind KIND on tile t (as wg_run: A
 * 128 x k and B k x 16 row-major patterns, C and D 128 x 16 accumulator patterns).
 * Warp 0 allocates TMEM (32 columns: D's 16, one an element, fp16 too); each warp
 * stores its 32 rows of C there (thread = row = TMEM lane); thread 0 issues the mma and
 * commits it to the mbarrier everyone waits on; each warp loads its rows of D back.
 * The block-scaled kinds (PK_TC_SCALED) take nsf scale factors a row of A (SA, 128 x
 * nsf) and a column of B (SB, 16 x nsf) too, stored by every warp into its lane quarter
 * at columns 16.. (A) and 24.. (B) as tc_sf_word lays them out. */
template <int KIND>
__global__ void tc_run(unsigned ebytes, const uint32_t *A, const uint32_t *B,
                       const uint32_t *C, uint32_t *D, const uint32_t *SA,
                       const uint32_t *SB, unsigned nsf, int swap, int *missing)
{
    enum { M = PK_TC_NUMERICS_M, N = PK_TC_NUMERICS_N, K = KM_ROW_BYTES };
    __shared__ __align__(256) uint8_t sa[M * KM_ROW_BYTES], sb[N * KM_ROW_BYTES];
    __shared__ __align__(8) uint64_t bar;
    __shared__ uint32_t slot;
    if (!tc05_has()) { /* nothing would arrive at the mbarrier */
        *missing = 1;
        return;
    }
    const size_t t = blockIdx.x;
    const unsigned k = K / ebytes, w = threadIdx.x / 32, row = threadIdx.x;
    km_load(sa, sb, A + t * M * k, B + t * k * N, M, N, ebytes, N);
    km_smem_fence();
    if (w == 0)
        tc_alloc(&slot, TC_ALLOC_MIN);
    if (threadIdx.x == 0)
        mbar_init(&bar, 1);
    tc_fence_before_sync();
    __syncthreads();
    tc_fence_after_sync();
    const uint32_t tmem = slot, mine = tc_at(tmem, w, 0);
    const uint32_t *Cr = C + t * M * N + row * N;
    uint32_t v[N];
    if constexpr (tc_acc16<KIND>()) { /* 16 columns of fp16, two a register */
        for (int i = 0; i < N / 2; i++)
            v[i] = (Cr[2 * i] & 0xffff) | Cr[2 * i + 1] << 16;
        tc_st8<true>(mine, v);
    } else {
        for (int i = 0; i < N; i++)
            v[i] = Cr[i];
        tc_st8<false>(mine, v);
        tc_st8<false>(mine + 8, v + 8);
    }
    if constexpr (PK_IS_TC_SCALED(KIND)) {
        const unsigned lane = threadIdx.x % 32;
        const uint32_t *Sa = SA + t * M * nsf, *Sb = SB + t * N * nsf;
        for (unsigned col = 0; col < 8; col++) {
            v[col] = tc_sf_word(Sa, M, nsf, lane, col);
            v[8 + col] = tc_sf_word(Sb, N, nsf, lane, col);
        }
        tc_st8<false>(tc_at(tmem, w, TC_SFA_COL), v);
        tc_st8<false>(tc_at(tmem, w, TC_SFB_COL), v + 8);
    }
    tc_wait_st();
    tc_fence_before_sync();
    __syncthreads();
    if (threadIdx.x == 0) {
        tc_fence_after_sync();
        int ok;
        if constexpr (PK_IS_TC_SCALED(KIND))
            ok = tc_mma_scaled<KIND>(tmem, tc_smem_desc(sa, swap), tc_smem_desc(sb, swap),
                                     tc_idesc_of<KIND>(M, N), tmem + TC_SFA_COL,
                                     tmem + TC_SFB_COL, 1);
        else
            ok = tc_mma<KIND>(tmem, tc_smem_desc(sa, swap), tc_smem_desc(sb, swap),
                              tc_idesc_of<KIND>(M, N), 1);
        if (!ok)
            *missing = 1;
        tc_commit(&bar);
    }
    mbar_wait(&bar, 0);
    tc_fence_after_sync();
    uint32_t *Dr = D + t * M * N + row * N;
    if constexpr (tc_acc16<KIND>()) {
        tc_ld8<true>(mine, v);
        tc_wait_ld();
        for (int i = 0; i < N / 2; i++) {
            Dr[2 * i] = v[i] & 0xffff;
            Dr[2 * i + 1] = v[i] >> 16;
        }
    } else {
        tc_ld8<false>(mine, v);
        tc_ld8<false>(mine + 8, v + 8);
        tc_wait_ld();
        for (int i = 0; i < N; i++)
            Dr[i] = v[i];
    }
    tc_fence_before_sync();
    __syncthreads();
    if (w == 0) {
        tc_fence_after_sync();
        tc_dealloc(tmem, TC_ALLOC_MIN);
    }
}

/* Timing of tcgen05.mma m128nNk: warpgroup g's first thread is an issuer (the model's
 * CTA, tc_bench_async) that iterates ILP mma into its accumulator (back to back, as a
 * GEMM's k loop) and one commit to its mbarrier, which its warpgroup waits on. The
 * accumulators take N columns each from column g N of the 512 (issuers beyond 512 / N
 * share columns: the values are not read, the instructions are still independent).
 * The CTA pair's kind (cta_group::2, launched as a cluster of 2: pair_launch): m256nN,
 * warpgroup g of CTA 0 issuing for the pair and committing to the mbarriers g of both
 * CTAs, each CTA holding 128 rows of A and N / 2 of B; CTA 0's warps time. */
template <bool PAIR>
__device__ __forceinline__ void sync_all()
{
    if constexpr (PAIR)
        cl_sync();
    else
        __syncthreads();
}

template <int KIND, int N>
__global__ void tc_time(unsigned iters, unsigned ilp, unsigned long long *out, uint32_t *sink,
                        int *missing)
{
    constexpr bool PAIR = PK_IS_TC_PAIR(KIND);
    enum { M = 128, G = PAIR ? 2 : 1, BN = N / G };
    __shared__ __align__(256) uint8_t sa[M * KM_ROW_BYTES], sb[BN * KM_ROW_BYTES];
    __shared__ __align__(8) uint64_t bar[16];
    __shared__ uint32_t slot;
    if (!tc05_has()) {
        *missing = 1;
        return;
    }
    const unsigned g = threadIdx.x / 128, w = threadIdx.x / 32, r = PAIR ? cl_rank() : 0;
    const bool issuer = r == 0 && threadIdx.x % 128 == 0;
    for (unsigned i = threadIdx.x; i < M * KM_ROW_BYTES; i += blockDim.x)
        sa[i] = 0x3c;
    for (unsigned i = threadIdx.x; i < BN * KM_ROW_BYTES; i += blockDim.x)
        sb[i] = 0x3c;
    km_smem_fence();
    if (w == 0)
        tc_alloc<G>(&slot, TC_TMEM_COLS);
    if (threadIdx.x % 128 == 0)
        mbar_init(&bar[g], 1);
    tc_fence_before_sync();
    sync_all<PAIR>();
    tc_fence_after_sync();
    const uint32_t tmem = slot, d = tmem + g * N % TC_TMEM_COLS;
    const uint64_t da = tc_smem_desc(sa, 0), db = tc_smem_desc(sb, 0);
    const uint32_t idesc = tc_idesc_of<KIND>(G * M, N);
    int ok = 1;
    unsigned phase = 0;
    sync_all<PAIR>();
    unsigned long long t0 = clock64();
    for (unsigned it = 0; it < iters; it++) {
        if (issuer) {
            for (unsigned j = 0; j < ilp; j++)
                ok &= tc_mma<KIND>(d, da, db, idesc, 1);
            if constexpr (PAIR)
                tc_commit2(&bar[g]);
            else
                tc_commit(&bar[g]);
        }
        mbar_wait(&bar[g], phase);
        phase ^= 1;
        tc_fence_after_sync();
    }
    unsigned long long t1 = clock64();
    if (!ok)
        *missing = 1;
    if (r == 0 && threadIdx.x % 32 == 0) {
        out[2 * w] = t0;
        out[2 * w + 1] = t1;
    }
    (void)sink;
    tc_fence_before_sync();
    sync_all<PAIR>();
    if (w == 0) {
        tc_fence_after_sync();
        tc_dealloc<G>(tmem, TC_TMEM_COLS);
    }
}

/* The CTA pair (tcgen05.mma.cta_group::2), launched as clusters of 2 (pair_launch).
 * Numerics: cluster t runs one m256n32 of kind KIND on tile t (A 256 x k and B k x 32
 * row-major, C and D 256 x 32): CTA r holds A's rows 128r.. and B's columns 16r.. in its
 * shared memory, C's and D's rows 128r.. in its TMEM (32 columns, allocated by one warp
 * of each CTA together); thread 0 of CTA 0 issues for the pair and commits to the
 * mbarrier at the same offset in both CTAs. */
template <int KIND>
__global__ void tc2_run(unsigned ebytes, const uint32_t *A, const uint32_t *B,
                        const uint32_t *C, uint32_t *D, int swap, int *missing)
{
    enum { M = PK_TC2_NUMERICS_M, N = PK_TC2_NUMERICS_N, HM = M / 2, HN = N / 2 };
    __shared__ __align__(256) uint8_t sa[HM * KM_ROW_BYTES], sb[HN * KM_ROW_BYTES];
    __shared__ __align__(8) uint64_t bar;
    __shared__ uint32_t slot;
    if (!tc05_has()) {
        *missing = 1;
        return;
    }
    const unsigned r = cl_rank(), k = KM_ROW_BYTES / ebytes, w = threadIdx.x / 32;
    const size_t t = blockIdx.x / 2;
    km_load(sa, sb, A + (t * M + r * HM) * k, B + t * k * N + r * HN, HM, HN, ebytes, N);
    km_smem_fence();
    if (w == 0)
        tc_alloc<2>(&slot, TC_ALLOC_MIN);
    if (threadIdx.x == 0)
        mbar_init(&bar, 1);
    tc_fence_before_sync();
    cl_sync();
    tc_fence_after_sync();
    const uint32_t tmem = slot;
    const uint32_t *Cr = C + (t * M + r * HM + threadIdx.x) * N;
    uint32_t v[8];
    for (unsigned c0 = 0; c0 < N; c0 += 8) {
        for (int i = 0; i < 8; i++)
            v[i] = Cr[c0 + i];
        tc_st8<false>(tc_at(tmem, w, c0), v);
    }
    tc_wait_st();
    tc_fence_before_sync();
    cl_sync();
    if (r == 0 && threadIdx.x == 0) {
        tc_fence_after_sync();
        if (!tc_mma<KIND>(tmem, tc_smem_desc(sa, swap), tc_smem_desc(sb, swap),
                          tc_idesc_of<KIND>(M, N), 1))
            *missing = 1;
        tc_commit2(&bar);
    }
    mbar_wait(&bar, 0);
    tc_fence_after_sync();
    uint32_t *Dr = D + (t * M + r * HM + threadIdx.x) * N;
    for (unsigned c0 = 0; c0 < N; c0 += 8) {
        tc_ld8<false>(tc_at(tmem, w, c0), v);
        tc_wait_ld();
        for (int i = 0; i < 8; i++)
            Dr[c0 + i] = v[i];
    }
    tc_fence_before_sync();
    cl_sync();
    if (w == 0) {
        tc_fence_after_sync();
        tc_dealloc<2>(tmem, TC_ALLOC_MIN);
    }
}

/* Launches kernel k on `clusters` clusters of 2 CTAs of `threads` threads. */
template <class... P, class... A>
static cudaError_t pair_launch(void (*k)(P...), unsigned clusters, unsigned threads, A... args)
{
    cudaLaunchConfig_t cfg = {};
    cudaLaunchAttribute attr[1];
    attr[0].id = cudaLaunchAttributeClusterDimension;
    attr[0].val.clusterDim.x = 2;
    attr[0].val.clusterDim.y = 1;
    attr[0].val.clusterDim.z = 1;
    cfg.gridDim = dim3(2 * clusters);
    cfg.blockDim = dim3(threads);
    cfg.attrs = attr;
    cfg.numAttrs = 1;
    return cudaLaunchKernelEx(&cfg, k, args...);
}

/* ------------------------------------------------------------ the C ABI */

static int fail(char *err, size_t size, const char *what, cudaError_t e)
{
    snprintf(err, size, "%s: %s", what, cudaGetErrorString(e));
    return -1;
}

/* The end of a run: 0, or -1 with why (a CUDA error, or an instruction the target lacks). */
static int finish(cudaError_t e, int miss, const char *what, char *err, size_t size)
{
    if (e != cudaSuccess)
        return fail(err, size, what, e);
    if (miss) {
        snprintf(err, size, "%s: this GPU's target has no such instruction in this build",
                 what);
        return -1;
    }
    return 0;
}

extern "C" int probe_cuda_open(char *name, size_t name_size, char *driver, size_t drv_size,
                               unsigned *sm, unsigned *sms, unsigned *clock_mhz, char *err,
                               size_t size)
{
    cudaDeviceProp p;
    int dev = 0, ver = 0, clk = 0;
    cudaError_t e = cudaGetDevice(&dev);
    if (e == cudaSuccess)
        e = cudaGetDeviceProperties(&p, dev);
    if (e == cudaSuccess)
        e = cudaDriverGetVersion(&ver);
    if (e == cudaSuccess)
        e = cudaDeviceGetAttribute(&clk, cudaDevAttrClockRate, dev);
    if (e != cudaSuccess)
        return fail(err, size, "no CUDA device", e);
    snprintf(name, name_size, "%s", p.name);
    snprintf(driver, drv_size, "CUDA %d.%d", ver / 1000, ver % 1000 / 10);
    *sm = (unsigned)(p.major * 10 + p.minor);
    *sms = (unsigned)p.multiProcessorCount;
    *clock_mhz = (unsigned)(clk / 1000);
    return 0;
}

template <int K>
static void launch_run(size_t nmma, unsigned na, unsigned nb, unsigned nc, const uint32_t *a,
                       const uint32_t *b, const uint32_t *c, uint32_t *d, int *missing)
{
    unsigned threads = 256, blocks = (unsigned)((nmma * 32 + threads - 1) / threads);
    mma_run<K><<<blocks, threads>>>(nmma, na, nb, nc, a, b, c, d, missing);
}

/* A run's device buffers: A, B and C copied in, D (C's size) and the missing flag back. */
struct dev_run {
    uint32_t *a = NULL, *b = NULL, *c = NULL, *d = NULL;
    int *missing = NULL;
    size_t sc = 0;
    cudaError_t in(const uint32_t *ha, size_t sa, const uint32_t *hb, size_t sb,
                   const uint32_t *hc, size_t size_c)
    {
        sc = size_c;
        cudaError_t e = cudaMalloc(&a, sa);
        if (e == cudaSuccess) e = cudaMalloc(&b, sb);
        if (e == cudaSuccess) e = cudaMalloc(&c, sc);
        if (e == cudaSuccess) e = cudaMalloc(&d, sc);
        if (e == cudaSuccess) e = cudaMalloc(&missing, sizeof *missing);
        if (e == cudaSuccess) e = cudaMemset(missing, 0, sizeof *missing);
        if (e == cudaSuccess) e = cudaMemcpy(a, ha, sa, cudaMemcpyHostToDevice);
        if (e == cudaSuccess) e = cudaMemcpy(b, hb, sb, cudaMemcpyHostToDevice);
        if (e == cudaSuccess) e = cudaMemcpy(c, hc, sc, cudaMemcpyHostToDevice);
        return e;
    }
    /* After the kernel: its error, else D and the flag copied back. */
    cudaError_t out(cudaError_t e, uint32_t *hd, int *miss)
    {
        if (e == cudaSuccess) e = cudaMemcpy(hd, d, sc, cudaMemcpyDeviceToHost);
        if (e == cudaSuccess) e = cudaMemcpy(miss, missing, sizeof *miss, cudaMemcpyDeviceToHost);
        return e;
    }
    ~dev_run() { cudaFree(a), cudaFree(b), cudaFree(c), cudaFree(d), cudaFree(missing); }
};

extern "C" int probe_cuda_mma(int kind, size_t nmma, unsigned na, unsigned nb, unsigned nc,
                              const uint32_t *a, const uint32_t *b, const uint32_t *c,
                              uint32_t *d, char *err, size_t size)
{
    dev_run r;
    int miss = 0;
    cudaError_t e = r.in(a, nmma * 32 * na * 4, b, nmma * 32 * nb * 4, c, nmma * 32 * nc * 4);
    if (e == cudaSuccess) {
        uint32_t *da = r.a, *db = r.b, *dc = r.c, *dd = r.d;
        int *missing = r.missing;
        switch (kind) {
#define PK_RUN_CASE(k, sp, m, n, kk, in, inb, acc, op, regs, types, sm) \
        case k: launch_run<k>(nmma, na, nb, nc, da, db, dc, dd, missing); break;
        PK_MMA_FORMS(PK_RUN_CASE)
#undef PK_RUN_CASE
        default: e = cudaErrorInvalidValue; break;
        }
        if (e == cudaSuccess) e = cudaGetLastError();
        if (e == cudaSuccess) e = cudaDeviceSynchronize();
    }
    e = r.out(e, d, &miss);
    return finish(e, miss, "mma kernel", err, size);
}

/* 0 for a kind with no timing kernel (fp64). */
template <int K>
static int launch_time(unsigned warps, unsigned ilp, unsigned iters, unsigned long long *out,
                       uint32_t *sink, int *missing)
{
    if constexpr (PK_IS_F64(K)) /* numerics only: the timing model has no fp64 op */
        return 0;
    else if (ilp == 1)
        mma_time<K, 1><<<1, warps * 32>>>(iters, out, sink, missing);
    else if (ilp == 2)
        mma_time<K, 2><<<1, warps * 32>>>(iters, out, sink, missing);
    else
        mma_time<K, 4><<<1, warps * 32>>>(iters, out, sink, missing);
    return 1;
}

/* The launch of an asynchronous timing kernel, one class a kernel (a kernel template
 * cannot be a template argument itself). */
template <int KIND, int N>
struct wg_timer {
    static void go(unsigned warps, unsigned ilp, unsigned iters, unsigned long long *out,
                   uint32_t *sink, int *missing)
    {
        wg_time<KIND, N><<<1, warps * 32>>>(iters, ilp, out, sink, missing);
    }
};
template <int KIND, int N>
struct tc_timer {
    static void go(unsigned warps, unsigned ilp, unsigned iters, unsigned long long *out,
                   uint32_t *sink, int *missing)
    {
        tc_time<KIND, N><<<1, warps * 32>>>(iters, ilp, out, sink, missing);
    }
};

template <int KIND, int N>
struct tc2_timer {
    static void go(unsigned warps, unsigned ilp, unsigned iters, unsigned long long *out,
                   uint32_t *sink, int *missing)
    {
        pair_launch(tc_time<KIND, N>, 1, warps * 32, iters, ilp, out, sink, missing);
    }
};

/* wgmma and tcgen05 timing kernels: every N from N0 (8 for wgmma, 16 for tcgen05's
 * M = 128) of fp16 -> fp32, SWEEP (the structure's sweep), N = 256 of each kind (its
 * peak rate). 0 if the pair has none. */
template <template <int, int> class T, int KIND, int SWEEP, int N0>
static int launch_async_n(unsigned n, unsigned warps, unsigned ilp, unsigned iters,
                          unsigned long long *out, uint32_t *sink, int *missing)
{
    if (n == 256) {
        T<KIND, 256>::go(warps, ilp, iters, out, sink, missing);
        return 1;
    }
    if constexpr (KIND == SWEEP) {
        switch (n) {
        case 8:
            if constexpr (N0 <= 8) {
                T<KIND, 8>::go(warps, ilp, iters, out, sink, missing);
                return 1;
            }
            break;
        case 16: T<KIND, 16>::go(warps, ilp, iters, out, sink, missing); return 1;
        case 32: T<KIND, 32>::go(warps, ilp, iters, out, sink, missing); return 1;
        case 64: T<KIND, 64>::go(warps, ilp, iters, out, sink, missing); return 1;
        case 128: T<KIND, 128>::go(warps, ilp, iters, out, sink, missing); return 1;
        }
    }
    return 0;
}

/* Calls F::go<K>(args) for the wgmma or tcgen05.mma kind K that `kind` names; 0 for
 * another kind. */
template <class F, class... Args>
static int async_kind(int kind, Args... args)
{
#define PK_WG_CASE(k) \
    case k: return F::template go<k>(args...);
#define PK_TC_CASE(k, in, inb, acc, ptx, dfmt, afmt, bfmt, kk) PK_WG_CASE(k)
#define PK_TCS_CASE(k, in, inb, scale, block, ptx, vec, afmt, bfmt, sfmt, kk) PK_WG_CASE(k)
    switch (kind) {
    PK_WG_KINDS(PK_WG_CASE)
    PK_TC_FORMS(PK_TC_CASE)
    PK_TC_SCALED(PK_TCS_CASE)
    PK_TC_PAIR_FORMS(PK_TC_CASE)
    }
#undef PK_WG_CASE
#undef PK_TC_CASE
#undef PK_TCS_CASE
    return 0;
}

struct async_timer {
    template <int K>
    static int go(unsigned n, unsigned warps, unsigned ilp, unsigned iters,
                  unsigned long long *out, uint32_t *sink, int *missing)
    {
        if constexpr (PK_IS_TC_SCALED(K) || PK_IS_TC_MIXED(K) || PK_IS_WG_MIXED(K) ||
                      (PK_IS_TC_PAIR(K) && K != PK_TC2_F16_F32))
            return 0; /* numerics only: a mixed pair runs at its formats' rate; the CTA
                         pair is timed on fp16 -> fp32 */
        else if constexpr (PK_IS_TC_PAIR(K)) { /* the numerics N and the peak's */
            if (n == PK_TC2_NUMERICS_N)
                tc2_timer<K, PK_TC2_NUMERICS_N>::go(warps, ilp, iters, out, sink, missing);
            else
                return launch_async_n<tc2_timer, K, -1, 16>(n, warps, ilp, iters, out, sink,
                                                           missing);
            return 1;
        }
        else if constexpr (PK_IS_TCGEN05(K))
            return launch_async_n<tc_timer, K, PK_TC_F16_F32, 16>(n, warps, ilp, iters, out,
                                                                 sink, missing);
        else
            return launch_async_n<wg_timer, K, PK_WG_F16_F32, 8>(n, warps, ilp, iters, out,
                                                                sink, missing);
    }
};

/* The cycles of one run: from the first warp's start to the last warp's end (warps that
 * do not overlap fully would make the slowest warp's own span too short). */
static cudaError_t time_once(int kind, unsigned n, unsigned warps, unsigned ilp,
                             unsigned iters, unsigned long long *cycles, int *miss)
{
    unsigned long long *out = NULL, host[128];
    uint32_t *sink = NULL;
    int *missing = NULL;
    cudaError_t e = cudaMalloc(&out, sizeof host);
    if (e == cudaSuccess) e = cudaMalloc(&sink, 4 * sizeof(float));
    if (e == cudaSuccess) e = cudaMalloc(&missing, sizeof *missing);
    if (e == cudaSuccess) e = cudaMemset(missing, 0, sizeof *missing);
    if (e == cudaSuccess) {
        switch (kind) {
#define PK_TIME_CASE(k, sp, m, n, kk, in, inb, acc, op, regs, types, sm) \
        case k: *miss |= !launch_time<k>(warps, ilp, iters, out, sink, missing); break;
        PK_MMA_FORMS(PK_TIME_CASE)
#undef PK_TIME_CASE
        default:
            if (!async_kind<async_timer>(kind, n, warps, ilp, iters, out, sink, missing))
                *miss = 1;
            break;
        }
        e = cudaGetLastError();
        if (e == cudaSuccess) e = cudaDeviceSynchronize();
    }
    if (e == cudaSuccess)
        e = cudaMemcpy(host, out, 2 * warps * sizeof *host, cudaMemcpyDeviceToHost);
    int m = 0;
    if (e == cudaSuccess) e = cudaMemcpy(&m, missing, sizeof m, cudaMemcpyDeviceToHost);
    *miss |= m;
    cudaFree(out), cudaFree(sink), cudaFree(missing);
    unsigned long long first = ~0ull, last = 0;
    for (unsigned w = 0; e == cudaSuccess && w < warps; w++) {
        first = host[2 * w] < first ? host[2 * w] : first;
        last = host[2 * w + 1] > last ? host[2 * w + 1] : last;
    }
    *cycles = e == cudaSuccess && last > first ? last - first : 0;
    return e;
}

extern "C" int probe_cuda_time(int kind, unsigned n, unsigned warps, unsigned ilp,
                               unsigned iters, unsigned long long *cycles, char *err,
                               size_t size)
{
    unsigned long long loop = 0, empty = 0;
    /* wgmma and tcgen05: warpgroups, each with its ILP */
    int miss = 0, wg = PK_IS_WGMMA(kind) || PK_IS_TCGEN05(kind);
    if (warps == 0 || warps > 64 || (wg && warps % 4) ||
        (!wg && ilp != 1 && ilp != 2 && ilp != 4) || (wg && (ilp == 0 || ilp > 16))) {
        snprintf(err, size, "timing: %u warps x ILP %u is not a loop this build has", warps, ilp);
        return -1;
    }
    /* a first run warms the clocks and the instruction cache; then the loop and the
     * empty loop, whose difference is the instructions' */
    cudaError_t e = time_once(kind, n, warps, ilp, iters, &loop, &miss);
    if (e == cudaErrorLaunchOutOfResources) { /* more warps than the SM holds registers for */
        snprintf(err, size, "%u warps do not fit on an SM with this kernel's registers", warps);
        return 1;
    }
    if (e == cudaSuccess) e = time_once(kind, n, warps, ilp, iters, &loop, &miss);
    if (e == cudaSuccess) e = time_once(kind, n, warps, ilp, 0, &empty, &miss);
    *cycles = loop > empty ? loop - empty : 0;
    return finish(e, miss, "timing kernel", err, size);
}

/* ------------------------------------------------- wgmma and tcgen05 numerics */

/* An instruction's tile shape: wgmma m64n8, tcgen05.mma m128n16, the pair's m256n32. */
static unsigned tile_m(int kind)
{
    return PK_IS_TC_PAIR(kind) ? PK_TC2_NUMERICS_M : PK_IS_TCGEN05(kind) ? PK_TC_NUMERICS_M : 64;
}
static unsigned tile_n(int kind)
{
    return PK_IS_TC_PAIR(kind)    ? PK_TC2_NUMERICS_N
           : PK_IS_TCGEN05(kind) ? PK_TC_NUMERICS_N : PK_WG_NUMERICS_N;
}

/* ntiles instructions of kind on tiles in device memory, a block of 128 threads each
 * (a warpgroup; tcgen05's four warps reach TMEM's 128 lanes). */
struct tile_runner {
    template <int K>
    static int go(unsigned blocks, unsigned ebytes, const uint32_t *A, const uint32_t *B,
                  const uint32_t *C, uint32_t *D, const uint32_t *SA, const uint32_t *SB,
                  unsigned nsf, int swap, int *missing)
    {
        if constexpr (PK_IS_TC_PAIR(K))
            pair_launch(tc2_run<K>, blocks, 128, ebytes, A, B, C, D, swap, missing);
        else if constexpr (PK_IS_TCGEN05(K))
            tc_run<K><<<blocks, 128>>>(ebytes, A, B, C, D, SA, SB, nsf, swap, missing);
        else
            wg_run<K><<<blocks, 128>>>(ebytes, A, B, C, D, swap, missing);
        return 1;
    }
};

/* The tiles' run; 0 or a CUDA error. */
static cudaError_t run_tiles(int kind, size_t ntiles, unsigned ebytes, const uint32_t *A,
                             const uint32_t *B, const uint32_t *C, uint32_t *D,
                             const uint32_t *SA, const uint32_t *SB, unsigned nsf, int swap,
                             int *missing)
{
    if (!async_kind<tile_runner>(kind, (unsigned)ntiles, ebytes, A, B, C, D, SA, SB, nsf, swap,
                                 missing))
        return cudaErrorInvalidValue;
    cudaError_t e = cudaGetLastError();
    return e == cudaSuccess ? cudaDeviceSynchronize() : e;
}

/* Runs tiles host -> device -> host; SA and SB (nsf scale factors a row of A and a
 * column of B: the block-scaled kinds) may be NULL. */
static cudaError_t tile_host(int kind, size_t ntiles, unsigned ebytes, unsigned k,
                             const uint32_t *A, const uint32_t *B, const uint32_t *C,
                             uint32_t *D, const uint32_t *SA, const uint32_t *SB, unsigned nsf,
                             int swap, int *miss)
{
    const size_t M = tile_m(kind), N = tile_n(kind);
    dev_run r;
    uint32_t *sa = NULL, *sb = NULL;
    cudaError_t e = r.in(A, ntiles * M * k * 4, B, ntiles * k * N * 4, C, ntiles * M * N * 4);
    if (e == cudaSuccess && SA) {
        e = cudaMalloc(&sa, ntiles * M * nsf * 4);
        if (e == cudaSuccess) e = cudaMalloc(&sb, ntiles * N * nsf * 4);
        if (e == cudaSuccess) e = cudaMemcpy(sa, SA, ntiles * M * nsf * 4, cudaMemcpyHostToDevice);
        if (e == cudaSuccess) e = cudaMemcpy(sb, SB, ntiles * N * nsf * 4, cudaMemcpyHostToDevice);
    }
    if (e == cudaSuccess)
        e = run_tiles(kind, ntiles, ebytes, r.a, r.b, r.c, r.d, sa, sb, nsf, swap, r.missing);
    cudaFree(sa), cudaFree(sb);
    return r.out(e, D, miss);
}

/* Which descriptor offset the hardware takes as the K step (wg_desc's and tc_smem_desc's
 * swap): found once an instruction by its fp16 -> fp32 kind on small integers, whose
 * exact products a wrong layout cannot give (each row and column of A and B differs).
 * -1 where neither layout gives them. */
static int layout_check(int kind, const char *what, int *found, char *err, size_t size)
{
    if (*found != -2)
        return *found;
    enum { K = 16, MAX_M = PK_TC_NUMERICS_M, MAX_N = PK_TC_NUMERICS_N };
    const int M = (int)tile_m(kind), N = (int)tile_n(kind);
    static const uint32_t h[5] = {0xc000, 0xbc00, 0x0000, 0x3c00, 0x4000}; /* -2..2 */
    static uint32_t A[MAX_M * K], B[K * MAX_N], C[MAX_M * MAX_N], D[MAX_M * MAX_N];
    static float want[MAX_M * MAX_N];
    for (int r = 0; r < M; r++)
        for (int x = 0; x < K; x++)
            A[r * K + x] = h[(r * 3 + x * 5 + r / 8) % 5];
    for (int x = 0; x < K; x++)
        for (int n = 0; n < N; n++)
            B[x * N + n] = h[(x * 7 + n * 3 + 1) % 5];
    for (int r = 0; r < M; r++)
        for (int n = 0; n < N; n++) {
            int s = 0;
            for (int x = 0; x < K; x++)
                s += ((r * 3 + x * 5 + r / 8) % 5 - 2) * ((x * 7 + n * 3 + 1) % 5 - 2);
            want[r * N + n] = (float)s;
            C[r * N + n] = 0;
        }
    for (int swap = 0; swap < 2; swap++) {
        int miss = 0;
        char check[64];
        snprintf(check, sizeof check, "%s layout check", what);
        cudaError_t e = tile_host(kind, 1, 2, K, A, B, C, D, NULL, NULL, 0, swap, &miss);
        if (finish(e, miss, check, err, size))
            return *found = -1;
        if (!memcmp(D, want, M * N * sizeof *D))
            return *found = swap;
    }
    snprintf(err, size, "%s: neither shared-memory layout gives the exact products of "
                        "the layout check (kmajor.cuh and its descriptors)", what);
    return *found = -1;
}

extern "C" int probe_cuda_tile(int kind, size_t ntiles, unsigned ebytes, unsigned k,
                               const uint32_t *A, const uint32_t *B, const uint32_t *C,
                               uint32_t *D, const uint32_t *SA, const uint32_t *SB,
                               unsigned nsf, char *err, size_t size)
{
    static int wg_found = -2, tc_found = -2;
    int tc = PK_IS_TCGEN05(kind), miss = 0;
    const char *what = tc ? "tcgen05.mma" : "wgmma";
    int swap = layout_check(tc ? PK_TC_F16_F32 : PK_WG_F16_F32, what,
                            tc ? &tc_found : &wg_found, err, size);
    if (swap < 0)
        return -1;
    cudaError_t e = tile_host(kind, ntiles, ebytes, k, A, B, C, D, SA, SB, nsf, swap, &miss);
    char run[64];
    snprintf(run, sizeof run, "%s kernel", what);
    return finish(e, miss, run, err, size);
}
