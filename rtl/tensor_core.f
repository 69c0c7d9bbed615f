// tensor_core.f - the Volta tensor core and its warp top, read after rtl.f (the FEDP).
tensor_core.sv
tc_warp.sv
