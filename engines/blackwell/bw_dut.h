/* bw_dut.h - C API of the Verilated rtl/tc_blackwell.sv (the tcgen05.mma unit).
 *
 * bw_shim.cpp (the only C++) gives pin access and the clock. bw_dut.c runs one MMA: the
 * unit's tensor-memory ports (A read, D write) are served, cycle by cycle, by the model
 * of rtl/tmem.sv at its cycle level (tc_tmem_clock: same arbitration, handshake and
 * timing, held to the RTL cycle by cycle by tb/tmem), and its shared-memory row requests
 * are answered the next cycle from the instruction's descriptors. The Verilated model
 * is thus the MMA unit alone (the tensor memory's own Verilation is engines/tmem's). */
#ifndef BW_DUT_H
#define BW_DUT_H

#include <stdint.h>
#include "tcsim.h"

#ifdef __cplusplus
extern "C" {
#endif

/* ------------------------------------------------------------- pins (bw_shim.cpp) */

typedef struct bw_pins_in {
    int rst_n;
    int start;
    unsigned kind, in_fmt, in_fmt_b, out_fmt, scale_fmt, m128, n8_m1, d_col, a_tmem, a_col;
    unsigned sfa_col, sfb_col, enable_input_d;
    uint32_t disable[TC_TMEM_LANES / 32];
    uint32_t smem_data[TC_BW_ROW_WORDS];
    int tm_a_ready, tm_a_rvalid, tm_d_ready;
    const uint32_t *tm_a_rdata;       /* TC_TMEM_WIDE_WORDS, read while tm_a_rvalid */
} bw_pins_in;

typedef struct bw_pins_out {
    int busy, done, smem_req, smem_sel;
    unsigned smem_row;
    int tm_a_valid, tm_d_valid;
    unsigned tm_a_col, tm_d_col;
    uint32_t tm_d_disable[TC_TMEM_LANES / 32];
    uint32_t tm_d_data[TC_TMEM_WIDE_WORDS];   /* filled only while tm_d_valid */
} bw_pins_out;

typedef struct bw_shim bw_shim;
/* fst_path: write an FST waveform there (the model is Verilated with --trace-fst), or
 * NULL; NULL if the file cannot be opened. */
bw_shim *bw_shim_new(const char *fst_path);
void bw_shim_free(bw_shim *s);
/* Inputs for the current cycle (clock low, evaluated), then the outputs they give. */
void bw_shim_set(bw_shim *s, const bw_pins_in *in);
void bw_shim_get(bw_shim *s, bw_pins_out *out);
/* The rising edge that ends the cycle. */
void bw_shim_tick(bw_shim *s);

/* ------------------------------------------------------------- one MMA (bw_dut.c) */

typedef struct bw_dut bw_dut;

tc_status bw_dut_new(bw_dut **out);
/* bw_dut_new that also writes every cycle to an FST waveform at fst_path (TC_EIO if it
 * cannot be opened); closed by bw_dut_free. */
tc_status bw_dut_open(const char *fst_path, bw_dut **out);
void bw_dut_free(bw_dut *d);
/* One tcgen05.mma of any kind (tcsim_bw.h) on the RTL, with the tensor memory t (any
 * organization) serving its ports, and the layouts of tcsim_bw.h. t must be idle.
 * *cycles (may be NULL): the unit's cycles from start to done. */
tc_status bw_dut_mma(bw_dut *d, tc_tmem *t, const tc_bw_mma_desc *desc, uint64_t *cycles);
/* Every cycle the unit was clocked since bw_dut_new. */
uint64_t bw_dut_cycles(const bw_dut *d);
/* seed != 0: from now on, about one cycle in four (a stream drawn from seed) the memory
 * is taken by another requester: the unit's A-read or D-write request starting in that
 * cycle is not seen (a two-cycle request in its second cycle is never stalled), so its
 * ready comes later. The unit must hold the request until ready. 0 (the default): never. */
void bw_dut_stalls(bw_dut *d, uint64_t seed);
/* Instruction desc as bw_dut_mma starts it, clocked for `run` cycles (fewer if it is
 * done sooner), then rst_ni held low for `hold` >= 1 cycles, t serving the ports
 * throughout: the instruction is abandoned, t is left as it is (it may be mid-request).
 * *busy: busy_o once rst_ni is high again, before the next clock edge. */
tc_status bw_dut_mma_reset(bw_dut *d, tc_tmem *t, const tc_bw_mma_desc *desc, uint64_t run,
                           unsigned hold, int *busy);
/* What the instruction started last asked of the memories: the cycles the tensor memory
 * served its A-read or D-write port (the grant of tc_tmem_clock) and the shared-memory
 * rows it requested; tc_bw_mma's cost charges the same (tmem_cycles, smem_rows).
 * And what busy_o and done_o did (bw_dut_mma only): busy_o in the cycle start_i was
 * raised (busy_at_start), the cycles after it up to and including the done_o cycle with
 * busy_o low (busy_gaps), and busy_o / done_o once that cycle's clock edge is past
 * (busy_after, done_after). An idle unit that is busy until done and idle after it,
 * with done_o one cycle, has all four 0. */
typedef struct bw_dut_traffic {
    uint64_t tmem_cycles, smem_rows;
    int busy_at_start;
    uint64_t busy_gaps;
    int busy_after, done_after;
} bw_dut_traffic;
void bw_dut_traffic_get(const bw_dut *d, bw_dut_traffic *out);

#ifdef __cplusplus
}
#endif
#endif
