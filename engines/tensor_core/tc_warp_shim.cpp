// tc_warp_shim.cpp - tc_warp_dut.h over the Verilated rtl/tc_warp.sv (prefix Vtc_warp).
//
// As in Verilator's examples: each model owns its VerilatedContext, everything is set on
// the context before the model is built, the model is never a file-scope static, and
// final() runs before the trace is closed.
#include <cstdint>
#include <memory>
#include "verilated.h"
#include "verilated_fst_c.h"
#include "Vtc_warp.h"
#include "Vtc_warp__Syms.h"  // the fedp instances' class, for its public LATENCY
#include "tc_warp_dut.h"
#include "../shim_coverage.h"

namespace {

// The fedp class Verilator made for tc_warp's instances (its name carries a parameter
// hash; the instance's place in the hierarchy does not change).
using Fedp = decltype(
    Vtc_warp__Syms::TOP__tc_warp__gen_tc__BRA__0__KET____DOT__i_tc__gen_fedp__BRA__0__KET____DOT__i_fedp);

template <std::size_t N> void put(VlWide<N> &port, const uint32_t *w)
{
    for (std::size_t i = 0; i < N; i++)
        port[i] = w[i];
}

} // namespace

struct tcw {
    std::unique_ptr<VerilatedContext> ctx;
    std::unique_ptr<Vtc_warp> top;
    std::unique_ptr<VerilatedFstC> fst;
    uint64_t cycles = 0;

    // One clock of two time units: the low phase (inputs as set, outputs settle), then
    // the rising edge. The waveform shows inputs changing in the low phase.
    void dump()
    {
        if (fst)
            fst->dump(ctx->time());
        ctx->timeInc(1);
    }
    void edge()
    {
        top->eval();
        dump();
        top->clk_i = 1;
        top->eval();
        dump();
        top->clk_i = 0;
        cycles++;
        top->start_i = 0;
        top->wr_en_i = 0;
    }
};

extern "C" {

tcw *tcw_new(const char *fst_path) { return tcw_new_reset(fst_path, 3); }

tcw *tcw_new_reset(const char *fst_path, unsigned reset_edges)
{
    if (reset_edges == 0)
        return nullptr;
    std::unique_ptr<tcw> d(new (std::nothrow) tcw);
    if (!d)
        return nullptr;
    d->ctx.reset(new VerilatedContext);
    d->ctx->randReset(2); // registers start random: reset must not rely on them
    if (fst_path)
        d->ctx->traceEverOn(true);
    d->top.reset(new Vtc_warp(d->ctx.get(), "TOP"));
    if (fst_path) {
        d->fst.reset(new VerilatedFstC);
        d->top->trace(d->fst.get(), 99);
        d->fst->open(fst_path);
    }
    d->top->clk_i = 0;
    d->top->rst_ni = 0;
    d->top->start_i = 0;
    d->top->wr_en_i = 0;
    for (unsigned i = 0; i < reset_edges; i++)
        d->edge();
    d->top->rst_ni = 1;
    return d.release();
}

void tcw_free(tcw *d)
{
    if (!d)
        return;
    d->top->final();
    shim_coverage_write(d->ctx.get(), "tensor_core");
    if (d->fst)
        d->fst->close();
    delete d;
}

void tcw_write(tcw *d, unsigned op, unsigned reg, const uint32_t data[TCW_LANES])
{
    d->top->wr_en_i = 1;
    d->top->wr_op_i = op;
    d->top->wr_reg_i = reg;
    put(d->top->wr_data_i, data);
    d->edge();
}

void tcw_read(tcw *d, unsigned op, unsigned reg, uint32_t data[TCW_LANES])
{
    d->top->rd_op_i = op;
    d->top->rd_reg_i = reg;
    d->top->eval();
    for (unsigned l = 0; l < TCW_LANES; l++)
        data[l] = d->top->rd_data_o[l];
}

void tcw_start(tcw *d, int f16, int a_col, int b_col, int m8n8k4)
{
    d->top->start_i = 1;
    d->top->f16_i = f16 != 0;
    d->top->a_col_i = a_col != 0;
    d->top->b_col_i = b_col != 0;
    d->top->m8n8k4_i = m8n8k4 != 0;
}

void tcw_clock(tcw *d, tcw_out *out)
{
    d->top->eval();
    out->busy = d->top->busy_o;
    out->done = d->top->done_o;
    out->dispatch = d->top->dispatch_o;
    out->set = d->top->set_o;
    out->step = d->top->step_o;
    out->beat_first = d->top->beat_first_o;
    out->pending = d->top->pending_o;
    d->edge();
}

uint64_t tcw_cycles(const tcw *d)
{
    return d->cycles;
}

unsigned tcw_fedp_latency(void)
{
    return Fedp::LATENCY;
}

} // extern "C"
