// fma.sv - one fused multiply-add d = a*b + c, rounded once to the output format: a
// stage of the chained baseline (fma_chain.sv) that the synthesis reports compare the
// FEDP with. It is NOT the arithmetic of docs/contract.md: the addition is exact before its
// one rounding (IEEE 754 fusedMultiplyAdd), so L of them in a row round L times.
//
// Building blocks are the FEDP's own (fedp_decode, fedp_lzc, fedp_round), so that the
// area comparison measures the way the terms are accumulated, not two styles of decoder
// or rounder. The rounding is therefore the profile's: fp32 (or e8m13) toward zero,
// fp16 to nearest even, and, as fedp_round does, a magnitude past emax gives Inf in
// both modes (IEEE's toward-zero would give the largest finite value instead).
//
// Datapath: the classic single-shifter FMA (as in fpnew_fma): the exact product stays
// in place and only the addend c moves, into a window of
//
//   | HIGH = CFB+3 | product PW = 2*MB+2 | LOW = CFB+3 |      W bits, + 1 carry bit
//
// d = e_c - (e_p + 1) is how far the addend's top bit sits above the product's.
//  - d <= HIGH: c is shifted right by HIGH - d from the top of the window; bits that
//    fall off the bottom are OR-ed into the lowest bit (a sticky, jammed as in SoftFloat's
//    shiftRightJam). This only happens when c < 2^(CFB) window units while the product
//    is >= 2^LOW of them, so the result keeps a unit in the last place of at least 4
//    units and the jam cannot move it across a rounding boundary.
//  - d > HIGH (and c != 0), or a zero product: c sits at the top and the product is
//    only a sticky in the lowest bit; it is then below a quarter of c's last place
//    (HIGH >= CFB+2), again too small to cross a rounding boundary.
// The signed sum is normalised with one leading-zero count and rounded by fedp_round.
module fma #(
  // Input formats: bit f set supports tc_fmt code f (as fedp's InFmts).
  parameter int InFmts = tc_pkg::FEDP_VOLTA_FP16_IN_FMTS,
  // c/d formats: FMT_FP32 (toward zero) and/or FMT_FP16 (nearest even), as fedp's OutFmts.
  parameter int OutFmts = tc_pkg::FEDP_VOLTA_FP16_OUT_FMTS,
  // Fraction bits of an fp32 result: 23, or 13 for an e8m13 result (native fp8 profiles).
  parameter int Fp32ManBits = tc_pkg::FEDP_VOLTA_FP16_FP32_MAN_BITS,
  localparam int ELEM_W = tc_pkg::max_value_bits(InFmts),
  localparam int C_W = tc_pkg::max_value_bits(OutFmts),
  localparam int FW = tc_pkg::FMT_BITS
) (
  input  logic [FW-1:0]     in_fmt_i,
  input  logic [FW-1:0]     out_fmt_i,
  input  logic [ELEM_W-1:0] a_i,
  input  logic [ELEM_W-1:0] b_i,
  input  logic [C_W-1:0]    c_i,
  output logic [C_W-1:0]    d_o
);
  // ------------------------------------------------------------------------ Constants
  function automatic int abs1(input int x);
    abs1 = x < 0 ? -x : x;
  endfunction

  localparam int FP32 = tc_pkg::FMT_FP32;
  localparam int FP16 = tc_pkg::FMT_FP16;
  localparam bit OUT32 = OutFmts[FP32];
  localparam bit OUT16 = OutFmts[FP16];

  localparam int MB  = tc_pkg::max_man_bits(InFmts);   // element fraction, left-justified
  localparam int PW  = 2 * MB + 2;                     // exact product, in [0, 4)
  localparam int CFB = tc_pkg::max_man_bits(OutFmts);  // c's fraction (fp16 c left-justified)
  localparam int LOW = CFB + 3;                        // window below the product (see header)
  localparam int HIGH = CFB + 3;                       // window above the product
  localparam int W   = LOW + PW + HIGH;
  localparam int MW  = W + 1;                          // |sum| < 2^W + 2^(W-HIGH): one carry bit
  localparam int SHW = $clog2(W + 1);                  // addend shift, saturated at W
  localparam int LZW = $clog2(MW + 1);

  // Exponents: e_p spans twice the inputs' range, e_c its own; the window's top sits up
  // to HIGH+2 above them and a normalised result up to MW below; d subtracts two of them.
  localparam int E_HI = tc_pkg::max2(2 * tc_pkg::max_emax(InFmts), tc_pkg::max_emax(OutFmts))
                        + HIGH + 2;
  localparam int E_LO = (2 * tc_pkg::min_emin(InFmts) < tc_pkg::min_emin(OutFmts) ?
                         2 * tc_pkg::min_emin(InFmts) : tc_pkg::min_emin(OutFmts)) - MW;
  localparam int EW  = $clog2(tc_pkg::max2(abs1(E_HI), abs1(E_LO)) + 1) + 2;  // sign + room for d

  localparam int EB32 = tc_pkg::exp_bits(FP32), MB32 = tc_pkg::man_bits(FP32);
  localparam int EB16 = tc_pkg::exp_bits(FP16), MB16 = tc_pkg::man_bits(FP16);
  localparam int RW32 = 1 + EB32 + MB32;
  localparam int RW16 = 1 + EB16 + MB16;

  if ((OutFmts & ~((1 << FP32) | (1 << FP16))) != 0 || OutFmts == 0) begin : gen_bad_out
    $error("fma: OutFmts = 'h%0h, expected fp32 and/or fp16", OutFmts);
  end
  if (Fp32ManBits < 1 || Fp32ManBits > MB32) begin : gen_bad_man
    $error("fma: Fp32ManBits = %0d, expected 1..%0d", Fp32ManBits, MB32);
  end

  // ------------------------------------------------------------------------ UNPACK
  logic                 a_sign, a_zero, a_inf, a_nan, b_sign, b_zero, b_inf, b_nan;
  logic                 c_sign, c_zero, c_inf, c_nan;
  logic signed [EW-1:0] a_exp, b_exp, c_exp;
  logic [MB:0]          a_sig, b_sig;
  logic [CFB:0]         c_sig;

  fedp_decode #(.Fmts(InFmts), .ManW(MB), .ExpW(EW)) i_decode_a (
    .bits_i(a_i), .fmt_i(in_fmt_i), .sign_o(a_sign), .exp_o(a_exp), .sig_o(a_sig),
    .zero_o(a_zero), .inf_o(a_inf), .nan_o(a_nan)
  );
  fedp_decode #(.Fmts(InFmts), .ManW(MB), .ExpW(EW)) i_decode_b (
    .bits_i(b_i), .fmt_i(in_fmt_i), .sign_o(b_sign), .exp_o(b_exp), .sig_o(b_sig),
    .zero_o(b_zero), .inf_o(b_inf), .nan_o(b_nan)
  );
  fedp_decode #(.Fmts(OutFmts), .ManW(CFB), .ExpW(EW)) i_decode_c (
    .bits_i(c_i), .fmt_i(out_fmt_i), .sign_o(c_sign), .exp_o(c_exp), .sig_o(c_sig),
    .zero_o(c_zero), .inf_o(c_inf), .nan_o(c_nan)
  );

  // ------------------------------------------------------------------ MUL + special
  logic [PW-1:0]        mul_p;
  logic signed [EW-1:0] mul_e;
  logic                 mul_sign, mul_zero, spec_nan, spec_inf, spec_sign, out16;

  always_comb begin : stage_mul
    mul_p = PW'(a_sig) * PW'(b_sig);
    mul_e = a_exp + b_exp;
    mul_sign = a_sign ^ b_sign;
    mul_zero = a_zero || b_zero;
    // IEEE 754: NaN in, Inf * 0 and Inf - Inf give NaN; else an Inf operand wins.
    spec_nan = a_nan || b_nan || c_nan || (a_inf && b_zero) || (a_zero && b_inf) ||
               ((a_inf || b_inf) && c_inf && mul_sign != c_sign);
    spec_inf = a_inf || b_inf || c_inf;
    spec_sign = (a_inf || b_inf) ? mul_sign : c_sign;
    out16 = OUT16 && (!OUT32 || out_fmt_i == FW'(FP16));
  end

  // ------------------------------------------------------------------------ ALIGN
  logic signed [EW:0]   align_d;     // e_c - (e_p + 1)
  logic                 align_pjam;  // the product is only a sticky (or nothing)
  logic [SHW-1:0]       align_sh;
  logic [W-1:0]         align_cext, align_cw, align_pw;
  logic signed [EW-1:0] align_etop;  // exponent of window bit W-1

  always_comb begin : stage_align
    align_d = (EW+1)'(c_exp) - (EW+1)'(mul_e) - (EW+1)'(1);
    align_pjam = mul_zero || (!c_zero && align_d > (EW+1)'(HIGH));
    align_cext = W'(c_sig) << (W - CFB - 1);
    if (align_pjam) begin
      align_sh = '0;
      align_cw = align_cext;
      align_pw = W'(!mul_zero);
      align_etop = c_exp;
    end else begin
      // d <= HIGH here: the shift is HIGH - d >= 0, saturated where c is all sticky.
      align_sh = (EW+1)'(HIGH) - align_d >= (EW+1)'(W) ? SHW'(W)
                                                      : SHW'((EW+1)'(HIGH) - align_d);
      align_cw = (align_cext >> align_sh) |
                 W'(|(align_cext & ~({W{1'b1}} << align_sh)));
      align_pw = W'(mul_p) << LOW;
      align_etop = mul_e + EW'(1 + HIGH);
    end
  end

  // -------------------------------------------------------------------------- ADD
  // value = (-1)^sign_p * sum * 2^(etop - (W-1)); the sum is signed, MW+1 bits.
  logic [MW:0]   add_sum;
  logic [MW-1:0] add_mag;
  logic          add_sign, add_zero;

  always_comb begin : stage_add
    add_sum = (MW+1)'(align_pw) + (mul_sign != c_sign ? -((MW+1)'(align_cw)) : (MW+1)'(align_cw));
    add_mag = add_sum[MW] ? MW'(-add_sum) : MW'(add_sum);
    add_sign = add_sum[MW] ? !mul_sign : mul_sign;
    add_zero = add_mag == '0;
  end

  // ------------------------------------------------------------------- NORM + ROUND
  logic [LZW-1:0]       norm_lzc;
  logic [MW-1:0]        norm_sig;
  logic signed [EW-1:0] norm_exp;

  fedp_lzc #(.W(MW)) i_lzc (
    .x_i   (add_mag),
    .stop_i('0),
    .cnt_o (norm_lzc),
    .norm_o(norm_sig)
  );

  // Bit MW-1 of the sum has exponent etop + 1.
  assign norm_exp = align_etop + EW'(1) - EW'(norm_lzc);

  // round32 is C_W wide: that is fp32's width when fp32 is an output, and without fp32
  // there is no fp32 rounder to fill more bits (an fp16-only chain has C_W = 16).
  logic [C_W-1:0]  round32;
  logic [RW16-1:0] round16;

  if (OUT32) begin : gen_round32
    fedp_round #(.Fmt(FP32), .ManBits(Fp32ManBits), .Rne(1'b0), .SigW(MW), .ExpW(EW)) i_round (
      .sign_i(add_sign), .exp_i(norm_exp), .sig_i(norm_sig), .result_o(round32)
    );
  end else begin : gen_no_round32
    assign round32 = '0;
  end
  if (OUT16) begin : gen_round16
    fedp_round #(.Fmt(FP16), .ManBits(MB16), .Rne(1'b1), .SigW(MW), .ExpW(EW)) i_round (
      .sign_i(add_sign), .exp_i(norm_exp), .sig_i(norm_sig), .result_o(round16)
    );
  end else begin : gen_no_round16
    assign round16 = '0;
  end

  // -------------------------------------------------------------- Result selection
  // An exact zero: -0 only when both addends are -0 (IEEE, for both rounding modes here);
  // a cancellation gives +0.
  logic zero_sign;

  always_comb begin : result_select
    zero_sign = mul_zero && c_zero && mul_sign && c_sign;
    if (out16) begin
      if (spec_nan)      d_o = C_W'({1'b0, {(RW16 - 1){1'b1}}});
      else if (spec_inf) d_o = C_W'({spec_sign, {EB16{1'b1}}, {MB16{1'b0}}});
      else if (add_zero) d_o = C_W'({zero_sign, {(RW16 - 1){1'b0}}});
      else               d_o = C_W'(round16);
    end else begin
      if (spec_nan)      d_o = C_W'({1'b0, {(RW32 - 1){1'b1}}});
      else if (spec_inf) d_o = C_W'({spec_sign, {EB32{1'b1}}, {MB32{1'b0}}});
      else if (add_zero) d_o = C_W'({zero_sign, {(RW32 - 1){1'b0}}});
      else               d_o = round32;
    end
  end
endmodule
