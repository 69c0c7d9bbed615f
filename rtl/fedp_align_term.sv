// fedp_align_term.sv - ALIGN: one term of the sum placed relative to the alignment
// exponent E and truncated (docs/contract.md step 4), for fedp.sv (the products and c) and
// fedp_grouped.sv (the group terms and c). Combinational; the C model's align_trunc.
//
// The term is sig_i * 2^(exp_i - SigFB), sig_i an unsigned magnitude with SigFB fraction
// bits. It is shifted right by E - exp_i and truncated toward zero to F fraction bits
// relative to 2^E, in sign-magnitude (no guard, round or sticky bit), then zeroed if the
// term is zero or dropped and negated if its sign is set (with OnesNeg, only inverted: the
// caller adds the missing 1 of every term with sign_i set, so that no term has a carry
// chain of its own; -m = ~m + 1 holds for m = 0 too):
//
//   sig_i in its window:   | IB integer | WIN fraction |  >> (E - exp_i), then keep the
//   top F fraction bits:   | IB integer | F fraction   |  = TW bits, then the sign.
//
// A non-zero term never has exp_i > E (E is the maximum over the non-zero terms and the
// floor); a zero term may, and any shift then gives a value that zero_i discards.
module fedp_align_term #(
  parameter int SigW = 22,   // width of sig_i (fedp's default: an fp16 product)
  parameter int SigFB = 20,  // fraction bits of sig_i
  parameter int F = tc_pkg::FEDP_VOLTA_FP16_F,  // fraction bits kept after alignment, relative to 2^E
  parameter int EW = 10,     // exponents, signed
  parameter int SW = 29,     // the signed term (the width of the sum it enters)
  parameter bit OnesNeg = 1'b0  // a negative term as ~magnitude: the caller adds sign_i
) (
  input  logic [EW-1:0] e_i,     // E, the alignment exponent, signed
  input  logic [EW-1:0] exp_i,   // the term's exponent, signed
  input  logic [SigW-1:0] sig_i, // the term's magnitude
  input  logic          sign_i,  // negative
  input  logic          zero_i,  // zero or dropped: the term is 0
  output logic [SW-1:0] term_o   // the truncated term in units of 2^(E - F), signed
                                 // (OnesNeg: less 1 when sign_i)
);
  // ------------------------------------------------------------------------ Constants
  localparam int IB  = SigW - SigFB;              // integer bits of sig_i
  localparam int WIN = F > SigFB ? F : SigFB;     // fraction bits while shifting: none lost
  localparam int XW  = IB + WIN;                  // sig_i in its shift window
  localparam int SHW = $clog2(XW + 1);            // the shift: 0 .. 2^SHW - 1 >= XW
  localparam int TW  = IB + F;                    // the truncated magnitude

  // Parameter checks: a wrong instance stops at elaboration, in Verilator and in Yosys.
  if (SigFB < 0 || IB < 1 || F < 1) begin : gen_bad_sig
    $error("fedp_align_term: SigW = %0d, SigFB = %0d, F = %0d, expected an integer bit, F >= 1",
           SigW, SigFB, F);
  end
  if (SW < TW + 1) begin : gen_bad_sw
    $error("fedp_align_term: SW = %0d cannot hold a signed %0d-bit magnitude", SW, TW);
  end

  // ------------------------------------------------------------------------ ALIGN
  logic signed [EW:0] align_gap;   // E - exp_i, >= 0 for every non-zero term
  logic [SHW-1:0]     align_sh;
  logic               align_out;   // the gap shifts every bit out
  logic [XW-1:0]      align_x;
  logic [TW-1:0]      align_mag;

  always_comb begin : stage_align
    align_gap = (EW+1)'(signed'(e_i)) - (EW+1)'(signed'(exp_i));
    // The shifter reads the gap's low SHW bits as they come out of the subtraction; a gap
    // of 2^SHW > XW or more (its high bits) shifts every bit out and clears the term at the
    // end, beside zero_i, instead of saturating the shift in front of the shifter.
    align_sh = SHW'(align_gap);
    align_out = (align_gap >> SHW) != '0;
    align_x = (XW'(sig_i) << (WIN - SigFB)) >> align_sh;
    align_mag = TW'(align_x >> (WIN - F));
    if (zero_i || align_out) align_mag = '0;
    if (OnesNeg) term_o = sign_i ? ~(SW'(align_mag)) : SW'(align_mag);
    else         term_o = sign_i ? -(SW'(align_mag)) : SW'(align_mag);
  end
endmodule
