#!/usr/bin/env bash
# engine_absent_test.sh TCSIM WORKDIR - tcsim whose engine registry is empty (a build
# without the RTL: engines/engine_table_none.c): every command's --engine rtl is refused
# with status 2, before any output, by a message that says what the build lacks and how
# to get it; --engine model runs as in any build.
set -u
tcsim=$1; work=$2
source "$(dirname "$0")/cli_harness.sh"
mkdir -p "$work"; cd "$work" || exit 1
run() { local want=$1 input=$2; shift 2; run_with "$want" "$input" "$tcsim" "$@"; }
no_output() { [ ! -s out.txt ] || fail "$1: stdout '$(head -c 200 out.txt)'"; }
rtl_flag="(configure with -DTCSIM_RTL=ON)"

one="3c00 3c00 00000000\n"
run 2 "$one" dot --arch ampere --in fp16 --out fp32 --engine rtl
expect_err "tcsim dot: --engine rtl: this tcsim was built without the RTL $rtl_flag"
no_output dot
run 0 "$one" dot --arch ampere --in fp16 --out fp32 --engine model
[ "$(cat out.txt)" = "3f800000" ] || fail "dot --engine model: '$(cat out.txt)'"

# vectors said so once per set, after its header (4 messages for the A100 data)
run 2 "" vectors --engine rtl
expect_err "tcsim vectors: --engine rtl: this tcsim was built without the RTL $rtl_flag"
no_output vectors
[ "$(grep -c "built without" err.txt)" = 1 ] || fail "vectors: $(grep -c "built without" err.txt) messages"

for cmd in hmma-trace mma; do
    files=""
    [ $cmd = mma ] && files="--a z.txt --b z.txt --c z.txt"
    : >z.txt
    # shellcheck disable=SC2086
    run 2 "" $cmd --arch volta --acc f32 $files --engine rtl
    expect_err "tcsim $cmd: --engine rtl: this tcsim was built without the tensor-core RTL $rtl_flag"
    no_output $cmd
done
run 0 "" hmma-trace --arch volta --acc f32
[ "$(head -1 out.txt)" = "1 0 10" ] || fail "hmma-trace: $(head -1 out.txt)"

run 2 "" tmem-demo --engine rtl
expect_err "tcsim tmem-demo: --engine rtl: this tcsim was built without the tensor-memory RTL $rtl_flag"
no_output tmem-demo

run 2 "" conv --n 1 --h 6 --w 6 --c 20 --k 8 --r 3 --s 3 --pad 1 --algo 2 --engine rtl
expect_err "tcsim conv: --engine rtl: this tcsim was built without the Blackwell RTL"
no_output conv
run 0 "" conv --n 1 --h 6 --w 6 --c 20 --k 8 --r 3 --s 3 --pad 1 --algo 2
grep -q "^checksum: " out.txt || fail "conv --engine model: $(head -c 200 out.txt)"

finish
