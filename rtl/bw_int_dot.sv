// bw_int_dot.sv - the i8 kind of tcgen05.mma (tc_blackwell.sv): d = c + sum a_i * b_i over
// L 8-bit integers (int8 or uint8, a and b each in its own: kind::i8's pairs), accumulated
// exactly in 32 bits with wrap-around (docs/contract.md, "Integer kinds").
// One operation per cycle; the result is registered: LATENCY = 1.
module bw_int_dot #(
  parameter int L = tc_pkg::BW_ROW_BITS / tc_pkg::INT8_WIDTH  // products per step: one row
) (
  input  logic           clk_i,
  input  logic           rst_ni,
  input  logic           valid_i,
  input  logic           signed_i,   // a: 1 int8, 0 uint8
  input  logic           signed_b_i, // b: the same
  input  logic [L*8-1:0] a_i,
  input  logic [L*8-1:0] b_i,
  input  logic [31:0]    c_i,
  output logic           valid_o,
  output logic [31:0]    d_o
);
  // A product of two 9-bit signed values (an 8-bit element sign- or zero-extended) fits
  // 17 bits; the sum is taken modulo 2^32 as the s32 accumulator wraps.
  logic [31:0] sum;
  always_comb begin : stage_sum
    sum = c_i;
    for (int i = 0; i < L; i++) begin
      logic signed [8:0] x, y;
      logic signed [17:0] p;
      x = {signed_i & a_i[i*8+7], a_i[i*8 +: 8]};
      y = {signed_b_i & b_i[i*8+7], b_i[i*8 +: 8]};
      p = x * y;
      sum = sum + {{14{p[17]}}, p};
    end
  end

  always_ff @(posedge clk_i) begin : result_regs
    if (!rst_ni) valid_o <= 1'b0;
    else         valid_o <= valid_i;
    if (valid_i) d_o <= sum;
  end
endmodule
