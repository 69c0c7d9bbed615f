// fedp_max_tree.sv - the largest of N signed values, as a tree whose nodes each take the
// largest of up to R values by all pairwise comparisons at once (fedp_max_select.sv)
// (ALIGN: the maximum exponent E over the terms, docs/contract.md step 3).
//
// A binary tree of comparators has ceil(log2 N) levels, each a comparison and then a
// multiplexer that waits for it: hopper_half's 17 keys took 5 of them, most of its ALIGN
// stage. A node of R inputs costs one comparison, an AND and an AND-OR selection, about
// a binary level and a half, so R = 5 takes 17 keys in 2 levels (5 + 4 + 4 + 4, then 4)
// for R(R-1)/2 comparators per node instead of R-1.
//
// Level 0 holds the N inputs; level k+1 holds one node per group of R consecutive nodes
// of level k (the last group may be smaller; a group of one passes through), until one
// node, the maximum, is left. All levels sit in one vector, level after level.
module fedp_max_tree #(
  parameter int N = 2,  // number of values
  parameter int W = 8,  // width of each signed value
  parameter int R = 5   // inputs of a node (fedp_max_select.sv): at least 2
) (
  input  logic [N*W-1:0]        vals_i,
  output logic signed [W-1:0]   max_o
);
  // Nodes of level k.
  function automatic int size_of(input int k);
    size_of = N;
    for (int j = 0; j < k; j++)
      size_of = (size_of + R - 1) / R;
  endfunction
  // The first node of level k in the vector.
  function automatic int base_of(input int k);
    base_of = 0;
    for (int j = 0; j < k; j++)
      base_of += size_of(j);
  endfunction
  // Levels above the inputs: until one node is left (N <= 2^32 needs at most 32).
  function automatic int levels_of();
    levels_of = 0;
    for (int k = 0; k < 32; k++)
      if (size_of(k) > 1)
        levels_of = k + 1;
  endfunction

  localparam int LEVELS = levels_of();
  localparam int NODES = base_of(LEVELS) + 1;

  if (N < 1 || R < 2) begin : gen_bad_n
    $error("fedp_max_tree: N = %0d, R = %0d, expected N >= 1 and R >= 2", N, R);
  end

  logic [NODES*W-1:0] node /*verilator split_var*/;

  assign node[N*W-1:0] = vals_i;
  for (genvar k = 0; k < LEVELS; k++) begin : gen_level
    for (genvar g = 0; g < size_of(k + 1); g++) begin : gen_node
      localparam int FIRST = base_of(k) + g * R;
      localparam int CNT = size_of(k) - g * R < R ? size_of(k) - g * R : R;
      localparam int OUT = base_of(k + 1) + g;
      if (CNT == 1) begin : gen_pass
        assign node[OUT*W +: W] = node[FIRST*W +: W];
      end else begin : gen_select
        fedp_max_select #(.N(CNT), .W(W)) i_select (
          .vals_i(node[FIRST*W +: CNT*W]),
          .max_o (node[OUT*W +: W])
        );
      end
    end
  end
  assign max_o = node[(NODES-1)*W +: W];
endmodule
