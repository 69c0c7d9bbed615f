// fedp_tb_top.sv - what the testbench Verilates: rtl/fedp.sv behind a register on every
// input, as the tensor core's operand buffers would feed it (seed 000).
//
// Why: Verilator evaluates logic fed by top-level inputs at every eval() call, so fedp's
// UNPACK+MUL stage would be computed at both clock edges; behind this register it is
// computed once per cycle (volta: 1728 instead of 2518 instructions per cycle). The
// register adds one cycle: the testbench waits fedp's LATENCY + 1 rising edges.
module fedp_tb_top #(
  // fedp's parameters: the build passes an instance's preset (volta_fp16 by default).
  parameter int L = tc_pkg::FEDP_VOLTA_FP16_L,
  parameter int F = tc_pkg::FEDP_VOLTA_FP16_F,
  parameter int InFmts = tc_pkg::FEDP_VOLTA_FP16_IN_FMTS,
  parameter int OutFmts = tc_pkg::FEDP_VOLTA_FP16_OUT_FMTS,
  parameter int EminAlignFp32 = tc_pkg::FEDP_VOLTA_FP16_EMIN_ALIGN_FP32,
  parameter int EminAlignFp16 = tc_pkg::FEDP_VOLTA_FP16_EMIN_ALIGN_FP16,
  parameter int Fp32ManBits = tc_pkg::FEDP_VOLTA_FP16_FP32_MAN_BITS,
  parameter int ZeroPlusFp16 = tc_pkg::FEDP_VOLTA_FP16_ZERO_PLUS_FP16,
  parameter int InPairs = tc_pkg::FEDP_VOLTA_FP16_IN_PAIRS,
  parameter int Depth = tc_pkg::FEDP_LATENCY,
  localparam int ELEM_W = tc_pkg::max_value_bits(InFmts),
  localparam int C_W = tc_pkg::max_value_bits(OutFmts),
  localparam int FW = tc_pkg::FMT_BITS
) (
  input  logic                clk_i,
  input  logic                rst_ni,
  input  logic                valid_i,
  input  logic [FW-1:0]       in_fmt_i,
  input  logic [FW-1:0]       in_fmt_b_i,
  input  logic [FW-1:0]       out_fmt_i,
  input  logic [L*ELEM_W-1:0] a_i,
  input  logic [L*ELEM_W-1:0] b_i,
  input  logic [C_W-1:0]      c_i,
  output logic                valid_o,
  output logic [C_W-1:0]      d_o
);
  logic                valid_q;
  logic [FW-1:0]       in_fmt_q, in_fmt_b_q, out_fmt_q;
  logic [L*ELEM_W-1:0] a_q, b_q;
  logic [C_W-1:0]      c_q;

  always_ff @(posedge clk_i) begin : operand_regs
    if (!rst_ni) valid_q <= 1'b0;
    else         valid_q <= valid_i;
    in_fmt_q  <= in_fmt_i;
    in_fmt_b_q <= in_fmt_b_i;
    out_fmt_q <= out_fmt_i;
    a_q       <= a_i;
    b_q       <= b_i;
    c_q       <= c_i;
  end

  fedp #(
    .L(L), .F(F), .InFmts(InFmts), .OutFmts(OutFmts), .EminAlignFp32(EminAlignFp32),
    .EminAlignFp16(EminAlignFp16), .Fp32ManBits(Fp32ManBits), .ZeroPlusFp16(ZeroPlusFp16),
    .InPairs(InPairs), .Depth(Depth)
  ) i_fedp (
    .clk_i,
    .rst_ni,
    .valid_i  (valid_q),
    .in_fmt_i (in_fmt_q),
    .in_fmt_b_i(in_fmt_b_q),
    .out_fmt_i(out_fmt_q),
    .a_i      (a_q),
    .b_i      (b_q),
    .c_i      (c_q),
    .sa_i     (8'd0),   // the plain instances: no block scaling
    .sb_i     (8'd0),
    .valid_o,
    .d_o
  );
endmodule
