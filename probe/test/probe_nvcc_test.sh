#!/bin/bash
# probe_nvcc_test.sh NVCC KERNELS WORK GENCODES - the probe's kernels through nvcc and
# ptxas for every target CMake chose (sm_70 to sm_100a that nvcc offers), one at a time
# so that a failure names its target. No GPU needed; skipped (77) without nvcc.
nvcc=$1; cu=$2; work=$3; gencodes=$4
if [ -z "$nvcc" ] || [ ! -x "$nvcc" ]; then
    echo "SKIP: nvcc not found (the CUDA toolkit is not a Debian package)"; exit 77
fi
mkdir -p "$work" || exit 1
fail=0 n=0
IFS=';' read -ra codes <<<"$gencodes"
for g in "${codes[@]}"; do
    [ -n "$g" ] || continue
    sm=${g##*code=}
    if "$nvcc" -std=c++17 -O2 "$g" -I"$(dirname "$cu")/../src" -c "$cu" -o "$work/$sm.o" \
        2>"$work/$sm.log"; then
        n=$((n + 1))
    else
        echo "FAIL: $sm:"; cat "$work/$sm.log"; fail=1
    fi
done
[ $n -ge 1 ] || { echo "FAIL: no target compiled"; fail=1; }
for want in sm_90a sm_100a; do
    [[ " ${codes[*]} " == *"code=$want "* ]] || [[ "${codes[*]}" == *"code=$want" ]] ||
        { echo "FAIL: $want not among the targets (${codes[*]})"; fail=1; }
done
echo "$n targets compiled"
[ $fail = 0 ] && echo PASSED || echo FAILED
exit $fail
