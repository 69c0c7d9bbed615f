// tc_rtl_backend.h - the Verilated RTL in SystemC mode as a tc_tlm_backend, on one clock:
//  - rtl/tc_warp.sv (prefix Vtc_warp_sc): the warp's fragment registers are written
//    through the RTL's register port, start_i runs one wmma.m16n16k16 / mma.m8n8k4, and
//    D is read back; the cycles are the RTL's own, from the first dispatch_o to done_o;
//  - rtl/tmem.sv (prefix Vtmem8_sc or Vtmem4_sc: 8 or 4 banks per lane group): a
//    tensor-memory command is one request on its ld/st or shift port, held until ready;
//    the cycles are the RTL's, from the request to its ready, and an ld's data is its
//    registered read result.
// Its calls wait() on the module's clock, so they must come from an SC_THREAD
// (b_transport's caller).
#ifndef TC_RTL_BACKEND_H
#define TC_RTL_BACKEND_H

#include <memory>
#include <systemc>
#include "tc_tlm.h"

class Vtc_warp_sc;
struct tc_rtl_tmem; // the Verilated tensor memory and its signals (tc_rtl_backend.cpp)

class tc_rtl_backend : public sc_core::sc_module, public tc_tlm_backend {
public:
    // tmem_banks: 8 or 4 (anything else is taken as 8).
    tc_rtl_backend(sc_core::sc_module_name name, const sc_core::sc_time &period,
                   unsigned tmem_banks = 8);
    ~tc_rtl_backend() override;
    tc_status wmma(const tc_tlm_cmd &cmd, uint64_t &cycles) override;
    tc_status tmem(const tc_tlm_cmd &cmd, uint64_t &cycles) override;

    sc_core::sc_clock clk;

private:
    void edge();                                    // wait for the next rising edge
    void ensure_reset();                            // both units, before their first use
    void write_reg(unsigned op, unsigned reg, const uint32_t data[TC_WARP_LANES]);
    void read_reg(unsigned op, unsigned reg, uint32_t data[TC_WARP_LANES]);

    std::unique_ptr<Vtc_warp_sc> dut_;
    std::unique_ptr<tc_rtl_tmem> tm_;
    std::unique_ptr<tc_warp_frags> frags_;          // 6 KiB: off the thread's stack
    bool reset_done_ = false;
    sc_core::sc_signal<bool> rst_n_, wr_en_, start_, f16_, a_col_, b_col_, m8n8k4_;
    sc_core::sc_signal<uint32_t> wr_op_, wr_reg_, rd_op_, rd_reg_;
    sc_core::sc_signal<sc_dt::sc_bv<1024>> wr_data_, rd_data_;
    sc_core::sc_signal<bool> busy_, done_, dispatch_, beat_first_;
    sc_core::sc_signal<uint32_t> set_, step_, pending_;
};

#endif
