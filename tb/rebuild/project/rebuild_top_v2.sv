// Version 2 of rebuild_top, the "edit": a second module, so Verilator writes files (its
// class) that version 1's file list does not name. out = (in + 1) * 2.
/* verilator lint_off DECLFILENAME */  // the new module sits in the edited file
module rebuild_dbl (
  input  logic [7:0] a_i,
  output logic [7:0] y_o
);
  /* verilator no_inline_module */
  assign y_o = a_i + a_i;
endmodule
/* verilator lint_on DECLFILENAME */

module rebuild_top (
  input  logic [7:0] in_i,
  output logic [7:0] out_o
);
  logic [7:0] inc;
  rebuild_inc u_inc (.a_i(in_i), .y_o(inc));
  rebuild_dbl u_dbl (.a_i(inc), .y_o(out_o));
endmodule
