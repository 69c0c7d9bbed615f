// fedp_round.sv - ROUND: the one rounding routine of the FEDP (docs/contract.md step 6).
//
// | Rne | mode                     | increment when           | used for             |
// |-----|--------------------------|--------------------------|----------------------|
// |  0  | toward zero (RZ)         | never                    | fp32 and e8m13 results|
// |  1  | to nearest, ties to even | round and (sticky or lsb)| fp16 results         |
//
// The input is a normalised magnitude (leading one in its top bit) and the exponent of
// that leading one. A result that rounds to zero keeps sign_i, or is +0 with ZeroPlus
// (Hopper's fp16 results, docs/contract.md step 7). The result has ManBits fraction bits in the exponent range of format
// Fmt: gradual underflow below emin, Inf once the rounded exponent passes emax, and the
// fraction widened with zeros to Fmt's own width (e8m13 inside fp32: ManBits 13).
//
//   sig_i left-aligned in VW bits, then shifted right by the subnormal distance:
//   | hidden | fraction (ManBits) | round | sticky ... |
module fedp_round #(
  parameter int Fmt     = tc_pkg::FMT_FP32,
  parameter int ManBits = tc_pkg::man_bits(Fmt),
  parameter bit Rne     = 1'b0,
  parameter bit ZeroPlus = 1'b0,
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
  localparam int EMAX = tc_pkg::emax(Fmt);
  localparam int VW = SigW > ManBits + 2 ? SigW : ManBits + 2;  // room for the round bit
  // A shift of ManBits+2 already moves the leading one below the round bit: any
  // larger one gives the same result, so the shifter stops there.
  localparam int DMAX = ManBits + 2;
  localparam int DW = $clog2(DMAX + 1);
  localparam int XW = ExpW + 2;  // EMIN - exp_i and exp_i - EMIN + 1 without overflow

  logic signed [XW-1:0]  under;   // how far below emin the leading one sits
  logic [DW-1:0]         dn;      // right shift that makes a subnormal
  logic [VW-1:0]         v, shifted;
  logic [ManBits-1:0]    frac;    // fraction before rounding (the hidden bit is implied)
  logic [EB-1:0]         biased;
  logic                  inc, ovf;
  logic [EB+ManBits-1:0] mag;

  always_comb begin : denorm
    under = XW'(EMIN) - XW'(exp_i);
    dn = under <= 0 ? '0 : under >= XW'(DMAX) ? DW'(DMAX) : DW'(under);
    v = VW'(sig_i) << (VW - SigW);
    shifted = v >> dn;
    frac = ManBits'(shifted >> (VW - 1 - ManBits));
    // A subnormal's biased exponent is 0 and its hidden bit is already shifted out.
    biased = under > 0 ? '0 : EB'(XW'(exp_i) - XW'(EMIN) + XW'(1));
    ovf = XW'(exp_i) > XW'(EMAX);
  end

  if (Rne) begin : gen_rne
    logic lost, rnd, sticky;
    always_comb begin : round_bits
      lost = |(v & ~({VW{1'b1}} << dn));
      rnd = shifted[VW-ManBits-2];
      sticky = lost || |(shifted << (ManBits + 2));
      inc = rnd && (sticky || frac[0]);
    end
  end else begin : gen_rz
    // Toward zero: the bits below the lsb are dropped.
    assign inc = 1'b0;
  end

  always_comb begin : pack
    // The increment carries into the exponent field: a subnormal becomes the smallest
    // normal, the largest finite value becomes Inf (all-ones exponent, zero fraction).
    mag = {biased, frac} + (EB+ManBits)'(inc);
    if (ovf) result_o = {sign_i, {EB{1'b1}}, {MB{1'b0}}};
    else     result_o = RW'({sign_i && !(ZeroPlus && mag == '0), mag}) << (MB - ManBits);
  end
endmodule
