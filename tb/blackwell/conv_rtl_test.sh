#!/bin/bash
# `tcsim conv --engine rtl` (every MMA on the Verilated tc_blackwell) prints exactly what
# `--engine model` prints - checksum and counts - plus the unit's own cycles, for Algorithms 2 and 3 over a few
# shapes and kinds (stride, padding, dilation, channels not a multiple of K; an A/B pair).
set -u
tcsim=$1
fail=0
for shape in "--n 1 --h 6 --w 6 --c 20 --k 8 --r 3 --s 3 --pad 1" \
             "--n 2 --h 5 --w 7 --c 16 --k 16 --r 3 --s 3 --pad 2 --dilation 2 --in bf16" \
             "--n 1 --h 7 --w 7 --c 40 --k 8 --r 3 --s 3 --stride 2 --in e4m3 --out fp16" \
             "--n 1 --h 5 --w 5 --c 40 --k 8 --r 1 --s 3 --pad 1 --kind i8" \
             "--n 1 --h 5 --w 5 --c 12 --k 8 --r 3 --s 3 --pad 1 --in tf32" \
             "--n 1 --h 5 --w 5 --c 36 --k 8 --r 3 --s 3 --pad 1 --in-a e2m1 --in-b e4m3"; do
  for algo in 2 3; do
    m=$("$tcsim" conv $shape --algo $algo --seed 5 --engine model) || { echo "FAIL model: $shape"; fail=1; continue; }
    r=$("$tcsim" conv $shape --algo $algo --seed 5 --engine rtl) || { echo "FAIL rtl: $shape"; fail=1; continue; }
    # and one more line, the RTL unit's own cycles: at least one per MMA
    u=$(sed -n 's/^rtl_unit_cycles: \([0-9][0-9]*\)$/\1/p' <<<"$r")
    n=$(sed -n 's/^mmas: //p' <<<"$m")
    r=$(grep -v '^rtl_unit_cycles: ' <<<"$r")
    if [ -z "$u" ] || [ -z "$n" ] || [ "$u" -lt "$n" ] || [ "$n" -lt 1 ]; then
      echo "FAIL $shape --algo $algo: rtl_unit_cycles '$u' for $n MMAs"; fail=1
    fi
    if [ "$m" != "$r" ]; then
      echo "FAIL $shape --algo $algo:"; echo "model: $m"; echo "rtl:   $r"; fail=1
    fi
  done
done
[ $fail = 0 ] && echo PASSED || echo FAILED
exit $fail
