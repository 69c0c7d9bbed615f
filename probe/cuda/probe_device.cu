/* probe_device.cu - the kernels of tcsim-probe: run mma.sync on register words the host
 * packed (probe_frag.c holds the layouts), and time seed 004's loops (clock64 around
 * the loop, the empty loop's cycles subtracted) for mma.sync and wgmma. A thin C ABI
 * (probe_cuda_*) for probe_device.c; no host logic here. Each instruction is compiled
 * for the targets that have it (__CUDA_ARCH__ guards); a kernel run on a target without
 * it reports so through its flag. */
#include <cuda_runtime.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

/* The kinds probe_device.c asks for. */
enum { K_F16_F32, K_F16_F16, K_BF16_F32, K_TF32_F32, K_E4M3_F32, K_E5M2_F32, K_WGMMA_256 };

/* One mma of kind K: d = a * b + c, registers as the PTX fragments. f16 accumulators
 * use c[0..1], d[0..1]. Returns 0 where the target lacks the instruction. */
template <int K>
__device__ __forceinline__ int mma(uint32_t *d, const uint32_t *a, const uint32_t *b,
                                   const uint32_t *c)
{
#define MMA_F32(shape_types)                                                              \
    asm volatile("mma.sync.aligned." shape_types " {%0,%1,%2,%3}, {%4,%5,%6,%7}, {%8,%9}," \
                 " {%10,%11,%12,%13};\n"                                                  \
                 : "=r"(d[0]), "=r"(d[1]), "=r"(d[2]), "=r"(d[3])                         \
                 : "r"(a[0]), "r"(a[1]), "r"(a[2]), "r"(a[3]), "r"(b[0]), "r"(b[1]),      \
                   "r"(c[0]), "r"(c[1]), "r"(c[2]), "r"(c[3]))
/* One f32-accumulator kind: its instruction where the target has it. */
#define KIND_F32(kind, shape_types) \
    if (K == kind) {                \
        MMA_F32(shape_types);       \
        return 1;                   \
    }
#if __CUDA_ARCH__ >= 800
    KIND_F32(K_F16_F32, "m16n8k16.row.col.f32.f16.f16.f32")
    KIND_F32(K_BF16_F32, "m16n8k16.row.col.f32.bf16.bf16.f32")
    KIND_F32(K_TF32_F32, "m16n8k8.row.col.f32.tf32.tf32.f32")
    if (K == K_F16_F16) {
        asm volatile("mma.sync.aligned.m16n8k16.row.col.f16.f16.f16.f16 {%0,%1},"
                     " {%2,%3,%4,%5}, {%6,%7}, {%8,%9};\n"
                     : "=r"(d[0]), "=r"(d[1])
                     : "r"(a[0]), "r"(a[1]), "r"(a[2]), "r"(a[3]), "r"(b[0]), "r"(b[1]),
                       "r"(c[0]), "r"(c[1]));
        return 1;
    }
#endif
#if __CUDA_ARCH__ >= 890
    KIND_F32(K_E4M3_F32, "m16n8k32.row.col.f32.e4m3.e4m3.f32")
    KIND_F32(K_E5M2_F32, "m16n8k32.row.col.f32.e5m2.e5m2.f32")
#endif
#undef KIND_F32
#undef MMA_F32
    (void)d, (void)a, (void)b, (void)c;
    return 0;
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
    uint32_t ar[4] = {0}, br[2] = {0}, cr[4] = {0}, dr[4] = {0};
    for (unsigned i = 0; i < na; i++)
        ar[i] = a[(w * 32 + lane) * na + i];
    for (unsigned i = 0; i < nb; i++)
        br[i] = b[(w * 32 + lane) * nb + i];
    for (unsigned i = 0; i < nc; i++)
        cr[i] = c[(w * 32 + lane) * nc + i];
    if (!mma<K>(dr, ar, br, cr))
        *missing = 1;
    for (unsigned i = 0; i < nc; i++)
        d[(w * 32 + lane) * nc + i] = dr[i];
}

/* Timing: each warp iters iterations of ILP independent mma, each into its own
 * accumulator (iteration i+1's j-th waits for iteration i's), between two clock64
 * reads; out[warp] = the cycles. With iters 0 it times the empty loop. */
