// tc_tlm.h - a TLM-2.0 target that executes tensor-core commands, backed either by
// the C model (tcsim.h) or by the Verilated RTL (tc_rtl_backend.h).
//
// A command travels as the data of a tlm_generic_payload (TLM_WRITE_COMMAND, address
// 0, data_ptr -> one tc_tlm_cmd, data_length = sizeof(tc_tlm_cmd)); the target fills in
// its status, cycles and results. Blocking transport only (b_transport): the target
// annotates the modelled delay (cycles x clock period) on `delay`, and a backend that
// needs simulated time (the RTL) also waits inside b_transport, as TLM-2.0 allows.
//
// Commands (seed 001's Volta warp, the unit rtl/tc_warp.sv implements, and the tensor
// memory of tcsim_tmem.h, which rtl/tmem.sv implements):
//   TC_TLM_WMMA        D = A*B + C of one wmma.m16n16k16 or four mma.m8n8k4 tiles,
//                      row-major logical matrices as tc_volta_mma takes them
//   TC_TLM_TMEM_ST / TC_TLM_TMEM_LD / TC_TLM_TMEM_SHIFT  tcgen05.st/ld .32x32b
//                      (ncols 1..8 columns of a lane group) and tcgen05.shift
// This is the only C++ besides the Verilator shim: it forwards to the C API.
#ifndef TC_TLM_H
#define TC_TLM_H

#include <cstdint>
#include <systemc>
#include <tlm>
#include <tlm_utils/simple_target_socket.h>
#include "tcsim.h"

enum tc_tlm_opcode { TC_TLM_WMMA = 0, TC_TLM_TMEM_ST, TC_TLM_TMEM_LD, TC_TLM_TMEM_SHIFT };

struct tc_tlm_cmd {
    tc_tlm_opcode op;
    // TC_TLM_WMMA
    tc_hmma_cfg cfg;             // shape, layouts, accumulator (fp32 mixed or fp16)
    const uint32_t *A, *B, *C;   // tiles x (16x16 | 8x4), (16x16 | 4x8), (16x16 | 8x8)
    uint32_t *D;
    // TC_TLM_TMEM_*
    unsigned group, col, ncols;
    uint32_t *data;              // 32 * ncols words, column-major by lane (tcsim_tmem.h)
    // filled in by the target
    tc_status status;
    uint64_t cycles;             // the command's modelled cycles
};

// What executes a command. Backends may call wait() (they run in the initiator's thread).
class tc_tlm_backend {
public:
    virtual ~tc_tlm_backend() = default;
    // D of cmd, and the instruction's cycles: from its first HMMA's dispatch to the
    // first cycle D is readable (tc_op_timing_of's latency on volta).
    virtual tc_status wmma(const tc_tlm_cmd &cmd, uint64_t &cycles) = 0;
    // A TC_TLM_TMEM_* command on the tensor memory, and its cycles on an idle memory:
    // from the request to the cycle its port is ready (tc_tmem_ld / st / shift).
    // TC_EINVAL, nothing changed, for a column >= 512, a group >= 4, ncols outside
    // 1..8 or no data.
    virtual tc_status tmem(const tc_tlm_cmd &cmd, uint64_t &cycles) = 0;
};

// The C model: tc_volta_mma for the data, tc_op_timing_of (gpu v100) for the cycles;
// its own tensor memory (tc_tmem_new, zero-filled) of tmem_banks (8 or 4) banks.
class tc_model_backend : public tc_tlm_backend {
public:
    explicit tc_model_backend(unsigned tmem_banks = 8);
    ~tc_model_backend() override;
    tc_model_backend(const tc_model_backend &) = delete;
    tc_model_backend &operator=(const tc_model_backend &) = delete;
    tc_status wmma(const tc_tlm_cmd &cmd, uint64_t &cycles) override;
    tc_status tmem(const tc_tlm_cmd &cmd, uint64_t &cycles) override;

private:
    tc_tmem *tmem_ = nullptr;    // NULL if it could not be allocated: TC_ENOMEM
};

class tc_tlm_target : public sc_core::sc_module {
public:
    tlm_utils::simple_target_socket<tc_tlm_target> socket;

    // backend: not owned; period: one tensor-core clock.
    tc_tlm_target(sc_core::sc_module_name name, tc_tlm_backend &backend,
                  sc_core::sc_time period);

private:
    void b_transport(tlm::tlm_generic_payload &trans, sc_core::sc_time &delay);
    tc_tlm_backend &backend_;
    sc_core::sc_time period_;
};

#endif
