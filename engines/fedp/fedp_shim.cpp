// fedp_shim.cpp - the C API of fedp_dut.h over one Verilated instance of rtl/fedp.sv.
//
// The only C++ of engines/fedp. CMake compiles it once per instance through a short
// stub that defines FEDP_PREFIX (the Verilated class of fedp_tb_top, e.g.
// Vfedp_volta_fp16), FEDP_NAME (volta_fp16) and FEDP_TRACE (1 when Verilated with
// --trace-fst), and exports the operations as the table fedp_ops_<FEDP_NAME>.
//
// As in Verilator's examples, each instance owns its VerilatedContext, everything is set
// on the context before the model is built, and the model is never a file-scope static.
#include <cstdint>
#include <cstring>
#include <memory>
#include <type_traits>
#include <utility>
#include "verilated.h"
#if FEDP_TRACE
#include "verilated_fst_c.h"
#endif
#include "fedp_dut.h"
#include "../shim_coverage.h"

#define FEDP_STR2(x) #x
#define FEDP_STR(x) FEDP_STR2(x)
#define FEDP_CAT2(a, b) a##b
#define FEDP_CAT(a, b) FEDP_CAT2(a, b)

#include FEDP_STR(FEDP_PREFIX.h)
#include FEDP_STR(FEDP_CAT(FEDP_PREFIX, __Syms).h)  // every module class of the model

namespace {

using Top = FEDP_PREFIX;
// The class of fedp itself (i_fedp inside fedp_tb_top), named by Verilator: its public
// parameters and stage registers.
using Params = std::remove_pointer<decltype(std::declval<Top &>().fedp_tb_top->i_fedp)>::type;

constexpr unsigned kL = Params::L;
constexpr unsigned kElem = Params::ELEM_W;
static_assert(kL <= TC_MAX_L, "fedp_stages holds TC_MAX_L terms");

// a_i/b_i as a flat bit vector of 32-bit words.
constexpr unsigned kWords = (kL * kElem + 31) / 32;
struct Bits {
    uint32_t w[kWords + 1] = {};
    void put(unsigned lsb, uint32_t v) // v: kElem bits
    {
        uint64_t x = uint64_t(v & ((uint64_t(1) << kElem) - 1u)) << (lsb % 32);
        w[lsb / 32] |= uint32_t(x);
        w[lsb / 32 + 1] |= uint32_t(x >> 32);
    }
};

// Ports and registers are CData/SData/IData/QData up to 64 bits and VlWide<N> above.
template <typename T> void store(T &port, const Bits &b)
{
    port = static_cast<T>(b.w[0] | (sizeof(T) > 4 ? uint64_t(b.w[1]) << 32 : 0));
}
template <std::size_t N> void store(VlWide<N> &port, const Bits &b)
{
    static_assert(N <= kWords, "a_i is as wide as L elements");
    for (std::size_t i = 0; i < N; i++)
        port[i] = b.w[i];
}
template <typename T> uint64_t field(const T &v, unsigned lsb, unsigned width)
{
    uint64_t x = uint64_t(v) >> lsb;
    return width >= 64 ? x : x & ((uint64_t(1) << width) - 1u);
}
template <std::size_t N> uint64_t field(const VlWide<N> &v, unsigned lsb, unsigned width)
{
    uint64_t x = 0;
    for (unsigned i = 0; i < width; i++) {
        unsigned bit = lsb + i;
        x |= uint64_t((v[bit / 32] >> (bit % 32)) & 1u) << i;
    }
    return x;
}
int64_t sext(uint64_t x, unsigned width)
{
    return width >= 64 ? int64_t(x) : int64_t(x << (64 - width)) >> (64 - width);
}

struct Dut {
    std::unique_ptr<VerilatedContext> ctx;
    std::unique_ptr<Top> top;
#if FEDP_TRACE
    std::unique_ptr<VerilatedFstC> fst;
#endif

