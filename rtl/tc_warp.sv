// tc_warp.sv - a Volta sub-core's tensor-core side for one warp: the warp's fragment
// registers, the HMMA.884 sequencer and two tensor cores (seed 001 section IV: "each warp
// utilizes two tensor cores"). It executes one wmma.mma m16n16k16 (four sets) or one
// mma.m8n8k4 (one set) as its HMMA sequence; the model is tcsim_tc.h (fragments.c for
// the data, timing.c for the cycles, which it matches cycle for cycle).
//
// Registers of lane l (32 bits each, the fragment's elements in order, two fp16 per
// register, element 2r in the low half of register r):
//   A: 8 registers (16 fp16), B: 8 registers (16 fp16), C/D: 8 registers (8 fp32, or
//   8 fp16 in registers 0..3). HMMA (set s, step p) reads A and B pair s (registers 2s,
//   2s+1) and accumulator pair p, and writes accumulator pair p.
// Tensor core 0 serves octets 0 and 1 (threadgroups 0, 1, 4, 5), tensor core 1 octets 2
// and 3 (threadgroups 2, 3, 6, 7).
//
// Sequencer (tcsim_tc.h, tc_volta_timing): in order, at most one HMMA per cycle, when
//   - the FEDPs are free: the HMMA before dispatched at least `beats` cycles ago;
//   - the accumulator pair it reads has no write pending (a scoreboard bit per pair, set
//     at dispatch, cleared by the write of the pair's odd register, which comes last).
// Dispatch cycle: the register file is read into the operand collector (coll_*_q); the
// tensor cores take two more cycles to their buffers, then the beats begin.
module tc_warp #(
  // The FEDPs of the volta fp16 profile: tc_pkg's volta_fp16 preset.
  parameter int FedpL = tc_pkg::FEDP_VOLTA_FP16_L,
  parameter int FedpF = tc_pkg::FEDP_VOLTA_FP16_F,
  parameter int FedpInFmts = tc_pkg::FEDP_VOLTA_FP16_IN_FMTS,
  parameter int FedpOutFmts = tc_pkg::FEDP_VOLTA_FP16_OUT_FMTS,
  parameter int EminAlignFp32 = tc_pkg::FEDP_VOLTA_FP16_EMIN_ALIGN_FP32,
  parameter int EminAlignFp16 = tc_pkg::FEDP_VOLTA_FP16_EMIN_ALIGN_FP16,
  parameter int Fp32ManBits = tc_pkg::FEDP_VOLTA_FP16_FP32_MAN_BITS,
  localparam int LANES = 32,
  localparam int REGS = 8,      // registers per operand and lane
  localparam int RW = 32,
  localparam int PW = 2 * RW
) (
  input  logic                clk_i,
  input  logic                rst_ni,      // synchronous: low for one rising edge is enough
  // Register-file port of the testbench (the warp's loads and stores), used while idle:
  // register wr_reg_i of operand wr_op_i (0 A, 1 B, 2 C/D; 3 writes nothing) of every
  // lane, lane l at [l*32 +: 32]; the read port is combinational (rd_op_i 3 reads C/D).
  input  logic                wr_en_i,
  input  logic [1:0]          wr_op_i,
  input  logic [2:0]          wr_reg_i,
  input  logic [LANES*RW-1:0] wr_data_i,
  input  logic [1:0]          rd_op_i,
  input  logic [2:0]          rd_reg_i,
  output logic [LANES*RW-1:0] rd_data_o,
  // The instruction: start_i for one cycle while idle, with its mode, layouts and shape.
  input  logic                start_i,
  input  logic                f16_i,       // FP16 mode, else mixed precision (fp32 C, D)
  input  logic                a_col_i,
  input  logic                b_col_i,
  input  logic                m8n8k4_i,    // one set (mma.m8n8k4), else four (wmma 16x16x16)
  output logic                busy_o,
  output logic                done_o,      // one cycle: the first in which D is readable
  output logic                dispatch_o,  // an HMMA dispatched this cycle ...
  output logic [1:0]          set_o,       // ... its set
  output logic [1:0]          step_o,      // ... and step
  // For traces and the timing tests: beat 0 of an HMMA enters the FEDPs this cycle, and
  // the scoreboard (accumulator pairs with a write pending).
  output logic                beat_first_o,
  output logic [3:0]          pending_o
);
  // ----------------------------------------------------------------- Register file
  logic [LANES*REGS*RW-1:0] rf_a_q, rf_b_q, rf_c_q;

  // ------------------------------------------------------------------------ Sequencer
  logic       busy_q, f16_q, a_col_q, b_col_q, m8n8k4_q;
  logic       issued_q;              // every HMMA dispatched
  logic [1:0] set_q, step_q;         // the next HMMA
  logic [1:0] wait_q;                // cycles until the FEDPs take another HMMA
  logic [3:0] pending_q /*verilator public_flat_rd*/;  // accumulator pairs with a write pending
  logic       dispatch, last_step, last_set, done;
  logic [1:0] beats_m1;

  assign beats_m1 = f16_q ? 2'd3 : 2'd1;
  assign last_step = step_q == (f16_q ? 2'd1 : 2'd3);
  assign last_set = m8n8k4_q || set_q == 2'd3;
  assign dispatch = busy_q && !issued_q && wait_q == 2'd0 && !pending_q[step_q];
  assign done = busy_q && issued_q && pending_q == '0;

  // Write-backs of the two tensor cores (they run in lock-step: one register index).
  logic [1:0]         tc_wb_valid;
  logic [2*3-1:0]     tc_wb_reg;
  logic [2*16*RW-1:0] tc_wb_data;
  logic               wb_clear;
  logic [1:0]         tc_beat_first;

  assign wb_clear = tc_wb_valid[0] && tc_wb_reg[0];
  assign beat_first_o = &tc_beat_first;  // the two run in lock-step

  always_ff @(posedge clk_i) begin : sequencer
    if (!rst_ni) begin
      busy_q <= 1'b0;
      pending_q <= '0;
      wait_q <= '0;
    end else begin
      if (start_i && !busy_q) begin
        busy_q   <= 1'b1;
        f16_q    <= f16_i;
        a_col_q  <= a_col_i;
        b_col_q  <= b_col_i;
        m8n8k4_q <= m8n8k4_i;
        issued_q <= 1'b0;
        set_q    <= '0;
        step_q   <= '0;
        wait_q   <= '0;
      end else if (done) begin
        busy_q <= 1'b0;
      end
      if (dispatch) begin
        wait_q <= beats_m1;
        step_q <= last_step ? 2'd0 : step_q + 2'd1;
        if (last_step) set_q <= set_q + 2'd1;
        if (last_step && last_set) issued_q <= 1'b1;
      end else if (wait_q != 2'd0) begin
        wait_q <= wait_q - 2'd1;
      end
      // a pair cannot be cleared and set in one cycle: dispatch waits for the clear
      for (int p = 0; p < 4; p++)
        pending_q[p] <= (pending_q[p] && !(wb_clear && tc_wb_reg[2:1] == 2'(p))) ||
                        (dispatch && step_q == 2'(p));
    end
  end

  assign busy_o = busy_q;
  assign done_o = done;
  assign dispatch_o = dispatch;
  assign set_o = set_q;
  assign step_o = step_q;
  assign pending_o = pending_q;

  // ------------------------------------------------------------- Operand collector
  // The dispatch cycle reads A and B pair `set` and accumulator pair `step` of every lane
  // (per-lane registers in gen_lane below).
  logic                coll_valid_q;
  logic [1:0]          coll_step_q;
  logic [LANES*PW-1:0] coll_a_q, coll_b_q, coll_c_q;

  always_ff @(posedge clk_i) begin : collector
    if (!rst_ni) coll_valid_q <= 1'b0;
    else         coll_valid_q <= dispatch;
    if (dispatch) coll_step_q <= step_q;
  end

  // Register pair p (registers 2p, 2p+1) and register r of one lane's operand: muxes with
  // constant slices.
  function automatic logic [PW-1:0] pair_of(input logic [REGS*RW-1:0] regs,
                                           input logic [1:0] p);
    case (p)
      2'd0:    pair_of = regs[0*PW +: PW];
      2'd1:    pair_of = regs[1*PW +: PW];
      2'd2:    pair_of = regs[2*PW +: PW];
      default: pair_of = regs[3*PW +: PW];
    endcase
  endfunction
  function automatic logic [RW-1:0] reg_of(input logic [REGS*RW-1:0] regs,
                                          input logic [2:0] r);
    reg_of = '0;
    for (int i = 0; i < REGS; i++)
      if (r == 3'(i)) reg_of = regs[i*RW +: RW];
  endfunction

  // ---------------------------------------------------------------- Tensor cores
  // Local lane 4q + t of tensor core k is lane 4g + t, threadgroup g = 2k + q%2 + 4(q/2).
  function automatic int lane_of(input int k, input int local_lane);
    int q, t;
    q = local_lane / 4;
    t = local_lane % 4;
    lane_of = 4 * (2 * k + q % 2 + 4 * (q / 2)) + t;
  endfunction

  for (genvar k = 0; k < 2; k++) begin : gen_tc
    logic [16*PW-1:0] opnd_a, opnd_b, opnd_c;
    always_comb begin : route
      for (int ll = 0; ll < 16; ll++) begin
        opnd_a[ll*PW +: PW] = coll_a_q[lane_of(k, ll)*PW +: PW];
        opnd_b[ll*PW +: PW] = coll_b_q[lane_of(k, ll)*PW +: PW];
        opnd_c[ll*PW +: PW] = coll_c_q[lane_of(k, ll)*PW +: PW];
      end
    end
    tensor_core #(
      .FedpL        (FedpL),
      .FedpF        (FedpF),
      .FedpInFmts   (FedpInFmts),
      .FedpOutFmts  (FedpOutFmts),
      .EminAlignFp32(EminAlignFp32),
      .EminAlignFp16(EminAlignFp16),
      .Fp32ManBits  (Fp32ManBits)
    ) i_tc (
      .clk_i       (clk_i),
      .rst_ni      (rst_ni),
      .f16_i       (f16_q),
      .a_col_i     (a_col_q),
      .b_col_i     (b_col_q),
      .opnd_valid_i(coll_valid_q),
      .opnd_step_i (coll_step_q),
      .opnd_a_i    (opnd_a),
      .opnd_b_i    (opnd_b),
      .opnd_c_i    (opnd_c),
      .wb_valid_o  (tc_wb_valid[k]),
      .wb_reg_o    (tc_wb_reg[k*3 +: 3]),
      .wb_data_o   (tc_wb_data[k*16*RW +: 16*RW]),
      .beat_first_o(tc_beat_first[k])
    );
  end

  // ------------------------------------------------------------------- Lanes
  // Lane l's registers, collector entry and read port; its write-back comes from tensor
  // core (l/4 % 4)/2, where it is local lane 4q + l%4, q = g%2 + 2(g/4) (lane_of inverted).
  for (genvar l = 0; l < LANES; l++) begin : gen_lane
    localparam int G = l / 4;
    localparam int K = (G % 4) / 2;
    localparam int LL = 4 * (G % 2 + 2 * (G / 4)) + l % 4;
    logic [REGS*RW-1:0] a_regs, b_regs, c_regs;
    assign a_regs = rf_a_q[l*REGS*RW +: REGS*RW];
    assign b_regs = rf_b_q[l*REGS*RW +: REGS*RW];
    assign c_regs = rf_c_q[l*REGS*RW +: REGS*RW];

    for (genvar r = 0; r < REGS; r++) begin : gen_reg
      always_ff @(posedge clk_i) begin : rf_write
        if (wr_en_i && !busy_q && wr_reg_i == 3'(r)) begin
          if (wr_op_i == 2'd0) rf_a_q[(l*REGS + r)*RW +: RW] <= wr_data_i[l*RW +: RW];
          if (wr_op_i == 2'd1) rf_b_q[(l*REGS + r)*RW +: RW] <= wr_data_i[l*RW +: RW];
        end
        if (wr_en_i && !busy_q && wr_reg_i == 3'(r) && wr_op_i == 2'd2)
          rf_c_q[(l*REGS + r)*RW +: RW] <= wr_data_i[l*RW +: RW];
        else if (tc_wb_valid[K] && tc_wb_reg[K*3 +: 3] == 3'(r))
          rf_c_q[(l*REGS + r)*RW +: RW] <= tc_wb_data[(K*16 + LL)*RW +: RW];
      end
    end

    always_ff @(posedge clk_i) begin : collect
      if (dispatch) begin
        coll_a_q[l*PW +: PW] <= pair_of(a_regs, set_q);
        coll_b_q[l*PW +: PW] <= pair_of(b_regs, set_q);
        coll_c_q[l*PW +: PW] <= pair_of(c_regs, step_q);
      end
    end

    always_comb begin : rf_read
      case (rd_op_i)
        2'd0:    rd_data_o[l*RW +: RW] = reg_of(a_regs, rd_reg_i);
        2'd1:    rd_data_o[l*RW +: RW] = reg_of(b_regs, rd_reg_i);
        default: rd_data_o[l*RW +: RW] = reg_of(c_regs, rd_reg_i);
      endcase
    end
  end
endmodule
