// tmem_bank.sv - storage of one tensor-memory bank: Depth rows of Lanes words.
//
// Kept as its own module so that synthesis can black-box it and put an SRAM or
// register-file macro in its place; everything around it is tmem.sv.
//
// Behaviour required of the macro (what tmem.sv relies on):
//   - one row address per cycle, shared by the read and the write;
//   - rdata_o is the row at addr_i before this cycle's write (combinational read,
//     as a latch- or flop-based register file gives it): a shift reads a row and
//     writes it back moved by one lane within the same cycle;
//   - the write happens at the rising clock edge, per lane (one enable per 32-bit
//     word: the MMA disable-output-lane mask and the shift's fixed lane 0).
//   - no reset: the contents are undefined until written.
module tmem_bank #(
  // Defaults: the 8-bank organization, one slice of columns per bank row set.
  parameter int unsigned Depth = tmem_pkg::COLS / tmem_pkg::SLICE,  // rows: columns / banks per group
  parameter int unsigned Lanes = tmem_pkg::GROUP_LANES,  // words per row: the lanes of one group
  parameter int unsigned WordW = tmem_pkg::WORD_W
) (
  input  logic                     clk_i,
  input  logic [$clog2(Depth)-1:0] addr_i,
  input  logic                     we_i,
  input  logic [Lanes-1:0]         wmask_i,  // 1 = write this lane's word
  input  logic [Lanes*WordW-1:0]   wdata_i,  // lane i at [i*WordW +: WordW]
  output logic [Lanes*WordW-1:0]   rdata_o
);

  // Public so that the testbench can compare the storage with the C model word by
  // word (Verilator's scope API); no other tool reads the comment.
  logic [Lanes*WordW-1:0] mem_q [Depth] /*verilator public_flat_rd*/;

  // Written as one row-wide masked update, with the lane mask expanded inside the clocked
  // block: a per-lane loop of part-select writes costs Verilator one delayed assignment
  // per lane, and a mask expanded in combinational logic is recomputed on every
  // evaluation. Synthesis sees the same per-lane write enables.
  always_ff @(posedge clk_i) begin : write_port
    logic [Lanes*WordW-1:0] wbits;
    if (we_i) begin
      for (int i = 0; i < Lanes; i++) wbits[i*WordW +: WordW] = {WordW{wmask_i[i]}};
      mem_q[addr_i] <= (mem_q[addr_i] & ~wbits) | (wdata_i & wbits);
    end
  end

  assign rdata_o = mem_q[addr_i];

endmodule
