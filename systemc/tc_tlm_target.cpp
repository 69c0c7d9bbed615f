// tc_tlm_target.cpp - the TLM-2.0 target and the C-model backend (tc_tlm.h).
#include "tc_tlm.h"

tc_model_backend::tc_model_backend(unsigned tmem_banks)
{
    if (tc_tmem_new(tmem_banks, &tmem_) != TC_OK)
        tmem_ = nullptr; // every tensor-memory command then answers TC_ENOMEM
}

tc_model_backend::~tc_model_backend()
{
    tc_tmem_free(tmem_);
}

tc_status tc_model_backend::wmma(const tc_tlm_cmd &cmd, uint64_t &cycles)
{
    unsigned m, n, k, tiles;
    tc_status st = tc_shape_dims(cmd.cfg.shape, &m, &n, &k, &tiles);
    if (st != TC_OK)
        return st;
    tc_gpu_timing g;
    st = tc_gpu_timing_find("volta", &g);
    tc_mma_op op = {m, n, k, TC_FMT_FP16, cmd.cfg.acc, 0};
    tc_op_timing t;
    if (st == TC_OK)
        st = tc_op_timing_of(&g, &op, &t);
    if (st == TC_OK)
        st = tc_volta_mma(&cmd.cfg, cmd.A, cmd.B, cmd.C, cmd.D);
    if (st == TC_OK)
        cycles = t.latency;
    return st;
}

tc_status tc_model_backend::tmem(const tc_tlm_cmd &cmd, uint64_t &cycles)
{
    if (!tmem_)
        return TC_ENOMEM;
    unsigned c = 0;
    tc_status st;
    switch (cmd.op) {
    case TC_TLM_TMEM_ST:
        st = tc_tmem_st(tmem_, cmd.group, cmd.col, cmd.ncols, cmd.data, &c);
        break;
    case TC_TLM_TMEM_LD:
        st = tc_tmem_ld(tmem_, cmd.group, cmd.col, cmd.ncols, cmd.data, &c);
        break;
    case TC_TLM_TMEM_SHIFT:
        st = tc_tmem_shift(tmem_, cmd.col, &c);
        break;
    default:
        st = TC_EINVAL;
    }
    if (st == TC_OK)
        cycles = c;
    return st;
}

tc_tlm_target::tc_tlm_target(sc_core::sc_module_name name, tc_tlm_backend &backend,
                             sc_core::sc_time period)
    : sc_module(name), socket("socket"), backend_(backend), period_(period)
{
    socket.register_b_transport(this, &tc_tlm_target::b_transport);
}

// Why a payload is not one command, as the TLM-2.0 base protocol names it (IEEE 1666,
// the response status attribute): the address, then the command, then the data length
// and streaming width, then byte enables (this target writes whole commands only);
// TLM_OK_RESPONSE if it is one.
static tlm::tlm_response_status payload_error(const tlm::tlm_generic_payload &trans)
{
    if (trans.get_address() != 0)
        return tlm::TLM_ADDRESS_ERROR_RESPONSE;
    if (trans.get_command() != tlm::TLM_WRITE_COMMAND)
        return tlm::TLM_COMMAND_ERROR_RESPONSE;
    if (trans.get_data_length() != sizeof(tc_tlm_cmd) ||
        trans.get_streaming_width() < trans.get_data_length())
        return tlm::TLM_BURST_ERROR_RESPONSE;
    if (trans.get_byte_enable_ptr())
        return tlm::TLM_BYTE_ENABLE_ERROR_RESPONSE;
    if (!trans.get_data_ptr())
        return tlm::TLM_GENERIC_ERROR_RESPONSE;
    return tlm::TLM_OK_RESPONSE;
}

void tc_tlm_target::b_transport(tlm::tlm_generic_payload &trans, sc_core::sc_time &delay)
{
    tlm::tlm_response_status bad = payload_error(trans);
    if (bad != tlm::TLM_OK_RESPONSE) {
        trans.set_response_status(bad);
        return;
    }
    tc_tlm_cmd &cmd = *reinterpret_cast<tc_tlm_cmd *>(trans.get_data_ptr());
    uint64_t cycles = 0;
    tc_status st;
    switch (cmd.op) {
    case TC_TLM_WMMA:
        st = backend_.wmma(cmd, cycles);
        break;
    case TC_TLM_TMEM_ST:
    case TC_TLM_TMEM_LD:
    case TC_TLM_TMEM_SHIFT:
        st = backend_.tmem(cmd, cycles);
        break;
    default:
        st = TC_EINVAL;
    }
    cmd.status = st;
    cmd.cycles = st == TC_OK ? cycles : 0;
    delay += period_ * static_cast<double>(cmd.cycles);
    // A command the model refuses is a generic error: its reason is in cmd.status.
    trans.set_response_status(st == TC_OK ? tlm::TLM_OK_RESPONSE
                                          : tlm::TLM_GENERIC_ERROR_RESPONSE);
}