template <int K, int ILP>
__global__ void mma_time(unsigned iters, unsigned long long *out, uint32_t *sink,
                         int *missing)
{
    uint32_t a[4], b[2], acc[ILP][4];
    for (int i = 0; i < 4; i++)
        a[i] = threadIdx.x * 0x01010101u + i;
    b[0] = b[1] = 0x3c003c00u;
    for (int j = 0; j < ILP; j++)
        for (int i = 0; i < 4; i++)
            acc[j][i] = 0;
    __syncthreads();
    unsigned long long t0 = clock64();
    for (unsigned it = 0; it < iters; it++)
        for (int j = 0; j < ILP; j++)
            if (!mma<K>(acc[j], a, b, acc[j]))
                *missing = 1;
    __syncwarp();
    unsigned long long t1 = clock64();
    if (threadIdx.x % 32 == 0)
        out[threadIdx.x / 32] = t1 - t0;
    uint32_t x = 0;
    for (int j = 0; j < ILP; j++)
        x ^= acc[j][0];
    if (x == 0x12345678u) /* keeps the chain alive; never true for these operands */
        *sink = x;
}

/* wgmma.mma_async m64n256k16 f32 += f16 * f16, A and B from shared memory: the 128
 * accumulator registers of a thread are its 64 x 256 share (PTX ISA, "wgmma"). */
__device__ __forceinline__ void wgmma_256(float *d, uint64_t da, uint64_t db)
{
#if defined(__CUDA_ARCH_FEAT_SM90_ALL)
    asm volatile("{\n.reg .pred p;\nsetp.ne.b32 p, 1, 0;\n"
                 "wgmma.mma_async.sync.aligned.m64n256k16.f32.f16.f16 "
                 "{%0,%1,%2,%3,%4,%5,%6,%7,%8,%9,%10,%11,%12,%13,%14,%15,%16,%17,%18,%19,%20,%21,%22,%23,%24,%25,%26,%27,%28,%29,%30,%31,%32,%33,%34,%35,%36,%37,%38,%39,%40,%41,%42,%43,%44,%45,%46,%47,%48,%49,%50,%51,%52,%53,%54,%55,%56,%57,%58,%59,%60,%61,%62,%63,%64,%65,%66,%67,%68,%69,%70,%71,%72,%73,%74,%75,%76,%77,%78,%79,%80,%81,%82,%83,%84,%85,%86,%87,%88,%89,%90,%91,%92,%93,%94,%95,%96,%97,%98,%99,%100,%101,%102,%103,%104,%105,%106,%107,%108,%109,%110,%111,%112,%113,%114,%115,%116,%117,%118,%119,%120,%121,%122,%123,%124,%125,%126,%127}, %128, %129, p, 1, 1, 0, 0;\n}\n"
                 : "+f"(d[0]), "+f"(d[1]), "+f"(d[2]), "+f"(d[3]), "+f"(d[4]), "+f"(d[5]), "+f"(d[6]), "+f"(d[7]), "+f"(d[8]), "+f"(d[9]), "+f"(d[10]), "+f"(d[11]), "+f"(d[12]), "+f"(d[13]), "+f"(d[14]), "+f"(d[15]), "+f"(d[16]), "+f"(d[17]), "+f"(d[18]), "+f"(d[19]), "+f"(d[20]), "+f"(d[21]), "+f"(d[22]), "+f"(d[23]), "+f"(d[24]), "+f"(d[25]), "+f"(d[26]), "+f"(d[27]), "+f"(d[28]), "+f"(d[29]), "+f"(d[30]), "+f"(d[31]), "+f"(d[32]), "+f"(d[33]), "+f"(d[34]), "+f"(d[35]), "+f"(d[36]), "+f"(d[37]), "+f"(d[38]), "+f"(d[39]), "+f"(d[40]), "+f"(d[41]), "+f"(d[42]), "+f"(d[43]), "+f"(d[44]), "+f"(d[45]), "+f"(d[46]), "+f"(d[47]), "+f"(d[48]), "+f"(d[49]), "+f"(d[50]), "+f"(d[51]), "+f"(d[52]), "+f"(d[53]), "+f"(d[54]), "+f"(d[55]), "+f"(d[56]), "+f"(d[57]), "+f"(d[58]), "+f"(d[59]), "+f"(d[60]), "+f"(d[61]), "+f"(d[62]), "+f"(d[63]), "+f"(d[64]), "+f"(d[65]), "+f"(d[66]), "+f"(d[67]), "+f"(d[68]), "+f"(d[69]), "+f"(d[70]), "+f"(d[71]), "+f"(d[72]), "+f"(d[73]), "+f"(d[74]), "+f"(d[75]), "+f"(d[76]), "+f"(d[77]), "+f"(d[78]), "+f"(d[79]), "+f"(d[80]), "+f"(d[81]), "+f"(d[82]), "+f"(d[83]), "+f"(d[84]), "+f"(d[85]), "+f"(d[86]), "+f"(d[87]), "+f"(d[88]), "+f"(d[89]), "+f"(d[90]), "+f"(d[91]), "+f"(d[92]), "+f"(d[93]), "+f"(d[94]), "+f"(d[95]), "+f"(d[96]), "+f"(d[97]), "+f"(d[98]), "+f"(d[99]), "+f"(d[100]), "+f"(d[101]), "+f"(d[102]), "+f"(d[103]), "+f"(d[104]), "+f"(d[105]), "+f"(d[106]), "+f"(d[107]), "+f"(d[108]), "+f"(d[109]), "+f"(d[110]), "+f"(d[111]), "+f"(d[112]), "+f"(d[113]), "+f"(d[114]), "+f"(d[115]), "+f"(d[116]), "+f"(d[117]), "+f"(d[118]), "+f"(d[119]), "+f"(d[120]), "+f"(d[121]), "+f"(d[122]), "+f"(d[123]), "+f"(d[124]), "+f"(d[125]), "+f"(d[126]), "+f"(d[127])
                 : "l"(da), "l"(db));
#else
    (void)d, (void)da, (void)db;
#endif
}

