/* probe_device.cu - the kernels of tcsim-probe: run mma.sync on register words the host
 * packed (probe_frag.c holds the layouts) and wgmma on tiles (the shared-memory layout is
 * wgmma.cuh's), and time seed 004's loops (clock64 around the loop, the empty loop's
 * cycles subtracted) for mma.sync and wgmma. A thin C ABI (probe_cuda_*) for
 * probe_device.c; no host logic here. Each instruction is compiled for the targets that
 * have it (__CUDA_ARCH__ guards); a kernel run on a target without it reports so through
 * its flag. */
#include <cuda_runtime.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include "probe_kinds.h"
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

#ifdef __CUDA_ARCH__
#define PK_ARCH __CUDA_ARCH__
#else
#define PK_ARCH 0
#endif

/* One mma of kind K: d = a * b + c, registers as the PTX fragments (a[4], b[4], c[8],
 * d[8] hold the largest), e mma.sp's metadata word. Returns 0 where the target lacks the instruction: each form is
 * compiled only for the targets from its sm on (a discarded if constexpr branch is not
 * instantiated, so ptxas never sees an instruction its target lacks). */
template <int K>
__device__ __forceinline__ int mma(uint32_t *d, const uint32_t *a, const uint32_t *b,
                                   const uint32_t *c, uint32_t e)
{
#define PK_MMA_CASE(kind, sp, m, n, k, in, acc, regs, types, sm) \
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
#define PK_SP_CASE(kind, sp, m, n, k, in, acc, regs, types, sm) \
    if (K == kind)                                              \
        return sp;
    PK_MMA_FORMS(PK_SP_CASE)
#undef PK_SP_CASE
    return false;
}

/* Whether kind K's inputs are fp8 (e4m3, e5m2). */
enum { PK_FP8_FP16 = 0, PK_FP8_BF16 = 0, PK_FP8_TF32 = 0, PK_FP8_INT8 = 0, PK_FP8_UINT8 = 0,
       PK_FP8_E4M3 = 1, PK_FP8_E5M2 = 1 };
