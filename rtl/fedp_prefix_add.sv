// fedp_prefix_add.sv - a + b + ci as a parallel-prefix (Sklansky) adder, for the FEDP's
// carry-propagate adds.
//
// Written out rather than left to `+` because a plain synthesis flow (synth/README.md:
// ABC with a loose delay target, no later sizing) maps `+` to a ripple of AOI/OAI gates
// once the path is under the target, which made CPA the slowest FEDP stage. Level k joins
// each bit with the top of the 2^k-block below it, so a carry passes log2(W) levels of
// AND-OR instead of W.
module fedp_prefix_add #(
  parameter int W = 8
) (
  input  logic [W-1:0] a_i,
  input  logic [W-1:0] b_i,
  input  logic         ci_i,  // carry into bit 0
  output logic [W-1:0] sum_o  // a_i + b_i + ci_i, modulo 2^W
);
  localparam int LEVELS = $clog2(W);

  if (W < 2) begin : gen_bad_w
    $error("fedp_prefix_add: W = %0d, expected at least 2 bits", W);
  end

  logic [W-1:0] p, g, gg, pp, gn, pn, carry;

  always_comb begin : prefix
    p = a_i ^ b_i;
    g = a_i & b_i;
    // The carry in enters as bit 0's generate: (g, p) of bit 0 absorbs it.
    gg = g;
    gg[0] = g[0] | (p[0] & ci_i);
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
    carry = {gg[W-2:0], ci_i};  // the carry into bit i: bits i-1 .. 0 and ci_i
    sum_o = p ^ carry;
  end
endmodule