/* A shared-memory matrix descriptor without swizzling (PTX ISA, "Matrix descriptor"):
 * start address, leading and stride byte offsets, all in 16-byte units. Timing reads no
 * value, so any layout inside the buffer serves. */
__device__ __forceinline__ uint64_t smem_desc(const void *p)
{
    uint32_t a = (uint32_t)__cvta_generic_to_shared(p);
    return (uint64_t)((a & 0x3ffffu) >> 4) | (uint64_t)(128 >> 4) << 16 |
           (uint64_t)(256 >> 4) << 32;
}

/* Timing of wgmma m64n256k16: each warpgroup iterates fence, ILP wgmma into its
 * accumulators (back to back, as a GEMM's k loop), commit_group, wait_group 0. */
__global__ void wgmma_time(unsigned iters, unsigned ilp, unsigned long long *out,
                           float *sink, int *missing)
{
    __shared__ __align__(128) uint16_t sa[64 * 16], sb[256 * 16];
    for (unsigned i = threadIdx.x; i < 64 * 16; i += blockDim.x)
        sa[i] = 0x3c00;
    for (unsigned i = threadIdx.x; i < 256 * 16; i += blockDim.x)
        sb[i] = 0x3c00;
    float d[128];
    for (int i = 0; i < 128; i++)
        d[i] = 0;
    uint64_t da = smem_desc(sa), db = smem_desc(sb);
    __syncthreads();
    unsigned long long t0 = clock64();
#if defined(__CUDA_ARCH_FEAT_SM90_ALL)
    for (unsigned it = 0; it < iters; it++) {
        asm volatile("wgmma.fence.sync.aligned;\n" ::: "memory");
        for (unsigned j = 0; j < ilp; j++)
            wgmma_256(d, da, db);
        asm volatile("wgmma.commit_group.sync.aligned;\n" ::: "memory");
        asm volatile("wgmma.wait_group.sync.aligned 0;\n" ::: "memory");
    }
#else
    (void)iters, (void)ilp, (void)da, (void)db;
    *missing = 1;
#endif
    unsigned long long t1 = clock64();
    if (threadIdx.x % 32 == 0)
        out[threadIdx.x / 32] = t1 - t0;
    float x = 0;
    for (int i = 0; i < 128; i++)
        x += d[i];
    if (x == -1.0f)
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

extern "C" int probe_cuda_mma(int kind, size_t nmma, unsigned na, unsigned nb, unsigned nc,
                              const uint32_t *a, const uint32_t *b, const uint32_t *c,
                              uint32_t *d, char *err, size_t size)
{
    size_t sa = nmma * 32 * na * 4, sb = nmma * 32 * nb * 4, sc = nmma * 32 * nc * 4;
    uint32_t *da = NULL, *db = NULL, *dc = NULL, *dd = NULL;
    int *missing = NULL, miss = 0;
    cudaError_t e = cudaMalloc(&da, sa);
    if (e == cudaSuccess) e = cudaMalloc(&db, sb);
    if (e == cudaSuccess) e = cudaMalloc(&dc, sc);
    if (e == cudaSuccess) e = cudaMalloc(&dd, sc);
    if (e == cudaSuccess) e = cudaMalloc(&missing, sizeof *missing);
    if (e == cudaSuccess) e = cudaMemset(missing, 0, sizeof *missing);
    if (e == cudaSuccess) e = cudaMemcpy(da, a, sa, cudaMemcpyHostToDevice);
    if (e == cudaSuccess) e = cudaMemcpy(db, b, sb, cudaMemcpyHostToDevice);
    if (e == cudaSuccess) e = cudaMemcpy(dc, c, sc, cudaMemcpyHostToDevice);
    if (e == cudaSuccess) {
        switch (kind) {
        case K_F16_F32: launch_run<K_F16_F32>(nmma, na, nb, nc, da, db, dc, dd, missing); break;
        case K_F16_F16: launch_run<K_F16_F16>(nmma, na, nb, nc, da, db, dc, dd, missing); break;
        case K_BF16_F32: launch_run<K_BF16_F32>(nmma, na, nb, nc, da, db, dc, dd, missing); break;
        case K_TF32_F32: launch_run<K_TF32_F32>(nmma, na, nb, nc, da, db, dc, dd, missing); break;
        case K_E4M3_F32: launch_run<K_E4M3_F32>(nmma, na, nb, nc, da, db, dc, dd, missing); break;
        default: launch_run<K_E5M2_F32>(nmma, na, nb, nc, da, db, dc, dd, missing); break;
        }
        e = cudaDeviceSynchronize();
    }
    if (e == cudaSuccess) e = cudaMemcpy(d, dd, sc, cudaMemcpyDeviceToHost);
    if (e == cudaSuccess) e = cudaMemcpy(&miss, missing, sizeof miss, cudaMemcpyDeviceToHost);
    cudaFree(da), cudaFree(db), cudaFree(dc), cudaFree(dd), cudaFree(missing);
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

/* The slowest warp's cycles of one run. */
static cudaError_t time_once(int kind, unsigned warps, unsigned ilp, unsigned iters,
                             unsigned long long *cycles, int *miss)
{
    unsigned long long *out = NULL, host[64];
    uint32_t *sink = NULL;
    int *missing = NULL;
    cudaError_t e = cudaMalloc(&out, sizeof host);
    if (e == cudaSuccess) e = cudaMalloc(&sink, 4 * sizeof(float));
    if (e == cudaSuccess) e = cudaMalloc(&missing, sizeof *missing);
    if (e == cudaSuccess) e = cudaMemset(missing, 0, sizeof *missing);
    if (e == cudaSuccess) {
        switch (kind) {
        case K_F16_F32: launch_time<K_F16_F32>(warps, ilp, iters, out, sink, missing); break;
        case K_F16_F16: launch_time<K_F16_F16>(warps, ilp, iters, out, sink, missing); break;
        case K_BF16_F32: launch_time<K_BF16_F32>(warps, ilp, iters, out, sink, missing); break;
        case K_TF32_F32: launch_time<K_TF32_F32>(warps, ilp, iters, out, sink, missing); break;
        case K_E4M3_F32: launch_time<K_E4M3_F32>(warps, ilp, iters, out, sink, missing); break;
        case K_E5M2_F32: launch_time<K_E5M2_F32>(warps, ilp, iters, out, sink, missing); break;
        default: wgmma_time<<<1, warps * 32>>>(iters, ilp, out, (float *)sink, missing); break;
        }
        e = cudaDeviceSynchronize();
    }
    if (e == cudaSuccess) e = cudaMemcpy(host, out, warps * sizeof *host, cudaMemcpyDeviceToHost);
    if (e == cudaSuccess) e = cudaMemcpy(miss, missing, sizeof *miss, cudaMemcpyDeviceToHost);
    cudaFree(out), cudaFree(sink), cudaFree(missing);
    *cycles = 0;
    for (unsigned w = 0; e == cudaSuccess && w < warps; w++)
        *cycles = host[w] > *cycles ? host[w] : *cycles;
    return e;
}

extern "C" int probe_cuda_time(int kind, unsigned warps, unsigned ilp, unsigned iters,
                               unsigned long long *cycles, char *err, size_t size)
{
    unsigned long long loop = 0, empty = 0;
    int miss = 0;
    if (warps == 0 || warps > 64 || (ilp != 1 && ilp != 2 && ilp != 4 && kind != K_WGMMA_256)) {
        snprintf(err, size, "timing: %u warps x ILP %u is not a loop this build has", warps, ilp);
        return -1;
    }
    /* a first run warms the clocks and the instruction cache; then the loop and the
     * empty loop, whose difference is the instructions' */
    cudaError_t e = time_once(kind, warps, ilp, iters, &loop, &miss);
    if (e == cudaSuccess) e = time_once(kind, warps, ilp, iters, &loop, &miss);
    if (e == cudaSuccess) e = time_once(kind, warps, ilp, 0, &empty, &miss);
    *cycles = loop > empty ? loop - empty : 0;
    return finish(e, miss, "timing kernel", err, size);
}
