#!/usr/bin/env bash
# cli_test.sh TCSIM TEST_A100 WORKDIR - `tcsim dot` and friends, as a user runs them:
# the A100 vectors through the CLI, and every kind of bad input (message and status).
set -u
tcsim=$1; test_a100=$2; work=$3
mkdir -p "$work"; cd "$work" || exit 1
fails=0
fail() { echo "FAIL: $*"; fails=$((fails + 1)); }

# run EXPECTED_STATUS STDIN ARGS... : runs tcsim, keeps out/err, checks the status
run() {
    local want=$1 input=$2; shift 2
    printf '%b' "$input" | "$tcsim" "$@" >out.txt 2>err.txt
    local rc=$?
    [ "$rc" = "$want" ] || fail "tcsim $* exited $rc, expected $want (stderr: $(head -c 300 err.txt))"
}
expect_err() { grep -qF -- "$1" err.txt || fail "stderr lacks '$1': $(head -c 300 err.txt)"; }
expect_out() { [ "$(cat out.txt)" = "$(printf '%b' "$1")" ] || fail "stdout '$(cat out.txt)' != '$1'"; }

# 1. the A100 vectors, bit for bit, through the command line (in/out as tcsim prints)
for set in fp16_fp32 fp16_fp16 bf16_fp32 tf32_fp32; do
    in=${set%_*}; out=${set#*_}
    "$test_a100" --emit "$set" "vec_$set.in" "vec_$set.expect" || { fail "cannot emit $set"; continue; }
    "$tcsim" dot --arch ampere --in "$in" --out "$out" <"vec_$set.in" >"vec_$set.out" 2>err.txt \
        || fail "tcsim dot on $set exited non-zero: $(head -c 300 err.txt)"
    n=$(wc -l <"vec_$set.expect")
    if cmp -s "vec_$set.out" "vec_$set.expect"; then
        echo "A100 $set: $n cases match through tcsim dot"
    else
        fail "A100 $set: $(diff "vec_$set.out" "vec_$set.expect" | grep -c '^<') of $n lines differ"
    fi
done

# 2. good input: comments, empty lines, 0x or not; 1*1 + 1*1 + 1 = 3; k > L (volta
#    L = 4, k = 5): five 1*1 products, c = 0, = 5
run 0 "# a comment\n\n3c00 3c00 3c00 0x3c00 3f800000\n0x3c00 0x3c00 0x3c00 0x3c00 0x3c00 3c00 3c00 3c00 3c00 3c00 00000000\n" \
    dot --arch volta --in fp16 --out fp32
expect_out "40400000\n40a00000"

# 3. bad lines: message names the line; results of earlier lines are printed; status 2
run 2 "3c00 3c00 00000000\n3c00 3c00\n3c00 3c00 00000000\n" dot --arch ampere --in fp16 --out fp32
expect_err "line 2: 2 words; expected an odd count"
expect_out "3f800000"
run 2 "3c00 3c00 00000000\n# x\n3c00 3g00 00000000\n" dot --arch ampere --in fp16 --out fp32
expect_err "line 3: word 2 '3g00' is not a hex number"
expect_out "3f800000"
run 2 "13c00 3c00 00000000\n" dot --arch ampere --in fp16 --out fp32
expect_err "line 1: a_0 = 0x13c00 is wider than fp16 (16 bits)"
run 2 "3c00 3c00 13c00\n" dot --arch ampere --in fp16 --out fp16
expect_err "line 1: c = 0x13c00 is wider than fp16 (16 bits)"
run 2 "3c00 3c00 123456789\n" dot --arch ampere --in fp16 --out fp32
expect_err "line 1: c = 0x123456789 is wider than fp32 (32 bits)"

# 4. bad combinations and options: status 2 before any input is read
run 2 "" dot --arch volta --in bf16 --out fp32
expect_err "no profile for --arch volta --instr mma --in bf16 --out fp32"
run 2 "" dot --arch ampere --in fp16 --out fp32 --instr tcgen05
expect_err "no profile for --arch ampere --instr tcgen05"
run 2 "" dot --arch pascal --in fp16 --out fp32
expect_err "unknown --arch 'pascal'"
run 2 "" dot --arch ampere --in fp17 --out fp32
expect_err "unknown format for --in 'fp17'"
run 2 "" dot --arch ampere --in fp16
expect_err "--arch, --in and --out are required"
run 2 "" dot --arch ampere --in fp16 --out fp32 --bogus 1
expect_err "unknown option '--bogus'"
run 2 "" dot --arch
expect_err "option '--arch' needs a value"
run 2 "" frobnicate
expect_err "unknown command 'frobnicate'"

# 5. block-scaled kinds: a, b, scale_a, scale_b, c
a32="2 $(printf '0 %.0s' $(seq 31))"
run 0 "$a32 $a32 7f 7f 7f 7f 00000000\n" dot --arch blackwell --instr tcgen05 --in e2m1 --out fp32 --kind mxf4nvf4 --scale ue8m0 --block 16
expect_out "3f800000"
run 2 "2 2 7f 7f 0\n" dot --arch blackwell --instr tcgen05 --in e2m1 --out fp32 --kind mxf4 --scale ue8m0
expect_err "line 1: 5 words; expected 2k + 2k/32 + 1"
run 2 "" dot --arch blackwell --in e2m1 --out fp32 --kind mxf4
expect_err "--kind and --scale go together"

# 6. help and list
run 0 "" --help; grep -q "dot" out.txt || fail "tcsim --help does not list dot"
run 0 "" dot --help; grep -q "2k+1" out.txt || fail "tcsim dot --help does not describe the input"
run 0 "" list
grep -q "^ampere *mma *fp16 *fp32 *fedp *8 *24 *rz *-132" out.txt || fail "tcsim list lacks the ampere fp16 row"
grep -q "^volta *mma *fp16 *fp16 *fedp *4 *23 *rne *-19" out.txt || fail "tcsim list lacks the volta fp16 row"
run 2 "" list extra
run 2 ""

[ "$fails" = 0 ] && echo PASSED || echo "FAILED ($fails)"
[ "$fails" = 0 ]
