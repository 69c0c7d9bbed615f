// baseline_shim.cpp - baseline_dut.h over one Verilated fma_chain_tb_top. CMake compiles
// it once per Verilated set with BASELINE_PREFIX naming the Verilated class.
//
// As in Verilator's examples: the context owns the model, everything is set on it before
// the model is built, and the model is never a file-scope static.
#include <cstdint>
#include <memory>
#include <type_traits>
#include <utility>
#include "verilated.h"
#include "baseline_dut.h"

#define BL_STR2(x) #x
#define BL_STR(x) BL_STR2(x)
#define BL_CAT2(a, b) a##b
#define BL_CAT(a, b) BL_CAT2(a, b)

#include BL_STR(BASELINE_PREFIX.h)
#include BL_STR(BL_CAT(BASELINE_PREFIX, __Syms).h)

namespace {

using Top = BASELINE_PREFIX;
// fma_chain's class (i_chain inside the wrapper): its public parameters.
using Chain = std::remove_pointer<decltype(std::declval<Top &>().fma_chain_tb_top->i_chain)>::type;

constexpr unsigned kL = Chain::L;
constexpr unsigned kElem = Chain::ELEM_W;
constexpr unsigned kWords = (kL * kElem + 31) / 32;

struct Bits {
    uint32_t w[kWords + 1] = {};
    void put(unsigned lsb, uint32_t v)
    {
        uint64_t x = uint64_t(v & ((uint64_t(1) << kElem) - 1u)) << (lsb % 32);
        w[lsb / 32] |= uint32_t(x);
        w[lsb / 32 + 1] |= uint32_t(x >> 32);
    }
};

template <typename T> void store(T &port, const Bits &b)
{
    port = static_cast<T>(b.w[0] | (sizeof(T) > 4 ? uint64_t(b.w[1]) << 32 : 0));
}
template <std::size_t N> void store(VlWide<N> &port, const Bits &b)
{
    for (std::size_t i = 0; i < N; i++)
        port[i] = b.w[i];
}

struct Dut {
    std::unique_ptr<VerilatedContext> ctx;
    std::unique_ptr<Top> top;
    void eval()
    {
        top->eval();
        ctx->timeInc(1);
    }
};

void *create()
{
    Dut *d = new Dut;
    d->ctx.reset(new VerilatedContext);
    d->top.reset(new Top(d->ctx.get(), "baseline"));
    d->top->clk_i = 0;
    d->top->rst_ni = 1;
    d->top->valid_i = 0;
    d->eval();
    return d;
}

void destroy(void *impl)
{
    Dut *d = static_cast<Dut *>(impl);
    d->top->final();
    delete d;
}

void set_reset(void *impl, int rst_n)
{
    static_cast<Dut *>(impl)->top->rst_ni = rst_n ? 1 : 0;
}

void drive(void *impl, int valid, unsigned in_fmt, unsigned out_fmt, const uint32_t *a,
           const uint32_t *b, uint32_t c)
{
    Top *t = static_cast<Dut *>(impl)->top.get();
    t->valid_i = valid ? 1 : 0;
    t->in_fmt_i = in_fmt;
    t->out_fmt_i = out_fmt;
    t->c_i = c;
    Bits ab, bb;
    for (unsigned i = 0; i < kL; i++) {
        ab.put(i * kElem, a[i]);
        bb.put(i * kElem, b[i]);
    }
    store(t->a_i, ab);
    store(t->b_i, bb);
}

void step(void *impl)
{
    Dut *d = static_cast<Dut *>(impl);
    d->top->clk_i = 1;
    d->eval();
    d->top->clk_i = 0;
    d->eval();
}

int sample(void *impl, uint32_t *out)
{
    Top *t = static_cast<Dut *>(impl)->top.get();
    *out = t->d_o;
    return t->valid_o;
}

} // namespace

// The operand register of the wrapper adds one edge to fma_chain's LATENCY.
extern "C" const baseline_dut_ops baseline_dut = {
    {kL, Chain::InFmts, Chain::OutFmts, Chain::Fp32ManBits, kElem, Chain::LATENCY + 1},
    create, destroy, set_reset, drive, step, sample,
};
