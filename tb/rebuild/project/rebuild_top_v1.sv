// Version 1 of rebuild_top: out = in + 1.
module rebuild_top (
  input  logic [7:0] in_i,
  output logic [7:0] out_o
);
  rebuild_inc u_inc (.a_i(in_i), .y_o(out_o));
endmodule
