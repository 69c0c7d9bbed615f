// fedp.sv - fused element-wise dot product (FEDP) of a tensor core:
//
//   d = c + sum_{i<L} a_i * b_i
//
// in the arithmetic of docs/contract.md: exact products that are not renormalised, one
// alignment to the largest exponent E (floored at Emin_align) with truncation to F
// fraction bits, an exact sum, one normalisation and one rounding (fp32: toward zero,
// fp16: to nearest even). Special values are decided on a separate path and replace
// the result at the end.
//
// Pipeline: eight stages, one new operation per cycle, with a cut (fedp_cut.sv) after
// each; Depth (2..6) registers stand between an input and its result, LATENCY = Depth.
// MUL and ALIGN have a cut inside them, for the depths whose front end needs it:
//
//   a,b,c ─► DEC ─┊dec┊─► MUL ─┊mul┊─► E ─┊exp┊─► ALIGN ─┊align┊─►
//            decode,      products     max E       shifts, one's complement
//            exponent sums
//     ─► ADD ─┊add┊─► CPA ─┊cpa┊─► NORM ─┊norm┊─► ROUND ─│d_q│─► d_o
//        3:2 carry-    carry add     lzc, shift   last shift,
//        save tree     and |sum|                  round, select
//
// The result register d_q is always there; CUTS (below) picks the other Depth - 1 cuts
// that hold registers, so that the stages between them carry about equal delay. Depth 4,
// the default (tc_pkg::FEDP_LATENCY, the model's TC_FEDP_LATENCY), registers
// mul | align | cpa | d. ADD to ROUND (with their cuts and d_q) are fedp_backend.sv,
// instance i_back, the back end fedp_grouped.sv shares.
//
// An operation presented with valid_i = 1 before rising edge t is on d_o with
// valid_o = 1 after edge t + Depth - 1. rst_ni (synchronous, active low) clears the valid
// bits, so the work in flight is dropped; the registers between stages load on every
// edge (their valid bit says whether they hold an operation), d_q only with a valid one.
//
// Formats are chosen per operation: in_fmt_i (a tc_fmt code from InFmts) for every a
// element, in_fmt_b_i for every b element where InPairs = 1 (the mixed pairs of the fp8
// instances, e4m3 x e5m2: each operand is decoded in its own format, everything after is
// the same datapath, docs/contract.md "Mixed A and B formats"), out_fmt_i (FMT_FP32 or
// FMT_FP16, from OutFmts) for c and d. With InPairs = 0 b is decoded by in_fmt_i and
// in_fmt_b_i is unused: the instance is the single-format one, gate for gate. An element
// is the format's value bits (tf32: the top 19 of its 32-bit word) in the low end of its
// slot a_i[i*ELEM_W +: ELEM_W]; an fp16 c or d sits in the low 16 bits. A format outside the
// supported set gives the canonical NaN. The output format is a run-time select because
// every profile with fp16 output shares its datapath with the fp32 one; OutFmts drops the
// fp16 rounder from instances whose formats have no fp16 output (tf32, bf16).
//
// Block scaling (mxf8f6f4 of tcgen05, docs/contract.md): an instance with ScaleFmts = ue8m0
// takes one scale factor for all of a (sa_i) and one for all of b (sb_i) and raises every
// product's exponent by e(sa) + e(sb); c is not scaled; a NaN scale (0xff) gives the
// canonical NaN. A ue8m0 scale has significand 1, so scaling is an exponent addition in
// UNPACK+MUL and widens the exponents; 127 (2^0) for both leaves the step unscaled.
// Without ScaleFmts the scale inputs are ignored.
module fedp #(
  // Defaults: the volta_fp16 preset of tc_pkg; the build passes each instance's preset.
  parameter int L /*verilator public*/ = tc_pkg::FEDP_VOLTA_FP16_L,  // products per step
  parameter int F /*verilator public*/ = tc_pkg::FEDP_VOLTA_FP16_F,  // fraction bits kept after alignment
  // Input formats: bit f set supports tc_fmt code f (float formats only).
  parameter int InFmts /*verilator public*/ = tc_pkg::FEDP_VOLTA_FP16_IN_FMTS,
  // c/d formats: FMT_FP32 (rounded toward zero) and/or FMT_FP16 (nearest even).
  parameter int OutFmts /*verilator public*/ = tc_pkg::FEDP_VOLTA_FP16_OUT_FMTS,
  // Floor of the alignment exponent E per output format, or tc_pkg::EMIN_ALIGN_NONE.
  parameter int EminAlignFp32 /*verilator public*/ = tc_pkg::FEDP_VOLTA_FP16_EMIN_ALIGN_FP32,
  parameter int EminAlignFp16 /*verilator public*/ = tc_pkg::FEDP_VOLTA_FP16_EMIN_ALIGN_FP16,
  // Fraction bits of an fp32 result: 23, or 13 for native fp8 (an e8m13 value in fp32).
  parameter int Fp32ManBits /*verilator public*/ = tc_pkg::FEDP_VOLTA_FP16_FP32_MAN_BITS,
  // Scale-factor formats: 0 (a plain step) or 1 << tc_pkg::FMT_UE8M0 (block-scaled).
  parameter int ScaleFmts /*verilator public*/ = tc_pkg::FEDP_VOLTA_FP16_SCALE_FMTS,
  // 1: an fp16 result that rounds to zero is +0, whatever the sum's sign (Hopper on).
  parameter int ZeroPlusFp16 /*verilator public*/ = tc_pkg::FEDP_VOLTA_FP16_ZERO_PLUS_FP16,
  // 1: b's format is in_fmt_b_i (mixed pairs); 0: in_fmt_i, as a's.
  parameter int InPairs /*verilator public*/ = tc_pkg::FEDP_VOLTA_FP16_IN_PAIRS,
  // Registers from input to output, 2..6 (see CUTS).
  parameter int Depth /*verilator public*/ = tc_pkg::FEDP_LATENCY,
  localparam int ELEM_W /*verilator public*/ = tc_pkg::max_value_bits(InFmts),
  localparam int C_W = tc_pkg::max_value_bits(OutFmts),
  localparam int FW = tc_pkg::FMT_BITS
) (
  input  logic                clk_i,
  input  logic                rst_ni,
  input  logic                valid_i,
  input  logic [FW-1:0]       in_fmt_i,
  input  logic [FW-1:0]       in_fmt_b_i, // b's format (InPairs only)
  input  logic [FW-1:0]       out_fmt_i,
  input  logic [L*ELEM_W-1:0] a_i,
  input  logic [L*ELEM_W-1:0] b_i,
  input  logic [C_W-1:0]      c_i,
  input  logic [7:0]          sa_i,       // ue8m0 scale of a (ScaleFmts only)
  input  logic [7:0]          sb_i,       // ue8m0 scale of b (ScaleFmts only)
  output logic                valid_o,
  output logic [C_W-1:0]      d_o
);
  // ------------------------------------------------------------------------ Constants

  // Registers from input to output. Read by the testbenches (as a public parameter).
  /* verilator lint_off UNUSEDPARAM */
  localparam int LATENCY /*verilator public*/ = Depth;
  /* verilator lint_on UNUSEDPARAM */

  // The cuts that hold registers at each depth, besides d_q: bit 0 dec, 1 mul, 2 exp,
  // 3 align, 4 add, 5 cpa, 6 norm. Chosen from the stage delays of volta_fp16 and
  // hopper_half under the plain flow (synth/README.md, "The depth sweep" and "Cuts inside
  // MUL and ALIGN"; synth.md's "Stage balance" table of each run). The front end grows
  // with L and the back end hardly: at L 4 MUL and ALIGN take 4.5 and 5.4 ns against
  // 5.5-6 for ADD..CPA and NORM..ROUND, at L 16 (sixteen products, a tree of 17
  // exponents, 18 terms to add) 8.5 each against 5.7 and 6.2. So at depths 2 and 3 an
  // instance of L 16 or more cuts after MUL and ALIGN first, where volta cuts the back
  // end. From depth 5 on, L 16 splits MUL at dec (the decoders take half of it) and
  // ALIGN at exp (E's tree, half of it); E's tree needs the exponent sums alone, so
  // without a mul cut it runs beside the multipliers: dec | products and E | shifts.
  // Volta's decoders are short, so it cuts at exp alone at depth 5 (MUL and E as one
  // stage, the shifts joining ADD), and at depth 6 at mul as well (see E_ALONE).
  localparam bit FRONT_HEAVY = L >= 16;
  function automatic bit [6:0] cuts_of(input int depth, input bit front_heavy);
    case (depth)
      // MUL..ALIGN | ADD..ROUND, or MUL..ADD | CPA..ROUND
      2:       cuts_of = front_heavy ? 7'b0001000 : 7'b0010000;
      // MUL | ALIGN | ADD..ROUND, or MUL..ALIGN | ADD..CPA | NORM..ROUND
      3:       cuts_of = front_heavy ? 7'b0001010 : 7'b0101000;
      // MUL | ALIGN | ADD..CPA | NORM..ROUND
      4:       cuts_of = 7'b0101010;
      // DEC | MUL,E | shifts | ADD..CPA | NORM..ROUND, or MUL,E | shifts,ADD | CPA | NORM | ROUND
      5:       cuts_of = front_heavy ? 7'b0101101 : 7'b1110100;
      // DEC | MUL,E | shifts | ADD..CPA | NORM | ROUND, or MUL | E | shifts,ADD | CPA | NORM | ROUND
      default: cuts_of = front_heavy ? 7'b1101101 : 7'b1110110;
    endcase
  endfunction
  localparam bit [6:0] CUTS /*verilator public*/ = cuts_of(Depth, FRONT_HEAVY);
  // Where both the mul and the exp cut hold registers, the stage between them would be
  // E's tree alone: the products cross the mul cut as carry-save pairs and their last
  // adds run beside the tree (see the mul cut), and each term's gap E - e follows the
  // tree before the exp cut (see the exp cut).
  localparam bit E_ALONE = CUTS[1] && CUTS[2];
  localparam int FP32 = tc_pkg::FMT_FP32;
  localparam int FP16 = tc_pkg::FMT_FP16;
  localparam int NONE = tc_pkg::EMIN_ALIGN_NONE;
  localparam bit OUT32 = OutFmts[FP32];
  localparam bit OUT16 = OutFmts[FP16];
  localparam int UE8M0 = tc_pkg::FMT_UE8M0;
  localparam bit SCALED = ScaleFmts != 0;
  // What a scale pair adds to a product's exponent: e(sa) + e(sb) spans 2*emin .. 2*emax.
  localparam int S_HI = SCALED ? 2 * tc_pkg::emax(UE8M0) : 0;
  localparam int S_LO = SCALED ? 2 * tc_pkg::emin(UE8M0) : 0;

  localparam int N   = L + 1;                           // terms of the sum: L products and c
  localparam int NW  = $clog2(N + 1);                   // how many of them are negative
  localparam int MB  = tc_pkg::max_man_bits(InFmts);    // every element's fraction, left-justified
  localparam int PFB = 2 * MB;                          // product fraction bits: exact
  // A product is in [0, 4): it is not renormalised.
  localparam int PW /*verilator public*/ = PFB + 2;
  localparam int CFB = tc_pkg::max_man_bits(OutFmts);   // c's fraction bits (fp16 c left-justified)
  // The signed sum: a truncated product is below 4 * 2^F, c below 2 * 2^F, so
  // |sum| < (4L + 2) * 2^F.
  localparam int SW /*verilator public*/ = F + $clog2(4 * L + 2) + 1;
  localparam int MW  = SW - 1;                          // magnitude of the sum

  // Exponents. Products span twice the inputs' range, c its own; the floors may lie
  // below both (-133 < -126). NORM moves the sum's exponent by -F .. MW-1-F, and ALIGN
  // subtracts any two exponents: EW holds all of these signed.
  localparam int E_HI = tc_pkg::max2(2 * tc_pkg::max_emax(InFmts) + S_HI,
                                     tc_pkg::max_emax(OutFmts));
  localparam int E_NAT = tc_pkg::min2(2 * tc_pkg::min_emin(InFmts) + S_LO,
                                      tc_pkg::min_emin(OutFmts));
  localparam int E_LO = tc_pkg::min2(E_NAT,
      tc_pkg::min2(OUT32 && EminAlignFp32 != NONE ? EminAlignFp32 : 0,
                   OUT16 && EminAlignFp16 != NONE ? EminAlignFp16 : 0));
  localparam int EXP_MAG = tc_pkg::max2(E_HI + MW, tc_pkg::max2(F - E_LO, E_HI - E_LO)) + 1;
  localparam int EW /*verilator public*/ = $clog2(EXP_MAG + 1) + 1;
  // The floor of E per output format; without one, the lowest exponent any term has.
  localparam int FLOOR32 = EminAlignFp32 == NONE ? E_LO : EminAlignFp32;
  localparam int FLOOR16 = EminAlignFp16 == NONE ? E_LO : EminAlignFp16;

  localparam int MB32 = tc_pkg::man_bits(FP32);     // the largest Fp32ManBits

  // What travels beside the products from the dec cut to the mul cut: out16, the
  // special class (3), each product's exponent, sign and zero, and c's sign, zero,
  // exponent and significand.
  localparam int SPW = 4 + L * (EW + 2) + 2 + EW + CFB + 1;

  // Parameter checks: a wrong instance stops at elaboration, in Verilator and in Yosys.
  if (Depth < 2 || Depth > 6) begin : gen_bad_depth
    $error("fedp: Depth = %0d, expected 2..6", Depth);
  end
  if (L < 1 || L > 64) begin : gen_bad_l
    $error("fedp: L = %0d, expected 1..64", L);
  end
  if (F < 1 || SW > 64) begin : gen_bad_f
    $error("fedp: F = %0d gives a %0d-bit sum, expected F >= 1 and at most 64 bits", F, SW);
  end
  if ((OutFmts & ~((1 << FP32) | (1 << FP16))) != 0 || OutFmts == 0) begin : gen_bad_out
    $error("fedp: OutFmts = 'h%0h, expected fp32 and/or fp16", OutFmts);
  end
  if (Fp32ManBits < 1 || Fp32ManBits > MB32) begin : gen_bad_man
    $error("fedp: Fp32ManBits = %0d, expected 1..%0d", Fp32ManBits, MB32);
  end
  for (genvar f = 0; f < tc_pkg::FMT_COUNT; f++) begin : gen_check_fmt
    if (InFmts[f] && (tc_pkg::fmt_class(f) != tc_pkg::CLASS_FLOAT || f == FP32)) begin : gen_bad
      $error("fedp: InFmts has format %0d, which is not an element float format", f);
    end
  end
  if (ScaleFmts != 0 && ScaleFmts != (1 << UE8M0)) begin : gen_bad_scale
    $error("fedp: ScaleFmts = 'h%0h, expected 0 or ue8m0 (a scale with significand 1)",
           ScaleFmts);
  end
  if (InPairs != 0 && InPairs != 1) begin : gen_bad_pairs
    $error("fedp: InPairs = %0d, expected 0 or 1", InPairs);
  end
  if (InFmts == 0 || (InFmts >> tc_pkg::FMT_COUNT) != 0) begin : gen_bad_in
    $error("fedp: InFmts = 'h%0h names no format or an unknown one", InFmts);
  end
  // ALIGN lets a zero c stand for the floor, which holds because a non-zero c decodes to
  // an exponent of at least its format's emin (fedp_decode): a floor above it would need
  // a key of its own.
  if (OUT32 && FLOOR32 > tc_pkg::emin(FP32)) begin : gen_bad_floor32
    $error("fedp: EminAlignFp32 = %0d, expected at most fp32's emin %0d",
           EminAlignFp32, tc_pkg::emin(FP32));
  end
  if (OUT16 && FLOOR16 > tc_pkg::emin(FP16)) begin : gen_bad_floor16
    $error("fedp: EminAlignFp16 = %0d, expected at most fp16's emin %0d",
           EminAlignFp16, tc_pkg::emin(FP16));
  end

  // ------------------------------------------------------------------ UNPACK + MUL
  // b's format select: its own port where the instance has mixed pairs, else a's, so
  // that a single-format instance has no second select (its decoders see one net).
  logic [FW-1:0] fmt_b;
  if (InPairs != 0) begin : gen_pairs
    assign fmt_b = in_fmt_b_i;
  end else begin : gen_no_pairs
    wire unused_fmt_b = ^in_fmt_b_i;
    assign fmt_b = in_fmt_i;
  end

  logic [L-1:0]        a_sign, a_zero, a_inf, a_nan, b_sign, b_zero, b_inf, b_nan;
  logic [L*EW-1:0]     a_exp, b_exp;
  logic [L*(MB+1)-1:0] a_sig, b_sig;
  logic                c_sign, c_zero, c_inf, c_nan;
  logic [EW-1:0]       c_exp;
  logic [CFB:0]        c_sig;

  for (genvar i = 0; i < L; i++) begin : gen_unpack
    fedp_decode #(.Fmts(InFmts), .ManW(MB), .ExpW(EW), .Lane(2 * i)) i_decode_a (
      .bits_i(a_i[i*ELEM_W +: ELEM_W]),
      .fmt_i (in_fmt_i),
      .sign_o(a_sign[i]),
      .exp_o (a_exp[i*EW +: EW]),
      .sig_o (a_sig[i*(MB+1) +: MB+1]),
      .zero_o(a_zero[i]),
      .inf_o (a_inf[i]),
      .nan_o (a_nan[i])
    );
    fedp_decode #(.Fmts(InFmts), .ManW(MB), .ExpW(EW), .Lane(2 * i + 1)) i_decode_b (
      .bits_i(b_i[i*ELEM_W +: ELEM_W]),
      .fmt_i (fmt_b),
      .sign_o(b_sign[i]),
      .exp_o (b_exp[i*EW +: EW]),
      .sig_o (b_sig[i*(MB+1) +: MB+1]),
      .zero_o(b_zero[i]),
      .inf_o (b_inf[i]),
      .nan_o (b_nan[i])
    );
  end
  fedp_decode #(.Fmts(OutFmts), .ManW(CFB), .ExpW(EW)) i_decode_c (
    .bits_i(c_i),
    .fmt_i (out_fmt_i),
    .sign_o(c_sign),
    .exp_o (c_exp),
    .sig_o (c_sig),
    .zero_o(c_zero),
    .inf_o (c_inf),
    .nan_o (c_nan)
  );

  // The scale pair's exponent offset, and its NaN (ue8m0: 2^(x - bias), 0xff is NaN).
  logic [EW-1:0] scale_exp;
  logic          scale_nan;
  if (SCALED) begin : gen_scale
    assign scale_exp = EW'(sa_i) + EW'(sb_i) - EW'(2 * tc_pkg::bias(UE8M0));
    assign scale_nan = &sa_i || &sb_i;
  end else begin : gen_no_scale
    wire unused_scale = ^{sa_i, sb_i};
    assign scale_exp = '0;
    assign scale_nan = 1'b0;
  end

  // DEC: the exponents' sums, the signs and zeros of the products and the special class,
  // none of which waits for a product. The special class travels as three bits: NaN,
  // Inf, sign of the Inf.
  logic [L*EW-1:0] dec_pexp;
  logic [L-1:0]    dec_psign, dec_pzero;
  logic            dec_nan, dec_pinf, dec_ninf, dec_out16;

  always_comb begin : stage_dec
    // Special values (docs/contract.md): NaN in, Inf * 0 and Inf - Inf give NaN; otherwise
    // an Inf product or Inf c gives Inf of its sign. A NaN scale gives NaN.
    dec_nan = c_nan || scale_nan;
    dec_pinf = c_inf && !c_sign;
    dec_ninf = c_inf && c_sign;
    for (int i = 0; i < L; i++) begin
      dec_pexp[i*EW +: EW] = a_exp[i*EW +: EW] + b_exp[i*EW +: EW] + scale_exp;
      dec_psign[i] = a_sign[i] ^ b_sign[i];
      dec_pzero[i] = a_zero[i] || b_zero[i];
      if (a_nan[i] || b_nan[i] || (a_inf[i] && b_zero[i]) || (a_zero[i] && b_inf[i]))
        dec_nan = 1'b1;
      else if (a_inf[i] || b_inf[i]) begin
        dec_pinf = dec_pinf || !dec_psign[i];
        dec_ninf = dec_ninf || dec_psign[i];
      end
    end
    dec_out16 = OUT16 && (!OUT32 || out_fmt_i == FW'(FP16));
  end

  // The dec cut, inside MUL: after the decoders' format selects, before the multipliers
  // (a register set of its own only at the depths whose MUL is too long for one stage).
  // Past it, everything but the significands only travels to the mul cut.
  logic              dec_valid_q;
  logic [L*(MB+1)-1:0] dec_asig_q, dec_bsig_q;
  logic [SPW-1:0]    dec_side_q;

  fedp_cut #(.W(2 * L * (MB + 1) + SPW), .Reg(CUTS[0])) i_cut_dec (
    .clk_i,
    .rst_ni,
    .valid_i,
    .data_i ({a_sig, b_sig, dec_out16, dec_nan || (dec_pinf && dec_ninf), dec_pinf || dec_ninf,
              dec_ninf, dec_pexp, dec_psign, dec_pzero, c_sign, c_zero, c_exp, c_sig}),
    .valid_o(dec_valid_q),
    .data_o ({dec_asig_q, dec_bsig_q, dec_side_q})
  );

  logic [L*PW-1:0] mul_psum, mul_pcarry;
  for (genvar i = 0; i < L; i++) begin : gen_mul
    fedp_mul #(.AW(MB + 1), .BW(MB + 1)) i_mul (
      .a_i    (dec_asig_q[i*(MB+1) +: MB+1]),
      .b_i    (dec_bsig_q[i*(MB+1) +: MB+1]),
      .sum_o  (mul_psum[i*PW +: PW]),
      .carry_o(mul_pcarry[i*PW +: PW])
    );
  end

  // MUL registers. Each product's last add (a ripple, the smallest adder) lies before
  // the mul cut, or after it where the exp cut holds registers too (E_ALONE): the stage
  // between the two is then E's tree alone, which does not wait for the products, so
  // the adds run beside it and MUL keeps the Booth rows and their 3:2 tree. The cut then
  // holds each product as its carry-save pair.
  localparam int MPW = E_ALONE ? 2 * L * PW : L * PW;
  logic              mul_valid_q, mul_out16_q, mul_nan_q, mul_inf_q, mul_inf_neg_q;
  logic [MPW-1:0]    mul_prod, mul_prod_q;
  logic [L*PW-1:0]   mul_psig_q /*verilator public_flat_rd*/;
  logic [L*EW-1:0]   mul_pexp_q /*verilator public_flat_rd*/;
  logic [L-1:0]      mul_psign_q, mul_pzero_q;
  logic              mul_csign_q, mul_czero_q;
  logic [EW-1:0]     mul_cexp_q;
  logic [CFB:0]      mul_csig_q;

  always_comb begin : mul_add
    if (E_ALONE) begin
      mul_prod = MPW'({mul_pcarry, mul_psum});
      for (int i = 0; i < L; i++)
        mul_psig_q[i*PW +: PW] = mul_prod_q[i*PW +: PW] + mul_prod_q[(L+i)*PW +: PW];
    end else begin
      for (int i = 0; i < L; i++)
        mul_prod[i*PW +: PW] = mul_psum[i*PW +: PW] + mul_pcarry[i*PW +: PW];
      mul_psig_q = mul_prod_q[L*PW-1:0];
    end
  end

  fedp_cut #(.W(MPW + SPW), .Reg(CUTS[1])) i_cut_mul (
    .clk_i,
    .rst_ni,
    .valid_i(dec_valid_q),
    .data_i ({mul_prod, dec_side_q}),
    .valid_o(mul_valid_q),
    .data_o ({mul_prod_q, mul_out16_q, mul_nan_q, mul_inf_q, mul_inf_neg_q, mul_pexp_q,
              mul_psign_q, mul_pzero_q, mul_csign_q, mul_czero_q, mul_cexp_q, mul_csig_q})
  );

  // ------------------------------------------------------------------------ ALIGN
  // E = max(Emin_align, exponents of the non-zero terms); zero terms enter as the floor.
  // The floor needs no key of its own: a zero c is the floor, and a non-zero c is at or
  // above it (gen_bad_floor32/16), so E >= Emin_align either way.
  logic signed [EW-1:0] align_floor, align_e;
  logic [(L+1)*EW-1:0]  align_keys;

  always_comb begin : align_key
    align_floor = mul_out16_q ? EW'(FLOOR16) : EW'(FLOOR32);
    for (int i = 0; i < L; i++)
      align_keys[i*EW +: EW] = mul_pzero_q[i] ? align_floor : mul_pexp_q[i*EW +: EW];
    align_keys[L*EW +: EW] = mul_czero_q ? align_floor : mul_cexp_q;
  end

  // The maximum by a tree whose nodes compare up to five keys pairwise at once
  // (fedp_max_tree.sv): five keys or fewer (volta, the tf32 units of L 4) are one node.
  fedp_max_tree #(.N(N), .W(EW)) i_max_exp (
    .vals_i(align_keys),
    .max_o (align_e)
  );

  // The exp cut, inside ALIGN: after E, before the shifts (registers only at the depths
  // whose ALIGN is too long for one stage). Here it holds E, the flags and the count of
  // negative terms; each term's share (its significand, sign, zero, and its exponent or
  // already its shift) is the cut inside that term's fedp_align_term. Where the stage
  // before the cut is E's tree alone (E_ALONE), each term's gap E - e is taken there too.
  logic                 exp_valid_q, exp_out16_q, exp_nan_q, exp_inf_q, exp_inf_neg_q;
  logic [EW-1:0]        exp_e_q;
  logic [NW-1:0]        align_negs, exp_negs_q;

  // ADD's carry-save tree adds the missing one of every negative term (below): their count.
  always_comb begin : align_count
    int unsigned negs;
    negs = 0;
    for (int i = 0; i < L; i++)
      negs += 32'(mul_psign_q[i]);
    negs += 32'(mul_csign_q);
    align_negs = NW'(negs);
  end

  fedp_cut #(.W(EW + 4 + NW), .Reg(CUTS[2])) i_cut_exp (
    .clk_i,
    .rst_ni,
    .valid_i(mul_valid_q),
    .data_i ({align_e, mul_out16_q, mul_nan_q, mul_inf_q, mul_inf_neg_q, align_negs}),
    .valid_o(exp_valid_q),
    .data_o ({exp_e_q, exp_out16_q, exp_nan_q, exp_inf_q, exp_inf_neg_q, exp_negs_q})
  );

  // Each term is shifted right by E - e and truncated toward zero to F fraction bits
  // relative to 2^E, in sign-magnitude (docs/contract.md step 4: no guard, round or sticky):
  // fedp_align_term.sv, one instance per product (PW bits, PFB fraction bits, below 4)
  // and one for c (CFB fraction bits, below 2). A negative term leaves as the one's
  // complement of its magnitude; term N, the count of negative terms, adds the missing
  // ones in ADD's carry-save tree, where they cost no carry chain:
  //
  //   align_t:  | count of signs | ~mag or mag (c) | ~mag or mag (product L-1) | ... | (product 0) |
  //   a term read back: t = align_t[i] + (its top bit), the top bit being its sign.
  logic [(N+1)*SW-1:0] align_t;
  logic [EW-1:0]       gap_e;  // E on the side of the exp cut where the gaps are taken
  assign gap_e = E_ALONE ? align_e : exp_e_q;
  assign align_t[N*SW +: SW] = SW'(exp_negs_q);

  for (genvar i = 0; i < L; i++) begin : gen_align
    fedp_align_term #(.SigW(PW), .SigFB(PFB), .F(F), .EW(EW), .SW(SW), .OnesNeg(1'b1),
                      .Reg(CUTS[2]), .GapFirst(E_ALONE)) i_align_term (
      .clk_i,
      .rst_ni,
      .e_i   (gap_e),
      .exp_i (mul_pexp_q[i*EW +: EW]),
      .sig_i (mul_psig_q[i*PW +: PW]),
      .sign_i(mul_psign_q[i]),
      .zero_i(mul_pzero_q[i]),
      .term_o(align_t[i*SW +: SW])
    );
  end
  fedp_align_term #(.SigW(CFB + 1), .SigFB(CFB), .F(F), .EW(EW), .SW(SW), .OnesNeg(1'b1),
                    .Reg(CUTS[2]), .GapFirst(E_ALONE)) i_align_c (
    .clk_i,
    .rst_ni,
    .e_i   (gap_e),
    .exp_i (mul_cexp_q),
    .sig_i (mul_csig_q),
    .sign_i(mul_csign_q),
    .zero_i(mul_czero_q),
    .term_o(align_t[L*SW +: SW])
  );

  logic                align_valid_q, align_out16_q, align_nan_q, align_inf_q, align_inf_neg_q;
  logic [EW-1:0]       align_e_q /*verilator public_flat_rd*/;
  logic [(N+1)*SW-1:0] align_t_q /*verilator public_flat_rd*/;

  fedp_cut #(.W(4 + EW + (N + 1) * SW), .Reg(CUTS[3])) i_cut_align (
    .clk_i,
    .rst_ni,
    .valid_i(exp_valid_q),
    .data_i ({exp_out16_q, exp_nan_q, exp_inf_q, exp_inf_neg_q, exp_e_q, align_t}),
    .valid_o(align_valid_q),
    .data_o ({align_out16_q, align_nan_q, align_inf_q, align_inf_neg_q, align_e_q, align_t_q})
  );

  // ------------------------------------------------- ADD, CPA, NORM, ROUND, Result
  // The back end shared with fedp_grouped.sv: the carry-save sum of the N + 1 terms, the
  // carry add, one normalisation, the rounders of OutFmts and the result selection (d_q),
  // with the cuts of this depth.
  fedp_backend #(
    .N(N + 1), .SW(SW), .MW(MW), .EW(EW), .F(F), .OutFmts(OutFmts),
    .Fp32ManBits(Fp32ManBits), .ZeroPlusFp16(ZeroPlusFp16 != 0), .Cuts(CUTS[6:4]),
    .Floor32(FLOOR32), .Floor16(FLOOR16)
  ) i_back (
    .clk_i,
    .rst_ni,
    .valid_i  (align_valid_q),
    .out16_i  (align_out16_q),
    .nan_i    (align_nan_q),
    .inf_i    (align_inf_q),
    .inf_neg_i(align_inf_neg_q),
    .e_i      (align_e_q),
    .terms_i  (align_t_q),
    .valid_o,
    .d_o
  );
endmodule
