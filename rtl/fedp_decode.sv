// fedp_decode.sv - UNPACK of one element whose format is chosen at run time among a set.
//
// One fedp_unpack per format of the set decodes the element in parallel; fmt_i selects
// one result. A format outside the set decodes as NaN, so a step given an unsupported
// format select yields the canonical NaN instead of an arbitrary value.
module fedp_decode #(
  parameter int Fmts = 1 << tc_pkg::FMT_FP16,  // mask of formats (bit f: tc_fmt code f)
  parameter int ManW = 10,                     // fraction bits of sig_o (see fedp_unpack)
  parameter int ExpW = 10,                     // width of the signed exponent exp_o
  localparam int InW = tc_pkg::max_value_bits(Fmts),  // the widest format of the set
  localparam int FW  = tc_pkg::FMT_BITS
) (
  input  logic [InW-1:0]         bits_i,  // value bits in the low end of the element
  input  logic [FW-1:0]          fmt_i,
  output logic                   sign_o,
  output logic signed [ExpW-1:0] exp_o,
  output logic [ManW:0]          sig_o,
  output logic                   zero_o,
  output logic                   inf_o,
  output logic                   nan_o
);
  // The supported formats, numbered 0..NS-1 in code order: slot k decodes format
  // fmt_code(k). Slots keep the per-format vectors as narrow as the set, not the table.
  function automatic int count_fmts();
    count_fmts = 0;
    for (int f = 0; f < tc_pkg::FMT_COUNT; f++)
      if (Fmts[f]) count_fmts++;
  endfunction
  function automatic int fmt_code(input int k);
    int seen;
    seen = 0;
    fmt_code = 0;
    for (int f = 0; f < tc_pkg::FMT_COUNT; f++)
      if (Fmts[f]) begin
        if (seen == k) fmt_code = f;
        seen++;
      end
  endfunction
  localparam int NS = count_fmts();

  logic [NS-1:0]          s_hit, s_sign, s_zero, s_inf, s_nan;
  logic [NS*ExpW-1:0]     s_exp;
  logic [NS*(ManW+1)-1:0] s_sig;

  for (genvar k = 0; k < NS; k++) begin : gen_fmt
    localparam int FMT = fmt_code(k);
    localparam int VB = tc_pkg::value_bits(FMT);
    assign s_hit[k] = fmt_i == FW'(FMT);
    fedp_unpack #(.Fmt(FMT), .ManW(ManW), .ExpW(ExpW)) i_unpack (
      .bits_i(bits_i[VB-1:0]),
      .sign_o(s_sign[k]),
      .exp_o (s_exp[k*ExpW +: ExpW]),
      .sig_o (s_sig[k*(ManW+1) +: ManW+1]),
      .zero_o(s_zero[k]),
      .inf_o (s_inf[k]),
      .nan_o (s_nan[k])
    );
  end

  // One-hot AND-OR selection; no hit (a format outside the set) decodes as NaN.
  always_comb begin : select
    sign_o = 1'b0;
    exp_o  = '0;
    sig_o  = '0;
    zero_o = 1'b0;
    inf_o  = 1'b0;
    nan_o  = !(|s_hit);
    for (int k = 0; k < NS; k++) begin
      sign_o = sign_o | (s_hit[k] & s_sign[k]);
      exp_o  = exp_o | ({ExpW{s_hit[k]}} & s_exp[k*ExpW +: ExpW]);
      sig_o  = sig_o | ({(ManW+1){s_hit[k]}} & s_sig[k*(ManW+1) +: ManW+1]);
      zero_o = zero_o | (s_hit[k] & s_zero[k]);
      inf_o  = inf_o | (s_hit[k] & s_inf[k]);
      nan_o  = nan_o | (s_hit[k] & s_nan[k]);
    end
  end
endmodule
