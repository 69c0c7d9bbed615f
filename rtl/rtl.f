// rtl.f - the RTL file list, shared by Verilator, Yosys and CMake.
// One file per line, relative to this folder (Verilator: -F rtl/rtl.f); packages first,
// then one module per file. Lines may carry // comments.
tc_pkg.sv
fedp_unpack.sv
fedp_decode.sv
fedp_max_tree.sv
fedp_max_select.sv
fedp_align_term.sv
fedp_csa_tree.sv
fedp_prefix_add.sv
fedp_mul.sv
fedp_lzc.sv
fedp_pack.sv
fedp_round.sv
fedp_cut.sv
fedp_backend.sv
fedp.sv
fedp_scale_decode.sv
fedp_grouped.sv
