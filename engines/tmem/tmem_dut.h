/* tmem_dut.h - C API over the Verilated builds of rtl/tmem.sv (Vtmem8: 8 banks x 64
 * rows, Vtmem4: 4 banks x 128 rows; Vtmem8w4, Vtmem4w4: the same with 4-bit words,
 * WordW = 4).
 * tmem_shim.cpp is the only C++; the testbench, the benchmark and `tcsim tmem-demo
 * --engine rtl` are C.
 *
 * Data is one uint32_t per word whatever the build's word width: a narrow build takes
 * the low WordW bits of each word it is given (the caller keeps the rest zero if it
 * compares with the 32-bit model) and reads back words zero-extended.
 *
 * The ports are driven with the model's own tc_tmem_inputs and read back as
 * tc_tmem_outputs, so one cycle of the RTL and one tc_tmem_clock() are compared field
 * by field.
 *
 * Cycle protocol (tmem_dut_cycle = drive + eval + sample ready + rising edge + sample
 * read results): ready and grant are what the RTL shows during the cycle, before its
 * edge; rvalid and rdata are the registers after the edge - the same convention as
 * tc_tmem_clock(). The rdata pointers point into the Verilated model and stay valid
 * until the next call that clocks it.
 */
#ifndef TMEM_DUT_H
#define TMEM_DUT_H

#include <stdint.h>
#include "tcsim.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct tmem_dut tmem_dut;

/* 1 when the builds can write an FST waveform (Verilated with --trace-fst). */
int tmem_dut_has_trace(void);

/* A new instance of the `banks` (8 or 4) organization, already reset (rst_ni low for one
 * edge). fst_path: write an FST waveform there (NULL: none). NULL on failure. */
tmem_dut *tmem_dut_new(unsigned banks, const char *fst_path);
/* The same with words of word_w bits: 32 (tmem_dut_new) or 4 (no waveform:
 * fst_path must be NULL). NULL for a combination there is no build of. */
tmem_dut *tmem_dut_new_word(unsigned banks, unsigned word_w, const char *fst_path);
void tmem_dut_free(tmem_dut *d);        /* closes the waveform; NULL is fine */
unsigned tmem_dut_banks(const tmem_dut *d);

/* rst_ni low for one rising edge with every valid low. */
void tmem_dut_reset(tmem_dut *d);
/* rst_ni low (asserted != 0) or high, evaluated without a clock edge: what the reset does
 * between edges, where a synchronous and an asynchronous reset differ (tmem_dut_reset
 * holds it over an edge, where they do the same). */
void tmem_dut_set_reset(tmem_dut *d, int asserted);

/* The three parts of a cycle, and the whole cycle. Payloads are copied only for ports
 * whose valid is set (an idle port's payload is don't-care) - and for the port whose
 * request is half done, which the caller must keep presenting. */
void tmem_dut_drive(tmem_dut *d, const tc_tmem_inputs *in);
void tmem_dut_step(tmem_dut *d);        /* one rising edge (and the falling one before it) */
void tmem_dut_cycle(tmem_dut *d, const tc_tmem_inputs *in, tc_tmem_outputs *out);
/* ready and grant as the RTL shows them now (after tmem_dut_drive, before the edge). */
void tmem_dut_sample_ready(tmem_dut *d, tc_tmem_outputs *out);
/* The read results (rvalid, rdata) as the registers hold them now, without an edge: what
 * a requester sees in the cycle after tmem_dut_reset, before its first edge. */
void tmem_dut_sample_read(tmem_dut *d, tc_tmem_outputs *out);

/* The storage, read through Verilator's scope API (mem_q is public_flat_rd): word
 * (lane, col) and a whole bank row (32 words, one per uint32_t), through the RTL's own
 * bank layout. */
int tmem_dut_peek(const tmem_dut *d, unsigned lane, unsigned col, uint32_t *out);
int tmem_dut_bank_row(const tmem_dut *d, unsigned group, unsigned bank, unsigned row,
                      uint32_t out[TC_TMEM_GROUP_LANES]);

uint64_t tmem_dut_cycle_count(const tmem_dut *d);

#ifdef __cplusplus
}
#endif
#endif
