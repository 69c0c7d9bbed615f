// gl_fedp_tb.v - gate-level check of a mapped fedp netlist (Icarus Verilog, with the
// liberty cells' Verilog models): every operation of a gl_vectors file is issued on its
// own cycle, its result is expected LATENCY cycles later, bit for bit.
//
// Plain Verilog-2005 (the netlist and the cell models are), parameters from the command
// line: iverilog -Pgl_fedp_tb.L=4 -Pgl_fedp_tb.ELEM_W=16 -Pgl_fedp_tb.C_W=32 ...
// FMT_W is the width of the netlist's format selects, tc_pkg::FMT_BITS (gate_level.sh
// reads it from rtl/tc_pkg.sv: it grows as formats are appended).
// Plusargs: +vectors=FILE. Prints PASSED or FAILED (with the first mismatches) and
// finishes with $finish; the wrapper script turns the text into the exit status.
`timescale 1ns / 1ps
module gl_fedp_tb;
  parameter L = 4;
  parameter ELEM_W = 16;
  parameter C_W = 32;
  parameter FMT_W = 5;
  parameter LATENCY = 4;
  parameter MAX_VECTORS = 100000;
  parameter SHOW = 10;  // mismatches printed in full

  reg                 clk = 1'b0;
  reg                 rst_n = 1'b0;
  reg                 valid = 1'b0;
  reg  [FMT_W-1:0]    in_fmt = 0, out_fmt = 0;
  reg  [L*ELEM_W-1:0] a = 0, b = 0;
  reg  [C_W-1:0]      c = 0;
  wire                valid_o;
  wire [C_W-1:0]      d_o;

  fedp dut (
    .clk_i(clk), .rst_ni(rst_n), .valid_i(valid), .in_fmt_i(in_fmt), .in_fmt_b_i(in_fmt),
    .out_fmt_i(out_fmt), .a_i(a), .b_i(b), .c_i(c), .valid_o(valid_o), .d_o(d_o)
  );

  reg [FMT_W-1:0]    v_in [0:MAX_VECTORS-1];
  reg [FMT_W-1:0]    v_out [0:MAX_VECTORS-1];
  reg [L*ELEM_W-1:0] v_a [0:MAX_VECTORS-1];
  reg [L*ELEM_W-1:0] v_b [0:MAX_VECTORS-1];
  reg [C_W-1:0]      v_c [0:MAX_VECTORS-1];
  reg [C_W-1:0]      v_d [0:MAX_VECTORS-1];

  integer fd, n, got, cyc, issued, checked, errors, r;
  reg [1023:0] path;
  reg [8*200-1:0] line;

  always #5 clk = ~clk;

  initial begin
    if (!$value$plusargs("vectors=%s", path)) begin
      $display("FAILED: no +vectors=FILE");
      $finish;
    end
    fd = $fopen(path, "r");
    if (fd == 0) begin
      $display("FAILED: cannot open %0s", path);
      $finish;
    end
    r = $fgets(line, fd);  // the "# L .. ELEM_W .. C_W .." header
    n = 0;
    got = 6;
    while (n < MAX_VECTORS && got == 6) begin
      got = $fscanf(fd, "%h %h %h %h %h %h\n", v_in[n], v_out[n], v_a[n], v_b[n], v_c[n],
                    v_d[n]);
      if (got == 6) n = n + 1;
    end
    $fclose(fd);
    if (n == 0) begin
      $display("FAILED: no vectors in %0s", path);
      $finish;
    end

    issued = 0;
    checked = 0;
    errors = 0;
    // Two cycles of reset; inputs change on the falling edge, away from the sampling one.
    @(negedge clk);
    @(negedge clk);
    rst_n = 1'b1;
    for (cyc = 0; cyc < n + LATENCY + 2; cyc = cyc + 1) begin
      if (issued < n) begin
        valid = 1'b1;
        in_fmt = v_in[issued];
        out_fmt = v_out[issued];
        a = v_a[issued];
        b = v_b[issued];
        c = v_c[issued];
        issued = issued + 1;
      end else begin
        valid = 1'b0;
      end
      @(negedge clk);
      // After LATENCY rising edges the operation issued LATENCY cycles ago is on d_o.
      if (cyc + 1 >= LATENCY && checked < n) begin
        if (valid_o !== 1'b1 || d_o !== v_d[checked]) begin
          errors = errors + 1;
          if (errors <= SHOW)
            $display("mismatch #%0d: fmt %h/%h a %h b %h c %h: expected %h, netlist %h (valid %b)",
                     checked, v_in[checked], v_out[checked], v_a[checked], v_b[checked],
                     v_c[checked], v_d[checked], d_o, valid_o);
        end
        checked = checked + 1;
      end
    end
    if (valid_o !== 1'b0) begin
      errors = errors + 1;
      $display("valid_o still high after the last operation");
    end
    if (errors == 0 && checked == n)
      $display("PASSED: %0d operations, netlist equals the model", checked);
    else
      $display("FAILED: %0d of %0d operations differ", errors, checked);
    $finish;
  end
endmodule
