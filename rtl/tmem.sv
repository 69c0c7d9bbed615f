// tmem.sv - Blackwell-style tensor memory (seed 003 section 1.1; issue 6).
//
// 128 lanes x 512 columns of 32-bit words (256 KiB), in 4 lane groups of 32 lanes, one
// group per warp quarter (sub-partition). Each group has NumBanks banks; a bank row
// holds one column of the group's 32 lanes (1024 bits):
//
//     group = lane / 32      bank = col % NumBanks      row = col / NumBanks
//
//   NumBanks = 8: 8 banks x 64 rows per group (seed 003 Figure 5: bank n holds columns
//                 8*row + n). The 8 columns of a slice sit in 8 different banks, so a
//                 whole slice is read or written in one cycle.
//   NumBanks = 4: 4 banks x 128 rows per group (the cheaper organization of seed 003):
//                 a slice needs two accesses per bank, so it takes two cycles.
//
// Windows. Every request names a start column c; its slot k (k = 0..n-1) is column
// (c + k) % 512, so windows may start anywhere and wrap from column 511 to column 0.
// Any NumBanks consecutive columns fall in NumBanks distinct banks, hence no alignment.
//
// Ports and commands (the port number is also the priority: lower wins a conflict)
//
// | # | port     | operation                        | lanes       | columns | 8x64 | 4x128       |
// |---|----------|----------------------------------|-------------|---------|------|-------------|
// | 0 | d_*      | MMA D write, disable-output-lane | 128         | 8       | 1    | 2           |
// | 1 | a_*      | MMA A read                       | 128         | 8       | 1    | 2           |
// | 2 | shift_*  | tcgen05.shift                    | 128         | 8       | 1    | 2           |
// | 3 | cp_*     | tcgen05.cp .128x256b (copy-in)   | 128         | 8       | 1    | 2           |
// | 4 | ls_*     | tcgen05.ld / st .32x32b          | 32 (1 grp)  | n = 1-8 | 1    | 1 n<=4, 2   |
//
// The last two columns are cycles per request. tcgen05.ld/st .32x32b.xN (N columns per
// lane, N = 1..128) is issued as ceil(N/8) ls requests of min(8, N) columns each, so
// .x128 costs 16 cycles with 8 banks and 32 with 4.
//
// Handshake (same on every port). A request is valid_i plus its payload; the memory
// executes one request at a time. When idle it grants the lowest-numbered valid port
// and starts at once; the request's cycles run back to back, and ready_o rises in the
// last of them. The requester holds valid_i and the payload, unchanged, until it sees
// ready_o (valid & ready is the handshake); a port that is not granted simply waits,
// so a conflict costs the loser cycles and never drops a request. A request that
// takes two cycles locks the memory for its second cycle even against higher-priority
// ports. Fixed priority can starve ld/st under a continuous MMA stream: the issuer
// (the tensor-core pipeline) owns fairness. Ordering between ports (e.g. a cp then an
// MMA A read of the same columns) is the issuer's, as for the asynchronous tcgen05 ops.
//
// Read results: a_rvalid_o / ls_rvalid_o pulse for one cycle, the cycle after ready_o,
// with a_rdata_o / ls_rdata_o (only valid while rvalid_o is high). ld slots k >= n read
// 0; st slots k >= n are not written. Data vectors are slot-major, one 32-bit word per
// (slot k, lane l) at [(k*L + l)*32 +: 32], L = 128 (or 32 for ls_*, lane l of group
// ls_group_i), so that each (slot, group) is one 1024-bit bank row:
//
//   d_data_i, cp_data_i, a_rdata_o (32768 bits)
//   | slot 7: lane 127 .. lane 0 | ... | slot 1: lane 127 .. 0 | slot 0: lane 127 .. 0 |
//   bit 32767                                                                    bit 0
//   ls_wdata_i, ls_rdata_o (8192 bits)
//   | slot 7: lane 31 .. 0 | ... | slot 0: lane 31 .. 0 |
//
// Writes land at the rising edge ending the cycle; a request in the next cycle sees
// them (so back-to-back shifts compose). rst_ni is synchronous, active low, as in every
// block of rtl/ (docs/rtl_conventions.md): while it is low no port is granted (nothing
// is written, no ready), and the rising edge it is low at abandons the second cycle of a
// two-cycle request and clears the read-valid flags; the storage is not reset.
//
// How one cycle works: bank b of every group serves the one window slot whose column it
// holds in this cycle, k = ((b - c) mod NumBanks) + step*NumBanks, at row (c + k) /
// NumBanks; the 4 groups share the address. The bank macro (tmem_bank) reads the row
// combinationally and writes it at the clock edge, which is what lets a shift read
// lane l-1 and write lane l of the same row in one cycle. Read slots are captured into
// the rdata registers of their (slot, group).
//
// tcgen05.shift (seed 003 1.1.1 and Algorithm 3.b). For the 8 columns of the window,
// every lane's word moves to the next lane: new[l] = old[l-1] for l = 1..127, across
// group boundaries (lane 31 -> 32, 63 -> 64, 95 -> 96). Seed 003 calls Lane[0] the
// "last lane" of Figure 4: it is the one lane that no neighbour writes, and it keeps
// its old word (so lanes 0 and 1 hold the same word afterwards, and software loads
// the new row into lane 0, as Algorithm 3.b does with MMA_A[0]). The old word of lane
// 127 is shifted out and lost.
//
// MMA D write: d_disable_i[l] = 1 leaves lane l unwritten (disable-output-lane, seed
// 003 section 1.2.2); the other lanes get all 8 columns.
module tmem #(
  parameter int unsigned NumBanks = 8,                // banks per lane group: 8 (x 64 rows) or 4 (x 128 rows)
  parameter int unsigned WordW    = tmem_pkg::WORD_W  // 32 per the spec; smaller only to keep synthesis tests fast
) (
  input  logic                               clk_i,
  input  logic                               rst_ni,

  // Port 0: MMA D write (128 lanes x 8 columns, per-lane disable)
  input  logic                               d_valid_i,
  output logic                               d_ready_o,
  input  logic [tmem_pkg::COL_W-1:0]         d_col_i,
  input  logic [tmem_pkg::LANES-1:0]         d_disable_i,
  input  logic [tmem_pkg::SLICE*tmem_pkg::LANES*WordW-1:0] d_data_i,

  // Port 1: MMA A read (128 lanes x 8 columns)
  input  logic                               a_valid_i,
  output logic                               a_ready_o,
  input  logic [tmem_pkg::COL_W-1:0]         a_col_i,
  output logic                               a_rvalid_o,
  output logic [tmem_pkg::SLICE*tmem_pkg::LANES*WordW-1:0] a_rdata_o,

  // Port 2: shift (8 columns, all 128 lanes)
  input  logic                               shift_valid_i,
  output logic                               shift_ready_o,
  input  logic [tmem_pkg::COL_W-1:0]         shift_col_i,

  // Port 3: copy-in from shared memory (128 lanes x 8 columns)
  input  logic                               cp_valid_i,
  output logic                               cp_ready_o,
  input  logic [tmem_pkg::COL_W-1:0]         cp_col_i,
  input  logic [tmem_pkg::SLICE*tmem_pkg::LANES*WordW-1:0] cp_data_i,

  // Port 4: warp-quarter load/store (32 lanes of one group x 1..8 columns)
  input  logic                               ls_valid_i,
  output logic                               ls_ready_o,
  input  logic                               ls_store_i,
  input  logic [tmem_pkg::GROUP_W-1:0]       ls_group_i,
  input  logic [tmem_pkg::COL_W-1:0]         ls_col_i,
  input  logic [tmem_pkg::NCOLS_W-1:0]       ls_ncols_m1_i,  // n - 1
  input  logic [tmem_pkg::SLICE*tmem_pkg::GROUP_LANES*WordW-1:0] ls_wdata_i,
  output logic                               ls_rvalid_o,
  output logic [tmem_pkg::SLICE*tmem_pkg::GROUP_LANES*WordW-1:0] ls_rdata_o
);

  // ------------------------------------------------------------------ Constants
  localparam int unsigned GROUPS      = tmem_pkg::GROUPS;
  localparam int unsigned GROUP_LANES = tmem_pkg::GROUP_LANES;
  localparam int unsigned LANES       = tmem_pkg::LANES;
  localparam int unsigned WORD_W      = WordW;
  localparam int unsigned SLICE       = tmem_pkg::SLICE;
  localparam int unsigned COL_W       = tmem_pkg::COL_W;
  localparam int unsigned SLOT_W      = tmem_pkg::SLOT_W;
  localparam int unsigned ROW_BITS    = GROUP_LANES * WORD_W;    // one bank row: 32 lanes
  localparam int unsigned NUM_PORTS   = tmem_pkg::NUM_PORTS;
  // Bank index = low column bits; row = the remaining column bits.
  localparam int unsigned BANK_W      = $clog2(NumBanks);
  localparam int unsigned DEPTH       = tmem_pkg::COLS / NumBanks;
  localparam int unsigned ROW_AW      = COL_W - BANK_W;          // row address width
  // Accesses per bank for a full slice: the cycles of a 128-lane request.
  localparam int unsigned STEPS       = SLICE / NumBanks;

