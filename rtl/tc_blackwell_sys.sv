// tc_blackwell_sys.sv - the Blackwell tcgen05.mma unit on its tensor memory, as one design
// (issue 29): tc_blackwell.sv's A-read and D-write requests go to tmem.sv's ports 1 and 0,
// and the memory's other ports (shift, cp, ld/st) are this top's, for whatever else uses
// the memory (the tcgen05.cp / ld / st / shift issuer; a testbench loads operands and
// reads results through them).
//
//              start_i, descriptors            smem_req_o / smem_data_i
//                        |                               |
//                 +------v-------------------------------v-----+
//                 | i_unit (tc_blackwell)                      |
//                 +--tm_a_*---------------------tm_d_*---------+
//                      | A read (port 1)           | D write (port 0)
//                 +----v---------------------------v-----------+
//   shift_*, cp_*,| i_tmem (tmem)                              |
//   ls_*  ------->|   ports 2-4                                |
//                 +--------------------------------------------+
//
// Timing is the two blocks' own, with nothing between them: ready is combinational in
// the memory (granted in the cycle it is asked, or later under a conflict or the second
// cycle of another port's two-cycle request), the A port's read data arrive the cycle
// after its ready, and the unit holds a request until its ready. The unit has ports 0 and
// 1, the highest priorities, so another requester can delay it only through the second
// cycle of its own two-cycle request (NumBanks = 4).
//
// The unit's arithmetic parameters are tc_blackwell's defaults (the model's blackwell
// tcgen05 rows); only the memory's organization is chosen here. One rst_ni, synchronous
// and active low like every block of rtl/ (docs/rtl_conventions.md), resets both: the
// unit abandons its instruction and the memory grants nothing while it is low.
module tc_blackwell_sys #(
  parameter int unsigned NumBanks = 8,   // tmem.sv: 8 (x 64 rows) or 4 (x 128 rows)
  localparam int FW = tc_pkg::FMT_BITS,
  localparam int COL_W = tmem_pkg::COL_W,
  localparam int LANES = tmem_pkg::LANES,
  localparam int WIDE_W = tmem_pkg::SLICE * LANES * tmem_pkg::WORD_W,
  localparam int QUARTER_W = tmem_pkg::SLICE * tmem_pkg::GROUP_LANES * tmem_pkg::WORD_W
) (
  input  logic                         clk_i,
  input  logic                         rst_ni,
  // the instruction (tc_blackwell.sv)
  input  logic                         start_i,
  input  logic [2:0]                   kind_i,
  input  logic [FW-1:0]                in_fmt_i,
  input  logic [FW-1:0]                in_fmt_b_i,
  input  logic [FW-1:0]                out_fmt_i,
  input  logic [FW-1:0]                scale_fmt_i,
  input  logic                         m128_i,
  input  logic [4:0]                   n8_m1_i,
  input  logic [COL_W-1:0]             d_col_i,
  input  logic                         a_tmem_i,
  input  logic [COL_W-1:0]             a_col_i,
  input  logic [COL_W-1:0]             sfa_col_i,
  input  logic [COL_W-1:0]             sfb_col_i,
  input  logic [LANES-1:0]             disable_i,
  input  logic                         enable_input_d_i,
  output logic                         busy_o,
  output logic                         done_o,
  // shared-memory rows (tc_blackwell.sv)
  output logic                         smem_req_o,
  output logic                         smem_sel_o,
  output logic [7:0]                   smem_row_o,
  input  logic [255:0]                 smem_data_i,
  // the tensor memory's other ports (tmem.sv)
  input  logic                         shift_valid_i,
  output logic                         shift_ready_o,
  input  logic [COL_W-1:0]             shift_col_i,
  input  logic                         cp_valid_i,
  output logic                         cp_ready_o,
  input  logic [COL_W-1:0]             cp_col_i,
  input  logic [WIDE_W-1:0]            cp_data_i,
  input  logic                         ls_valid_i,
  output logic                         ls_ready_o,
  input  logic                         ls_store_i,
  input  logic [tmem_pkg::GROUP_W-1:0] ls_group_i,
  input  logic [COL_W-1:0]             ls_col_i,
  input  logic [tmem_pkg::NCOLS_W-1:0] ls_ncols_m1_i,
  input  logic [QUARTER_W-1:0]         ls_wdata_i,
  output logic                         ls_rvalid_o,
  output logic [QUARTER_W-1:0]         ls_rdata_o
);

  // ------------------------------------------------------------------ Unit <-> memory
  logic              tm_a_valid, tm_a_ready, tm_a_rvalid;
  logic [COL_W-1:0]  tm_a_col;
  logic [WIDE_W-1:0] tm_a_rdata;
  logic              tm_d_valid, tm_d_ready;
  logic [COL_W-1:0]  tm_d_col;
  logic [LANES-1:0]  tm_d_disable;
  logic [WIDE_W-1:0] tm_d_data;

  tc_blackwell i_unit (
    .clk_i, .rst_ni, .start_i, .kind_i, .in_fmt_i, .in_fmt_b_i, .out_fmt_i, .scale_fmt_i,
    .m128_i, .n8_m1_i, .d_col_i, .a_tmem_i, .a_col_i, .sfa_col_i, .sfb_col_i, .disable_i,
    .enable_input_d_i, .busy_o, .done_o, .smem_req_o, .smem_sel_o, .smem_row_o,
    .smem_data_i,
    .tm_a_valid_o   (tm_a_valid),
    .tm_a_col_o     (tm_a_col),
    .tm_a_ready_i   (tm_a_ready),
    .tm_a_rvalid_i  (tm_a_rvalid),
    .tm_a_rdata_i   (tm_a_rdata),
    .tm_d_valid_o   (tm_d_valid),
    .tm_d_col_o     (tm_d_col),
    .tm_d_disable_o (tm_d_disable),
    .tm_d_data_o    (tm_d_data),
    .tm_d_ready_i   (tm_d_ready)
  );

  tmem #(.NumBanks(NumBanks)) i_tmem (
    .clk_i, .rst_ni,
    .d_valid_i   (tm_d_valid),
    .d_ready_o   (tm_d_ready),
    .d_col_i     (tm_d_col),
    .d_disable_i (tm_d_disable),
    .d_data_i    (tm_d_data),
    .a_valid_i   (tm_a_valid),
    .a_ready_o   (tm_a_ready),
    .a_col_i     (tm_a_col),
    .a_rvalid_o  (tm_a_rvalid),
    .a_rdata_o   (tm_a_rdata),
    .shift_valid_i, .shift_ready_o, .shift_col_i,
    .cp_valid_i, .cp_ready_o, .cp_col_i, .cp_data_i,
    .ls_valid_i, .ls_ready_o, .ls_store_i, .ls_group_i, .ls_col_i, .ls_ncols_m1_i,
    .ls_wdata_i, .ls_rvalid_o, .ls_rdata_o
  );

endmodule