template <int K>
__device__ constexpr bool pk_fp8()
{
#define PK_FP8_CASE(kind, sp, m, n, k, in, acc, regs, types, sm) \
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
    uint32_t ar[5] = {0}, br[4] = {0}, cr[8] = {0}, dr[8] = {0};
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
    __shared__ __align__(256) uint8_t sa[64 * 32], sb[N * 32];
    const size_t t = blockIdx.x;
    const uint32_t *At = A + t * 64 * K, *Bt = B + t * K * N;
    for (unsigned i = threadIdx.x; i < 64 * 32; i += blockDim.x) {
        unsigned r = i / 32, b = i % 32;
        sa[wg_smem_at(r, b)] = (uint8_t)(At[r * K + b / ebytes] >> (b % ebytes * 8));
    }
    for (unsigned i = threadIdx.x; i < N * 32; i += blockDim.x) {
        unsigned n = i / 32, b = i % 32; /* B's column n is the K-major operand's row n */
        sb[wg_smem_at(n, b)] = (uint8_t)(Bt[b / ebytes * N + n] >> (b % ebytes * 8));
    }
    wg_smem_fence();
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
    wg_smem_fence();
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
#define PK_RUN_CASE(k, sp, m, n, kk, in, acc, regs, types, sm) \
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

template <int K>
static void launch_time(unsigned warps, unsigned ilp, unsigned iters, unsigned long long *out,
                        uint32_t *sink, int *missing)
{
    if (ilp == 1)
        mma_time<K, 1><<<1, warps * 32>>>(iters, out, sink, missing);
    else if (ilp == 2)
        mma_time<K, 2><<<1, warps * 32>>>(iters, out, sink, missing);
    else
        mma_time<K, 4><<<1, warps * 32>>>(iters, out, sink, missing);
}

/* wgmma timing kernels: every N of fp16 -> fp32 (the structure's sweep), N = 256 of
 * each kind (its peak rate). 0 if the pair has none. */
template <int KIND>
static int launch_wg_time_n(unsigned n, unsigned warps, unsigned ilp, unsigned iters,
                            unsigned long long *out, uint32_t *sink, int *missing)
{
    dim3 g(1), b(warps * 32);
    if (n == 256) {
        wg_time<KIND, 256><<<g, b>>>(iters, ilp, out, sink, missing);
        return 1;
    }
    if constexpr (KIND == PK_WG_F16_F32) {
        switch (n) {
        case 8: wg_time<KIND, 8><<<g, b>>>(iters, ilp, out, sink, missing); return 1;
        case 16: wg_time<KIND, 16><<<g, b>>>(iters, ilp, out, sink, missing); return 1;
        case 32: wg_time<KIND, 32><<<g, b>>>(iters, ilp, out, sink, missing); return 1;
        case 64: wg_time<KIND, 64><<<g, b>>>(iters, ilp, out, sink, missing); return 1;
        case 128: wg_time<KIND, 128><<<g, b>>>(iters, ilp, out, sink, missing); return 1;
        }
    }
    return 0;
}

static int launch_wg_time(int kind, unsigned n, unsigned warps, unsigned ilp, unsigned iters,
                          unsigned long long *out, uint32_t *sink, int *missing)
{
#define WG_TIME(k) \
    case k: return launch_wg_time_n<k>(n, warps, ilp, iters, out, sink, missing);
    switch (kind) {
    WG_TIME(PK_WG_F16_F32) WG_TIME(PK_WG_F16_F16) WG_TIME(PK_WG_BF16_F32)
    WG_TIME(PK_WG_TF32_F32) WG_TIME(PK_WG_E4M3_F32) WG_TIME(PK_WG_E4M3_F16)
    WG_TIME(PK_WG_E5M2_F32) WG_TIME(PK_WG_E5M2_F16) WG_TIME(PK_WG_S8_S32)
    WG_TIME(PK_WG_U8_S32)
    }
#undef WG_TIME
    return 0;
}

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
#define PK_TIME_CASE(k, sp, m, n, kk, in, acc, regs, types, sm) \
        case k: launch_time<k>(warps, ilp, iters, out, sink, missing); break;
        PK_MMA_FORMS(PK_TIME_CASE)
#undef PK_TIME_CASE
        default:
            if (!launch_wg_time(kind, n, warps, ilp, iters, out, sink, missing))
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
    int miss = 0, wg = PK_IS_WGMMA(kind);
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

/* ------------------------------------------------------------ wgmma numerics */

template <int KIND>
static void launch_wg_run(size_t ntiles, unsigned ebytes, const uint32_t *A, const uint32_t *B,
                          const uint32_t *C, uint32_t *D, int swap, int *missing)
{
    wg_run<KIND><<<(unsigned)ntiles, 128>>>(ebytes, A, B, C, D, swap, missing);
}

/* ntiles wgmma m64n8 of kind on tiles in device memory; 0 or a CUDA error. */
static cudaError_t wg_tiles(int kind, size_t ntiles, unsigned ebytes, const uint32_t *A,
                            const uint32_t *B, const uint32_t *C, uint32_t *D, int swap,
                            int *missing)
{
#define WG_RUN(k) \
    case k: launch_wg_run<k>(ntiles, ebytes, A, B, C, D, swap, missing); break;
    switch (kind) {
    WG_RUN(PK_WG_F16_F32) WG_RUN(PK_WG_F16_F16) WG_RUN(PK_WG_BF16_F32)
    WG_RUN(PK_WG_TF32_F32) WG_RUN(PK_WG_E4M3_F32) WG_RUN(PK_WG_E4M3_F16)
    WG_RUN(PK_WG_E5M2_F32) WG_RUN(PK_WG_E5M2_F16) WG_RUN(PK_WG_S8_S32)
    WG_RUN(PK_WG_U8_S32)
    default: return cudaErrorInvalidValue;
    }
#undef WG_RUN
    cudaError_t e = cudaGetLastError();
    return e == cudaSuccess ? cudaDeviceSynchronize() : e;
}

/* Runs tiles host -> device -> host. */
static cudaError_t wg_host(int kind, size_t ntiles, unsigned ebytes, unsigned k,
                           const uint32_t *A, const uint32_t *B, const uint32_t *C,
                           uint32_t *D, int swap, int *miss)
{
    const size_t N = PK_WG_NUMERICS_N;
    dev_run r;
    cudaError_t e = r.in(A, ntiles * 64 * k * 4, B, ntiles * k * N * 4, C, ntiles * 64 * N * 4);
    if (e == cudaSuccess) e = wg_tiles(kind, ntiles, ebytes, r.a, r.b, r.c, r.d, swap, r.missing);
    return r.out(e, D, miss);
}

/* Which descriptor offset the hardware takes as the K step (wg_desc's swap): found once
 * by a wgmma fp16 -> fp32 on small integers, whose exact products a wrong layout cannot
 * give (each row and column of A and B differs). -1 where neither layout gives them. */
static int wg_layout(char *err, size_t size)
{
    static int found = -2;
    if (found != -2)
        return found;
    enum { K = 16, N = PK_WG_NUMERICS_N };
    static const uint32_t h[5] = {0xc000, 0xbc00, 0x0000, 0x3c00, 0x4000}; /* -2..2 */
    uint32_t A[64 * K], B[K * N], C[64 * N] = {0}, D[64 * N];
    float want[64 * N];
    for (int r = 0; r < 64; r++)
        for (int x = 0; x < K; x++)
            A[r * K + x] = h[(r * 3 + x * 5 + r / 8) % 5];
    for (int x = 0; x < K; x++)
        for (int n = 0; n < N; n++)
            B[x * N + n] = h[(x * 7 + n * 3 + 1) % 5];
    for (int r = 0; r < 64; r++)
        for (int n = 0; n < N; n++) {
            int s = 0;
            for (int x = 0; x < K; x++)
                s += ((r * 3 + x * 5 + r / 8) % 5 - 2) * ((x * 7 + n * 3 + 1) % 5 - 2);
            want[r * N + n] = (float)s;
        }
    for (int swap = 0; swap < 2; swap++) {
        int miss = 0;
        cudaError_t e = wg_host(PK_WG_F16_F32, 1, 2, K, A, B, C, D, swap, &miss);
        if (finish(e, miss, "wgmma layout check", err, size))
            return found = -1;
        if (!memcmp(D, want, sizeof D))
            return found = swap;
    }
    snprintf(err, size, "wgmma: neither shared-memory layout gives the exact products of "
                        "the layout check (wgmma.cuh, wg_desc)");
    return found = -1;
}

extern "C" int probe_cuda_wgmma(int kind, size_t ntiles, unsigned ebytes, unsigned k,
                                const uint32_t *A, const uint32_t *B, const uint32_t *C,
                                uint32_t *D, char *err, size_t size)
{
    int swap = wg_layout(err, size), miss = 0;
    if (swap < 0)
        return -1;
    cudaError_t e = wg_host(kind, ntiles, ebytes, k, A, B, C, D, swap, &miss);
    return finish(e, miss, "wgmma kernel", err, size);
}
