#!/usr/bin/env bash
# engine_test.sh - `tcsim dot --engine rtl` prints what `--engine model` prints: on the A100
# vectors (and both equal the GPU's results), and on random cases of every profile whose
# FEDP step has a Verilated instance (k up to 3L: chained steps; fp8 through mma on
# hopper/blackwell: the fp16 emulation, its steps in the RTL; the mixed pairs, a in one
# format and b in another, through --in-a/--in-b).
#   engine_test.sh TCSIM TEST_A100 FEDP_TB WORKDIR [CASES]
set -euo pipefail
tcsim=$1 test_a100=$2 fedp_tb=$3 work=$4 cases=${5:-300}
mkdir -p "$work"
fail=0

run() {  # run NAME ARGS... < input: compares the two engines on $work/in.txt
    local name=$1; shift
    "$tcsim" dot "$@" --engine model < "$work/in.txt" > "$work/model.txt"
    "$tcsim" dot "$@" --engine rtl < "$work/in.txt" > "$work/rtl.txt"
    local n; n=$(grep -cv -e "^#" -e "^$" "$work/in.txt")
    if ! cmp -s "$work/model.txt" "$work/rtl.txt"; then
        echo "FAIL $name: --engine rtl differs from --engine model:"
        diff "$work/model.txt" "$work/rtl.txt" | head -5
        fail=1
    elif [ "$(wc -l < "$work/rtl.txt")" -ne "$n" ]; then
        echo "FAIL $name: $n cases in, $(wc -l < "$work/rtl.txt") results out"
        fail=1
    else
        echo "ok   $name: $n cases"
    fi
}

for set in fp16_fp32 fp16_fp16 bf16_fp32 tf32_fp32; do
    "$test_a100" --emit "$set" "$work/in.txt" "$work/gpu.txt"
    run "A100 $set" --arch ampere --in "${set%_*}" --out "${set#*_}"
    if ! cmp -s "$work/gpu.txt" "$work/rtl.txt"; then
        echo "FAIL A100 $set: --engine rtl differs from the GPU"
        fail=1
    fi
done

# tcsim vectors --engine rtl: the A100 results, set by set, through the Verilated steps
if "$tcsim" vectors --engine rtl > "$work/vectors.txt" &&
   grep -q "through ampere mma (Verilated RTL)" "$work/vectors.txt" &&
   [ "$(grep -c " 5000  *5000  *0$" "$work/vectors.txt")" = 4 ]; then
    echo "ok   tcsim vectors --engine rtl: 4 A100 sets bit-exact"
else
    echo "FAIL tcsim vectors --engine rtl:"; cat "$work/vectors.txt"
    fail=1
fi

# every profile with a Verilated FEDP step; an empty or failed list is a failure, not a
# loop that checks nothing
"$fedp_tb" --dot-profiles > "$work/profiles.txt" || { echo "FAIL fedp_tb --dot-profiles"; fail=1; }
[ -s "$work/profiles.txt" ] || { echo "FAIL fedp_tb --dot-profiles listed no profile"; fail=1; }
seed=1
pairs=0
while read -r arch instr in_a in_b out; do
    "$fedp_tb" --dot-cases "$arch" "$instr" "$in_a" "$in_b" "$out" "$cases" "$seed" > "$work/in.txt"
    if [ "$in_a" = "$in_b" ]; then
        run "$arch $instr $in_a $out" --arch "$arch" --instr "$instr" --in "$in_a" --out "$out"
    else
        run "$arch $instr ${in_a}x$in_b $out" --arch "$arch" --instr "$instr" \
            --in-a "$in_a" --in-b "$in_b" --out "$out"
        pairs=$((pairs + 1))
    fi
    seed=$((seed + 1))
done < "$work/profiles.txt"
echo "ok   $((seed - 1)) profiles with a Verilated step, $pairs of them mixed pairs"
# the fp8 instances take b's format on a select of its own: their pairs must be listed
[ "$pairs" -gt 0 ] || { echo "FAIL no mixed pair runs through the RTL"; fail=1; }

# A combination no Verilated instance implements is a clear error, not a model fallback.
if echo "0 0 0" | "$tcsim" dot --arch ampere --in int8 --out s32 --engine rtl >/dev/null 2>"$work/err.txt"; then
    echo "FAIL int8: --engine rtl accepted a profile with no FEDP step"
    fail=1
else
    echo "ok   int8 --engine rtl refused: $(head -1 "$work/err.txt")"
fi

[ $fail -eq 0 ] && echo PASSED || echo FAILED
exit $fail
