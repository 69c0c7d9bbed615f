// tc_rtl_backend.cpp - tc_rtl_backend.h. Registers are filled as tb/tensor_core's
// engine fills them (two fp16 elements per 32-bit register, element 2r low; fp32
// accumulators one per register), from the model's fragment mapping (tc_frag_load). The
// tensor memory's ports are driven as tb/tmem's shim drives them.
#include "tc_rtl_backend.h"
#include "Vtc_warp_sc.h"
#include "Vtmem4_sc.h"
#include "Vtmem8_sc.h"

namespace {
enum { OP_A = 0, OP_B = 1, OP_C = 2, REGS = 8 };
constexpr unsigned kWideBits = 32 * TC_TMEM_WIDE_WORDS;       // a 128-lane slice
constexpr unsigned kQuarterBits = 32 * TC_TMEM_QUARTER_WORDS; // a 32-lane slice
}

// A signal for each port of rtl/tmem.sv. Only the ld/st and shift ports carry requests;
// the MMA and cp ports stay idle.
struct tc_rtl_tmem {
    sc_core::sc_signal<bool> d_valid, d_ready, a_valid, a_ready, a_rvalid, shift_valid,
        shift_ready, cp_valid, cp_ready, ls_valid, ls_ready, ls_store, ls_rvalid;
    sc_core::sc_signal<uint32_t> d_col, a_col, shift_col, cp_col, ls_group, ls_col,
        ls_ncols_m1;
    sc_core::sc_signal<sc_dt::sc_bv<TC_TMEM_LANES>> d_disable;
    sc_core::sc_signal<sc_dt::sc_bv<kWideBits>> d_data, a_rdata, cp_data;
    sc_core::sc_signal<sc_dt::sc_bv<kQuarterBits>> ls_wdata, ls_rdata;
    virtual ~tc_rtl_tmem() = default;
    virtual void final() = 0;
};

namespace {
// The signals and one Verilated organization (Vtmem8_sc or Vtmem4_sc: the same ports).
template <class V> struct tmem_unit final : tc_rtl_tmem {
    V dut{"tmem"};

    tmem_unit(sc_core::sc_clock &clk, sc_core::sc_signal<bool> &rst_n)
    {
        dut.clk_i(clk);
        dut.rst_ni(rst_n);
        dut.d_valid_i(d_valid);
        dut.d_ready_o(d_ready);
        dut.d_col_i(d_col);
        dut.d_disable_i(d_disable);
        dut.d_data_i(d_data);
        dut.a_valid_i(a_valid);
        dut.a_ready_o(a_ready);
        dut.a_col_i(a_col);
        dut.a_rvalid_o(a_rvalid);
        dut.a_rdata_o(a_rdata);
        dut.shift_valid_i(shift_valid);
        dut.shift_ready_o(shift_ready);
        dut.shift_col_i(shift_col);
        dut.cp_valid_i(cp_valid);
        dut.cp_ready_o(cp_ready);
        dut.cp_col_i(cp_col);
        dut.cp_data_i(cp_data);
        dut.ls_valid_i(ls_valid);
        dut.ls_ready_o(ls_ready);
        dut.ls_store_i(ls_store);
        dut.ls_group_i(ls_group);
        dut.ls_col_i(ls_col);
        dut.ls_ncols_m1_i(ls_ncols_m1);
        dut.ls_wdata_i(ls_wdata);
        dut.ls_rvalid_o(ls_rvalid);
        dut.ls_rdata_o(ls_rdata);
    }
    void final() override { dut.final(); }
};
} // namespace

tc_rtl_backend::tc_rtl_backend(sc_core::sc_module_name name, const sc_core::sc_time &period,
                               unsigned tmem_banks)
    : sc_module(name), clk("clk", period), dut_(new Vtc_warp_sc("tc_warp")),
      frags_(new tc_warp_frags)
{
    if (tmem_banks == 4)
        tm_.reset(new tmem_unit<Vtmem4_sc>(clk, rst_n_));
    else
        tm_.reset(new tmem_unit<Vtmem8_sc>(clk, rst_n_));
    Vtc_warp_sc &d = *dut_;
    d.clk_i(clk);
    d.rst_ni(rst_n_);
    d.wr_en_i(wr_en_);
    d.wr_op_i(wr_op_);
    d.wr_reg_i(wr_reg_);
    d.wr_data_i(wr_data_);
    d.rd_op_i(rd_op_);
    d.rd_reg_i(rd_reg_);
    d.rd_data_o(rd_data_);
    d.start_i(start_);
    d.f16_i(f16_);
    d.a_col_i(a_col_);
    d.b_col_i(b_col_);
    d.m8n8k4_i(m8n8k4_);
    d.busy_o(busy_);
    d.done_o(done_);
    d.dispatch_o(dispatch_);
    d.set_o(set_);
    d.step_o(step_);
    d.beat_first_o(beat_first_);
    d.pending_o(pending_);
}

