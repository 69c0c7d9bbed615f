// tmem.f - the tensor memory: its package, the bank storage (black-boxed as an SRAM
// macro by synthesis), the memory.
tmem_pkg.sv
tmem_bank.sv
tmem.sv
