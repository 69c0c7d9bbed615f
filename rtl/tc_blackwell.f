// tc_blackwell.f - the Blackwell tcgen05.mma unit, read after rtl.f (the FEDP) and
// tmem.f (the tensor memory, whose package it uses).
bw_int_dot.sv
tc_blackwell.sv
