// fedp_grouped.sv - the block-scaled FP4 step of tcgen05.mma (kinds mxf4 and mxf4nvf4,
// docs/contract.md "mxf4 / nvf4"):
//
//   d = c + sum_{g < L/G} sa_g * sb_g * (sum_{i in group g} a_i * b_i)
//
// The G products of a group are summed exactly (e2m1 products are integers in units of
// 2^(2*emin - 2*man), so the group sum is an integer); the sum times the significands of
// the group's two scales is one term whose alignment exponent is e(sa_g) + e(sb_g) alone,
// not the term's magnitude. A group whose products are all zero, or whose scale product
// is zero, drops out (it does not raise E). From there on it is fedp.sv's back end: E =
// max(Emin_align, the terms' exponents, c's), every term truncated toward zero to F
// fraction bits relative to 2^E, an exact sum, one normalisation, rounding toward zero
// to fp32. A NaN scale gives the canonical NaN; c's specials are fedp.sv's.
//
// Pipeline: the four stages of fedp.sv, LATENCY = 4, one operation per cycle:
//
//   UNPACK+MUL+GROUP ─►│mul_*_q│─► ALIGN ─►│align_*_q│─► ADD ─►│add_*_q│─► NORM+ROUND ─►│d_q│
//   products, group     terms,      max E,     signed       3:2 tree   sum,carry  lzc, RZ fp32
//   sums, scales        exponents   shifts     terms
//
// ADD and NORM+ROUND are fedp.sv's, one module: fedp_backend.sv (instance i_back).
//
// Scales come one pair per group (sa_i[g*8 +: 8], sb_i[g*8 +: 8]); a caller whose scale
// block spans several groups (mxf4: 32 elements) repeats the pair. scale_fmt_i picks the
// scales' format among ScaleFmts at run time (mxf4nvf4 takes ue8m0 or ue4m3).
module fedp_grouped #(
  // Defaults: the blackwell_mxf4 preset of tc_pkg (tc_blackwell.sv's mxf4 kinds).
  parameter int L /*verilator public*/ = tc_pkg::FEDP_BLACKWELL_MXF4_L,  // products per step
  parameter int G /*verilator public*/ = tc_pkg::MXF4_GROUP,  // products per group (one scale pair)
  parameter int F /*verilator public*/ = tc_pkg::FEDP_BLACKWELL_MXF4_F,  // fraction bits kept after alignment
  parameter int InFmts /*verilator public*/ = tc_pkg::FEDP_BLACKWELL_MXF4_IN_FMTS,
  parameter int ScaleFmts /*verilator public*/ = tc_pkg::FEDP_BLACKWELL_MXF4_SCALE_FMTS,
  parameter int EminAlignFp32 /*verilator public*/ = tc_pkg::FEDP_BLACKWELL_MXF4_EMIN_ALIGN_FP32,
  parameter int Fp32ManBits /*verilator public*/ = tc_pkg::FEDP_BLACKWELL_MXF4_FP32_MAN_BITS,
  localparam int NG = L / G,                               // groups
  localparam int ELEM_W = tc_pkg::max_value_bits(InFmts),
  localparam int FW = tc_pkg::FMT_BITS
) (
  input  logic                clk_i,
  input  logic                rst_ni,
  input  logic                valid_i,
  input  logic [FW-1:0]       in_fmt_i,
  input  logic [FW-1:0]       scale_fmt_i,
  input  logic [L*ELEM_W-1:0] a_i,
  input  logic [L*ELEM_W-1:0] b_i,
  input  logic [NG*8-1:0]     sa_i,
  input  logic [NG*8-1:0]     sb_i,
  input  logic [31:0]         c_i,
  output logic                valid_o,
  output logic [31:0]         d_o
);
  function automatic bit any_special(input int mask);
    any_special = 1'b0;
    for (int f = 0; f < tc_pkg::FMT_COUNT; f++)
      if (mask[f] && (tc_pkg::has_inf(f) != 0 || tc_pkg::nan_style(f) != tc_pkg::NAN_NONE))
        any_special = 1'b1;
  endfunction

  /* verilator lint_off UNUSEDPARAM */
  localparam int LATENCY /*verilator public*/ = tc_pkg::FEDP_LATENCY;
  /* verilator lint_on UNUSEDPARAM */
  localparam int FP32 = tc_pkg::FMT_FP32;

  // Products as integers: a decoded element is sig * 2^exp, sig with MB fraction bits and
  // exp >= EMIN, so sig_a * sig_b << (exp_a + exp_b - 2*EMIN) counts units of
  // 2^(2*EMIN - 2*MB): UFB fraction bits.
  localparam int MB   = tc_pkg::max_man_bits(InFmts);
  localparam int EMIN = tc_pkg::min_emin(InFmts);
  localparam int EMAX = tc_pkg::max_emax(InFmts);
  localparam int UFB  = 2 * MB - 2 * EMIN;
  localparam int PIW  = 2 * (MB + 1) + 2 * (EMAX - EMIN);  // a product's magnitude
  localparam int GSW  = PIW + $clog2(G) + 1;               // a group sum, signed
  // A term: |group sum| times the two scale significands (SMB fraction bits each).
  localparam int SMB  = tc_pkg::max_man_bits(ScaleFmts);
  localparam int TMW  = GSW - 1 + 2 * (SMB + 1);
  localparam int TFB  = UFB + 2 * SMB;
  // c: an fp32 value, sig with CFB fraction bits.
  localparam int CFB  = tc_pkg::man_bits(FP32);
  // Truncated terms (fedp_align_term.sv): their integer bits and F fraction bits.
  localparam int TW   = TMW - TFB + F;                     // a group term
  localparam int CTW  = 1 + F;                             // c
  localparam int SW /*verilator public*/ = tc_pkg::max2(TW, CTW) + $clog2(NG + 1) + 1;
  localparam int MW   = SW - 1;
  // Exponents: scale pairs span 2*emin .. 2*emax of the scale formats, c fp32's range.
  localparam int S_HI = 2 * tc_pkg::max_emax(ScaleFmts);
  localparam int S_LO = 2 * tc_pkg::min_emin(ScaleFmts);
  localparam int E_HI = tc_pkg::max2(S_HI, tc_pkg::emax(FP32));
  localparam int E_LO = tc_pkg::min2(tc_pkg::min2(S_LO, tc_pkg::emin(FP32)), EminAlignFp32);
  localparam int EXP_MAG = tc_pkg::max2(E_HI + MW, tc_pkg::max2(F - E_LO, E_HI - E_LO)) + 1;
  localparam int EW /*verilator public*/ = $clog2(EXP_MAG + 1) + 1;

  if (G < 1 || L % G != 0) begin : gen_bad_g
    $error("fedp_grouped: L = %0d is not a multiple of G = %0d", L, G);
  end
  if (SW > 64) begin : gen_bad_sw
    $error("fedp_grouped: F = %0d gives a %0d-bit sum, expected at most 64", F, SW);
  end
  if (any_special(InFmts)) begin : gen_bad_in
    $error("fedp_grouped: InFmts = 'h%0h has a format with Inf or NaN; group sums are integers",
           InFmts);
  end
  if (EminAlignFp32 == tc_pkg::EMIN_ALIGN_NONE || EminAlignFp32 > tc_pkg::emin(tc_pkg::FMT_FP32))
  begin : gen_bad_emin
    $error("fedp_grouped: EminAlignFp32 = %0d, expected a floor at or below fp32's emin",
           EminAlignFp32);
  end

  // ------------------------------------------------------------ UNPACK + MUL + GROUP
  logic [L-1:0]        a_sign, a_zero, a_nan, b_sign, b_zero, b_nan;
  logic [L*EW-1:0]     a_exp, b_exp;
  logic [L*(MB+1)-1:0] a_sig, b_sig;

  for (genvar i = 0; i < L; i++) begin : gen_unpack
    logic unused_inf_a, unused_inf_b;   // the formats have no Inf (checked above)
    fedp_decode #(.Fmts(InFmts), .ManW(MB), .ExpW(EW), .Lane(2 * i)) i_decode_a (
      .bits_i(a_i[i*ELEM_W +: ELEM_W]), .fmt_i(in_fmt_i), .sign_o(a_sign[i]),
      .exp_o(a_exp[i*EW +: EW]), .sig_o(a_sig[i*(MB+1) +: MB+1]), .zero_o(a_zero[i]),
      .inf_o(unused_inf_a), .nan_o(a_nan[i])
    );
    fedp_decode #(.Fmts(InFmts), .ManW(MB), .ExpW(EW), .Lane(2 * i + 1)) i_decode_b (
      .bits_i(b_i[i*ELEM_W +: ELEM_W]), .fmt_i(in_fmt_i), .sign_o(b_sign[i]),
      .exp_o(b_exp[i*EW +: EW]), .sig_o(b_sig[i*(MB+1) +: MB+1]), .zero_o(b_zero[i]),
      .inf_o(unused_inf_b), .nan_o(b_nan[i])
    );
  end

  logic [NG-1:0]        sa_zero, sa_nan, sb_zero, sb_nan;
  logic [NG*EW-1:0]     sa_exp, sb_exp;
  logic [NG*(SMB+1)-1:0] sa_sig, sb_sig;
  for (genvar g = 0; g < NG; g++) begin : gen_scale
    fedp_scale_decode #(.Fmts(ScaleFmts), .ManW(SMB), .ExpW(EW)) i_scale_a (
      .bits_i(sa_i[g*8 +: 8]), .fmt_i(scale_fmt_i), .exp_o(sa_exp[g*EW +: EW]),
      .sig_o(sa_sig[g*(SMB+1) +: SMB+1]), .zero_o(sa_zero[g]), .nan_o(sa_nan[g])
    );
    fedp_scale_decode #(.Fmts(ScaleFmts), .ManW(SMB), .ExpW(EW)) i_scale_b (
      .bits_i(sb_i[g*8 +: 8]), .fmt_i(scale_fmt_i), .exp_o(sb_exp[g*EW +: EW]),
      .sig_o(sb_sig[g*(SMB+1) +: SMB+1]), .zero_o(sb_zero[g]), .nan_o(sb_nan[g])
    );
  end

  logic            c_sign, c_zero, c_inf, c_nan;
  logic [EW-1:0]   c_exp;
  logic [CFB:0]    c_sig;
  fedp_decode #(.Fmts(1 << FP32), .ManW(CFB), .ExpW(EW)) i_decode_c (
    .bits_i(c_i), .fmt_i(FW'(FP32)), .sign_o(c_sign), .exp_o(c_exp), .sig_o(c_sig),
    .zero_o(c_zero), .inf_o(c_inf), .nan_o(c_nan)
  );

  logic [NG*TMW-1:0] mul_tmag;
  logic [NG*EW-1:0]  mul_texp;
  logic [NG-1:0]     mul_tsign, mul_tdrop;
  logic              mul_nan;

  always_comb begin : stage_mul
    logic signed [GSW-1:0] gsum;
    logic [GSW-2:0]        gmag;   // |gsum| < 2^(GSW-1)
    logic [PIW-1:0]        prod;
    logic                  any;
    mul_nan = c_nan;
    for (int g = 0; g < NG; g++) begin
      gsum = '0;
      any = 1'b0;
      for (int i = g * G; i < (g + 1) * G; i++) begin
        prod = (PIW'(a_sig[i*(MB+1) +: MB+1]) * PIW'(b_sig[i*(MB+1) +: MB+1]))
               << (a_exp[i*EW +: EW] + b_exp[i*EW +: EW] - EW'(2 * EMIN));
        if (a_zero[i] || b_zero[i]) prod = '0;
        any = any || !(a_zero[i] || b_zero[i]);
        gsum = (a_sign[i] ^ b_sign[i]) ? gsum - GSW'(prod) : gsum + GSW'(prod);
        if (a_nan[i] || b_nan[i]) mul_nan = 1'b1;   // a format outside InFmts
      end
      if (sa_nan[g] || sb_nan[g]) mul_nan = 1'b1;
      mul_tsign[g] = gsum[GSW-1];
      gmag = (GSW-1)'(gsum[GSW-1] ? -gsum : gsum);
      mul_tmag[g*TMW +: TMW] = TMW'(gmag) *
                               TMW'(sa_sig[g*(SMB+1) +: SMB+1]) *
                               TMW'(sb_sig[g*(SMB+1) +: SMB+1]);
      mul_texp[g*EW +: EW] = sa_exp[g*EW +: EW] + sb_exp[g*EW +: EW];
      mul_tdrop[g] = !any || sa_zero[g] || sb_zero[g];
    end
  end

  logic              mul_valid_q, mul_nan_q, mul_inf_q, mul_inf_neg_q;
  logic [NG*TMW-1:0] mul_tmag_q /*verilator public_flat_rd*/;
  logic [NG*EW-1:0]  mul_texp_q /*verilator public_flat_rd*/;
  logic [NG-1:0]     mul_tsign_q, mul_tdrop_q;
  logic              mul_csign_q, mul_czero_q;
  logic [EW-1:0]     mul_cexp_q;
  logic [CFB:0]      mul_csig_q;

  always_ff @(posedge clk_i) begin : mul_regs
    if (!rst_ni) mul_valid_q <= 1'b0;
    else         mul_valid_q <= valid_i;
    if (valid_i) begin
      mul_nan_q     <= mul_nan;
      mul_inf_q     <= c_inf;
      mul_inf_neg_q <= c_sign;
      mul_tmag_q    <= mul_tmag;
      mul_texp_q    <= mul_texp;
      mul_tsign_q   <= mul_tsign;
      mul_tdrop_q   <= mul_tdrop;
      mul_csign_q   <= c_sign;
      mul_czero_q   <= c_zero;
      mul_cexp_q    <= c_exp;
      mul_csig_q    <= c_sig;
    end
  end

  // ------------------------------------------------------------------------ ALIGN
  logic signed [EW-1:0] align_e;
  logic [(NG+1)*EW-1:0] align_keys;

  // A zero c stands for the floor, a non-zero one is at or above it (gen_bad_emin): the
  // floor needs no key of its own (as in fedp.sv).
  always_comb begin : align_key
    for (int g = 0; g < NG; g++)
      align_keys[g*EW +: EW] = mul_tdrop_q[g] ? EW'(EminAlignFp32) : mul_texp_q[g*EW +: EW];
    align_keys[NG*EW +: EW] = mul_czero_q ? EW'(EminAlignFp32) : mul_cexp_q;
  end

  fedp_max_tree #(.N(NG + 1), .W(EW)) i_max_exp (
    .vals_i(align_keys),
    .max_o (align_e)
  );

  // Each term is shifted right by E - e and truncated toward zero to F fraction bits
  // relative to 2^E (as fedp.sv): fedp_align_term.sv, one instance per group term (TMW
  // bits, TFB fraction bits; a dropped group is 0) and one for c.
  logic [(NG+1)*SW-1:0] align_t;

  for (genvar g = 0; g < NG; g++) begin : gen_align
    fedp_align_term #(.SigW(TMW), .SigFB(TFB), .F(F), .EW(EW), .SW(SW)) i_align_term (
      .clk_i,
      .rst_ni,
      .e_i   (align_e),
      .exp_i (mul_texp_q[g*EW +: EW]),
      .sig_i (mul_tmag_q[g*TMW +: TMW]),
      .sign_i(mul_tsign_q[g]),
      .zero_i(mul_tdrop_q[g]),
      .term_o(align_t[g*SW +: SW])
    );
  end
  fedp_align_term #(.SigW(CFB + 1), .SigFB(CFB), .F(F), .EW(EW), .SW(SW)) i_align_c (
    .clk_i,
    .rst_ni,
    .e_i   (align_e),
    .exp_i (mul_cexp_q),
    .sig_i (mul_csig_q),
    .sign_i(mul_csign_q),
    .zero_i(mul_czero_q),
    .term_o(align_t[NG*SW +: SW])
  );

  logic              align_valid_q, align_nan_q, align_inf_q, align_inf_neg_q;
  logic [EW-1:0]     align_e_q /*verilator public_flat_rd*/;
  logic [(NG+1)*SW-1:0] align_t_q /*verilator public_flat_rd*/;

  always_ff @(posedge clk_i) begin : align_regs
    if (!rst_ni) align_valid_q <= 1'b0;
    else         align_valid_q <= mul_valid_q;
    if (mul_valid_q) begin
      align_nan_q     <= mul_nan_q;
      align_inf_q     <= mul_inf_q;
      align_inf_neg_q <= mul_inf_neg_q;
      align_e_q       <= align_e;
      align_t_q       <= align_t;
    end
  end

  // ------------------------------------------------------- ADD, NORM + ROUND, Result
  // fedp.sv's back end (fedp_backend.sv): the carry-save sum (add_*_q), one
  // normalisation, rounding toward zero to fp32 and the result selection (d_q): NaN is
  // canonical, Inf is c's, an exact zero sum is +0.
  fedp_backend #(
    .N(NG + 1), .SW(SW), .MW(MW), .EW(EW), .F(F), .OutFmts(1 << FP32),
    .Fp32ManBits(Fp32ManBits), .Floor32(EminAlignFp32)
  ) i_back (
    .clk_i,
    .rst_ni,
    .valid_i  (align_valid_q),
    .out16_i  (1'b0),
    .nan_i    (align_nan_q),
    .inf_i    (align_inf_q),
    .inf_neg_i(align_inf_neg_q),
    .e_i      (align_e_q),
    .terms_i  (align_t_q),
    .valid_o,
    .d_o
  );
endmodule
