// fedp_lzc.sv - NORM: leading zeros of a vector, and the vector shifted left by them
// (its leading one at the top).
//
// stop_i ends the count early: the count is that of x_i | stop_i, the shift is x_i's. The
// back end sets one stop bit where a result would turn subnormal, so that one shift both
// normalises and denormalises (fedp_backend.sv); without a stop bit it is a plain count.
//
// The count comes from a tree over aligned blocks: a block of 2^(k+1) bits is zero when
// both halves are, and its count is its upper half's, or 2^k plus its lower half's when
// the upper half is zero. Each level adds one 1-bit multiplexer, so the count's top bit
// (the upper half of the whole vector is zero) is known first and each lower bit one level
// later. The shift takes the count's bits in that order, largest first, so that each level
// of the shifter waits only for the bit it needs (a binary search instead shifts the
// whole vector before it can test the next half: log2(W) wide shifts in series).
//
// Late leaves the shifts by the count's lowest Late bits, the last to be known, to the
// caller (norm_o << cnt_o[Late-1:0] is then x_i << cnt_o), so that a pipeline can cut
// between the count and those levels (fedp_backend.sv). Bits shifted in from below are
// zeros either way: the window's padding is zero.
module fedp_lzc #(
  parameter int W = 8,
  parameter int Late = 0,            // shift levels left to the caller, 0 .. CW - 1
  localparam int CW = $clog2(W + 1)  // counts 0..W
) (
  input  logic [W-1:0]  x_i,
  input  logic [W-1:0]  stop_i,  // the count stops at the first set bit of x_i | stop_i
  output logic [CW-1:0] cnt_o,   // W for an all-zero x_i
  output logic [W-1:0]  norm_o   // x_i << cnt_o with cnt_o's lowest Late bits cleared
);
  localparam int LEVELS = W > 1 ? $clog2(W) : 1;   // the count of a P-bit window
  localparam int P = 1 << LEVELS;

  logic [P-1:0]        window, zero, zero_up, shifted;
  logic [P*LEVELS-1:0] cnt, cnt_up;                // block b's count at [b*LEVELS +: LEVELS]

  if (Late < 0 || Late >= CW) begin : gen_bad_late
    $error("fedp_lzc: Late = %0d, expected 0..%0d", Late, CW - 1);
  end

  always_comb begin : count
    window = P'(x_i) << (P - W);  // left-aligned; the padding below is zero
    // Level 0: blocks of one bit.
    zero = ~(window | (P'(stop_i) << (P - W)));
    cnt = '0;
    zero_up = '0;
    cnt_up = '0;
    // Level k+1: block b is blocks 2b+1 (upper half) and 2b of level k.
    for (int k = 0; k < LEVELS; k++) begin
      zero_up = '0;
      cnt_up = '0;
      for (int b = 0; b < (P >> (k + 1)); b++) begin
        zero_up[b] = zero[2*b+1] && zero[2*b];
        cnt_up[b*LEVELS +: LEVELS] = zero[2*b+1]
            ? cnt[(2*b)*LEVELS +: LEVELS] | LEVELS'(1 << k)
            : cnt[(2*b+1)*LEVELS +: LEVELS];
      end
      zero = zero_up;
      cnt = cnt_up;
    end
    // All zero: the count of an all-zero vector is W (the tree would say P - 1).
    cnt_o = zero[0] ? CW'(W) : CW'(cnt[LEVELS-1:0]);
  end

  always_comb begin : shift
    shifted = window;
    for (int k = LEVELS - 1; k >= Late; k--)
      if (cnt[k]) shifted = shifted << (1 << k);
    norm_o = shifted[P-1 -: W];
  end
endmodule
