// fedp_lzc.sv - NORM: leading zeros of a vector, and the vector shifted left by them
// (its leading one at the top). Both come from one binary search: at each level, if the
// upper half of the remaining window is zero, the count gains that half and the window
// moves down by it: log2(W) levels of one shift each, not a W-way priority chain.
module fedp_lzc #(
  parameter int W = 8,
  localparam int CW = $clog2(W + 1)  // counts 0..W
) (
  input  logic [W-1:0]  x_i,
  output logic [CW-1:0] cnt_o,   // W for an all-zero x_i
  output logic [W-1:0]  norm_o   // x_i << cnt_o
);
  localparam int LEVELS = $clog2(W);   // the search halves P = 2^LEVELS bits
  localparam int P = 1 << LEVELS;

  logic [P-1:0] window;

  always_comb begin : search
    window = P'(x_i) << (P - W);  // left-aligned; the padding below is zero
    cnt_o = '0;
    for (int k = LEVELS - 1; k >= 0; k--)
      if ((window >> (P - (1 << k))) == '0) begin
        cnt_o = cnt_o + CW'(1 << k);
        window = window << (1 << k);
      end
    // All zero: the search stops at P-1; the count of an all-zero vector is W.
    if (!window[P-1]) cnt_o = CW'(W);
    norm_o = window[P-1 -: W];
  end
endmodule
