// fedp_cut.sv - one boundary between two pipeline stages of the FEDP: its registers, or
// none. fedp.sv and fedp_backend.sv place a cut after every stage and choose which of
// them hold registers from the pipeline depth, so one datapath serves every depth.
//
// Registered (Reg = 1): valid_o is valid_i one edge later (rst_ni, synchronous and active
// low, clears it); data_o is data_i one edge later, loaded on every edge. The data
// registers have no enable because valid_o already says whether they hold a live
// operation: an enable would be one net driving all W flops of the cut (hundreds of
// loads, unbuffered in a plain synthesis flow), for a hold nobody reads.
// Not registered (Reg = 0): a wire, the two stages merge into one.
module fedp_cut #(
  parameter int W = 1,          // data bits crossing the boundary
  parameter bit Reg = 1'b1      // registers here, or a wire
) (
  input  logic         clk_i,
  input  logic         rst_ni,
  input  logic         valid_i,
  input  logic [W-1:0] data_i,
  output logic         valid_o,
  output logic [W-1:0] data_o
);
  if (Reg) begin : gen_reg
    logic         valid_q;
    logic [W-1:0] data_q;
    always_ff @(posedge clk_i) begin : cut_regs
      if (!rst_ni) valid_q <= 1'b0;
      else         valid_q <= valid_i;
      data_q <= data_i;
    end
    assign valid_o = valid_q;
    assign data_o = data_q;
  end else begin : gen_wire
    wire unused_clk = ^{clk_i, rst_ni};
    assign valid_o = valid_i;
    assign data_o = data_i;
  end
endmodule
