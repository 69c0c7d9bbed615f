#!/bin/sh
# tmem_demo_rtl_test.sh TCSIM: `tcsim tmem-demo --engine rtl` runs the demo on the
# Verilated rtl/tmem.sv (it had never been linked into tcsim: the option always said
# "built without the tensor-memory RTL"), finds the RTL's data equal to the model's,
# and counts, request by request, the cycles the model's engine counts.
tcsim=$1
rtl=$("$tcsim" tmem-demo --engine rtl) || { echo "FAIL: tmem-demo --engine rtl exited $?"; exit 1; }
model=$("$tcsim" tmem-demo) || { echo "FAIL: tmem-demo exited $?"; exit 1; }
echo "$rtl" | head -1 | grep -q "cycles counted on the Verilated RTL" ||
    { echo "FAIL: not the RTL engine: $(echo "$rtl" | head -1)"; exit 1; }
echo "$rtl" | grep -q "the RTL's read data and contents equal the model's" ||
    { echo "FAIL: no data verdict:"; echo "$rtl"; exit 1; }
cycles() { echo "$1" | grep -E '^[a-z-]+( [.x0-9a-z]+)? +[48] banks x'; }
[ "$(cycles "$rtl" | wc -l)" -eq 16 ] || { echo "FAIL: not 16 cycle lines:"; echo "$rtl"; exit 1; }
[ "$(cycles "$rtl")" = "$(cycles "$model")" ] ||
    { echo "FAIL: the RTL's cycles differ from the model's:"; cycles "$rtl"; cycles "$model"; exit 1; }
echo PASSED
