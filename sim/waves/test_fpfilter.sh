#!/usr/bin/env bash
# test_fpfilter.sh FPFILTER - the GTKWave translate filter prints the value of each
# format's special and ordinary patterns, splits a packed bus element 0 first, answers
# every line (X/Z and empty ones too: GTKWave waits for one line per line), and refuses
# a format that is not a float.
set -u
f=$1
fails=0
check() {  # check FMT INPUT EXPECTED (INPUT and EXPECTED: lines joined by |)
    local got want
    got=$(printf '%s\n' "$2" | tr '|' '\n' | "$f" "$1" | tr '\n' '|')
    want="$3|"
    [ "$got" = "$want" ] || { echo "FAIL: fpfilter $1 on '$2': got '$got', expected '$want'"; fails=$((fails + 1)); }
}
check fp16 '3c00|c000|7bff|0001|8000|7c00|fc00|7e00|3555' '1|-2|65504|5.9605e-08|-0|+Inf|-Inf|NaN|0.33325'
check fp16 '3c00c000|xxxx|zzzz|' '-2 1|xxxx|zzzz|'
check fp32 '3f800000|3dcccccd|00000001|7f800000|7fffffff|C0490FDB' '1|0.100000001|1.40129846e-45|+Inf|NaN|-3.14159274'
check bf16 '3f80|c120|7f80|7fc0' '1|-10|+Inf|NaN'
check e4m3 '7e|7f|ff|08|01|c0' '448|NaN|NaN|0.015625|0.00195|-2'
check e5m2 '7b|7c|7e|3c' '57344|+Inf|NaN|1'
check e2m1 '7|f|02' '6|-6|1 0'
# 6-bit formats: the trace pads to whole hex digits, so one value comes as 2 digits (it
# was shown as two) and three (18 bits) as 5
check e2m3 '08|3F|08FC8' '1|-7.5|1 -7.5 1'
check e3m2 '0c|3f' '1|-28'
check ue8m0 '7f|80|ff' '1|2|NaN'
# a 128-bit fp16 operand bus: elements 0..7 = 1, 2, ..., 8
check fp16 '48004700460045004400420040003c00' '1 2 3 4 5 6 7 8'
"$f" int8 </dev/null >/dev/null 2>&1; [ $? = 2 ] || { echo "FAIL: int8 should be refused with exit 2"; fails=$((fails + 1)); }
"$f" </dev/null >/dev/null 2>&1; [ $? = 2 ] || { echo "FAIL: no format should exit 2"; fails=$((fails + 1)); }
[ $fails = 0 ] && echo PASSED || echo "FAILED ($fails)"
[ $fails = 0 ]
