// fma_chain.sv - the baseline the FEDP is measured against (synth/, issue 8): the same
// dot product d = c + sum_{i<L} a_i * b_i computed by L fused multiply-adds in a row,
//
//   acc_0 = c,   acc_{j+1} = fma(a_j, b_j, acc_j) rounded to the output format,   d = acc_L
//
// so the result is rounded L times (the order of a scalar loop), where the FEDP rounds
// once. Parameters, formats and ports are fedp.sv's; F and the Emin_align floors have no
// meaning here.
//
// Pipeline: one FMA per stage, one register (acc_q) after each, LATENCY = L, one new
// operation per cycle. The chain is systolic: element j of an operation is read from
// a_i/b_i slot j j cycles after the operation's valid_i (the cycle its accumulator
// reaches stage j). A source that presents all L elements at once needs a triangle of
// L*(L-1)/2 skew registers per operand in front; they are left out, so the reported
// baseline is the cheapest chained design, not a strawman.
//
//   c_i ─► FMA(a_0,b_0) ─►│acc_q[0]│─► FMA(a_1,b_1) ─►│acc_q[1]│─► ... ─►│acc_q[L-1]│─► d_o
//
// rst_ni (synchronous, active low) clears the valid bits; data registers load only with
// a valid operation, as in fedp.sv.
module fma_chain #(
  parameter int L /*verilator public*/ = tc_pkg::FEDP_VOLTA_FP16_L,  // defaults: the volta_fp16 preset
  parameter int InFmts /*verilator public*/ = tc_pkg::FEDP_VOLTA_FP16_IN_FMTS,
  parameter int OutFmts /*verilator public*/ = tc_pkg::FEDP_VOLTA_FP16_OUT_FMTS,
  parameter int Fp32ManBits /*verilator public*/ = tc_pkg::FEDP_VOLTA_FP16_FP32_MAN_BITS,
  localparam int ELEM_W /*verilator public*/ = tc_pkg::max_value_bits(InFmts),
  localparam int C_W = tc_pkg::max_value_bits(OutFmts),
  localparam int FW = tc_pkg::FMT_BITS
) (
  input  logic                clk_i,
  input  logic                rst_ni,
  input  logic                valid_i,
  input  logic [FW-1:0]       in_fmt_i,
  input  logic [FW-1:0]       out_fmt_i,
  input  logic [L*ELEM_W-1:0] a_i,       // slot j belongs to the operation issued j cycles ago
  input  logic [L*ELEM_W-1:0] b_i,
  input  logic [C_W-1:0]      c_i,
  output logic                valid_o,
  output logic [C_W-1:0]      d_o
);
  // Read by the testbench (as a public parameter), not by the logic.
  /* verilator lint_off UNUSEDPARAM */
  localparam int LATENCY /*verilator public*/ = L;
  /* verilator lint_on UNUSEDPARAM */

  if (L < 1 || L > 64) begin : gen_bad_l
    $error("fma_chain: L = %0d, expected 1..64", L);
  end

  // Stage j's registers are slice j. The formats travel with the accumulator; the last
  // stage's copies feed nothing (synthesis drops them).
  logic [L-1:0]    acc_valid_q;
  logic [L*C_W-1:0] acc_q;
  /* verilator lint_off UNUSEDSIGNAL */
  logic [L*FW-1:0] acc_in_fmt_q, acc_out_fmt_q;
  /* verilator lint_on UNUSEDSIGNAL */
  logic [L*C_W-1:0] acc_d;

  for (genvar j = 0; j < L; j++) begin : gen_stage
    logic [FW-1:0]  in_fmt, out_fmt;
    logic [C_W-1:0] acc;
    logic           valid;

    if (j == 0) begin : gen_first
      assign in_fmt = in_fmt_i;
      assign out_fmt = out_fmt_i;
      assign acc = c_i;
      assign valid = valid_i;
    end else begin : gen_next
      assign in_fmt = acc_in_fmt_q[(j-1)*FW +: FW];
      assign out_fmt = acc_out_fmt_q[(j-1)*FW +: FW];
      assign acc = acc_q[(j-1)*C_W +: C_W];
      assign valid = acc_valid_q[j-1];
    end

    fma #(.InFmts(InFmts), .OutFmts(OutFmts), .Fp32ManBits(Fp32ManBits)) i_fma (
      .in_fmt_i (in_fmt),
      .out_fmt_i(out_fmt),
      .a_i      (a_i[j*ELEM_W +: ELEM_W]),
      .b_i      (b_i[j*ELEM_W +: ELEM_W]),
      .c_i      (acc),
      .d_o      (acc_d[j*C_W +: C_W])
    );

    always_ff @(posedge clk_i) begin : acc_regs
      if (!rst_ni) acc_valid_q[j] <= 1'b0;
      else         acc_valid_q[j] <= valid;
      if (valid) begin
        acc_q[j*C_W +: C_W]        <= acc_d[j*C_W +: C_W];
        acc_in_fmt_q[j*FW +: FW]   <= in_fmt;
        acc_out_fmt_q[j*FW +: FW]  <= out_fmt;
      end
    end
  end

  assign valid_o = acc_valid_q[L-1];
  assign d_o = acc_q[(L-1)*C_W +: C_W];
endmodule
