// tensor_core.sv - one Volta tensor core (seed 001 section IV, Figure 13).
//
// It serves two octets of a warp (octet X = threadgroups X and X+4): four threadgroups of
// four lanes, 16 lanes. Each threadgroup has an A and a C operand buffer; the two
// threadgroups of an octet share a B buffer. The buffers feed sixteen four-term FEDPs
// (rtl/fedp.sv, the volta fp16 profile), four per threadgroup: one 4x4x4 matrix multiply-
// accumulate per cycle. It executes the HMMA.884 steps the warp's sequencer (tc_warp.sv)
// dispatches; the model of the same pipeline is model/src/timing.c (tcsim_tc.h).
//
//   register file ─► opnd_*_i ─►│xb_*_q│─► layout transpose ─►│abuf│bbuf│cbuf│─► beats ─► 16 FEDPs
//   (read in the     (tc_warp's   crossbar to                  A, C per threadgroup,      (LATENCY)
//    dispatch cycle)  collector)  the tensor core               B per octet                    │
//                                                                                             ▼
//   register file ◄─ wb_*_o ◄─│wb_q│◄─ (fp16: │pack_q│, two halves per register) ◄───────── d_o
//
// Local lanes: lane l = 4q + t, threadgroup q = o + 2h of octet o (0, 1) and half h (0:
// threadgroup X, 1: X+4), thread t. A step's outputs (tcsim_tc.h, Figure 10): half h owns
// rows 4h..4h+3 of the octet's 8x8 accumulator; FEDP t of the threadgroup computes lane
// t's elements, one per beat:
//   mixed (fp32), step p, beat j < 2: element 2p+j  at row 2(p%2)+(t%2), col 4(p/2)+2(t/2)+j
//   fp16,         step p, beat j < 4: element 4p+j  at row t,            col 4p+j
// so a step writes the accumulator register pair p (registers 2p, 2p+1) of every lane.
module tensor_core #(
  // The FEDP of the volta fp16 profile: tc_pkg's volta_fp16 preset (tc_warp passes it).
  parameter int FedpL = tc_pkg::FEDP_VOLTA_FP16_L,
  parameter int FedpF = tc_pkg::FEDP_VOLTA_FP16_F,
  parameter int FedpInFmts = tc_pkg::FEDP_VOLTA_FP16_IN_FMTS,
  parameter int FedpOutFmts = tc_pkg::FEDP_VOLTA_FP16_OUT_FMTS,
  parameter int EminAlignFp32 = tc_pkg::FEDP_VOLTA_FP16_EMIN_ALIGN_FP32,
  parameter int EminAlignFp16 = tc_pkg::FEDP_VOLTA_FP16_EMIN_ALIGN_FP16,
  parameter int Fp32ManBits = tc_pkg::FEDP_VOLTA_FP16_FP32_MAN_BITS,
  localparam int NL = 16,   // lanes: two octets
  localparam int PW = 64    // a register pair: four fp16, two fp32
) (
  input  logic             clk_i,
  input  logic             rst_ni,     // synchronous: low for one rising edge is enough
  // The instruction's mode and layouts; stable while it runs.
  input  logic             f16_i,      // FP16 mode (fp16 C and D), else mixed precision
  input  logic             a_col_i,    // A column-major
  input  logic             b_col_i,    // B column-major
  // One HMMA's source register pairs, one per lane (low register in the low half): the
  // cycle after the register-file read. step_i is the accumulator pair it writes.
  input  logic             opnd_valid_i,
  input  logic [1:0]       opnd_step_i,
  input  logic [NL*PW-1:0] opnd_a_i,
  input  logic [NL*PW-1:0] opnd_b_i,
  input  logic [NL*PW-1:0] opnd_c_i,
  // Write-back: one accumulator register of every lane per cycle.
  output logic             wb_valid_o,
  output logic [2:0]       wb_reg_o,
  output logic [NL*32-1:0] wb_data_o,
  // For traces: beat 0 of an HMMA enters the FEDPs this cycle.
  output logic             beat_first_o
);
  localparam int EW = 16;          // an fp16 element
  localparam int TGW = 4 * PW;     // a threadgroup's four lanes' pairs
  localparam int OCW = 2 * TGW;    // an octet's B buffer: 4 k x 8 columns
  localparam int FW = tc_pkg::FMT_BITS;
  localparam int TAGS = 8;         // results in flight: more than any FEDP latency we build

  if (FedpL != 4) begin : gen_bad_l
    $error("tensor_core: HMMA.884 needs four-term FEDPs, got L = %0d", FedpL);
  end

  // ------------------------------------------------------------------------- Crossbar
  // The register pairs cross from the register file to the tensor core.
  logic             xb_valid_q;
  logic [1:0]       xb_step_q;
  logic [NL*PW-1:0] xb_a_q, xb_b_q, xb_c_q;

  always_ff @(posedge clk_i) begin : xb_regs
    if (!rst_ni) xb_valid_q <= 1'b0;
    else         xb_valid_q <= opnd_valid_i;
    if (opnd_valid_i) begin
      xb_step_q <= opnd_step_i;
      xb_a_q    <= opnd_a_i;
      xb_b_q    <= opnd_b_i;
      xb_c_q    <= opnd_c_i;
    end
  end

  // -------------------------------------------------------------------------- Buffers
  // A buffer of threadgroup q: its 4 rows x 4 k, row-major (row r at [r*PW], k at [k*EW]).
  //   row-major A: lane t holds row t, k = element e      -> a copy of the lane's pair
  //   col-major A: lane t holds k = t, row = element e    -> a transpose
  // B buffer of octet o: 4 k x 8 columns, column-major (column c at [c*PW]); threadgroup
  // X fills columns 0..3, X+4 columns 4..7:
  //   row-major B: lane t holds k = t, column 4h + e      -> a transpose
  //   col-major B: lane t holds column 4h + t, k = e      -> a copy
  // C buffer of threadgroup q: the lanes' accumulator pairs as they are.
  logic [4*TGW-1:0] buf_a, buf_c;
  logic [2*OCW-1:0] buf_b;

  always_comb begin : buffer_fill
    buf_a = '0;
    buf_b = '0;
    for (int q = 0; q < 4; q++)
      for (int t = 0; t < 4; t++)
        for (int e = 0; e < 4; e++) begin
          if (a_col_i) buf_a[q*TGW + e*PW + t*EW +: EW] = xb_a_q[(4*q + t)*PW + e*EW +: EW];
          else         buf_a[q*TGW + t*PW + e*EW +: EW] = xb_a_q[(4*q + t)*PW + e*EW +: EW];
          // threadgroup q is half q/2 of octet q%2
          if (b_col_i) buf_b[(q%2)*OCW + (4*(q/2) + t)*PW + e*EW +: EW] =
                           xb_b_q[(4*q + t)*PW + e*EW +: EW];
          else         buf_b[(q%2)*OCW + (4*(q/2) + e)*PW + t*EW +: EW] =
                           xb_b_q[(4*q + t)*PW + e*EW +: EW];
        end
    buf_c = xb_c_q;
  end

  logic [4*TGW-1:0] abuf_q /*verilator public_flat_rd*/;
  logic [4*TGW-1:0] cbuf_q /*verilator public_flat_rd*/;
  logic [2*OCW-1:0] bbuf_q /*verilator public_flat_rd*/;
  // The beat counter: beats of the HMMA whose operands are in the buffers.
  logic             beat_valid_q;
  logic [1:0]       beat_q, beat_step_q;
  logic [1:0]       beat_last;

  assign beat_last = f16_i ? 2'd3 : 2'd1;  // 16 or 8 outputs per threadgroup, 4 FEDPs
  assign beat_first_o = beat_valid_q && beat_q == 2'd0;

  always_ff @(posedge clk_i) begin : buffer_regs
    if (xb_valid_q) begin
      abuf_q <= buf_a;
      bbuf_q <= buf_b;
      cbuf_q <= buf_c;
    end
    if (!rst_ni) begin
      beat_valid_q <= 1'b0;
    end else if (xb_valid_q) begin
      // the sequencer keeps an HMMA's fetch behind the beats of the one before
      beat_valid_q <= 1'b1;
      beat_q       <= 2'd0;
      beat_step_q  <= xb_step_q;
    end else if (beat_valid_q) begin
      beat_valid_q <= beat_q != beat_last;
      beat_q       <= beat_q + 2'd1;
    end
  end

  // -------------------------------------------------------------------- FEDP operands
  logic [NL*4*EW-1:0] fedp_a, fedp_b;
  logic [NL*32-1:0]   fedp_c;

  // Per FEDP: the A row, the B column and the accumulator element of its lane this beat.
  logic [NL*2-1:0]  sel_row;
  logic [NL*3-1:0]  sel_col;
  logic [NL*32-1:0] sel_c;

  always_comb begin : beat_select
    for (int q = 0; q < 4; q++)
      for (int t = 0; t < 4; t++) begin
        if (f16_i) begin
          sel_row[(4*q + t)*2 +: 2] = 2'(t);
          sel_col[(4*q + t)*3 +: 3] = {beat_step_q[0], beat_q};
          sel_c[(4*q + t)*32 +: 32] = {16'b0, cbuf_q[q*TGW + t*PW + 32'(beat_q)*16 +: 16]};
        end else begin
          sel_row[(4*q + t)*2 +: 2] = {beat_step_q[0], 1'(t % 2)};
          sel_col[(4*q + t)*3 +: 3] = {beat_step_q[1], 1'(t / 2), beat_q[0]};
          sel_c[(4*q + t)*32 +: 32] = cbuf_q[q*TGW + t*PW + 32'(beat_q[0])*32 +: 32];
        end
        fedp_a[(4*q + t)*4*EW +: 4*EW] = abuf_q[q*TGW + 32'(sel_row[(4*q + t)*2 +: 2])*PW +: PW];
        fedp_b[(4*q + t)*4*EW +: 4*EW] = bbuf_q[(q%2)*OCW + 32'(sel_col[(4*q + t)*3 +: 3])*PW +: PW];
      end
    fedp_c = sel_c;
  end

  // --------------------------------------------------------------------------- FEDPs
  logic [NL-1:0]    fedp_valid;
  logic [NL*32-1:0] fedp_d;
  logic [FW-1:0]    out_fmt;

  assign out_fmt = f16_i ? FW'(tc_pkg::FMT_FP16) : FW'(tc_pkg::FMT_FP32);

  for (genvar l = 0; l < NL; l++) begin : gen_fedp
    fedp #(
      .L            (FedpL),
      .F            (FedpF),
      .InFmts       (FedpInFmts),
      .OutFmts      (FedpOutFmts),
      .EminAlignFp32(EminAlignFp32),
      .EminAlignFp16(EminAlignFp16),
      .Fp32ManBits  (Fp32ManBits)
    ) i_fedp (
      .clk_i    (clk_i),
      .rst_ni   (rst_ni),
      .valid_i  (beat_valid_q),
      .in_fmt_i (FW'(tc_pkg::FMT_FP16)),
      .in_fmt_b_i(FW'(tc_pkg::FMT_FP16)),
      .out_fmt_i(out_fmt),
      .a_i      (fedp_a[l*4*EW +: 4*EW]),
      .b_i      (fedp_b[l*4*EW +: 4*EW]),
      .c_i      (fedp_c[l*32 +: 32]),
      .sa_i     (8'd0),               // no block scaling on Volta
      .sb_i     (8'd0),
      .valid_o  (fedp_valid[l]),
      .d_o      (fedp_d[l*32 +: 32])
    );
  end

  // Which step and beat each result belongs to: the FEDPs keep order and all sixteen
  // move together, so one queue of tags serves them (and any FEDP latency).
  logic [4*TAGS-1:0]       tag_q;
  logic [$clog2(TAGS)-1:0] tag_wr_q, tag_rd_q;
  logic                    out_valid;
  logic [1:0]              out_step, out_beat;

  assign out_valid = &fedp_valid;
  assign {out_step, out_beat} = tag_q[32'(tag_rd_q)*4 +: 4];

  always_ff @(posedge clk_i) begin : tag_queue
    if (!rst_ni) begin
      tag_wr_q <= '0;
      tag_rd_q <= '0;
    end else begin
      if (beat_valid_q) begin
        tag_q[32'(tag_wr_q)*4 +: 4] <= {beat_step_q, beat_q};
        tag_wr_q <= tag_wr_q + 1'b1;
      end
      if (out_valid) tag_rd_q <= tag_rd_q + 1'b1;
    end
  end

  // ----------------------------------------------------------------------- Write-back
  // fp16: two results of consecutive beats share a register: the even beat's half waits
  // in pack_lo_q, the odd beat's completes the word in pack_q.
  logic [NL*16-1:0] pack_lo_q;
  logic [NL*32-1:0] pack_q;
  logic             pack_valid_q;
  logic [2:0]       pack_reg_q;

  always_ff @(posedge clk_i) begin : pack_regs
    if (!rst_ni) pack_valid_q <= 1'b0;
    else         pack_valid_q <= f16_i && out_valid && out_beat[0];
    if (f16_i && out_valid) begin
      for (int l = 0; l < NL; l++) begin
        if (!out_beat[0]) pack_lo_q[l*16 +: 16] <= fedp_d[l*32 +: 16];
        else              pack_q[l*32 +: 32] <= {fedp_d[l*32 +: 16], pack_lo_q[l*16 +: 16]};
      end
      pack_reg_q <= {out_step, out_beat[1]};
    end
  end

  // The result register: one accumulator register of every lane, then the register file.
  logic             wb_valid_q;
  logic [2:0]       wb_reg_q;
  logic [NL*32-1:0] wb_data_q;

  always_ff @(posedge clk_i) begin : wb_regs
    if (!rst_ni) wb_valid_q <= 1'b0;
    else         wb_valid_q <= f16_i ? pack_valid_q : out_valid;
    if (f16_i ? pack_valid_q : out_valid) begin
      wb_reg_q  <= f16_i ? pack_reg_q : {out_step, out_beat[0]};
      wb_data_q <= f16_i ? pack_q : fedp_d;
    end
  end

  assign wb_valid_o = wb_valid_q;
  assign wb_reg_o = wb_reg_q;
  assign wb_data_o = wb_data_q;
endmodule