`ifndef SYNTHESIS
  if (NumBanks != 8 && NumBanks != 4) begin : gen_bad_num_banks
    $error("tmem: NumBanks must be 8 or 4");
  end
  // A narrower word is a slice of the memory for synthesis runs (synth/blocks.txt);
  // a wider one is no tensor memory of the spec.
  if (WordW < 1 || WordW > tmem_pkg::WORD_W) begin : gen_bad_word_w
    $error("tmem: WordW must be 1 to %0d", tmem_pkg::WORD_W);
  end
`endif

  // ------------------------------------------------------------------ Arbitration
  // One request at a time; the lowest-numbered valid port wins, except that the
  // second cycle of a two-cycle request stays with its port.
  logic [NUM_PORTS-1:0] req;
  logic [NUM_PORTS-1:0] grant /*verilator public_flat_rd*/;  // the testbench compares it
  logic [NUM_PORTS-1:0] busy_port_q;
  logic                 busy_q;       // in the second cycle of a two-cycle request
  logic                 last_step;    // the granted request finishes in this cycle

  assign req = {ls_valid_i, cp_valid_i, shift_valid_i, a_valid_i, d_valid_i};

  // In reset nothing is granted: a request waits for it to end (it would otherwise write,
  // or take a ready whose read result the reset edge drops), and the half-done request
  // that the reset edge abandons writes no second half.
  always_comb begin : arbitrate
    if (!rst_ni)     grant = '0;
    else if (busy_q) grant = busy_port_q;
    else             grant = req & (~req + NUM_PORTS'(1));  // lowest set bit
  end

  // ------------------------------------------------------------------ Request decode
  logic [COL_W-1:0]             op_col;
  logic [tmem_pkg::NCOLS_W-1:0] op_ncols_m1;
  logic                         op_wide_wr;  // D or cp: 128-lane write from the port
  logic                         op_shift;
  logic                         op_a;
  logic                         op_st, op_ld;

  always_comb begin : op_decode
    op_col      = ls_col_i;
    op_ncols_m1 = tmem_pkg::NCOLS_W'(SLICE - 1);
    if (grant[tmem_pkg::PORT_D])          op_col = d_col_i;
    else if (grant[tmem_pkg::PORT_A])     op_col = a_col_i;
    else if (grant[tmem_pkg::PORT_SHIFT]) op_col = shift_col_i;
    else if (grant[tmem_pkg::PORT_CP])    op_col = cp_col_i;
    else if (grant[tmem_pkg::PORT_LS])    op_ncols_m1 = ls_ncols_m1_i;
  end

  assign op_wide_wr = grant[tmem_pkg::PORT_D] | grant[tmem_pkg::PORT_CP];
  assign op_shift   = grant[tmem_pkg::PORT_SHIFT];
  assign op_a       = grant[tmem_pkg::PORT_A];
  assign op_st      = grant[tmem_pkg::PORT_LS] & ls_store_i;
  assign op_ld      = grant[tmem_pkg::PORT_LS] & ~ls_store_i;

  // A request of n columns needs ceil(n / NumBanks) cycles: 1 with 8 banks; with 4,
  // two unless it is an ld/st of at most 4 columns.
  assign last_step = (STEPS == 1) || busy_q || ({1'b0, op_ncols_m1} < 4'(NumBanks));

  assign d_ready_o     = grant[tmem_pkg::PORT_D]     & last_step;
  assign a_ready_o     = grant[tmem_pkg::PORT_A]     & last_step;
  assign shift_ready_o = grant[tmem_pkg::PORT_SHIFT] & last_step;
  assign cp_ready_o    = grant[tmem_pkg::PORT_CP]    & last_step;
  assign ls_ready_o    = grant[tmem_pkg::PORT_LS]    & last_step;

  always_ff @(posedge clk_i) begin : control_regs
    if (!rst_ni) begin
      busy_q      <= 1'b0;
      busy_port_q <= '0;
    end else begin
      busy_q      <= (|grant) & ~last_step;
      busy_port_q <= grant;
    end
  end

`ifndef SYNTHESIS
  // The second cycle of a request uses the port's payload again, so it must be held.
  always_ff @(posedge clk_i) begin : check_hold
    if (rst_ni && busy_q) begin
      assert ((req & busy_port_q) != '0)
        else $error("tmem: valid dropped before ready on port mask %b", busy_port_q);
    end
  end
`endif

  // ------------------------------------------------------------------ Bank addressing
  // In cycle `step` of a request, bank b serves the one slot k of the window whose
  // column lies in it: k = ((b - c) mod NumBanks) + step * NumBanks. All groups use
  // the same row, so the address of bank b is shared by the 4 groups.
  logic [NumBanks*SLOT_W-1:0] bank_slot;
  logic [NumBanks-1:0]        bank_active;  // slot k < n: the bank takes part
  logic [NumBanks*ROW_AW-1:0] bank_row;

  for (genvar b = 0; b < NumBanks; b++) begin : gen_bank_addr
    logic [BANK_W-1:0] off;
    logic [SLOT_W-1:0] slot;
    assign off  = BANK_W'(b) - op_col[BANK_W-1:0];
    assign slot = SLOT_W'(off) + (busy_q ? SLOT_W'(NumBanks) : SLOT_W'(0));
    assign bank_slot[b*SLOT_W +: SLOT_W] = slot;
    assign bank_active[b]                = slot <= op_ncols_m1;
    // row of column c + k; the COL_W-bit sum wraps from 511 to 0
    assign bank_row[b*ROW_AW +: ROW_AW]  = ROW_AW'((op_col + COL_W'(slot)) >> BANK_W);
  end

  // ------------------------------------------------------------------ Banks
  // One row per bank, bank (g, b) at index g*NumBanks + b. An unpacked array, not a flat
  // vector: Verilator would rebuild a 32768-bit vector from the 32 bank outputs by
  // concatenation in every evaluation.
  logic [ROW_BITS-1:0] bank_rdata [GROUPS*NumBanks];

  for (genvar g = 0; g < GROUPS; g++) begin : gen_group
    for (genvar b = 0; b < NumBanks; b++) begin : gen_bank
      // The group whose lane 31 feeds this group's lane 0 in a shift (group 0 has
      // none: its lane 0 is masked, the value below is only a defined filler).
      localparam int unsigned PREV  = (g == 0) ? 0 : g - 1;
      localparam int unsigned IDX   = g * NumBanks + b;
      localparam int unsigned PIDX  = PREV * NumBanks + b;

      logic                    we;
      logic [GROUP_LANES-1:0]  wmask;
      logic [ROW_BITS-1:0]     wdata;
      logic [SLOT_W-1:0]       slot;
      logic [ROW_BITS-1:0]     rdata;

      assign slot = bank_slot[b*SLOT_W +: SLOT_W];
      assign we   = bank_active[b] &
                    (op_wide_wr | op_shift | (op_st & (ls_group_i == tmem_pkg::GROUP_W'(g))));

      // One source per request; an idle bank gets the cp slot, which it does not write.
      always_comb begin : write_select
        wmask = '1;
        if (op_shift) begin
          // lane i <- lane i-1 of the same bank row; lane 0 <- lane 31 of the group before
          wdata = {bank_rdata[IDX][ROW_BITS-WORD_W-1:0], bank_rdata[PIDX][ROW_BITS-1 -: WORD_W]};
          if (g == 0) wmask[0] = 1'b0;  // lane 0 keeps its word
        end else if (op_st) begin
          wdata = ls_wdata_i[32'(slot)*ROW_BITS +: ROW_BITS];
        end else if (grant[tmem_pkg::PORT_D]) begin
          wdata = d_data_i[(32'(slot)*LANES + g*GROUP_LANES)*WORD_W +: ROW_BITS];
          wmask = ~d_disable_i[g*GROUP_LANES +: GROUP_LANES];
        end else begin
          wdata = cp_data_i[(32'(slot)*LANES + g*GROUP_LANES)*WORD_W +: ROW_BITS];
        end
      end

      tmem_bank #(
        .Depth (DEPTH),
        .Lanes (GROUP_LANES),
        .WordW (WORD_W)
      ) i_bank (
        .clk_i   (clk_i),
        .addr_i  (bank_row[b*ROW_AW +: ROW_AW]),
        .we_i    (we),
        .wmask_i (wmask),
        .wdata_i (wdata),
        .rdata_o (rdata)
      );
      // Through a named wire: Yosys 0.23 cannot connect a port to an array element.
      assign bank_rdata[IDX] = rdata;
    end
  end

  // ------------------------------------------------------------------ Read results
  // Slot k of the window lies in bank (c + k) mod NumBanks and is read in cycle
  // k / NumBanks of the request; each cycle captures the slots it read. One register
  // per (slot, group) keeps every process small (Yosys handles a 32768-bit process badly).
  logic [SLICE*BANK_W-1:0] slot_bank;
  logic [SLICE-1:0]        slot_now;   // slot k is read in this cycle

  for (genvar k = 0; k < SLICE; k++) begin : gen_slot
    localparam int unsigned STEP = k / NumBanks;

    assign slot_bank[k*BANK_W +: BANK_W] = op_col[BANK_W-1:0] + BANK_W'(k);
    assign slot_now[k]  = busy_q == (STEP != 0);

    for (genvar g = 0; g < GROUPS; g++) begin : gen_a
      logic [ROW_BITS-1:0] a_slot_q;
      always_ff @(posedge clk_i) begin : capture
        if (op_a && slot_now[k]) begin
          for (int b = 0; b < NumBanks; b++) begin
            if (slot_bank[k*BANK_W +: BANK_W] == BANK_W'(b)) a_slot_q <= bank_rdata[g*NumBanks + b];
          end
        end
      end
      assign a_rdata_o[(k*LANES + g*GROUP_LANES)*WORD_W +: ROW_BITS] = a_slot_q;
    end

    logic [ROW_BITS-1:0] ls_slot_q;
    always_ff @(posedge clk_i) begin : ld_capture
      if (op_ld) begin
        if (k != 0 && SLOT_W'(k) > op_ncols_m1) begin
          ls_slot_q <= '0;  // ld of n < 8 columns: slots k >= n read 0
        end else if (slot_now[k]) begin
          for (int g = 0; g < GROUPS; g++) begin
            for (int b = 0; b < NumBanks; b++) begin
              if (ls_group_i == tmem_pkg::GROUP_W'(g) && slot_bank[k*BANK_W +: BANK_W] == BANK_W'(b)) begin
                ls_slot_q <= bank_rdata[g*NumBanks + b];
              end
            end
          end
        end
      end
    end
    assign ls_rdata_o[k*ROW_BITS +: ROW_BITS] = ls_slot_q;
  end

  logic a_rvalid_q, ls_rvalid_q;

  always_ff @(posedge clk_i) begin : read_valid
    if (!rst_ni) begin
      a_rvalid_q  <= 1'b0;
      ls_rvalid_q <= 1'b0;
    end else begin
      a_rvalid_q  <= op_a & last_step;
      ls_rvalid_q <= op_ld & last_step;
    end
  end

  assign a_rvalid_o  = a_rvalid_q;
  assign ls_rvalid_o = ls_rvalid_q;

endmodule