    void eval_dump()
    {
        top->eval();
#if FEDP_TRACE
        if (fst)
            fst->dump(ctx->time());
#endif
        ctx->timeInc(1);
    }
};

void *create(const char *fst_path)
{
    Dut *d = new Dut;
    d->ctx.reset(new VerilatedContext);
#if FEDP_TRACE
    if (fst_path)
        d->ctx->traceEverOn(true);
#else
    (void)fst_path;
#endif
    d->top.reset(new Top(d->ctx.get(), "TOP"));
#if FEDP_TRACE
    if (fst_path) {
        d->fst.reset(new VerilatedFstC);
        d->top->trace(d->fst.get(), 99);
        d->fst->open(fst_path);
        if (!d->fst->isOpen()) { /* the caller says so; no run without its waveform */
            d->top.reset();
            delete d;
            return nullptr;
        }
    }
#endif
    d->top->clk_i = 0;
    d->top->rst_ni = 1;
    d->top->valid_i = 0;
    d->eval_dump();
    return d;
}

void destroy(void *impl)
{
    Dut *d = static_cast<Dut *>(impl);
    d->top->final();
    shim_coverage_write(d->ctx.get(), "fedp");
#if FEDP_TRACE
    if (d->fst)
        d->fst->close();
#endif
    delete d;
}

void set_reset(void *impl, int rst_n)
{
    static_cast<Dut *>(impl)->top->rst_ni = rst_n ? 1 : 0;
}

void drive(void *impl, const fedp_port_in *in)
{
    Top *t = static_cast<Dut *>(impl)->top.get();
    t->valid_i = in->valid ? 1 : 0;
    t->in_fmt_i = in->in_fmt;
    t->in_fmt_b_i = in->in_fmt_b;
    t->out_fmt_i = in->out_fmt;
    t->c_i = in->c;
    Bits a, b;
    for (unsigned i = 0; i < kL; i++) {
        a.put(i * kElem, in->a[i]);
        b.put(i * kElem, in->b[i]);
    }
    store(t->a_i, a);
    store(t->b_i, b);
}

// One rising edge, then the falling edge that ends the cycle.
void step(void *impl)
{
    Dut *d = static_cast<Dut *>(impl);
    d->top->clk_i = 1;
    d->eval_dump();
    d->top->clk_i = 0;
    d->eval_dump();
}

int sample(void *impl, uint32_t *out)
{
    Top *t = static_cast<Dut *>(impl)->top.get();
    *out = t->d_o;
    return t->valid_o;
}

void stages(void *impl, fedp_stages *s)
{
    const Params *r = static_cast<Dut *>(impl)->top->fedp_tb_top->i_fedp;
    std::memset(s, 0, sizeof *s);
    for (unsigned i = 0; i < kL; i++) {
        s->mul_psig[i] = field(r->mul_psig_q, i * Params::PW, Params::PW);
        s->mul_pexp[i] = int(sext(field(r->mul_pexp_q, i * Params::EW, Params::EW),
                                  Params::EW));
    }
    s->align_e = int(sext(field(r->align_e_q, 0, Params::EW), Params::EW));
    // A negative term leaves ALIGN as the one's complement of its magnitude (fedp.sv): its
    // top bit is its sign, and the term is that word plus the sign.
    for (unsigned i = 0; i <= kL; i++) {
        int64_t t = sext(field(r->align_t_q, i * Params::SW, Params::SW), Params::SW);
        s->align_t[i] = t + (t < 0);
    }
    // The exact sum: ADD's carry-save pair. fedp_backend is inlined into fedp's class
    // (one instance per fedp): its public signals are i_back__DOT__<name>.
    uint64_t sum = field(r->i_back__DOT__add_sum_q, 0, Params::SW) +
                   field(r->i_back__DOT__add_carry_q, 0, Params::SW);
    s->add_sum = sext(sum & (Params::SW >= 64 ? ~uint64_t(0)
                                               : (uint64_t(1) << Params::SW) - 1u),
                      Params::SW);
}

// Registered cuts among CUTS bits 0..last: the edge after which cut last's output
// holds an operation.
constexpr unsigned cuts_through(unsigned last)
{
    unsigned n = 0;
    for (unsigned b = 0; b <= last; b++)
        n += (Params::CUTS >> b) & 1u;
    return n;
}

} // namespace

extern "C" const fedp_dut_ops FEDP_CAT(fedp_ops_, FEDP_NAME) = {
    FEDP_STR(FEDP_NAME),
    {
        kL,
        Params::F,
        Params::InFmts,
        Params::OutFmts,
        int32_t(Params::EminAlignFp32),
        int32_t(Params::EminAlignFp16),
        Params::Fp32ManBits,
        kElem,
        Params::LATENCY + 1, // fedp_tb_top's operand register
        Params::LATENCY,
        // Where the replay reads MUL, ALIGN and ADD: CUTS bits 0 dec, 1 mul, 2 exp,
        // 3 align, 4 add (fedp.sv), each registered one an edge.
        {cuts_through(1), cuts_through(3), cuts_through(4)},
        Params::InPairs != 0,
    },
    FEDP_TRACE,
    create,
    destroy,
    set_reset,
    drive,
    step,
    sample,
    stages,
};
