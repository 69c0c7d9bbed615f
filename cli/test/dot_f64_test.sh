#!/usr/bin/env bash
# dot_f64_test.sh TCSIM WORKDIR - `tcsim dot --in fp64 --out fp64` (the DMMA form): 64-bit
# patterns in and out, hand-worked results, and its refusals (message and status).
set -u
tcsim=$1; work=$2
source "$(dirname "$0")/cli_harness.sh"
mkdir -p "$work"; cd "$work" || exit 1
run() { local want=$1 input=$2; shift 2; run_with "$want" "$input" "$tcsim" "$@"; }
f64=(dot --arch ampere --in fp64 --out fp64)

# Hand-worked, one line each (a_0..a_{k-1} b_0..b_{k-1} c):
#  1*2 + 1 = 3; 1*1 then (-1)*1 from c = 0: exact cancellation, +0; Inf*0 and a NaN
#  input: the canonical NaN; -0*1 + -0 = -0; (1+2^-52)(1-2^-53) - 1 = 2^-53 - 2^-105
#  exactly (fused: no rounding of the product); max*2 overflows to Inf; k = 5 > 4 chains.
in="3ff0000000000000 4000000000000000 3ff0000000000000
0x3ff0000000000000 bff0000000000000 3ff0000000000000 3ff0000000000000 0
7ff0000000000000 0 0
7ff8000000000001 3ff0000000000000 0
8000000000000000 3ff0000000000000 8000000000000000
3ff0000000000001 3fefffffffffffff bff0000000000000
7fefffffffffffff 4000000000000000 0
# k = 5
3ff0000000000000 3ff0000000000000 3ff0000000000000 3ff0000000000000 3ff0000000000000 3ff0000000000000 3ff0000000000000 3ff0000000000000 3ff0000000000000 3ff0000000000000 0
"
want="4008000000000000
0000000000000000
7fffffffffffffff
7fffffffffffffff
8000000000000000
3c9ffffffffffffe
7ff0000000000000
4014000000000000"
for arch in ampere ada hopper blackwell; do
    run 0 "$in" dot --arch "$arch" --in fp64 --out fp64
    [ "$(cat out.txt)" = "$want" ] || fail "$arch fp64: got $(tr '\n' ' ' <out.txt)"
done

# Refusals: where PTX has no fp64 mma, another output, a pair, bad words.
# refused MESSAGE ARGS...: tcsim dot ARGS exits 2 with MESSAGE on stderr
refused() { local msg=$1; shift; run 2 "1 1 0\n" dot "$@"; expect_err "$msg"; }
refused "no profile for --arch turing --instr mma --in fp64 --out fp64" --arch turing --in fp64 --out fp64
refused "no profile for --arch hopper --instr wgmma" --arch hopper --instr wgmma --in fp64 --out fp64
refused "no profile for --arch ampere --instr mma --in fp64 --out fp32" --arch ampere --in fp64 --out fp32
refused "has no fp64 x fp16 form" --arch ampere --in-a fp64 --in-b fp16 --out fp64
run 2 "3ff0000000000000 3ff0000000000000 0\n1 2 10000000000000000\n" "${f64[@]}"
expect_err "line 2: word 3 '10000000000000000' is wider than 64 bits"
[ "$(cat out.txt)" = 3ff0000000000000 ] || fail "the line before the bad one: $(cat out.txt)"
run 2 "1 2 3 4\n" "${f64[@]}"
expect_err "line 1: 4 words; expected an odd count"
run 2 "1 2 0x\n" "${f64[@]}"
expect_err "line 1: word 3 '0x' is not a hex number"
finish
