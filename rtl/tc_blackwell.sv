// tc_blackwell.sv - one Blackwell tcgen05.mma (seed 003 sections 1.1-1.3; issue 7):
//
//   D[i][j] = A[i] . B[:,j] (+ D[i][j] when enable_input_d)     i < M, j < N
//
// A comes from tensor memory (the 8-column window at a_col, through tmem.sv's A-read
// port) or from shared memory; B from shared memory; C and D from and to tensor memory
// (C through the A-read port, D through the D-write port with the disable-output-lane
// mask). The arithmetic is fedp.sv in the blackwell tcgen05 profiles (parameters: tc_pkg's
// presets, from the model's table) and bw_int_dot.sv for i8. Layouts are those of
// model/include/tcsim_bw.h: an operand row is 256 bits, element e at [e*W +: W]; row i of
// A and D is lane i (M = 128) or lane i/16*32 + i%16 (M = 64); D[i][j] is the word of
// column d_col + j.
//
// Kinds (kind_i, the tc_bw_kind codes): 0 f16 (fp16/bf16 -> fp32/fp16), 1 tf32 -> fp32,
// 2 f8f6f4 (e4m3 e5m2 e3m2 e2m3 e2m1 -> fp32/fp16, A in in_fmt_i and B in in_fmt_b_i:
// any pair, as mxf8f6f4), 3 i8 (int8/uint8 -> s32, A and B each its own), and the
// block-scaled 4 mxf8f6f4 (the f8f6f4 fedp with its ue8m0 scale inputs; f8f6f4 itself
// gives it 2^0), 5 mxf4 (ue8m0 per 32) and 6 mxf4nvf4 (ue8m0 or ue4m3, scale_fmt_i, per
// 16) on fedp_grouped.sv. Scale factors come from tensor memory (tcsim_bw.h): byte g of
// word (lane of row i, sfa_col) is A's scale for K-block g, byte g of word (lane n % 128,
// sfb_col + n / 128) B's for column n; both windows are read once per instruction.
//
// A documented simplification of the array: the modelled SM has 4 x 8 x 8 FEDPs per
// kind (tcsim_bw.h); this unit has ONE FEDP per kind and computes the 128 x 8 elements
// of a D slice one per cycle, so that the Verilated model stays small. Its cycle count
// is therefore not the array model's; the C model's cost (tc_bw_mma_cost) is the timing
// reference, and this RTL is held to the model bit for bit.
//
// Sequence, per instruction (start_i in IDLE, operands held until done_o):
//   A      tmem A read of a_col (1 request), or M rows from the shared-memory port
//   SF     block-scaled kinds: tmem A reads of sfa_col, then sfb_col
//   per slice of 8 columns j0 = 0, 8, .., N-8:
//     B    8 rows (columns j0..j0+7 of B) from the shared-memory port
//     C    tmem A read of d_col + j0 when enable_input_d (else every c is +0)
//     MAC  1024 operations (slot k, lane l): one issued per cycle, results written back
//          in issue order (a FIFO of indices) after the unit's latency
//     D    tmem D write of d_col + j0, lanes disabled by disable_i or outside the M rows
//
// Shared-memory port: smem_req_o asks for row smem_row_o of A (smem_sel_o = 0) or of B
// (1); the requester answers on smem_data_i during the next cycle.
module tc_blackwell #(
  // fedp parameters of the three float kinds and fedp_grouped parameters of mxf4 /
  // mxf4nvf4: the blackwell_half, blackwell_tf32, blackwell_mxf8f6f4 and blackwell_mxf4
  // presets of tc_pkg, which `tcsim emit-pkg` reads from the model's profile table.
  parameter int HalfL = tc_pkg::FEDP_BLACKWELL_HALF_L,
  parameter int HalfF = tc_pkg::FEDP_BLACKWELL_HALF_F,
  parameter int HalfInFmts = tc_pkg::FEDP_BLACKWELL_HALF_IN_FMTS,
  parameter int HalfOutFmts = tc_pkg::FEDP_BLACKWELL_HALF_OUT_FMTS,
  parameter int HalfEminAlignFp32 = tc_pkg::FEDP_BLACKWELL_HALF_EMIN_ALIGN_FP32,
  parameter int HalfEminAlignFp16 = tc_pkg::FEDP_BLACKWELL_HALF_EMIN_ALIGN_FP16,
  parameter int HalfFp32ManBits = tc_pkg::FEDP_BLACKWELL_HALF_FP32_MAN_BITS,
  parameter int HalfZeroPlusFp16 = tc_pkg::FEDP_BLACKWELL_HALF_ZERO_PLUS_FP16,
  parameter int Tf32L = tc_pkg::FEDP_BLACKWELL_TF32_L,
  parameter int Tf32F = tc_pkg::FEDP_BLACKWELL_TF32_F,
  parameter int Tf32InFmts = tc_pkg::FEDP_BLACKWELL_TF32_IN_FMTS,
  parameter int Tf32OutFmts = tc_pkg::FEDP_BLACKWELL_TF32_OUT_FMTS,
  parameter int Tf32EminAlignFp32 = tc_pkg::FEDP_BLACKWELL_TF32_EMIN_ALIGN_FP32,
  parameter int Tf32EminAlignFp16 = tc_pkg::FEDP_BLACKWELL_TF32_EMIN_ALIGN_FP16,
  parameter int Tf32Fp32ManBits = tc_pkg::FEDP_BLACKWELL_TF32_FP32_MAN_BITS,
  parameter int F8L = tc_pkg::FEDP_BLACKWELL_MXF8F6F4_L,
  parameter int F8F = tc_pkg::FEDP_BLACKWELL_MXF8F6F4_F,
  parameter int F8InFmts = tc_pkg::FEDP_BLACKWELL_MXF8F6F4_IN_FMTS,
  parameter int F8OutFmts = tc_pkg::FEDP_BLACKWELL_MXF8F6F4_OUT_FMTS,
  parameter int F8EminAlignFp32 = tc_pkg::FEDP_BLACKWELL_MXF8F6F4_EMIN_ALIGN_FP32,
  parameter int F8EminAlignFp16 = tc_pkg::FEDP_BLACKWELL_MXF8F6F4_EMIN_ALIGN_FP16,
  parameter int F8Fp32ManBits = tc_pkg::FEDP_BLACKWELL_MXF8F6F4_FP32_MAN_BITS,
  parameter int F8ScaleFmts = tc_pkg::FEDP_BLACKWELL_MXF8F6F4_SCALE_FMTS,
  parameter int F8ZeroPlusFp16 = tc_pkg::FEDP_BLACKWELL_MXF8F6F4_ZERO_PLUS_FP16,
  // 1: the f8f6f4 fedp decodes b by in_fmt_b_i (kind::f8f6f4 / mxf8f6f4 A/B pairs)
  parameter int F8InPairs = tc_pkg::FEDP_BLACKWELL_MXF8F6F4_IN_PAIRS,
  parameter int Mx4L = tc_pkg::FEDP_BLACKWELL_MXF4_L,
  parameter int Mx4F = tc_pkg::FEDP_BLACKWELL_MXF4_F,
  parameter int Mx4InFmts = tc_pkg::FEDP_BLACKWELL_MXF4_IN_FMTS,
  parameter int Mx4OutFmts = tc_pkg::FEDP_BLACKWELL_MXF4_OUT_FMTS,  // checked: fp32 only
  parameter int Mx4EminAlignFp32 = tc_pkg::FEDP_BLACKWELL_MXF4_EMIN_ALIGN_FP32,
  parameter int Mx4EminAlignFp16 = tc_pkg::FEDP_BLACKWELL_MXF4_EMIN_ALIGN_FP16,  // checked: none
  parameter int Mx4Fp32ManBits = tc_pkg::FEDP_BLACKWELL_MXF4_FP32_MAN_BITS,
  parameter int Mx4ScaleFmts = tc_pkg::FEDP_BLACKWELL_MXF4_SCALE_FMTS,
  localparam int FW = tc_pkg::FMT_BITS,
  localparam int KW = tc_pkg::BW_KIND_BITS,
  localparam int COL_W = tmem_pkg::COL_W,
  localparam int LANES = tmem_pkg::LANES,
  localparam int SLICE = tmem_pkg::SLICE,
  localparam int WIDE_W = SLICE * LANES * 32
) (
  input  logic               clk_i,
  input  logic               rst_ni,
  // the instruction
  input  logic               start_i,
  input  logic [KW-1:0]      kind_i,
  input  logic [FW-1:0]      in_fmt_i,        // A's format
  input  logic [FW-1:0]      in_fmt_b_i,      // B's (f8f6f4, mxf8f6f4, i8 pairs); else = A's
  input  logic [FW-1:0]      out_fmt_i,
  input  logic [FW-1:0]      scale_fmt_i,     // block-scaled kinds: ue8m0 or ue4m3
  input  logic               m128_i,          // 1: M = 128, 0: M = 64
  input  logic [4:0]         n8_m1_i,         // N / 8 - 1
  input  logic [COL_W-1:0]   d_col_i,
  input  logic               a_tmem_i,
  input  logic [COL_W-1:0]   a_col_i,
  input  logic [COL_W-1:0]   sfa_col_i,
  input  logic [COL_W-1:0]   sfb_col_i,
  input  logic [LANES-1:0]   disable_i,       // disable-output-lane
  input  logic               enable_input_d_i,
  output logic               busy_o,
  output logic               done_o,          // one cycle, after the last D write
  // shared-memory rows
  output logic               smem_req_o,
  output logic               smem_sel_o,
  output logic [7:0]         smem_row_o,
  input  logic [255:0]       smem_data_i,
  // tensor memory: tmem.sv's A-read and D-write ports
  output logic               tm_a_valid_o,
  output logic [COL_W-1:0]   tm_a_col_o,
  input  logic               tm_a_ready_i,
  input  logic               tm_a_rvalid_i,
  input  logic [WIDE_W-1:0]  tm_a_rdata_i,
  output logic               tm_d_valid_o,
  output logic [COL_W-1:0]   tm_d_col_o,
  output logic [LANES-1:0]   tm_d_disable_o,
  output logic [WIDE_W-1:0]  tm_d_data_o,
  input  logic               tm_d_ready_i
);
  // ------------------------------------------------------------------------ Constants
  localparam int ROW_W = tc_pkg::BW_ROW_BITS;              // one operand row, any kind
  localparam int OPS = SLICE * LANES;                      // elements of one D slice
  // Element slots of each fedp: a 256-bit row holds L containers of 256/L bits; the
  // element's value bits are the top EW of its container (tf32: 19 of 32).
  localparam int HALF_EW = tc_pkg::max_value_bits(HalfInFmts);
  localparam int TF32_EW = tc_pkg::max_value_bits(Tf32InFmts);
  localparam int F8_EW = tc_pkg::max_value_bits(F8InFmts);
  localparam int HALF_C_W = tc_pkg::max_value_bits(HalfOutFmts);
  localparam int TF32_C_W = tc_pkg::max_value_bits(Tf32OutFmts);
  localparam int F8_C_W = tc_pkg::max_value_bits(F8OutFmts);
  // i8 is exact integer arithmetic: any step size gives the same result, so a step
  // takes one whole row.
  localparam int I8_L = ROW_W / tc_pkg::INT8_WIDTH;
  localparam int MX4_EW = tc_pkg::max_value_bits(Mx4InFmts);
  localparam int MX4_G = tc_pkg::MXF4_GROUP;               // docs/contract.md: groups of 16
  localparam int MX4_NG = Mx4L / MX4_G;
  localparam int SF_W = LANES * 32;                       // one slot of a window

  if (HalfL * (ROW_W / HalfL) != ROW_W || HALF_EW > ROW_W / HalfL ||
      Tf32L * (ROW_W / Tf32L) != ROW_W || TF32_EW > ROW_W / Tf32L ||
      F8L * (ROW_W / F8L) != ROW_W || F8_EW > ROW_W / F8L ||
      Mx4L * (ROW_W / Mx4L) != ROW_W || MX4_EW > ROW_W / Mx4L) begin : gen_bad_rows
    $error("tc_blackwell: an fedp's L elements do not fill a 256-bit row");
  end
  if (Mx4OutFmts != (1 << tc_pkg::FMT_FP32) || Mx4EminAlignFp16 != tc_pkg::EMIN_ALIGN_NONE)
  begin : gen_bad_mx4
    $error("tc_blackwell: the mxf4 kinds have fp32 output only (fedp_grouped.sv)");
  end

  // kind_i codes: tc_pkg's, which are the C enum tc_bw_kind's
  localparam logic [KW-1:0] KIND_F16 = KW'(tc_pkg::BW_KIND_F16),
                            KIND_TF32 = KW'(tc_pkg::BW_KIND_TF32),
                            KIND_F8 = KW'(tc_pkg::BW_KIND_F8F6F4),
                            KIND_I8 = KW'(tc_pkg::BW_KIND_I8),
                            KIND_MXF8 = KW'(tc_pkg::BW_KIND_MXF8F6F4),
                            KIND_MXF4 = KW'(tc_pkg::BW_KIND_MXF4),
                            KIND_MXF4NV = KW'(tc_pkg::BW_KIND_MXF4NVF4);

  typedef enum logic [3:0] {
    S_IDLE, S_A_TMEM, S_A_WAIT, S_A_SMEM, S_SFA, S_SFA_WAIT, S_SFB, S_SFB_WAIT, S_B,
    S_C_TMEM, S_C_WAIT, S_MAC, S_DRAIN, S_D, S_DONE
  } state_e;

  // ------------------------------------------------------------------------ State
  state_e state_q, state_d;
  // flat vectors (one row / word per slice [i*W +: W]), as the project's RTL keeps arrays
  logic [WIDE_W-1:0]      arow_q;            // A, slot-major as the A port: word k*128 + lane
  logic [SLICE*ROW_W-1:0] brow_q;            // B columns j0..j0+7
  logic [WIDE_W-1:0]      cbuf_q;            // C in, D out: slot-major, word k*128 + lane
  logic [SF_W-1:0]        sfa_q;             // A's scale word of each lane
  logic [2*SF_W-1:0]      sfb_q;             // B's scale word of each column n (slots 0, 1)
  logic [7:0]       cnt_q;                   // rows requested in S_A_SMEM / S_B
  logic [4:0]       slice_q;                 // j0 / 8
  logic [10:0]      op_q;                    // next operation of S_MAC
  logic             pend_q, pend_sel_q;      // a shared-memory row answers this cycle
  logic [6:0]       pend_row_q;            // A row, or B row within the slice
  // results in flight: FIFO of their cbuf indices (every unit answers in order)
  logic [8*10-1:0]  fifo_q;
  logic [2:0]       fifo_rd_q, fifo_wr_q;
  logic [3:0]       fifo_n_q;

  // ------------------------------------------------------------------------ Lanes
  // Lane of row i (tcsim_bw.h): M = 128 lane i; M = 64 lanes 0-15 of each 32-lane group.
  function automatic logic [6:0] lane_of(input logic m128, input logic [6:0] i);
    lane_of = m128 ? i : {i[5:4], 1'b0, i[3:0]};
  endfunction
  logic [LANES-1:0] row_lanes;               // lanes that hold a row of A / D
  always_comb begin : row_lane_mask
    for (int l = 0; l < LANES; l++) row_lanes[l] = m128_i || (l % 32) < 16;
  end
  wire [7:0] m_rows = m128_i ? 8'd128 : 8'd64;
  // C from tensor memory: an fp16 accumulator is the low 16 bits of its word
  wire [31:0] c_mask = out_fmt_i == FW'(tc_pkg::FMT_FP16) ? 32'h0000_ffff : 32'hffff_ffff;
  wire scaled = kind_i == KIND_MXF8 || kind_i == KIND_MXF4 || kind_i == KIND_MXF4NV;

  // ------------------------------------------------------------------------ Control
  wire mac_last = op_q == 11'(OPS - 1);
  logic res_valid;
  logic [31:0] res_data;

  always_comb begin : next_state
    state_d = state_q;
    unique case (state_q)
      S_IDLE:   if (start_i) state_d = a_tmem_i ? S_A_TMEM : S_A_SMEM;
      S_A_TMEM: if (tm_a_ready_i) state_d = S_A_WAIT;
      S_A_WAIT: if (tm_a_rvalid_i) state_d = scaled ? S_SFA : S_B;
      S_A_SMEM: if (cnt_q == m_rows && !pend_q) state_d = scaled ? S_SFA : S_B;
      S_SFA:    if (tm_a_ready_i) state_d = S_SFA_WAIT;
      S_SFA_WAIT: if (tm_a_rvalid_i) state_d = S_SFB;
      S_SFB:    if (tm_a_ready_i) state_d = S_SFB_WAIT;
      S_SFB_WAIT: if (tm_a_rvalid_i) state_d = S_B;
      S_B:      if (cnt_q == 8'(SLICE) && !pend_q) state_d = enable_input_d_i ? S_C_TMEM : S_MAC;
      S_C_TMEM: if (tm_a_ready_i) state_d = S_C_WAIT;
      S_C_WAIT: if (tm_a_rvalid_i) state_d = S_MAC;
      S_MAC:    if (mac_last) state_d = S_DRAIN;
      S_DRAIN:  if (fifo_n_q == 0) state_d = S_D;
      S_D:      if (tm_d_ready_i) state_d = slice_q == n8_m1_i ? S_DONE : S_B;
      S_DONE:   state_d = S_IDLE;
      default:  state_d = S_IDLE;
    endcase
  end

  assign busy_o = state_q != S_IDLE;
  assign done_o = state_q == S_DONE;

  // shared memory: one row request per cycle until the count is reached
  assign smem_req_o = (state_q == S_A_SMEM && cnt_q < m_rows) ||
                      (state_q == S_B && cnt_q < 8'(SLICE));
  assign smem_sel_o = state_q == S_B;
  assign smem_row_o = state_q == S_B ? {slice_q, 3'(cnt_q)} : cnt_q;

  // tensor memory
  assign tm_a_valid_o = state_q == S_A_TMEM || state_q == S_C_TMEM || state_q == S_SFA ||
                        state_q == S_SFB;
  always_comb begin : a_port_col
    unique case (state_q)
      S_A_TMEM: tm_a_col_o = a_col_i;
      S_SFA:    tm_a_col_o = sfa_col_i;
      S_SFB:    tm_a_col_o = sfb_col_i;
      default:  tm_a_col_o = d_col_i + {1'b0, slice_q, 3'b000};
    endcase
  end
  assign tm_d_valid_o = state_q == S_D;
  assign tm_d_col_o = d_col_i + {1'b0, slice_q, 3'b000};
  assign tm_d_disable_o = disable_i | ~row_lanes;
  assign tm_d_data_o = cbuf_q;

  always_ff @(posedge clk_i) begin : control_regs
    if (!rst_ni) begin
      state_q <= S_IDLE;
      pend_q <= 1'b0;
    end else begin
      state_q <= state_d;
      pend_q <= smem_req_o;
    end
    pend_sel_q <= smem_sel_o;
    pend_row_q <= smem_row_o[6:0];
    unique case (state_q)
      S_IDLE:  begin cnt_q <= '0; slice_q <= '0; end
      S_A_SMEM, S_B: if (smem_req_o) cnt_q <= cnt_q + 8'd1;
      S_D:     if (tm_d_ready_i) begin cnt_q <= '0; slice_q <= slice_q + 5'd1; end
      default: ;
    endcase
    if (state_q == S_A_WAIT && tm_a_rvalid_i) cnt_q <= '0;
    if (state_q == S_A_SMEM && state_d != S_A_SMEM) cnt_q <= '0;
    op_q <= state_q == S_MAC ? op_q + 11'd1 : '0;
  end

  // ------------------------------------------------------------------------ Operands
  always_ff @(posedge clk_i) begin : operand_regs
    // A from tensor memory as the port delivers it; a shared-memory row i goes to the
    // 8 words of its lane (word k of the row is slot k)
    if (state_q == S_A_WAIT && tm_a_rvalid_i) arow_q <= tm_a_rdata_i;
    if (pend_q && !pend_sel_q) begin
      for (int k = 0; k < SLICE; k++)
        arow_q[(k*LANES + 32'(lane_of(m128_i, pend_row_q)))*32 +: 32] <= smem_data_i[k*32 +: 32];
    end
    if (pend_q && pend_sel_q) brow_q[pend_row_q[2:0]*ROW_W +: ROW_W] <= smem_data_i;
    // scale factors: slot 0 of the sfa window (one word per lane), slots 0 and 1 of the
    // sfb window (one word per column n = slot * 128 + lane)
    if (state_q == S_SFA_WAIT && tm_a_rvalid_i) sfa_q <= tm_a_rdata_i[0 +: SF_W];
    if (state_q == S_SFB_WAIT && tm_a_rvalid_i) sfb_q <= tm_a_rdata_i[0 +: 2*SF_W];
  end

  // ------------------------------------------------------------------------ MAC
  // Operation op = k*128 + lane: A of the lane, column j0+k of B, C of (slot k, lane).
  wire [6:0] mac_lane = op_q[6:0];
  wire [2:0] mac_k = op_q[9:7];
  wire mac_valid = state_q == S_MAC;
  logic [ROW_W-1:0] mac_a;
  always_comb begin : gather_a
    for (int k = 0; k < SLICE; k++) mac_a[k*32 +: 32] = arow_q[(k*LANES + 32'(mac_lane))*32 +: 32];
  end
  wire [ROW_W-1:0] mac_b = brow_q[mac_k*ROW_W +: ROW_W];
  // C as read from tensor memory (an fp16 accumulator: the low 16 bits), or +0
  wire [31:0] mac_c = enable_input_d_i ? cbuf_q[op_q[9:0]*32 +: 32] & c_mask : 32'd0;
  // The scale words of row (lane) and column j0 + k; byte g scales K-block g.
  wire [31:0] mac_sa = sfa_q[32'(mac_lane)*32 +: 32];
  wire [31:0] mac_sb = sfb_q[32'({slice_q, mac_k})*32 +: 32];
  // f8f6f4 runs on the same fedp as mxf8f6f4, scaled by 2^0 (ue8m0 127)
  wire [7:0] f8_sa = kind_i == KIND_MXF8 ? mac_sa[7:0] : 8'd127;
  wire [7:0] f8_sb = kind_i == KIND_MXF8 ? mac_sb[7:0] : 8'd127;
  // fedp_grouped takes one scale pair per group of 16: mxf4 scales 32 elements (byte
  // g / 2 for group g), mxf4nvf4 16 (byte g).
  logic [MX4_NG*8-1:0] mx4_sa, mx4_sb;
  always_comb begin : group_scales
    for (int g = 0; g < MX4_NG; g++) begin
      mx4_sa[g*8 +: 8] = kind_i == KIND_MXF4 ? mac_sa[(g/2)*8 +: 8] : mac_sa[g*8 +: 8];
      mx4_sb[g*8 +: 8] = kind_i == KIND_MXF4 ? mac_sb[(g/2)*8 +: 8] : mac_sb[g*8 +: 8];
    end
  end

  // the row's containers into each unit's element slots
  logic [HalfL*HALF_EW-1:0] half_a, half_b;
  logic [Tf32L*TF32_EW-1:0] tf32_a, tf32_b;
  logic [F8L*F8_EW-1:0]     f8_a, f8_b;
  logic [Mx4L*MX4_EW-1:0]   mx4_a, mx4_b;
  always_comb begin : slots
    for (int e = 0; e < HalfL; e++) begin
      half_a[e*HALF_EW +: HALF_EW] = mac_a[e*(ROW_W/HalfL) + (ROW_W/HalfL - HALF_EW) +: HALF_EW];
      half_b[e*HALF_EW +: HALF_EW] = mac_b[e*(ROW_W/HalfL) + (ROW_W/HalfL - HALF_EW) +: HALF_EW];
    end
    for (int e = 0; e < Tf32L; e++) begin
      tf32_a[e*TF32_EW +: TF32_EW] = mac_a[e*(ROW_W/Tf32L) + (ROW_W/Tf32L - TF32_EW) +: TF32_EW];
      tf32_b[e*TF32_EW +: TF32_EW] = mac_b[e*(ROW_W/Tf32L) + (ROW_W/Tf32L - TF32_EW) +: TF32_EW];
    end
    for (int e = 0; e < F8L; e++) begin
      f8_a[e*F8_EW +: F8_EW] = mac_a[e*(ROW_W/F8L) +: F8_EW];
      f8_b[e*F8_EW +: F8_EW] = mac_b[e*(ROW_W/F8L) +: F8_EW];
    end
    for (int e = 0; e < Mx4L; e++) begin
      mx4_a[e*MX4_EW +: MX4_EW] = mac_a[e*(ROW_W/Mx4L) +: MX4_EW];
      mx4_b[e*MX4_EW +: MX4_EW] = mac_b[e*(ROW_W/Mx4L) +: MX4_EW];
    end
  end

  logic half_v, tf32_v, f8_v, i8_v, mx4_v;
  logic [HALF_C_W-1:0] half_d;
  logic [TF32_C_W-1:0] tf32_d;
  logic [F8_C_W-1:0] f8_d;
  logic [31:0] i8_d, mx4_d;

  fedp #(
    .L(HalfL), .F(HalfF), .InFmts(HalfInFmts), .OutFmts(HalfOutFmts),
    .EminAlignFp32(HalfEminAlignFp32), .EminAlignFp16(HalfEminAlignFp16),
    .Fp32ManBits(HalfFp32ManBits), .ZeroPlusFp16(HalfZeroPlusFp16)
  ) i_fedp_half (
    .clk_i, .rst_ni, .valid_i(mac_valid && kind_i == KIND_F16), .in_fmt_i,
    .in_fmt_b_i(in_fmt_i), .out_fmt_i, .a_i(half_a), .b_i(half_b), .c_i(HALF_C_W'(mac_c)),
    .sa_i(8'd0), .sb_i(8'd0), .valid_o(half_v), .d_o(half_d)
  );
  fedp #(
    .L(Tf32L), .F(Tf32F), .InFmts(Tf32InFmts), .OutFmts(Tf32OutFmts),
    .EminAlignFp32(Tf32EminAlignFp32), .EminAlignFp16(Tf32EminAlignFp16),
    .Fp32ManBits(Tf32Fp32ManBits)
  ) i_fedp_tf32 (
    .clk_i, .rst_ni, .valid_i(mac_valid && kind_i == KIND_TF32), .in_fmt_i,
    .in_fmt_b_i(in_fmt_i), .out_fmt_i, .a_i(tf32_a), .b_i(tf32_b), .c_i(TF32_C_W'(mac_c)),
    .sa_i(8'd0), .sb_i(8'd0), .valid_o(tf32_v), .d_o(tf32_d)
  );
  fedp #(
    .L(F8L), .F(F8F), .InFmts(F8InFmts), .OutFmts(F8OutFmts),
    .EminAlignFp32(F8EminAlignFp32), .EminAlignFp16(F8EminAlignFp16),
    .Fp32ManBits(F8Fp32ManBits), .ScaleFmts(F8ScaleFmts), .ZeroPlusFp16(F8ZeroPlusFp16),
    .InPairs(F8InPairs)
  ) i_fedp_f8 (
    .clk_i, .rst_ni, .valid_i(mac_valid && (kind_i == KIND_F8 || kind_i == KIND_MXF8)),
    // A in in_fmt_i, B in in_fmt_b_i: the instruction descriptor's two type fields
    .in_fmt_i, .in_fmt_b_i, .out_fmt_i, .a_i(f8_a), .b_i(f8_b), .c_i(F8_C_W'(mac_c)),
    .sa_i(f8_sa), .sb_i(f8_sb), .valid_o(f8_v), .d_o(f8_d)
  );
  fedp_grouped #(
    .L(Mx4L), .G(MX4_G), .F(Mx4F), .InFmts(Mx4InFmts), .ScaleFmts(Mx4ScaleFmts),
    .EminAlignFp32(Mx4EminAlignFp32), .Fp32ManBits(Mx4Fp32ManBits)
  ) i_fedp_mx4 (
    .clk_i, .rst_ni, .valid_i(mac_valid && (kind_i == KIND_MXF4 || kind_i == KIND_MXF4NV)),
    .in_fmt_i, .scale_fmt_i, .a_i(mx4_a), .b_i(mx4_b), .sa_i(mx4_sa), .sb_i(mx4_sb),
    .c_i(mac_c), .valid_o(mx4_v), .d_o(mx4_d)
  );
  bw_int_dot #(.L(I8_L)) i_int_dot (
    .clk_i, .rst_ni, .valid_i(mac_valid && kind_i == KIND_I8),
    .signed_i(in_fmt_i == FW'(tc_pkg::FMT_INT8)),
    .signed_b_i(in_fmt_b_i == FW'(tc_pkg::FMT_INT8)), .a_i(mac_a), .b_i(mac_b), .c_i(mac_c),
    .valid_o(i8_v), .d_o(i8_d)
  );

  // Result selection: one unit works per instruction; an fp16 result is the low 16 bits.
  always_comb begin : result_select
    res_valid = half_v | tf32_v | f8_v | i8_v | mx4_v;
    unique case (kind_i)
      KIND_F16:            res_data = 32'(half_d);
      KIND_TF32:           res_data = 32'(tf32_d);
      KIND_F8, KIND_MXF8:  res_data = 32'(f8_d);
      KIND_I8:             res_data = i8_d;
      default:             res_data = mx4_d;
    endcase
    res_data = res_data & c_mask;
  end

  // C in, results back, in issue order
  always_ff @(posedge clk_i) begin : cbuf_regs
    if (state_q == S_C_WAIT && tm_a_rvalid_i) cbuf_q <= tm_a_rdata_i;
    if (res_valid) cbuf_q[fifo_q[fifo_rd_q*10 +: 10]*32 +: 32] <= res_data;
  end

  always_ff @(posedge clk_i) begin : fifo_regs
    if (!rst_ni) begin
      fifo_rd_q <= '0;
      fifo_wr_q <= '0;
      fifo_n_q <= '0;
    end else begin
      if (mac_valid) fifo_wr_q <= fifo_wr_q + 3'd1;
      if (res_valid) fifo_rd_q <= fifo_rd_q + 3'd1;
      fifo_n_q <= fifo_n_q + {3'd0, mac_valid} - {3'd0, res_valid};
    end
    if (mac_valid) fifo_q[fifo_wr_q*10 +: 10] <= op_q[9:0];
  end
endmodule
