/* bw_pins.h - what bw_dut.c (the unit, memory from the C model) and bw_sys.c (the unit on
 * rtl/tmem.sv) both put on tc_blackwell.sv's instruction and shared-memory pins. */
#ifndef BW_PINS_H
#define BW_PINS_H

#include "bw_dut.h"

/* Instruction m on the pins, with start_i raised for its first cycle; m's checks first
 * (the errors of bw_dut_mma: TC_EUNSUPPORTED, TC_ESHAPE, TC_EINVAL). */
tc_status bw_pins_load(bw_pins_in *in, const tc_bw_mma_desc *m);
/* The shared-memory row the unit asked for (sel 1: B, 0: A) onto smem_data for the next
 * cycle; TC_EIO for a row the operand does not have. */
tc_status bw_pins_smem_row(bw_pins_in *in, const tc_bw_mma_desc *m, int sel, unsigned row);

#endif
