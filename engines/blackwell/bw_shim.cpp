// bw_shim.cpp - the only C++ of engines/blackwell: owns the VerilatedContext and the Verilated
// rtl/tc_blackwell.sv (Vtc_blackwell), and gives the C side pin access and the clock
// (bw_dut.h), and the FST waveform when one is asked for.
#include <memory>

#include "Vtc_blackwell.h"
#include "verilated.h"
#include "verilated_fst_c.h"

#include "bw_dut.h"
#include "../shim_coverage.h"

struct bw_shim {
    // The context outlives the model and is configured before it is built.
    std::unique_ptr<VerilatedContext> ctx;
    std::unique_ptr<Vtc_blackwell> top;
    std::unique_ptr<VerilatedFstC> fst;   // closed after final()
    void dump() { if (fst) fst->dump(ctx->time()); }
};

extern "C" {

bw_shim *bw_shim_new(const char *fst_path)
{
    bw_shim *s = new bw_shim;
    s->ctx = std::make_unique<VerilatedContext>();
    if (fst_path)
        s->ctx->traceEverOn(true);
    s->top = std::make_unique<Vtc_blackwell>(s->ctx.get(), "TOP");
    if (fst_path) {
        s->fst = std::make_unique<VerilatedFstC>();
        s->top->trace(s->fst.get(), 99);
        s->fst->open(fst_path);
        if (!s->fst->isOpen()) {
            s->top.reset();
            delete s;
            return nullptr;
        }
    }
    s->top->clk_i = 0;
    s->top->eval();
    return s;
}

void bw_shim_free(bw_shim *s)
{
    if (!s)
        return;
    s->top->final();
    if (s->fst)
        s->fst->close();
    shim_coverage_write(s->ctx.get(), "blackwell");  // a coverage build only
    delete s;
}

void bw_shim_set(bw_shim *s, const bw_pins_in *in)
{
    Vtc_blackwell *t = s->top.get();
    t->clk_i = 0;
    t->rst_ni = in->rst_n;
    t->start_i = in->start;
    t->kind_i = in->kind;
    t->in_fmt_i = in->in_fmt;
    t->in_fmt_b_i = in->in_fmt_b;
    t->out_fmt_i = in->out_fmt;
    t->scale_fmt_i = in->scale_fmt;
    t->m128_i = in->m128;
    t->n8_m1_i = in->n8_m1;
    t->d_col_i = in->d_col;
    t->a_tmem_i = in->a_tmem;
    t->a_col_i = in->a_col;
    t->sfa_col_i = in->sfa_col;
    t->sfb_col_i = in->sfb_col;
    t->enable_input_d_i = in->enable_input_d;
    for (unsigned i = 0; i < TC_TMEM_LANES / 32; i++)
        t->disable_i[i] = in->disable[i];
    for (unsigned i = 0; i < TC_BW_ROW_WORDS; i++)
        t->smem_data_i[i] = in->smem_data[i];
    t->tm_a_ready_i = in->tm_a_ready;
    t->tm_a_rvalid_i = in->tm_a_rvalid;
    t->tm_d_ready_i = in->tm_d_ready;
    if (in->tm_a_rvalid && in->tm_a_rdata) // 32768 bits: only when they mean something
        for (unsigned i = 0; i < TC_TMEM_WIDE_WORDS; i++)
            t->tm_a_rdata_i[i] = in->tm_a_rdata[i];
    t->eval();
}

void bw_shim_get(bw_shim *s, bw_pins_out *out)
{
    Vtc_blackwell *t = s->top.get();
    out->busy = t->busy_o;
    out->done = t->done_o;
    out->smem_req = t->smem_req_o;
    out->smem_sel = t->smem_sel_o;
    out->smem_row = t->smem_row_o;
    out->tm_a_valid = t->tm_a_valid_o;
    out->tm_a_col = t->tm_a_col_o;
    out->tm_d_valid = t->tm_d_valid_o;
    out->tm_d_col = t->tm_d_col_o;
    for (unsigned i = 0; i < TC_TMEM_LANES / 32; i++)
        out->tm_d_disable[i] = t->tm_d_disable_o[i];
    if (out->tm_d_valid)
        for (unsigned i = 0; i < TC_TMEM_WIDE_WORDS; i++)
            out->tm_d_data[i] = t->tm_d_data_o[i];
}

void bw_shim_tick(bw_shim *s)
{
    s->dump();               // the low phase with this cycle's final inputs
    s->ctx->timeInc(1);
    s->top->clk_i = 1;
    s->top->eval();
    s->dump();
    s->ctx->timeInc(1);
}

}  // extern "C"
