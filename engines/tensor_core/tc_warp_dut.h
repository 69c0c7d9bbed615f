/* tc_warp_dut.h - the Verilated rtl/tc_warp.sv (the warp's tensor-core side: fragment
 * registers, HMMA sequencer, two tensor cores), one clock at a time, from C.
 * tc_warp_shim.cpp implements it; it is the only C++ of engines/tensor_core. */
#ifndef TC_WARP_DUT_H
#define TC_WARP_DUT_H

#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

typedef struct tcw tcw;

/* Outputs of tc_warp during one cycle (before its rising edge). */
typedef struct tcw_out {
    int busy, done, dispatch, beat_first;
    unsigned set, step, pending;
} tcw_out;

/* TCW_OP_NONE: the fourth value of wr_op_i, which writes nothing (tc_warp.sv). */
enum { TCW_OP_A = 0, TCW_OP_B = 1, TCW_OP_C = 2, TCW_OP_NONE = 3 };
enum { TCW_LANES = 32, TCW_REGS = 8 };

/* A model in reset state for a few cycles, then idle. fst_path: an FST waveform of
 * everything that follows, or NULL. NULL on failure (no memory, no trace support). */
tcw *tcw_new(const char *fst_path);
/* The same with rst_ni low for `reset_edges` rising edges (at least 1; tcw_new: 3). */
tcw *tcw_new_reset(const char *fst_path, unsigned reset_edges);
void tcw_free(tcw *d);

/* Register `reg` of operand `op` of every lane (data[lane]); takes one clock. */
void tcw_write(tcw *d, unsigned op, unsigned reg, const uint32_t data[TCW_LANES]);
/* The same register, read combinationally (no clock). */
void tcw_read(tcw *d, unsigned op, unsigned reg, uint32_t data[TCW_LANES]);

/* Presents start_i with the instruction's mode for the next clock only. */
void tcw_start(tcw *d, int f16, int a_col, int b_col, int m8n8k4);

/* One clock: *out gets the cycle's outputs, then the rising edge. */
void tcw_clock(tcw *d, tcw_out *out);

/* Clocks since tcw_new. */
uint64_t tcw_cycles(const tcw *d);

/* LATENCY of the Verilated fedp instances inside (rtl/fedp.sv). */
unsigned tcw_fedp_latency(void);

#ifdef __cplusplus
}
#endif
#endif
