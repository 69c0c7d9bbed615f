// fedp_unpack.sv - UNPACK of one element of a fixed float format (docs/contract.md step 1).
//
// The value is x = sig * 2^exp with subnormals kept: exp = max(floor(log2|x|), emin) and
// sig in [0, 2) an exact fixed-point significand. Every field width, the bias and the
// Inf/NaN rules come from the model's format table through tc_pkg.
//
//   bits_i:  | sign | exponent field (EB) | fraction (MB) |
//   sig_o:   | hidden | fraction (MB) | zeros (ManW - MB) |   1 integer bit, ManW fraction
//
// The fraction is left-justified to ManW bits so that the elements of every format a
// decoder supports share one significand shape. Inf and NaN leave sig_o/exp_o as don't
// care: the special path decides the result on its own.
module fedp_unpack #(
  parameter int Fmt  = tc_pkg::FMT_FP16,  // tc_fmt code of the element
  parameter int ManW = 10,                // fraction bits of sig_o, >= man_bits(Fmt)
  parameter int ExpW = 10,                // width of the signed exponent exp_o
  localparam int EB  = tc_pkg::exp_bits(Fmt),
  localparam int MB  = tc_pkg::man_bits(Fmt),
  localparam int VB  = tc_pkg::value_bits(Fmt)  // sign + EB + MB (tf32: 19 of its 32 bits)
) (
  input  logic [VB-1:0]          bits_i,
  output logic                   sign_o,
  output logic signed [ExpW-1:0] exp_o,
  output logic [ManW:0]          sig_o,
  output logic                   zero_o,
  output logic                   inf_o,
  output logic                   nan_o
);
  localparam int NAN_STYLE = tc_pkg::nan_style(Fmt);
  localparam bit HAS_INF = tc_pkg::has_inf(Fmt) != 0;

  logic [EB-1:0] exp_field;
  logic [MB-1:0] man_field;
  logic          normal, exp_ones;

  assign {sign_o, exp_field, man_field} = bits_i;
  assign normal = |exp_field;
  assign exp_ones = &exp_field;

  always_comb begin : unpack
    zero_o = !normal && man_field == '0;
    // The all-ones exponent is special only in the formats whose table row says so:
    // e4m3 keeps it for normal values but S.1111.111, e2m1 and the fp6 formats not at all.
    inf_o = NAN_STYLE == tc_pkg::NAN_IEEE && HAS_INF && exp_ones && man_field == '0;
    nan_o = (NAN_STYLE == tc_pkg::NAN_IEEE && exp_ones && !inf_o) ||
            (NAN_STYLE == tc_pkg::NAN_ALL_ONES && exp_ones && &man_field);
    exp_o = normal ? ExpW'(exp_field) - ExpW'(tc_pkg::bias(Fmt)) : ExpW'(tc_pkg::emin(Fmt));
    sig_o = (ManW + 1)'({normal, man_field}) << (ManW - MB);
  end
endmodule
