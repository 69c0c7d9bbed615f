/* bw_design.h - the design bw_tb runs its instructions on, behind one set of calls: the
 * tcgen05.mma unit alone, its tensor-memory ports served by the C model (bw_dut.h), or the
 * unit joined to rtl/tmem.sv (bw_sys.h, of one organization: bw_design_banks). The calls
 * are bw_dut.h's, with its contracts. */
#ifndef BW_DESIGN_H
#define BW_DESIGN_H

#include "bw_dut.h"

typedef enum bw_design_kind { BW_DESIGN_UNIT, BW_DESIGN_SYS } bw_design_kind;

typedef struct bw_design bw_design;

/* fst_path: a waveform (the unit only; TC_EINVAL for the joined design), or NULL. */
tc_status bw_design_open(bw_design_kind kind, const char *fst_path, bw_design **out);
void bw_design_free(bw_design *d);
tc_status bw_design_mma(bw_design *d, tc_tmem *t, const tc_bw_mma_desc *desc,
                        uint64_t *cycles);
tc_status bw_design_mma_reset(bw_design *d, tc_tmem *t, const tc_bw_mma_desc *desc,
                              uint64_t run, unsigned hold, int *busy);
void bw_design_stalls(bw_design *d, uint64_t seed);
void bw_design_traffic_get(const bw_design *d, bw_dut_traffic *out);
uint64_t bw_design_cycles(const bw_design *d);
/* The banks per lane group a tensor memory handed to the design must have: the joined
 * design's organization; 0 (any) for the unit. */
unsigned bw_design_banks(const bw_design *d);
/* The joined design with the memory to itself (no stalls): the last bw_design_mma also
 * ran on the unit served by the C model (on a copy of the memory), which took this many
 * cycles; the two must agree. 0 otherwise. */
uint64_t bw_design_ref_cycles(const bw_design *d);

#endif
