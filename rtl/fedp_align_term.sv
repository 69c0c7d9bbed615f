// fedp_align_term.sv - ALIGN: one term of the sum placed relative to the alignment
// exponent E and truncated (docs/contract.md step 4), for fedp.sv (the products and c) and
// fedp_grouped.sv (the group terms and c). The C model's align_trunc.
//
// The term's share of fedp.sv's exp cut lies inside (i_cut_exp: registers where Reg, a
// wire otherwise), after the gap E - exp_i (GapFirst) or before it. After the gap, the
// cut holds the shift and the term, and e_i is E on the cut's input side; before it, the
// cut holds the exponent and the term, and e_i is E on its output side (fedp.sv's
// exp_e_q). Without Reg it is combinational.
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
  parameter bit OnesNeg = 1'b0, // a negative term as ~magnitude: the caller adds sign_i
  parameter bit Reg = 1'b0,      // the cut inside holds registers
  parameter bit GapFirst = 1'b0  // the gap E - exp_i before the cut, else after it
) (
  input  logic          clk_i,
  input  logic          rst_ni,
  input  logic [EW-1:0] e_i,     // E, the alignment exponent, signed, on the gap's side
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
  logic signed [EW:0] gap_pre, gap_post;   // E - exp_i, >= 0 for every non-zero term
  logic [SHW-1:0]     sh_pre, sh_post, align_sh;
  logic               out_pre, out_post, align_out;  // the gap shifts every bit out
  logic [EW-1:0]      exp_q;
  logic [SigW-1:0]    sig_q;
  logic               sign_q, zero_q;
  logic [XW-1:0]      align_x;
  logic [TW-1:0]      align_mag;

  // The shifter reads the gap's low SHW bits as they come out of the subtraction; a gap
  // of 2^SHW > XW or more (its high bits) shifts every bit out and clears the term at the
  // end, beside zero_i, instead of saturating the shift in front of the shifter.
  always_comb begin : align_gap
    gap_pre = (EW+1)'(signed'(e_i)) - (EW+1)'(signed'(exp_i));
    sh_pre = SHW'(gap_pre);
    out_pre = (gap_pre >> SHW) != '0;
    gap_post = (EW+1)'(signed'(e_i)) - (EW+1)'(signed'(exp_q));
    sh_post = SHW'(gap_post);
    out_post = (gap_post >> SHW) != '0;
  end

  // The cut carries the shift or the exponent, whichever GapFirst leaves to cross it.
  localparam int GW = GapFirst ? SHW + 1 : EW;
  logic [GW-1:0] gap_d, gap_q;
  logic          unused_valid;
  if (GapFirst) begin : gen_gap_first
    assign gap_d = {out_pre, sh_pre};
    assign {align_out, align_sh} = gap_q;
    assign exp_q = '0;
    wire unused_post = ^{sh_post, out_post};
  end else begin : gen_gap_after
    assign gap_d = exp_i;
    assign exp_q = gap_q;
    assign align_sh = sh_post;
    assign align_out = out_post;
    wire unused_pre = ^{sh_pre, out_pre};
  end

  fedp_cut #(.W(GW + SigW + 2), .Reg(Reg)) i_cut_exp (
    .clk_i,
    .rst_ni,
    .valid_i(1'b0),
    .data_i ({gap_d, sig_i, sign_i, zero_i}),
    .valid_o(unused_valid),
    .data_o ({gap_q, sig_q, sign_q, zero_q})
  );

  always_comb begin : stage_align
    align_x = (XW'(sig_q) << (WIN - SigFB)) >> align_sh;
    align_mag = TW'(align_x >> (WIN - F));
    if (zero_q || align_out) align_mag = '0;
    if (OnesNeg) term_o = sign_q ? ~(SW'(align_mag)) : SW'(align_mag);
    else         term_o = sign_q ? -(SW'(align_mag)) : SW'(align_mag);
  end
endmodule
