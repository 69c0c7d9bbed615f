// fedp_csa_tree.sv - ADD: N two's complement terms reduced to a sum and a carry vector by
// a tree of 3:2 carry-save compressors (docs/contract.md step 5: the sum is exact; no carry
// propagates until the NORM stage adds the two outputs).
//
// Nodes 0..N-1 are the terms; compressor j takes nodes 3j, 3j+1, 3j+2 and produces nodes
// N+2j (sum) and N+2j+1 (carry). Taken in that order every compressor only reads nodes
// made earlier (3j+2 < N+2j for j < N-2), each level is reduced before the next (a Wallace
// tree, depth about log1.5(N/2)), and after N-2 compressors the last two nodes remain.
// Arithmetic is modulo 2^W: the caller makes W wide enough for the exact sum.
module fedp_csa_tree #(
  parameter int N = 3,  // number of terms
  parameter int W = 8   // width of every term and of the outputs
) (
  input  logic [N*W-1:0] terms_i,
  output logic [W-1:0]   sum_o,
  output logic [W-1:0]   carry_o
);
  if (N == 1) begin : gen_one
    assign sum_o = terms_i;
    assign carry_o = '0;
  end else if (N == 2) begin : gen_two
    assign {carry_o, sum_o} = terms_i;
  end else begin : gen_tree
    logic [(3*N-4)*W-1:0] node /*verilator split_var*/;

    assign node[N*W-1:0] = terms_i;
    for (genvar j = 0; j < N - 2; j++) begin : gen_csa
      logic [W-1:0] x, y, z;
      assign x = node[(3*j)*W +: W];
      assign y = node[(3*j+1)*W +: W];
      assign z = node[(3*j+2)*W +: W];
      assign node[(N+2*j)*W +: W] = x ^ y ^ z;
      assign node[(N+2*j+1)*W +: W] = ((x & y) | (x & z) | (y & z)) << 1;
    end
    assign sum_o = node[(3*N-6)*W +: W];
    assign carry_o = node[(3*N-5)*W +: W];
  end
endmodule
