// fedp_decode.sv - UNPACK of one element whose format is chosen at run time among a set.
//
// One fedp_unpack per format of the set decodes the element in parallel; fmt_i selects
// one result. A format outside the set decodes as NaN, so a step given an unsupported
// format select yields the canonical NaN instead of an arbitrary value.
module fedp_decode #(
  parameter int Fmts = 1 << tc_pkg::FMT_FP16,  // mask of formats (bit f: tc_fmt code f)
  parameter int ManW = 10,                     // fraction bits of sig_o (see fedp_unpack)
  parameter int ExpW = 10,                     // width of the signed exponent exp_o
  parameter int Lane = 0,  // which decoder of a unit this is: picks its own select logic
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
  localparam int CODES = 1 << FW;

  // The select of slot k's fields as a table over every code of fmt_i: 1 at format
  // fmt_code(k), 0 at the set's other formats. A code outside the set makes the element
  // NaN (nan_o compares exactly), so its table bits are free: they carry the bits of tag,
  // which makes each select a function of its own. Equal functions would be merged into
  // one net with every field of every element as its load (hundreds, with no buffer in a
  // plain synthesis flow); distinct ones are a select per lane and field group (G below).
  function automatic logic [CODES-1:0] select_table(input int k, input int tag);
    int free;
    free = 0;
    select_table = '0;
    for (int c = 0; c < CODES; c++)
      if (c == fmt_code(k)) select_table[c] = 1'b1;
      else if (!(c < tc_pkg::FMT_COUNT && Fmts[c])) begin
        select_table[c] = free < 31 && ((tag >> free) & 1) != 0;
        free++;
      end
  endfunction

  // Field groups with a select of their own: sign, exponent and class; the significand's
  // low half; its high half. One select per lane drove every field of its element (about
  // 25 loads, 2.2 ns for the OAI21 that ABC made of it in hopper_half's MUL stage).
  localparam int G = 3;
  localparam int SL = (ManW + 1) / 2;     // the significand's low half: bits SL-1..0

  logic [NS-1:0]          s_hit, s_sign, s_zero, s_inf, s_nan;
  logic [NS*G-1:0]        s_pick;
  logic [NS*ExpW-1:0]     s_exp;
  logic [NS*(ManW+1)-1:0] s_sig;

  for (genvar k = 0; k < NS; k++) begin : gen_fmt
    localparam int FMT = fmt_code(k);
    localparam int VB = tc_pkg::value_bits(FMT);
    assign s_hit[k] = fmt_i == FW'(FMT);
    for (genvar g = 0; g < G; g++) begin : gen_pick
      localparam logic [CODES-1:0] PICK = select_table(k, Lane * G + g);
      assign s_pick[k*G + g] = PICK[fmt_i];
    end
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

  // Selection. A format outside the set decodes as NaN, and a NaN element makes the
  // result the canonical NaN whatever its other fields say, so those need no gating:
  // the last slot's fields stand for no hit as well, and one format needs no select at
  // all. With more, s_pick (the lane's own selects, above) picks the fields.
  always_comb begin : select
    sign_o = s_sign[NS-1];
    exp_o  = s_exp[(NS-1)*ExpW +: ExpW];
    sig_o  = s_sig[(NS-1)*(ManW+1) +: ManW+1];
    zero_o = s_zero[NS-1];
    inf_o  = s_inf[NS-1];
    for (int k = NS - 2; k >= 0; k--) begin
      if (s_pick[k*G]) begin
        sign_o = s_sign[k];
        exp_o  = s_exp[k*ExpW +: ExpW];
        zero_o = s_zero[k];
        inf_o  = s_inf[k];
      end
      if (s_pick[k*G + 1]) sig_o[SL-1:0] = s_sig[k*(ManW+1) +: SL];
      if (s_pick[k*G + 2]) sig_o[ManW:SL] = s_sig[k*(ManW+1) + SL +: ManW + 1 - SL];
    end
    nan_o = !(|s_hit) || |(s_hit & s_nan);
  end
endmodule
