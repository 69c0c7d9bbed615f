#!/usr/bin/env bash
# cli_forms_test.sh TCSIM WORKDIR - issue 33's forms through the command line: the b1
# popc ops and the mixed-signedness integer pairs of `tcsim dot` (values worked by hand),
# their errors (each names the argument, the instruction and the pair or op), and
# `tcsim list --forms`.
set -u
tcsim=$1; work=$2
source "$(dirname "$0")/cli_harness.sh"
mkdir -p "$work"; cd "$work" || exit 1

run() { local want=$1 input=$2; shift 2; run_with "$want" "$input" "$tcsim" "$@"; }
expect_out() { [ "$(cat out.txt)" = "$(printf '%b' "$1")" ] || fail "stdout '$(cat out.txt)' != '$1'"; }
expect_no_out() { [ ! -s out.txt ] || fail "an error printed results: $(head -c 100 out.txt)"; }

# 1. b1: a = 1 1 0 1, b = 1 0 1 1, c = 5: AND has 2 ones (7), XOR 2 (7); all ones with
#    c = 0x7fffffff: AND adds 4 and wraps (0x80000003), XOR adds none; all zeros: c
in="1 1 0 1 1 0 1 1 5\n1 1 1 1 1 1 1 1 7fffffff\n0 0 0 0 0 0 0 0 ffffffff\n"
run 0 "$in" dot --arch ampere --in b1 --out s32 --popc and
expect_out "00000007\n80000003\nffffffff"
run 0 "$in" dot --arch turing --in b1 --out s32 --popc xor
expect_out "00000007\n7fffffff\nffffffff"
run 0 "$in" dot --arch blackwell --in-a b1 --in-b b1 --out s32 --popc xor
expect_out "00000007\n7fffffff\nffffffff"
# a bit is one bit
run 2 "2 1 0\n" dot --arch ampere --in b1 --out s32 --popc and
expect_err "line 1: a_0 = 0x2 is wider than b1 (1 bits)"

# 2. errors, each before any input is read (nothing printed), naming the argument and
#    the instruction with its op or pair. A row: STDIN|tcsim dot's arguments|stderr.
#    b1: the op the instruction lacks (Turing has .xor.popc alone; wgmma and Volta no
#    b1), b1 without an op, an op without b1 or s32, a bad op; pairs: no int4 on
#    Hopper's mma, no int8 x uint4, no integers on Volta.
while IFS='|' read -r input args err; do
    case $input in '#'*) continue ;; esac
    # shellcheck disable=SC2086 # the arguments are words
    run 2 "$input" dot $args
    expect_err "$err"; expect_no_out
done <<'TABLE'
1 1 0\n|--arch turing --in b1 --out s32 --popc and|--popc and: turing mma has no b1 .and.popc form
1 1 0\n|--arch hopper --instr wgmma --in b1 --out s32 --popc and|hopper wgmma has no b1 .and.popc form
1 1 0\n|--arch volta --in b1 --out s32 --popc xor|volta mma has no b1 .xor.popc form
1 1 0\n|--arch ampere --in b1 --out s32|--in b1 needs --popc and|xor
3c00 3c00 0\n|--arch ampere --in fp16 --out fp32 --popc xor|--popc xor goes with --in b1 --out s32 alone
1 1 0\n|--arch ampere --in b1 --out fp32 --popc xor|not b1 x b1 --out fp32
1 1 0\n|--arch ampere --in b1 --out s32 --popc or|unknown --popc 'or' (and or xor
8 f 0\n|--arch hopper --in-a int4 --in-b uint4 --out s32|hopper mma has no int4 x uint4 form
8 f 0\n|--arch ampere --in-a int8 --in-b uint4 --out s32|ampere mma has no int8 x uint4 form
8 f 0\n|--arch volta --in-a int8 --in-b uint8 --out s32|volta mma has no int8 x uint8 form
TABLE

# 3. integer pairs: int8 -1 * uint8 255 + int8 127 * uint8 1 = -128; uint8 128 * int8
#    -128 = -16384; int4 -8 * uint4 15 = -120; uint4 15 * int4 7 past 2^31 - 1 wraps
while IFS='|' read -r input args want; do
    # shellcheck disable=SC2086 # the arguments are words
    run 0 "$input" dot $args
    expect_out "$want"
done <<'TABLE'
ff 7f ff 01 0\n|--arch ampere --in-a int8 --in-b uint8 --out s32|ffffff80
80 80 0\n|--arch hopper --in-a uint8 --in-b int8 --out s32|ffffc000
80 80 0\n|--arch hopper --instr wgmma --in-a uint8 --in-b int8 --out s32|ffffc000
8 f 0\n|--arch turing --in-a int4 --in-b uint4 --out s32|ffffff88
f 7 7fffffff\n|--arch ada --in-a uint4 --in-b int4 --out s32|80000068
TABLE
# b is read in its own format: 0xf is uint4 15, not int4 -1 (= 15, the same as above)
run 2 "f 10 0\n" dot --arch ada --in-a int4 --in-b uint4 --out s32
expect_err "line 1: b_0 = 0x10 is wider than uint4 (4 bits)"

# 4. tcsim list: the rows and kinds; --forms: every form per arch with its source (the
#    A100 and H200 folders of data/vectors where they hold it, else the contract)
run 0 "" list
grep -qE "^ampere +mma +b1 +s32 +and.popc " out.txt || fail "tcsim list lacks ampere b1 and.popc"
grep -qE "^turing +mma +int8xuint8 +s32 +int " out.txt || fail "tcsim list lacks turing int8 x uint8"
grep -qE "^turing +mma +b1 +s32 +and.popc" out.txt && fail "tcsim list shows and.popc on turing"
grep -qE "formats:.* s32 fp64 b1$" out.txt || fail "tcsim list formats: $(grep formats out.txt)"
run 0 "" list --forms
head -1 out.txt | grep -qE "^arch +instr +form +out +source$" || fail "list --forms header: $(head -1 out.txt)"
grep -qE "^ampere +mma +fp16 +fp32 +vectors a100/fp16$" out.txt || fail "list --forms: ampere fp16"
grep -qE "^hopper +mma +int8 +s32 +vectors .*h200/mma_m16n8k32_int8" out.txt ||
    fail "list --forms: hopper int8 without its H200 vectors"
grep -qE "^hopper +mma +int8xuint8 +s32 +contract$" out.txt || fail "list --forms: hopper int8 x uint8"
grep -qE "^blackwell +mma +b1.xor.popc +s32 +contract$" out.txt || fail "list --forms: blackwell b1 xor"
grep -qE "^blackwell +tcgen05 +e2m1.mxf4nvf4.ue4m3/16 +fp32 +contract$" out.txt ||
    fail "list --forms: the mxf4nvf4 form"
# every profile is one form line (the header aside)
"$tcsim" list | sed '1,/^arch /d' >rows.txt
[ "$(($(wc -l <out.txt) - 1))" = "$(wc -l <rows.txt)" ] || fail "list --forms: $(wc -l <out.txt) lines for $(wc -l <rows.txt) profiles"
# without the data folder every form is the contract's, and stderr says why
TCSIM_DATA_DIR=$work/none run 0 "" list --forms
grep -q "vectors" out.txt && fail "list --forms without data shows vectors"
expect_err "no folder $work/none/vectors"
run 2 "" list --forms extra
expect_err "unexpected argument 'extra'"

finish