tc_rtl_backend::~tc_rtl_backend()
{
    dut_->final();
    tm_->final();
}

void tc_rtl_backend::edge()
{
    sc_core::wait(clk.posedge_event());
}

void tc_rtl_backend::ensure_reset()
{
    if (reset_done_)
        return;
    rst_n_.write(false); // low for three edges, as tb/tensor_core's shim does
    for (int i = 0; i < 3; i++)
        edge();
    rst_n_.write(true);
    edge();
    reset_done_ = true;
}

void tc_rtl_backend::write_reg(unsigned op, unsigned reg, const uint32_t data[TC_WARP_LANES])
{
    sc_dt::sc_bv<1024> v;
    for (unsigned l = 0; l < TC_WARP_LANES; l++)
        v.range(32 * l + 31, 32 * l) = data[l];
    wr_en_.write(true);
    wr_op_.write(op);
    wr_reg_.write(reg);
    wr_data_.write(v);
    edge(); // sampled at this edge
    wr_en_.write(false);
}

void tc_rtl_backend::read_reg(unsigned op, unsigned reg, uint32_t data[TC_WARP_LANES])
{
    rd_op_.write(op);
    rd_reg_.write(reg);
    edge(); // the combinational read port settles within the cycle
    sc_dt::sc_bv<1024> v = rd_data_.read();
    for (unsigned l = 0; l < TC_WARP_LANES; l++)
        data[l] = v.range(32 * l + 31, 32 * l).to_uint();
}

tc_status tc_rtl_backend::wmma(const tc_tlm_cmd &cmd, uint64_t &cycles)
{
    const tc_hmma_cfg &cfg = cmd.cfg;
    unsigned sets, steps;
    tc_status st = tc_hmma_geometry(&cfg, &sets, &steps, nullptr);
    if (st != TC_OK)
        return st;
    if (!cmd.A || !cmd.B || !cmd.C || !cmd.D)
        return TC_EINVAL;
    ensure_reset();
    // The fragments, from the model's mapping of the logical matrices.
    tc_warp_frags &w = *frags_;
    tc_frag_spec sa = {TC_ARCH_VOLTA, cfg.shape, TC_OPERAND_A, cfg.a_layout, cfg.acc};
    tc_frag_spec sb = {TC_ARCH_VOLTA, cfg.shape, TC_OPERAND_B, cfg.b_layout, cfg.acc};
    tc_frag_spec sc = {TC_ARCH_VOLTA, cfg.shape, TC_OPERAND_C, TC_LAYOUT_ROW, cfg.acc};
    if ((st = tc_frag_load(&sa, cmd.A, w.a)) != TC_OK ||
        (st = tc_frag_load(&sb, cmd.B, w.b)) != TC_OK ||
        (st = tc_frag_load(&sc, cmd.C, w.c)) != TC_OK)
        return st;
    const bool f16 = cfg.acc == TC_FMT_FP16;
    const unsigned nab = 4 * sets; // A and B elements per lane
    uint32_t data[TC_WARP_LANES];
    auto pack16 = [&](const uint32_t frag[TC_WARP_LANES][TC_FRAG_MAX], unsigned n, unsigned r) {
        for (unsigned l = 0; l < TC_WARP_LANES; l++)
            data[l] = 2 * r < n ? (frag[l][2 * r] | frag[l][2 * r + 1] << 16) : 0;
    };
    for (unsigned r = 0; r < REGS; r++) {
        pack16(w.a, nab, r);
        write_reg(OP_A, r, data);
        pack16(w.b, nab, r);
        write_reg(OP_B, r, data);
        if (f16)
            pack16(w.c, 8, r);
        else
            for (unsigned l = 0; l < TC_WARP_LANES; l++)
                data[l] = w.c[l][r];
        write_reg(OP_C, r, data);
    }

    start_.write(true);
    f16_.write(f16);
    a_col_.write(cfg.a_layout == TC_LAYOUT_COL);
    b_col_.write(cfg.b_layout == TC_LAYOUT_COL);
    m8n8k4_.write(cfg.shape == TC_SHAPE_M8N8K4);
    edge(); // the sequencer takes the instruction
    start_.write(false);
    // Outputs as read at an edge are those of the cycle before it (tb's convention).
    uint64_t first = 0, c = 0;
    bool dispatched = false, finished = false;
    for (; c < 1000 && !finished; c++) {
        edge();
        if (dispatch_.read() && !dispatched) {
            first = c;
            dispatched = true;
        }
        finished = done_.read();
    }
    if (!finished || !dispatched)
        return TC_EIO;
    cycles = (c - 1) - first;

    for (unsigned r = 0; r < REGS; r++) {
        read_reg(OP_C, r, data);
        for (unsigned l = 0; l < TC_WARP_LANES; l++) {
            if (f16 && r < 4) {
                w.c[l][2 * r] = data[l] & 0xffffu;
                w.c[l][2 * r + 1] = data[l] >> 16;
            } else if (!f16) {
                w.c[l][r] = data[l];
            }
        }
    }
    return tc_frag_store(&sc, w.c, cmd.D);
}

