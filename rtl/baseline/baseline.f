// baseline.f - the chained-FMA baseline of synth/ (issue 8), read after rtl/rtl.f (it
// uses fedp_decode, fedp_lzc and fedp_round). Same syntax as rtl.f: relative to this folder.
fma.sv
fma_chain.sv
