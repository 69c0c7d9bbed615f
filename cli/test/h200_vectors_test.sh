#!/bin/bash
# h200_vectors_test.sh TCSIM DATA - the H200's measured results (data/vectors/h200, one
# folder per instruction form, measured by tcsim-probe) through `tcsim vectors` with the
# instruction each folder names: every one of the 14 sets and 70,000 results bit-exact.
tcsim=$1; data=$2/vectors/h200
fail=0 sets=0 results=0
for dir in "$data"/*/; do
    form=$(basename "$dir")
    out=$("$tcsim" vectors "$dir" --instr "${form%%_*}" --show 3 2>&1)
    rc=$?
    [ $rc = 0 ] || { echo "FAIL: $form (exit $rc):"; echo "$out"; fail=1; }
    # a set's line: name, profile, k, cases, bit-exact, differ
    while read -r name profile k cases exact differ; do
        [[ $profile == hopper_"${form%%_*}"_* ]] || { echo "FAIL: $form read as $profile"; fail=1; }
        sets=$((sets + 1)) results=$((results + exact))
    done < <(grep -E '^[a-z0-9]+_(fp32|fp16) ' <<<"$out")
done
echo "$sets sets, $results results bit-exact"
[ "$sets" = 14 ] && [ "$results" = 70000 ] || { echo "FAIL: expected 14 sets, 70000 results"; fail=1; }
[ $fail = 0 ] && echo PASSED || echo FAILED
exit $fail
