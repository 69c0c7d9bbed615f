#!/usr/bin/env bash
# engine_fault_test.sh TCSIM_ENGINE_FAULT WORKDIR - --engine rtl runs the Verilated engines,
# not the model: the RTL tests find its results equal to the model's, which a command that
# quietly ran the model would also give. tcsim_engine_fault is tcsim whose engines flip
# bit 0 of their results under TCSIM_ENGINE_FAULT (engine_fault_shim.c): with it, every
# --engine rtl result shows the flip and every --engine model result does not.
set -u
tcsim=$1; work=$2
source "$(dirname "$0")/cli_harness.sh"
mkdir -p "$work"; cd "$work" || exit 1
run() { local want=$1 input=$2; shift 2; run_with "$want" "$input" "$tcsim" "$@"; }
faulty() {
    local want=$1 input=$2; shift 2
    run_with "$want" "$input" env TCSIM_ENGINE_FAULT=1 "$tcsim" "$@"
}
expect_out() { [ "$(cat out.txt)" = "$(printf '%b' "$1")" ] || fail "stdout '$(cat out.txt)' != '$1'"; }

# dot: 1*1 + 0 = 1.0 (3f800000) in one ampere FEDP step; the step's d flipped: 3f800001
one="3c00 3c00 00000000\n"
run 0 "$one" dot --arch ampere --in fp16 --out fp32 --engine rtl
expect_out "3f800000"
faulty 0 "$one" dot --arch ampere --in fp16 --out fp32 --engine rtl
expect_out "3f800001"
faulty 0 "$one" dot --arch ampere --in fp16 --out fp32
expect_out "3f800000"

# vectors: the A100 sets, every result through a flipped step: all differ under rtl
faulty 1 "" vectors --engine rtl --show 0
grep -q "^fp16_fp32  *ampere_mma_fp16_fp32  *8  *5000  *0  *5000$" out.txt ||
    fail "vectors --engine rtl: $(cat out.txt)"
faulty 0 "" vectors

# hmma-trace: Figure 9a's first HMMA at 10 cycles, 11 from the flipped engine
faulty 0 "" hmma-trace --arch volta --acc f32 --engine rtl
[ "$(head -1 out.txt)" = "1 0 11" ] || fail "hmma-trace --engine rtl: $(head -1 out.txt)"
faulty 0 "" hmma-trace --arch volta --acc f32
[ "$(head -1 out.txt)" = "1 0 10" ] || fail "hmma-trace: $(head -1 out.txt)"

# mma: zeros, so D = C = 0 but for the element the flip lands on
zeros() { for ((r = 0; r < $1; r++)); do printf '0 %.0s' $(seq "$2"); echo; done; }
zeros 16 16 >z.txt
faulty 0 "" mma --arch volta --acc f32 --a z.txt --b z.txt --c z.txt
[ "$(tr -d ' \n0' <out.txt)" = "" ] || fail "mma --engine model: not all zero: $(head -c 300 out.txt)"
faulty 0 "" mma --arch volta --acc f32 --a z.txt --b z.txt --c z.txt --engine rtl
[ "$(tr -d ' \n0' <out.txt)" = "1" ] || fail "mma --engine rtl: not one bit set: $(head -c 300 out.txt)"

finish
