// fedp_prefix_add.sv - a compound parallel-prefix (Sklansky) adder: a + b and a + b + 1
// from one carry tree, for the FEDP's carry-propagate add (fedp_backend.sv's CPA).
//
// Written out rather than left to `+` because a plain synthesis flow (synth/README.md:
// ABC with a loose delay target, no later sizing) maps `+` to a ripple of AOI/OAI gates
// once the path is under the target, which made CPA the slowest FEDP stage. Level k joins
// each bit with the top of the 2^k-block below it, so a carry passes log2(W) levels of
// AND-OR instead of W. The tree computes each bit's group generate G and group propagate
// P down to bit 0; the carry into bit i is G[i-1] without a carry in and G[i-1] | P[i-1]
// with one, so both sums cost one more OR and XOR per bit, not a second tree.
module fedp_prefix_add #(
  parameter int W = 8
) (
  input  logic [W-1:0] a_i,
  input  logic [W-1:0] b_i,
  output logic [W-1:0] sum_o,   // a_i + b_i, modulo 2^W
  output logic [W-1:0] sum1_o   // a_i + b_i + 1, modulo 2^W
);
  localparam int LEVELS = $clog2(W);

  if (W < 2) begin : gen_bad_w
    $error("fedp_prefix_add: W = %0d, expected at least 2 bits", W);
  end

  logic [W-1:0] p, gg, pp, gn, pn;

  always_comb begin : prefix
    p = a_i ^ b_i;
    gg = a_i & b_i;
    pp = p;
    // gg[i], pp[i]: generate and propagate of bits i down to the bottom of i's block.
    for (int k = 0; k < LEVELS; k++) begin
      gn = gg;
      pn = pp;
      for (int i = 0; i < W; i++)
        if ((i >> k) % 2 == 1) begin
          // The top of the lower half of i's 2^(k+1)-block.
          gn[i] = gg[i] | (pp[i] & gg[((i >> k) << k) - 1]);
          pn[i] = pp[i] & pp[((i >> k) << k) - 1];
        end
      gg = gn;
      pp = pn;
    end
    sum_o = p ^ {gg[W-2:0], 1'b0};
    sum1_o = p ^ {gg[W-2:0] | pp[W-2:0], 1'b1};
  end
endmodule
