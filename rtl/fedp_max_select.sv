// fedp_max_select.sv - the largest of N signed values from all pairwise comparisons at
// once (ALIGN: the maximum exponent E, docs/contract.md step 3), the fast counterpart of
// fedp_max_tree.sv for a few values.
//
// A tree needs ceil(log2 N) comparators in series, each waiting for the multiplexer of
// the level before; here every comparator reads the inputs, so one comparison, an AND
// of N-1 bits and one AND-OR selection stand between the inputs and the maximum. It takes
// N(N-1)/2 comparators instead of N-1, which is why fedp.sv uses it for few terms only.
//
// Value i wins when it is at least every value after it and above every value before
// it: exactly one wins (the first of equal maxima), so the AND-OR selection is exact.
module fedp_max_select #(
  parameter int N = 2,  // number of values
  parameter int W = 8   // width of each signed value
) (
  input  logic [N*W-1:0]      vals_i,
  output logic signed [W-1:0] max_o
);
  // ge[a*N + b], a < b: value a >= value b.
  logic [N*N-1:0] ge;
  logic [N-1:0]   win;

  for (genvar a = 0; a < N; a++) begin : gen_a
    for (genvar b = 0; b < N; b++) begin : gen_b
      if (a < b) begin : gen_cmp
        assign ge[a*N + b] = signed'(vals_i[a*W +: W]) >= signed'(vals_i[b*W +: W]);
      end else begin : gen_none
        assign ge[a*N + b] = 1'b0;
      end
    end
  end

  always_comb begin : select
    max_o = '0;
    for (int i = 0; i < N; i++) begin
      win[i] = 1'b1;
      for (int j = 0; j < N; j++)
        if (j < i) win[i] = win[i] && !ge[j*N + i];
        else if (j > i) win[i] = win[i] && ge[i*N + j];
      max_o = max_o | ({W{win[i]}} & vals_i[i*W +: W]);
    end
  end
endmodule
