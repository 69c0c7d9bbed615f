// bw_sys_shim.cpp - the only C++ of the joined design's testbench: owns the
// VerilatedContext and the Verilated rtl/tc_blackwell_sys.sv (Vtc_blackwell_sys, of
// TCSIM_BW_SYS_BANKS banks per lane group) and gives the C side pin access and the clock
// (bw_sys.h).
#include <cstdio>
#include <cstring>
#include <memory>

#include "Vtc_blackwell_sys.h"
#include "verilated.h"
#include "verilated_syms.h"

#include "bw_sys.h"

namespace {

using V = Vtc_blackwell_sys;

class Top {
  public:
    Top() {
        // The context outlives the model and is configured before it is built.
        ctx_ = std::make_unique<VerilatedContext>();
        top_ = std::make_unique<V>(ctx_.get(), "TOP");
        // tmem.sv's grant (public_flat_rd): which port used the memory in this cycle.
        const VerilatedScope *s = ctx_->scopeFind("TOP.tc_blackwell_sys.i_tmem");
        VerilatedVar *v = s ? s->varFind("grant") : nullptr;
        grant_ = v ? static_cast<const uint8_t *>(v->datap()) : nullptr;
        top_->clk_i = 0;
        top_->eval();
    }
    ~Top() { top_->final(); }
    bool ok() const { return grant_ != nullptr; }

    void set(const bw_pins_in *in, const tc_tmem_inputs *mem) {
        V &t = *top_;
        t.clk_i = 0;
        t.rst_ni = in->rst_n;
        t.start_i = in->start;
        t.kind_i = in->kind;
        t.in_fmt_i = in->in_fmt;
        t.in_fmt_b_i = in->in_fmt_b;
        t.out_fmt_i = in->out_fmt;
        t.scale_fmt_i = in->scale_fmt;
        t.m128_i = in->m128;
        t.n8_m1_i = in->n8_m1;
        t.d_col_i = in->d_col;
        t.a_tmem_i = in->a_tmem;
        t.a_col_i = in->a_col;
        t.sfa_col_i = in->sfa_col;
        t.sfb_col_i = in->sfb_col;
        t.enable_input_d_i = in->enable_input_d;
        std::memcpy(t.disable_i.data(), in->disable, sizeof in->disable);
        std::memcpy(t.smem_data_i.data(), in->smem_data, sizeof in->smem_data);
        t.shift_valid_i = mem->shift_valid != 0;
        t.shift_col_i = mem->shift_col;
        t.cp_valid_i = mem->cp_valid != 0;
        t.cp_col_i = mem->cp_col;
        t.ls_valid_i = mem->ls_valid != 0;
        t.ls_store_i = mem->ls_store != 0;
        t.ls_group_i = mem->ls_group;
        t.ls_col_i = mem->ls_col;
        t.ls_ncols_m1_i = (mem->ls_ncols - 1) & 7u;
        // 32768 and 8192 bits: only when they mean something (the caller holds them
        // until ready, so a two-cycle request's second cycle still has them)
        if (mem->cp_valid && mem->cp_data)
            std::memcpy(t.cp_data_i.data(), mem->cp_data, TC_TMEM_WIDE_WORDS * 4);
        if (mem->ls_valid && mem->ls_store && mem->ls_data)
            std::memcpy(t.ls_wdata_i.data(), mem->ls_data, TC_TMEM_QUARTER_WORDS * 4);
        t.eval();
    }

    void get(bw_sys_pins_out *out) {
        const V &t = *top_;
        out->busy = t.busy_o;
        out->done = t.done_o;
        out->smem_req = t.smem_req_o;
        out->smem_sel = t.smem_sel_o;
        out->smem_row = t.smem_row_o;
        out->mem.ready = (t.shift_ready_o ? 1u << TC_TMEM_PORT_SHIFT : 0) |
                         (t.cp_ready_o ? 1u << TC_TMEM_PORT_CP : 0) |
                         (t.ls_ready_o ? 1u << TC_TMEM_PORT_LS : 0);
        out->mem.grant = *grant_;
        out->mem.a_rvalid = 0;  // the A port is the unit's
        out->mem.a_rdata = nullptr;
        out->mem.ls_rvalid = t.ls_rvalid_o;
        out->mem.ls_rdata = t.ls_rdata_o.data();
    }

    void tick() {
        ctx_->timeInc(1);
        top_->clk_i = 1;
        top_->eval();
        ctx_->timeInc(1);
    }

  private:
    std::unique_ptr<VerilatedContext> ctx_;
    std::unique_ptr<V> top_;
    const uint8_t *grant_ = nullptr;
};

}  // namespace

struct bw_sys_shim {
    Top *impl;
};

extern "C" {

bw_sys_shim *bw_sys_shim_new(unsigned banks)
{
    if (banks != TCSIM_BW_SYS_BANKS)
        return nullptr;
    Top *impl = new Top;
    if (!impl->ok()) {
        delete impl;
        return nullptr;
    }
    return new bw_sys_shim{impl};
}

void bw_sys_shim_free(bw_sys_shim *s)
{
    if (!s)
        return;
    delete s->impl;
    delete s;
}

void bw_sys_shim_set(bw_sys_shim *s, const bw_pins_in *in, const tc_tmem_inputs *mem)
{
    s->impl->set(in, mem);
}

void bw_sys_shim_get(bw_sys_shim *s, bw_sys_pins_out *out) { s->impl->get(out); }
unsigned bw_sys_shim_banks(void) { return TCSIM_BW_SYS_BANKS; }
void bw_sys_shim_tick(bw_sys_shim *s) { s->impl->tick(); }

}  // extern "C"
