#!/bin/bash
# probe_nvcc_test.sh NVCC KERNELS WORK GENCODES - the probe's kernels through nvcc and
# ptxas for every target CMake chose (sm_70 to sm_100a that nvcc offers), one at a time
# so that a failure names its target; sm_100a without a warning, and its PTX holding
# every tcgen05.mma kind (a wrong feature guard in tcgen05.cuh would compile them out
# silently; the block-scaled kinds with their .scale_vec), issue 33's mma.sync forms
# (b1, the pairs) and fp64's four shapes; sm_80's PTX with fp64's m8n8k4 alone. No GPU
# needed; skipped (77) without nvcc.
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
if [ -f "$work/sm_100a.log" ]; then
    grep -i warning "$work/sm_100a.log" && { echo "FAIL: sm_100a compiles with warnings"; fail=1; }
    if "$nvcc" -std=c++17 -O2 -arch=sm_100a -I"$(dirname "$cu")/../src" -ptx "$cu" \
        -o "$work/sm_100a.ptx" 2>"$work/sm_100a.ptx.log"; then
        for k in f16 tf32 f8f6f4 i8 mxf8f6f4.block_scale.scale_vec::1X \
                 mxf4.block_scale.scale_vec::2X mxf4nvf4.block_scale.scale_vec::4X; do
            grep -q "tcgen05\.mma\.cta_group::1\.kind::$k " "$work/sm_100a.ptx" ||
                { echo "FAIL: sm_100a's PTX has no tcgen05.mma kind::$k"; fail=1; }
        done
        # issue 33's mma.sync forms (each compiled from its first target on)
        for t in m16n8k256.row.col.s32.b1.b1.s32.and.popc m8n8k128.row.col.s32.b1.b1.s32.xor.popc \
                 m16n8k64.row.col.s32.s4.u4.s32 m16n8k32.row.col.f16.e5m2.e4m3.f16 \
                 m8n8k16.row.col.s32.u8.s8.s32; do
            grep -q "mma\.sync\.aligned\.$t" "$work/sm_100a.ptx" ||
                { echo "FAIL: sm_100a's PTX has no mma.sync.aligned.$t"; fail=1; }
        done
        # fp64 (DMMA): every shape from sm_90 on
        for t in m8n8k4 m16n8k4 m16n8k8 m16n8k16; do
            grep -q "mma\.sync\.aligned\.$t\.row\.col\.f64\.f64\.f64\.f64" "$work/sm_100a.ptx" ||
                { echo "FAIL: sm_100a's PTX has no fp64 mma.$t"; fail=1; }
        done
        grep -q "mma\.sp::ordered_metadata\.sync\.aligned\.m16n8k64\.row\.col\.f32\.e4m3\.e5m2" \
            "$work/sm_100a.ptx" || { echo "FAIL: sm_100a's PTX has no sparse e4m3 x e5m2"; fail=1; }
        for k in f16 tf32 f8f6f4 i8; do
            grep -q "tcgen05\.mma\.cta_group::2\.kind::$k " "$work/sm_100a.ptx" ||
                { echo "FAIL: sm_100a's PTX has no tcgen05.mma.cta_group::2 kind::$k"; fail=1; }
        done
        for op in alloc.cta_group::2 dealloc.cta_group::2 commit.cta_group::2 \
                  alloc dealloc relinquish_alloc_permit commit ld st wait::ld wait::st; do
            grep -q "tcgen05\.$op" "$work/sm_100a.ptx" ||
                { echo "FAIL: sm_100a's PTX has no tcgen05.$op"; fail=1; }
        done
    else
        echo "FAIL: sm_100a PTX:"; cat "$work/sm_100a.ptx.log"; fail=1
    fi
fi
# sm_80 has fp64's m8n8k4 alone (m16n8k4/k8/k16 .f64 from sm_90: the guards keep them out)
if [[ "${codes[*]}" == *"code=sm_80"* ]]; then
    if "$nvcc" -std=c++17 -O2 -arch=sm_80 -I"$(dirname "$cu")/../src" -ptx "$cu" \
        -o "$work/sm_80.ptx" 2>"$work/sm_80.ptx.log"; then
        grep -q 'mma\.sync\.aligned\.m8n8k4\.row\.col\.f64' "$work/sm_80.ptx" ||
            { echo "FAIL: sm_80's PTX has no fp64 m8n8k4"; fail=1; }
        grep -q 'mma\.sync\.aligned\.m16n8k[0-9]*\.row\.col\.f64' "$work/sm_80.ptx" &&
            { echo "FAIL: sm_80's PTX has an sm_90 fp64 shape"; fail=1; }
    else
        echo "FAIL: sm_80 PTX:"; cat "$work/sm_80.ptx.log"; fail=1
    fi
fi
for want in sm_90a sm_100a; do
    [[ " ${codes[*]} " == *"code=$want "* ]] || [[ "${codes[*]}" == *"code=$want" ]] ||
        { echo "FAIL: $want not among the targets (${codes[*]})"; fail=1; }
done
echo "$n targets compiled"
[ $fail = 0 ] && echo PASSED || echo FAILED
exit $fail
