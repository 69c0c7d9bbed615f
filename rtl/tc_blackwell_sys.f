// tc_blackwell_sys.f - the Blackwell unit joined to its tensor memory, read after rtl.f
// (the FEDP), tmem.f (the tensor memory) and tc_blackwell.f (the unit).
tc_blackwell_sys.sv
