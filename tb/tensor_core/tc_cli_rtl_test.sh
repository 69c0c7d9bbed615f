#!/usr/bin/env bash
# tc_cli_rtl_test.sh TCSIM WORKDIR - `tcsim hmma-trace` and `tcsim mma` with --engine rtl
# (the Verilated warp top) print what the model prints: Figure 9, and the same D.
set -u
tcsim=$1; work=$2
mkdir -p "$work"; cd "$work" || exit 1
fails=0
fail() { echo "FAIL: $*"; fails=$((fails + 1)); }

for acc in f32 f16; do
    "$tcsim" hmma-trace --arch volta --acc "$acc" >model.txt || fail "hmma-trace --acc $acc"
    "$tcsim" hmma-trace --arch volta --acc "$acc" --engine rtl >rtl.txt 2>err.txt ||
        fail "hmma-trace --acc $acc --engine rtl: $(head -c 300 err.txt)"
    cmp -s model.txt rtl.txt || fail "hmma-trace --acc $acc: rtl $(tr '\n' ' ' <rtl.txt)"
done
want_f32="1 0 10;1 1 12;1 2 14;1 3 18;2 0 20;2 1 22;2 2 24;2 3 28;3 0 30;3 1 32;3 2 34;3 3 38;4 0 40;4 1 42;4 2 44;4 3 54;"
[ "$(tr '\n' ';' <model.txt)" != "" ] || fail "no trace"
"$tcsim" hmma-trace --arch volta --acc f32 --engine rtl | tr '\n' ';' >rtl_f32.txt
[ "$(cat rtl_f32.txt)" = "$want_f32" ] || fail "rtl f32 trace is not Figure 9a: $(cat rtl_f32.txt)"

# random matrices (fp16 values of moderate exponent; fp32 or fp16 C)
RANDOM=7
mat() { # rows cols digits
    local r c
    for ((r = 0; r < $1; r++)); do
        for ((c = 0; c < $2; c++)); do
            if [ "$3" = 4 ]; then
                printf '%04x ' $(( (RANDOM & 1) << 15 | (11 + RANDOM % 8) << 10 | (RANDOM & 1023) ))
            else
                printf '%08x ' $(( (RANDOM & 1) << 31 | (120 + RANDOM % 12) << 23 | (RANDOM << 8 & 8388607) ))
            fi
        done
        echo
    done
}
for shape in m16n16k16 m8n8k4; do
    if [ $shape = m16n16k16 ]; then m=16; n=16; k=16; else m=8; n=8; k=4; fi
    for acc in f32 f16; do
        d=8; [ $acc = f16 ] && d=4
        mat $m $k 4 >a.txt; mat $k $n 4 >b.txt; mat $m $n $d >c.txt
        for layout in row col row,col col,row; do
            args="mma --arch volta --shape $shape --acc $acc --a a.txt --b b.txt --c c.txt --layout $layout"
            "$tcsim" $args >model.txt 2>err.txt || fail "$args: $(head -c 300 err.txt)"
            "$tcsim" $args --engine rtl >rtl.txt 2>err.txt || fail "$args --engine rtl: $(head -c 300 err.txt)"
            [ -s model.txt ] || fail "$args printed nothing"
            cmp -s model.txt rtl.txt || fail "$args: rtl and model differ"
        done
    done
done
[ $fails = 0 ] && echo "PASSED: hmma-trace and mma, --engine rtl = model" || echo "FAILED: $fails"
exit $((fails != 0))
