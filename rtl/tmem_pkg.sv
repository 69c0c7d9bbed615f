// tmem_pkg.sv - constants of the tensor memory (seed 003, section 1.1) for tmem.sv.
// The C model spells the same numbers TC_TMEM_* in model/include/tcsim_tmem.h; the
// testbench (tb/tmem) fails if the two disagree on any observable effect (mapping,
// cycle counts, data).
//
// Reference these as tmem_pkg::NAME (Yosys 0.23 has no `import pkg::*`).
package tmem_pkg;

  // Geometry fixed by the spec: 128 lanes x 512 columns of one 32-bit word.
  localparam int unsigned LANES       = 128;
  localparam int unsigned COLS        = 512;
  localparam int unsigned WORD_W      = 32;
  // One lane group per warp quarter / sub-partition: 4 groups of 32 lanes.
  localparam int unsigned GROUPS      = 4;
  localparam int unsigned GROUP_LANES = LANES / GROUPS;
  // A slice is 8 consecutive columns (32 bytes per lane): the unit of cp, MMA D/A
  // and shift, and the most a warp-quarter ld/st moves per cycle.
  localparam int unsigned SLICE       = 8;

  // Address and field widths.
  localparam int unsigned COL_W       = $clog2(COLS);          // 9: column 0..511
  localparam int unsigned GROUP_W     = $clog2(GROUPS);        // 2: warp quarter 0..3
  localparam int unsigned SLOT_W      = $clog2(SLICE);         // 3: column within a slice
  localparam int unsigned NCOLS_W     = $clog2(SLICE);         // 3: ld/st column count - 1

  // Data ports carry one word per (slot, lane), slot-major: the word of slot k, lane l is
  // at [(k*L + l)*WORD_W +: WORD_W] (L = LANES, or GROUP_LANES for ld/st), because a bank
  // row holds one column of a group's 32 lanes, so each (slot, group) is one bank row.

  // Request ports; the index is also the priority (lower wins a conflict).
  localparam int unsigned PORT_D      = 0;  // MMA result write (D), lane mask
  localparam int unsigned PORT_A      = 1;  // MMA operand read (A)
  localparam int unsigned PORT_SHIFT  = 2;  // tcgen05.shift
  localparam int unsigned PORT_CP     = 3;  // tcgen05.cp 128x256b from shared memory
  localparam int unsigned PORT_LS     = 4;  // tcgen05.ld / tcgen05.st .32x32b, one warp quarter
  localparam int unsigned NUM_PORTS   = 5;

endpackage
