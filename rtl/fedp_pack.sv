// fedp_pack.sv - ROUND's last step: an aligned significand and its biased exponent
// rounded and packed into a pattern of format Fmt (docs/contract.md step 6).
//
// | Rne | mode                     | increment when            | used for              |
// |-----|--------------------------|---------------------------|-----------------------|
// |  0  | toward zero (RZ)         | never                     | fp32 and e8m13 results|
// |  1  | to nearest, ties to even | round and (sticky or lsb) | fp16 results          |
//
// The alignment is done in front (fedp_round.sv for a normalised input, the back end's
// stop-bit normalisation in fedp_backend.sv): the top bit of sig_i is the hidden bit, 1
// for a normal result and 0 for a subnormal one, whose biased exponent is then 0:
//
//   sig_i:  | hidden | fraction (ManBits) | round | sticky ... |
//
// A biased exponent past the format's largest finite one (2^EB - 2) gives Inf; the fraction
// is widened with zeros to Fmt's own width (e8m13 inside fp32: ManBits 13).
module fedp_pack #(
  parameter int Fmt     = tc_pkg::FMT_FP32,
  parameter int ManBits = tc_pkg::man_bits(Fmt),
  parameter bit Rne     = 1'b0,
  // 1: a result that rounds to zero is +0 whatever sign_i (Hopper's fp16 results,
  // docs/contract.md step 7); 0: it keeps sign_i (IEEE 754).
  parameter bit ZeroPlus = 1'b0,
  parameter int SigW    = 25,  // width of sig_i, at least ManBits + 1
  parameter int BW      = 12,  // width of the signed biased exponent
  localparam int EB = tc_pkg::exp_bits(Fmt),
  localparam int MB = tc_pkg::man_bits(Fmt),
  localparam int RW = 1 + EB + MB  // the result: a pattern of Fmt
) (
  input  logic                 sign_i,
  input  logic signed [BW-1:0] biased_i,  // 0 for a subnormal, >= 1 for a normal
  input  logic [SigW-1:0]      sig_i,     // hidden bit at SigW-1
  input  logic                 sticky_i,  // non-zero bits dropped below sig_i already
  output logic [RW-1:0]        result_o
);
  localparam int VW = SigW > ManBits + 2 ? SigW : ManBits + 2;  // room for the round bit
  localparam int NW = EB + ManBits;  // what the increment carries through

  if (SigW < ManBits + 1) begin : gen_bad_sig
    $error("fedp_pack: SigW = %0d holds no %0d-bit fraction", SigW, ManBits);
  end

  logic [VW-1:0]      v;
  logic [ManBits-1:0] frac;   // fraction before rounding (the hidden bit is implied)
  logic               inc, ovf;
  logic [NW-1:0]      low, carry, mag;

  always_comb begin : fields
    v = VW'(sig_i) << (VW - SigW);
    frac = v[VW-2 -: ManBits];
    ovf = biased_i > BW'((1 << EB) - 2);
    low = {biased_i[EB-1:0], frac};
  end
  wire unused_hidden = v[VW-1];  // biased_i already says normal or subnormal

  if (Rne) begin : gen_rne
    logic rnd, sticky;
    always_comb begin : round_bits
      rnd = v[VW-ManBits-2];
      sticky = sticky_i || |(v << (ManBits + 2));
      inc = rnd && (sticky || frac[0]);
    end
  end else begin : gen_rz
    // Toward zero: the bits below the lsb are dropped.
    wire unused_round = ^{sticky_i, v[VW-ManBits-2:0]};
    assign inc = 1'b0;
  end

  // The increment as a parallel prefix rather than a ripple: bit i flips when inc is set
  // and every bit below it is one. carry[i] = &low[i-1:0] comes from log2(NW) levels of
  // AND (Kogge-Stone), built beside the round and sticky bits, so inc only gates it.
  always_comb begin : increment
    carry = {low[NW-2:0], 1'b1};
    for (int d = 1; d < NW; d = d * 2)
      carry = carry & ((carry << d) | NW'((1 << d) - 1));
    // The increment carries into the exponent field: a subnormal becomes the smallest
    // normal, the largest finite value becomes Inf (all-ones exponent, zero fraction).
    mag = low ^ (carry & {NW{inc}});
  end

  always_comb begin : pack
    if (ovf) result_o = {sign_i, {EB{1'b1}}, {MB{1'b0}}};
    else     result_o = RW'({sign_i && !(ZeroPlus && mag == '0), mag}) << (MB - ManBits);
  end
endmodule
