// fedp_max_tree.sv - the largest of N signed values, as a balanced tree of comparators
// (ALIGN: the maximum exponent E over the terms, docs/contract.md step 3).
//
// Nodes 0..N-1 are the inputs; node N+j is the larger of nodes 2j and 2j+1. Taking
// nodes in that order pairs every level before the next, so the depth is ceil(log2 N)
// comparators, and node 2N-2 is the root.
module fedp_max_tree #(
  parameter int N = 2,  // number of values
  parameter int W = 8   // width of each signed value
) (
  input  logic [N*W-1:0]        vals_i,
  output logic signed [W-1:0]   max_o
);
  logic [(2*N-1)*W-1:0] node /*verilator split_var*/;

  assign node[N*W-1:0] = vals_i;
  for (genvar j = 0; j < N - 1; j++) begin : gen_node
    logic signed [W-1:0] x, y;
    assign x = node[2*j*W +: W];
    assign y = node[(2*j+1)*W +: W];
    assign node[(N+j)*W +: W] = x > y ? x : y;
  end
  assign max_o = node[(2*N-2)*W +: W];
endmodule
