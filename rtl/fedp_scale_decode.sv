// fedp_scale_decode.sv - UNPACK of one block-scale factor whose format is chosen at run
// time (docs/contract.md "Scales"): ue8m0 = 2^(x - 127) with 0xff NaN (significand always 1,
// never zero); ue4m3 = e4m3 with its sign bit ignored (subnormals and zero allowed,
// S.1111.111 NaN). The value is sig_o * 2^exp_o, sig_o with ManW fraction bits as
// fedp_unpack gives them. A format outside Fmts decodes as NaN.
module fedp_scale_decode #(
  parameter int Fmts = (1 << tc_pkg::FMT_UE8M0) | (1 << tc_pkg::FMT_UE4M3),
  parameter int ManW = 3,                      // fraction bits of sig_o
  parameter int ExpW = 10,                     // width of the signed exponent exp_o
  localparam int FW  = tc_pkg::FMT_BITS
) (
  input  logic [7:0]             bits_i,
  input  logic [FW-1:0]          fmt_i,
  output logic signed [ExpW-1:0] exp_o,
  output logic [ManW:0]          sig_o,
  output logic                   zero_o,
  output logic                   nan_o
);
  localparam int UE8M0 = tc_pkg::FMT_UE8M0;
  localparam int UE4M3 = tc_pkg::FMT_UE4M3;

  if ((Fmts & ~((1 << UE8M0) | (1 << UE4M3))) != 0 || Fmts == 0) begin : gen_bad_fmts
    $error("fedp_scale_decode: Fmts = 'h%0h, expected ue8m0 and/or ue4m3", Fmts);
  end

  // ue8m0: the byte is a biased exponent alone.
  logic               e8_hit, e8_nan;
  logic [ExpW-1:0]    e8_exp;
  if (Fmts[UE8M0]) begin : gen_ue8m0
    assign e8_hit = fmt_i == FW'(UE8M0);
    assign e8_nan = &bits_i;
    assign e8_exp = ExpW'(bits_i) - ExpW'(tc_pkg::bias(UE8M0));
  end else begin : gen_no_ue8m0
    assign e8_hit = 1'b0;
    assign e8_nan = 1'b0;
    assign e8_exp = '0;
  end

  // ue4m3: the e4m3 decoder of the elements on the byte with its sign bit cleared.
  logic               e4_hit, e4_zero, e4_nan;
  logic [ExpW-1:0]    e4_exp;
  logic [ManW:0]      e4_sig;
  if (Fmts[UE4M3]) begin : gen_ue4m3
    logic unused_sign, unused_inf;  // unsigned, and e4m3 has no Inf
    assign e4_hit = fmt_i == FW'(UE4M3);
    fedp_unpack #(.Fmt(UE4M3), .ManW(ManW), .ExpW(ExpW)) i_unpack (
      .bits_i({1'b0, bits_i[6:0]}),
      .sign_o(unused_sign),
      .exp_o (e4_exp),
      .sig_o (e4_sig),
      .zero_o(e4_zero),
      .inf_o (unused_inf),
      .nan_o (e4_nan)
    );
  end else begin : gen_no_ue4m3
    assign e4_hit = 1'b0;
    assign e4_zero = 1'b0;
    assign e4_nan = 1'b0;
    assign e4_exp = '0;
    assign e4_sig = '0;
  end

  always_comb begin : select
    exp_o  = e8_hit ? e8_exp : e4_exp;
    sig_o  = e8_hit ? (ManW + 1)'(1) << ManW : e4_sig;
    zero_o = e4_hit && e4_zero;
    nan_o  = (e8_hit && e8_nan) || (e4_hit && e4_nan) || !(e8_hit || e4_hit);
  end
endmodule
