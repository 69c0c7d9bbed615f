// fma_chain_tb_top.sv - what baseline_tb Verilates: rtl/baseline/fma_chain.sv behind a
// register on every input (as engines/fedp/fedp_tb_top.sv does for fedp, and for the same
// reason: logic fed by top-level inputs is evaluated at both clock edges). The register
// delays every slot by one cycle, so the chain's systolic timing is unchanged and the
// testbench waits LATENCY + 1 rising edges.
//
// Set chooses the parameters under test, written with tc_pkg's names (a functional test
// of the module: the synthesized parameter sets come from the profile table instead):
//   0  L 4, fp16 in, fp32 (toward zero) and fp16 (nearest even) out, 23 fraction bits
//   1  L 3, every element float format in, fp32/fp16 out, e8m13 fp32 results
//   2  L 4, tf32 in, fp32 out alone (the shape of the synthesized tf32 baselines)
//   3  L 4, fp16 in, fp16 out alone (the shape of fedp_volta_fp16_acc16)
module fma_chain_tb_top #(
  parameter int Set = 0,
  localparam int L = Set == 1 ? 3 : 4,
  localparam int InFmts = Set == 1 ?
      (1 << tc_pkg::FMT_TF32) | (1 << tc_pkg::FMT_FP16) | (1 << tc_pkg::FMT_BF16) |
      (1 << tc_pkg::FMT_E4M3) | (1 << tc_pkg::FMT_E5M2) | (1 << tc_pkg::FMT_E3M2) |
      (1 << tc_pkg::FMT_E2M3) | (1 << tc_pkg::FMT_E2M1)
    : Set == 2 ? 1 << tc_pkg::FMT_TF32 : 1 << tc_pkg::FMT_FP16,
  localparam int OutFmts = Set == 2 ? 1 << tc_pkg::FMT_FP32
                         : Set == 3 ? 1 << tc_pkg::FMT_FP16
                         : (1 << tc_pkg::FMT_FP32) | (1 << tc_pkg::FMT_FP16),
  localparam int Fp32ManBits = Set == 1 ? 13 : 23,
  localparam int ELEM_W = tc_pkg::max_value_bits(InFmts),
  localparam int C_W = tc_pkg::max_value_bits(OutFmts),
  localparam int FW = tc_pkg::FMT_BITS
) (
  input  logic                clk_i,
  input  logic                rst_ni,
  input  logic                valid_i,
  input  logic [FW-1:0]       in_fmt_i,
  input  logic [FW-1:0]       out_fmt_i,
  input  logic [L*ELEM_W-1:0] a_i,
  input  logic [L*ELEM_W-1:0] b_i,
  input  logic [C_W-1:0]      c_i,
  output logic                valid_o,
  output logic [C_W-1:0]      d_o
);
  logic                valid_q;
  logic [FW-1:0]       in_fmt_q, out_fmt_q;
  logic [L*ELEM_W-1:0] a_q, b_q;
  logic [C_W-1:0]      c_q;

  always_ff @(posedge clk_i) begin : operand_regs
    if (!rst_ni) valid_q <= 1'b0;
    else         valid_q <= valid_i;
    in_fmt_q  <= in_fmt_i;
    out_fmt_q <= out_fmt_i;
    a_q       <= a_i;
    b_q       <= b_i;
    c_q       <= c_i;
  end

  fma_chain #(.L(L), .InFmts(InFmts), .OutFmts(OutFmts), .Fp32ManBits(Fp32ManBits)) i_chain (
    .clk_i, .rst_ni, .valid_i(valid_q), .in_fmt_i(in_fmt_q), .out_fmt_i(out_fmt_q),
    .a_i(a_q), .b_i(b_q), .c_i(c_q), .valid_o, .d_o
  );
endmodule