// Every call starts and ends just after a rising edge: the request's signals are written
// there, its ready is sampled at the falling edge (the RTL's ready is combinational),
// and the rising edge that ends a ready cycle completes it.
tc_status tc_rtl_backend::tmem(const tc_tlm_cmd &cmd, uint64_t &cycles)
{
    const bool shift = cmd.op == TC_TLM_TMEM_SHIFT, store = cmd.op == TC_TLM_TMEM_ST;
    if (!shift && !store && cmd.op != TC_TLM_TMEM_LD)
        return TC_EINVAL;
    // The RTL's ports cannot hold a bad request; the model's checks, made here.
    if (cmd.col >= TC_TMEM_COLS ||
        (!shift && (cmd.group >= TC_TMEM_GROUPS || cmd.ncols < 1 ||
                    cmd.ncols > TC_TMEM_SLICE || !cmd.data)))
        return TC_EINVAL;
    ensure_reset();
    tc_rtl_tmem &t = *tm_;
    sc_core::sc_signal<bool> &valid = shift ? t.shift_valid : t.ls_valid;
    const sc_core::sc_signal<bool> &ready = shift ? t.shift_ready : t.ls_ready;
    if (shift) {
        t.shift_col.write(cmd.col);
    } else {
        t.ls_store.write(store);
        t.ls_group.write(cmd.group);
        t.ls_col.write(cmd.col);
        t.ls_ncols_m1.write(cmd.ncols - 1);
        if (store) {
            sc_dt::sc_bv<kQuarterBits> v; // slots >= ncols: zero, not written
            for (unsigned i = 0; i < TC_TMEM_GROUP_LANES * cmd.ncols; i++)
                v.set_word(static_cast<int>(i), cmd.data[i]);
            t.ls_wdata.write(v);
        }
    }
    valid.write(true);
    uint64_t n = 0;
    bool done = false;
    while (!done && n < 16) { // a request takes one or two cycles: 16 is a hang
        n++;
        sc_core::wait(clk.negedge_event());
        done = ready.read();
        edge();
    }
    valid.write(false);
    if (!done)
        return TC_EIO;
    if (cmd.op == TC_TLM_TMEM_LD) { // the read result, registered at that edge
        sc_core::wait(clk.negedge_event());
        const bool rvalid = t.ls_rvalid.read();
        const sc_dt::sc_bv<kQuarterBits> v = t.ls_rdata.read();
        edge();
        if (!rvalid)
            return TC_EIO;
        for (unsigned i = 0; i < TC_TMEM_GROUP_LANES * cmd.ncols; i++)
            cmd.data[i] = v.get_word(static_cast<int>(i));
    }
    cycles = n;
    return TC_OK;
}
