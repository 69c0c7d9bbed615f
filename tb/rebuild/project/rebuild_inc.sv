// rebuild_inc: y = a + 1, kept by Verilator as a class of its own (not inlined), as the
// module of both versions of rebuild_top.
module rebuild_inc (
  input  logic [7:0] a_i,
  output logic [7:0] y_o
);
  /* verilator no_inline_module */
  assign y_o = a_i + 8'd1;
endmodule
