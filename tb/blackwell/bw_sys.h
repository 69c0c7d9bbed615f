/* bw_sys.h - C API of the Verilated rtl/tc_blackwell_sys.sv: the tcgen05.mma unit on its
 * tensor memory, one design (Vtc_blackwell_sys, of one organization: the build's
 * TCSIM_BW_SYS_BANKS, bw_sys_shim_banks()).
 *
 * bw_sys_shim.cpp (the only C++) gives pin access and the clock. bw_sys.c runs one MMA
 * with the contract of bw_dut_mma (bw_dut.h) so that bw_tb runs either: the model memory
 * handed in is copied into the RTL's tensor memory through its cp port, the instruction
 * runs on the joined design (the unit's A-read and D-write requests served by tmem.sv
 * itself), and the whole RTL memory is read back into the model memory through the ld
 * port. Shared-memory rows are answered the cycle after each request, as bw_dut does. */
#ifndef BW_SYS_H
#define BW_SYS_H

#include <stdint.h>
#include "bw_dut.h"

#ifdef __cplusplus
extern "C" {
#endif

/* ------------------------------------------------------------- pins (bw_sys_shim.cpp) */

/* The unit's outputs, and the tensor memory's for its ports 2-4: ready (and grant, of
 * every port: tmem.sv's grant) during the cycle; ls_rvalid / ls_rdata as the registers
 * hold them (after an edge: the result of the ld whose ready came before it). */
typedef struct bw_sys_pins_out {
    int busy, done, smem_req, smem_sel;
    unsigned smem_row;
    tc_tmem_outputs mem;
} bw_sys_pins_out;

typedef struct bw_sys_shim bw_sys_shim;
/* The banks per lane group of the build's organization (8 or 4). */
unsigned bw_sys_shim_banks(void);
/* A new instance; NULL if `banks` is not the build's organization. */
bw_sys_shim *bw_sys_shim_new(unsigned banks);
void bw_sys_shim_free(bw_sys_shim *s);
/* Inputs for the current cycle (clock low, evaluated): the unit's (bw_pins_in, its tm_*
 * fields unused) and the memory's ports 2-4 (tc_tmem_inputs, d_* and a_* unused). */
void bw_sys_shim_set(bw_sys_shim *s, const bw_pins_in *in, const tc_tmem_inputs *mem);
void bw_sys_shim_get(bw_sys_shim *s, bw_sys_pins_out *out);
void bw_sys_shim_tick(bw_sys_shim *s);   /* the rising edge that ends the cycle */

/* ------------------------------------------------------------- one MMA (bw_sys.c) */

typedef struct bw_sys bw_sys;

tc_status bw_sys_new(unsigned banks, bw_sys **out);
void bw_sys_free(bw_sys *s);
unsigned bw_sys_banks(const bw_sys *s);
/* bw_dut_mma on the joined design: t (of this organization) is loaded into the RTL's
 * memory, the instruction runs, t gets the RTL memory back. *cycles (may be NULL): the
 * unit's cycles from start to done, loading and reading back not counted. */
tc_status bw_sys_mma(bw_sys *s, tc_tmem *t, const tc_bw_mma_desc *desc, uint64_t *cycles);
/* Every cycle the design was clocked since bw_sys_new, loads and read-backs included. */
uint64_t bw_sys_cycles(const bw_sys *s);
/* seed != 0: from now on, during an instruction, another requester on the ld/st port:
 * about one idle cycle in four (a stream drawn from seed) it starts a tcgen05.ld of 8
 * columns at a random group and column, held until ready. The unit's ports have the
 * higher priority, so it waits only for the second cycle of such an ld (4 banks). */
void bw_sys_stalls(bw_sys *s, uint64_t seed);
/* bw_dut_mma_reset on the joined design: t loaded, the instruction clocked for `run`
 * cycles, then rst_ni low for `hold` >= 1 cycles (unit and memory; the other requester
 * goes idle too); t is not read back. *busy: busy_o once rst_ni is high again. */
tc_status bw_sys_mma_reset(bw_sys *s, tc_tmem *t, const tc_bw_mma_desc *desc, uint64_t run,
                           unsigned hold, int *busy);
/* As bw_dut_traffic_get, for the instruction started last: tmem_cycles counts the cycles
 * tmem.sv granted the unit's ports (0 and 1). */
void bw_sys_traffic_get(const bw_sys *s, bw_dut_traffic *out);

#ifdef __cplusplus
}
#endif
#endif
