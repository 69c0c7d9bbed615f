// fedp_backend.sv - the back end of the FEDP arithmetic, shared by fedp.sv and
// fedp_grouped.sv: from the aligned signed terms to the rounded result (docs/contract.md
// steps 5 to 7), in four stages with a cut (fedp_cut.sv) after each:
//
//   terms_i,e_i ─► ADD ─►┊add┊─► CPA ─►┊cpa┊─► NORM ─►┊norm┊─► ROUND ─►│d_q│─► d_o
//                  3:2 carry-     carry add and     lzc with a       last shift
//                  save tree      |sum| side by     stop bit, the    levels, exponent,
//                                 side; stop bit    shift but its    rounders, result
//                                 from E            last levels      select
//
// Cuts names the cuts that hold registers (bit 0 add, 1 cpa, 2 norm); the result
// register d_q is always there. The default, add alone, is the back end of seed 000 (two
// registers); fedp.sv picks others for its depth. An operation presented with valid_i = 1
// before rising edge t is on d_o with valid_o = 1 after edge t + REGS - 1, REGS = the
// registered cuts + 1. rst_ni (synchronous, active low) clears the valid bits; d_q loads
// only with a valid operation, so d_o holds the last result.
//
// The N terms are the ALIGN stage's: each a signed SW-bit integer in units of 2^(E - F),
// E = e_i. Special values were decided in front (nan_i, inf_i, inf_neg_i) and replace the
// result in "Result selection".
//
// OutFmts names the rounders that exist: FMT_FP32 (toward zero, Fp32ManBits fraction
// bits) and/or FMT_FP16 (to nearest even). With both, out16_i picks fp16 per operation;
// with one, the result is that one's and out16_i is ignored.
module fedp_backend #(
  parameter int N = 5,          // terms of the sum
  parameter int SW = 31,        // a signed term and the signed sum
  parameter int MW = SW - 1,    // magnitude of the sum (at least SW - 1 bits)
  parameter int EW = 10,        // exponents, signed
  parameter int F = tc_pkg::FEDP_VOLTA_FP16_F,  // fraction bits of the terms, relative to 2^E
  // Result formats: FMT_FP32 (rounded toward zero) and/or FMT_FP16 (nearest even).
  parameter int OutFmts = tc_pkg::FEDP_VOLTA_FP16_OUT_FMTS,
  // Fraction bits of an fp32 result: 23, or 13 for native fp8 (an e8m13 value in fp32).
  parameter int Fp32ManBits = tc_pkg::FEDP_VOLTA_FP16_FP32_MAN_BITS,
  // 1: an fp16 result that rounds to zero is +0 (fedp_pack's ZeroPlus).
  parameter bit ZeroPlusFp16 = 1'b0,
  // Cuts with registers: bit 0 after ADD, bit 1 after CPA, bit 2 after NORM.
  parameter bit [2:0] Cuts = 3'b001,
  // The lowest E with an fp32 (fp16) result, or tc_pkg::EMIN_ALIGN_NONE: unknown.
  parameter int Floor32 = tc_pkg::EMIN_ALIGN_NONE,
  parameter int Floor16 = tc_pkg::EMIN_ALIGN_NONE,
  localparam int C_W = tc_pkg::max_value_bits(OutFmts)
) (
  input  logic            clk_i,
  input  logic            rst_ni,
  input  logic            valid_i,
  input  logic            out16_i,     // round to fp16, not fp32
  input  logic            nan_i,       // the result is the canonical NaN
  input  logic            inf_i,       // the result is Inf (when not NaN) ...
  input  logic            inf_neg_i,   // ... of this sign
  input  logic [EW-1:0]   e_i,         // E, the alignment exponent
  input  logic [N*SW-1:0] terms_i,     // term i in terms_i[i*SW +: SW], signed
  output logic            valid_o,
  output logic [C_W-1:0]  d_o
);
  // ------------------------------------------------------------------------ Constants
  localparam int FP32 = tc_pkg::FMT_FP32;
  localparam int FP16 = tc_pkg::FMT_FP16;
  localparam bit OUT32 = OutFmts[FP32];
  localparam bit OUT16 = OutFmts[FP16];
  localparam int NONE = tc_pkg::EMIN_ALIGN_NONE;
  localparam int EMIN32 = tc_pkg::emin(FP32);
  localparam int EMIN16 = tc_pkg::emin(FP16);

  // Result patterns of the output formats (tc_canonical_nan: every bit but the sign).
  localparam int EB32 = tc_pkg::exp_bits(FP32), MB32 = tc_pkg::man_bits(FP32);
  localparam int EB16 = tc_pkg::exp_bits(FP16), MB16 = tc_pkg::man_bits(FP16);
  localparam int RW32 = 1 + EB32 + MB32;
  localparam int RW16 = 1 + EB16 + MB16;

  // NORM's extended magnitude X (see there). A result whose leading one lies D = ManBits + 2
  // or more below 2^EMIN rounds like one just D below (all of it sticky), so X needs room
  // for at most D; with a floor under E, EMIN - Floor + F - (MW - 1) is enough.
  localparam int D32 = Fp32ManBits + 2;
  localparam int D16 = MB16 + 2;
  localparam int R32 = !OUT32 ? 0 : Floor32 == NONE ? D32
      : tc_pkg::min2(D32, tc_pkg::max2(0, EMIN32 - Floor32 + F - (MW - 1)));
  localparam int R16 = !OUT16 ? 0 : Floor16 == NONE ? D16
      : tc_pkg::min2(D16, tc_pkg::max2(0, EMIN16 - Floor16 + F - (MW - 1)));
  localparam int R = tc_pkg::max2(R32, R16);
  localparam int MANW = tc_pkg::max2(OUT32 ? Fp32ManBits : 0, OUT16 ? MB16 : 0);
  localparam int PB = tc_pkg::max2(0, MANW + 2 - (MW + R));
  localparam int XW = R + MW + PB;
  localparam int XCW = $clog2(XW + 1);
  // Exponents from here on: E plus or minus constants of a few hundred at most.
  localparam int BW = EW + 2;
  // The stop bit is K - E, the biased exponent of X's top bit E + BASE (per format).
  localparam int K32 = EMIN32 + F + PB;
  localparam int K16 = EMIN16 + F + PB;
  localparam int BASE32 = MW + R - F - EMIN32;
  localparam int BASE16 = MW + R - F - EMIN16;

  // Parameter checks: a wrong instance stops at elaboration, in Verilator and in Yosys.
  if (N < 1 || SW < 2 || SW > 64) begin : gen_bad_n
    $error("fedp_backend: N = %0d, SW = %0d, expected N >= 1 and 2..64 bits", N, SW);
  end
  if (MW < SW - 1) begin : gen_bad_mw
    $error("fedp_backend: MW = %0d cannot hold the magnitude of a %0d-bit sum", MW, SW);
  end
  if ((OutFmts & ~((1 << FP32) | (1 << FP16))) != 0 || OutFmts == 0) begin : gen_bad_out
    $error("fedp_backend: OutFmts = 'h%0h, expected fp32 and/or fp16", OutFmts);
  end

  // -------------------------------------------------------------------------- ADD
  // The exact sum of the N signed terms, kept in carry-save form (docs/contract.md step 5).
  // The special class travels beside the data: NaN, Inf, the Inf's sign, and the format.
  localparam int FL = 4;  // {out16, nan, inf, inf_neg}
  logic [SW-1:0] add_sum, add_carry;

  fedp_csa_tree #(.N(N), .W(SW)) i_csa (
    .terms_i(terms_i),
    .sum_o  (add_sum),
    .carry_o(add_carry)
  );

  logic              add_valid_q;
  logic [FL-1:0]     add_flags_q;
  logic [EW-1:0]     add_e_q;
  logic [SW-1:0]     add_sum_q /*verilator public_flat_rd*/;
  logic [SW-1:0]     add_carry_q /*verilator public_flat_rd*/;

  fedp_cut #(.W(FL + EW + 2 * SW), .Reg(Cuts[0])) i_cut_add (
    .clk_i,
    .rst_ni,
    .valid_i,
    .data_i ({out16_i, nan_i, inf_i, inf_neg_i, e_i, add_sum, add_carry}),
    .valid_o(add_valid_q),
    .data_o ({add_flags_q, add_e_q, add_sum_q, add_carry_q})
  );

  // -------------------------------------------------------------------------- CPA
  // The carry-propagate add and the magnitude from one compound adder: |x| of a negative x
  // is ~(x - 1). One 3:2 step with -1 (sum ^ carry ^ 1, (sum | carry) << 1) makes a pair
  // that sums to x - 1, and the adder gives x - 1 and x from one carry tree
  // (fedp_prefix_add.sv). (Folding the -1 into ALIGN's count of negative terms instead
  // cost more: the count's constant-zero high bits became live columns of the 3:2 tree.)
  // The magnitude is below 2^MW (MW >= SW - 1), so the top bit of x is its sign.
  logic [SW-1:0] cpa_a, cpa_b, cpa_less, cpa_total;
  logic          cpa_neg;
  logic [MW-1:0] cpa_mag;

  assign cpa_a = ~(add_sum_q ^ add_carry_q);
  assign cpa_b = (add_sum_q | add_carry_q) << 1;

  fedp_prefix_add #(.W(SW)) i_add (
    .a_i   (cpa_a),
    .b_i   (cpa_b),
    .sum_o (cpa_less),
    .sum1_o(cpa_total)
  );

  // The multiplexers' select comes from two nets, the signs of x and of x - 1, each
  // driving half of them: one sign alone drives all MW selects, unbuffered in a plain
  // flow. The two differ only for x = 0, where either choice gives 0 (~(0 - 1) = 0).
  localparam int MLO = MW / 2;
  always_comb begin : stage_cpa
    cpa_neg = cpa_total[SW-1];
    cpa_mag[MLO-1:0] = cpa_neg ? MLO'(~cpa_less) : MLO'(cpa_total);
    cpa_mag[MW-1:MLO] = cpa_less[SW-1] ? (MW-MLO)'(~cpa_less >> MLO)
                                       : (MW-MLO)'(cpa_total >> MLO);
  end

  // For NORM, from E and the format alone: the stop bit, 2^EMIN's bit of X (mag bit
  // EMIN - E + F, X bit that + PB; none below X, the top bit past it: a result that far
  // down is all sticky, R >= D then), and the biased exponent of X's top bit unshifted.
  logic                 cpa_out16;
  logic signed [BW-1:0] cpa_k, cpa_base;
  logic [XW-1:0]        cpa_stop;

  always_comb begin : stage_cpa_exp
    cpa_out16 = OUT16 && (!OUT32 || add_flags_q[FL-1]);
    cpa_k = (cpa_out16 ? BW'(K16) : BW'(K32)) - BW'($signed(add_e_q));
    cpa_base = BW'($signed(add_e_q)) + (cpa_out16 ? BW'(BASE16) : BW'(BASE32));
    for (int i = 0; i < XW - 1; i++)
      cpa_stop[i] = cpa_k == BW'(i);
    cpa_stop[XW-1] = cpa_k >= $signed(BW'(XW - 1));
  end

  logic                 cpa_valid_q;
  logic                 cpa_neg_q;
  logic [FL-1:0]        cpa_flags_q;
  logic signed [BW-1:0] cpa_base_q;
  logic [XW-1:0]        cpa_stop_q;
  logic [MW-1:0]        cpa_mag_q;

  fedp_cut #(.W(FL + BW + XW + 1 + MW), .Reg(Cuts[1])) i_cut_cpa (
    .clk_i,
    .rst_ni,
    .valid_i(add_valid_q),
    .data_i ({add_flags_q, cpa_base, cpa_stop, cpa_neg, cpa_mag}),
    .valid_o(cpa_valid_q),
    .data_o ({cpa_flags_q, cpa_base_q, cpa_stop_q, cpa_neg_q, cpa_mag_q})
  );

  // ------------------------------------------------------------------------- NORM
  // One left shift both normalises and, for a result below the format's emin, aligns it as
  // a subnormal: the leading-zero count stops at the first set bit of the magnitude or at
  // the stop bit, the position of 2^EMIN (fedp_lzc.sv's stop_i). The magnitude sits in X
  // with R zeros above it (a subnormal may lie that far right of the magnitude's top) and
  // PB below it (room for the fraction and the round bit):
  //
  //   X:  | R zeros | magnitude (MW bits, units 2^(E - F)) | PB zeros |      XW bits
  //
  // After the shift by s the top bit of X is the hidden bit (0: subnormal) and has
  // exponent E - F + MW - 1 + R - s. The stop bit and the exponent's base depend on E
  // and the format alone, so CPA computes them beside the carry add.
  //
  // The shifts by the count's last LATE bits and the exponent's subtraction wait for the
  // end of the count: they belong to ROUND, after the norm cut, beside the short rounding
  // (at depths 5 and 6 NORM took 4.6-5.0 ns and ROUND 2.2-2.9, synth/README.md). The cut
  // holds the count and the exponent's base instead of the exponent.
  localparam int LATE = 2;
  logic                 norm_zero;
  logic [XW-1:0]        norm_sig;
  logic [XCW-1:0]       norm_cnt;

  fedp_lzc #(.W(XW), .Late(LATE)) i_lzc (
    .x_i   (XW'(cpa_mag_q) << PB),
    .stop_i(cpa_stop_q),
    .cnt_o (norm_cnt),
    .norm_o(norm_sig)
  );

  assign norm_zero = cpa_mag_q == '0;

  logic                 rnd_valid, rnd_neg, rnd_zero;
  logic [FL-1:0]        rnd_flags;
  logic signed [BW-1:0] rnd_exp;
  logic [XW-1:0]        rnd_sig, rnd_part;
  logic signed [BW-1:0] rnd_base;
  logic [XCW-1:0]       rnd_cnt;

  fedp_cut #(.W(FL + 2 + BW + XW + XCW), .Reg(Cuts[2])) i_cut_norm (
    .clk_i,
    .rst_ni,
    .valid_i(cpa_valid_q),
    .data_i ({cpa_flags_q, cpa_neg_q, norm_zero,   // flags, sign, zero sum
              cpa_base_q, norm_sig, norm_cnt}),      // exponent base, shifted, count
    .valid_o(rnd_valid),
    .data_o ({rnd_flags, rnd_neg, rnd_zero, rnd_base, rnd_part, rnd_cnt})
  );

  // The rest of NORM: the last shift levels, and the biased exponent of a normal result
  // (a subnormal one, hidden bit 0, gets 0 below).
  assign rnd_sig = rnd_part << rnd_cnt[LATE-1:0];
  assign rnd_exp = rnd_base - BW'(rnd_cnt);

  // ------------------------------------------------------------------------ ROUND
  // Both rounders read the one aligned significand: the format chose the stop bit and the
  // exponent's base, so the bits of either result are already in place.
  // round32 is C_W wide: that is fp32's width when fp32 is an output, and without fp32
  // there is no fp32 rounder to fill more bits (an fp16-only instance has C_W = 16).
  logic signed [BW-1:0] rnd_biased;
  logic [C_W-1:0]       round32;
  logic [RW16-1:0]      round16;

  assign rnd_biased = rnd_sig[XW-1] ? rnd_exp : '0;

  if (OUT32) begin : gen_round32
    fedp_pack #(.Fmt(FP32), .ManBits(Fp32ManBits), .Rne(1'b0), .SigW(XW), .BW(BW)) i_pack (
      .sign_i  (rnd_neg),
      .biased_i(rnd_biased),
      .sig_i   (rnd_sig),
      .sticky_i(1'b0),
      .result_o(round32)
    );
  end else begin : gen_no_round32
    assign round32 = '0;
  end
  if (OUT16) begin : gen_round16
    fedp_pack #(.Fmt(FP16), .ManBits(MB16), .Rne(1'b1), .ZeroPlus(ZeroPlusFp16), .SigW(XW),
                .BW(BW)) i_pack (
      .sign_i  (rnd_neg),
      .biased_i(rnd_biased),
      .sig_i   (rnd_sig),
      .sticky_i(1'b0),
      .result_o(round16)
    );
  end else begin : gen_no_round16
    assign round16 = '0;
  end

  // -------------------------------------------------------------- Result selection
  // NaN is canonical; an exact zero sum is +0 (step 7); a non-zero sum that rounds to
  // zero keeps its sign (the rounder's result). With one rounder the format is fixed.
  logic           rnd_out16, rnd_nan, rnd_inf, rnd_inf_neg;
  logic [C_W-1:0] result;

  assign {rnd_out16, rnd_nan, rnd_inf, rnd_inf_neg} = rnd_flags;

  always_comb begin : result_select
    if (OUT16 && (!OUT32 || rnd_out16)) begin
      if (rnd_nan)       result = C_W'({1'b0, {(RW16 - 1){1'b1}}});
      else if (rnd_inf)  result = C_W'({rnd_inf_neg, {EB16{1'b1}}, {MB16{1'b0}}});
      else if (rnd_zero) result = '0;
      else               result = C_W'(round16);
    end else begin
      if (rnd_nan)       result = C_W'({1'b0, {(RW32 - 1){1'b1}}});
      else if (rnd_inf)  result = C_W'({rnd_inf_neg, {EB32{1'b1}}, {MB32{1'b0}}});
      else if (rnd_zero) result = '0;
      else               result = round32;
    end
  end

  // The result register loads only with a valid operation: d_o holds the last result,
  // as the units that read it expect. Its enable drives C_W flops, no more.
  logic           out_valid_q;
  logic [C_W-1:0] d_q;

  always_ff @(posedge clk_i) begin : out_regs
    if (!rst_ni) out_valid_q <= 1'b0;
    else         out_valid_q <= rnd_valid;
    if (rnd_valid) d_q <= result;
  end

  assign valid_o = out_valid_q;
  assign d_o = d_q;
endmodule
