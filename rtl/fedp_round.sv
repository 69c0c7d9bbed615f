// fedp_round.sv - ROUND of a normalised magnitude (docs/contract.md step 6): the
// subnormal shift in front of fedp_pack.sv, which rounds (RZ or RNE, its table) and packs.
//
// The input is a normalised magnitude (leading one in its top bit) and the exponent of
// that leading one. The result has ManBits fraction bits in the exponent range of format
// Fmt: gradual underflow below emin, Inf once the rounded exponent passes emax, and the
// fraction widened with zeros to Fmt's own width (e8m13 inside fp32: ManBits 13).
//
//   sig_i left-aligned in VW bits, then shifted right by the subnormal distance:
//   | hidden | fraction (ManBits) | round | sticky ... |
//
// The baseline's FMA (rtl/baseline/fma.sv) rounds with it; the FEDP's back end aligns
// subnormals in its normalising shift instead and calls fedp_pack.sv directly.
module fedp_round #(
  parameter int Fmt     = tc_pkg::FMT_FP32,
  parameter int ManBits = tc_pkg::man_bits(Fmt),
  parameter bit Rne     = 1'b0,
  parameter int SigW    = 24,  // width of sig_i
  parameter int ExpW    = 10,  // width of the signed exponent exp_i
  localparam int EB = tc_pkg::exp_bits(Fmt),
  localparam int MB = tc_pkg::man_bits(Fmt),
  localparam int RW = 1 + EB + MB  // the result: a pattern of Fmt
) (
  input  logic                   sign_i,
  input  logic signed [ExpW-1:0] exp_i,  // floor(log2) of the magnitude
  input  logic [SigW-1:0]        sig_i,  // leading one at SigW-1; zero is handled outside
  output logic [RW-1:0]          result_o
);
  localparam int EMIN = tc_pkg::emin(Fmt);
  localparam int VW = SigW > ManBits + 2 ? SigW : ManBits + 2;  // room for the round bit
  // A shift of ManBits+2 already moves the leading one below the round bit: any
  // larger one gives the same result, so the shifter stops there.
  localparam int DMAX = ManBits + 2;
  localparam int DW = $clog2(DMAX + 1);
  localparam int XW = ExpW + 2;  // EMIN - exp_i and exp_i - EMIN + 1 without overflow

  logic signed [XW-1:0]  under;   // how far below emin the leading one sits
  logic [DW-1:0]         dn;      // right shift that makes a subnormal
  logic [VW-1:0]         v, shifted;
  logic signed [XW-1:0]  biased;
  logic                  lost;    // non-zero bits shifted out

  always_comb begin : denorm
    under = XW'(EMIN) - XW'(exp_i);
    dn = under <= 0 ? '0 : under >= XW'(DMAX) ? DW'(DMAX) : DW'(under);
    v = VW'(sig_i) << (VW - SigW);
    shifted = v >> dn;
    lost = |(v & ~({VW{1'b1}} << dn));
    // A subnormal's biased exponent is 0 and its hidden bit is already shifted out.
    biased = under > 0 ? '0 : XW'(exp_i) - XW'(EMIN) + XW'(1);
  end

  fedp_pack #(.Fmt(Fmt), .ManBits(ManBits), .Rne(Rne), .SigW(VW), .BW(XW)) i_pack (
    .sign_i,
    .biased_i(biased),
    .sig_i   (shifted),
    .sticky_i(lost),
    .result_o
  );
endmodule
