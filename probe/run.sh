#!/bin/bash
# probe/run.sh OUTDIR [tcsim-probe options] - measures this machine's GPU in one command:
# builds tcsim and tcsim-probe with the CUDA kernels (model only, -DTCSIM_PROBE=ON, no
# tests: a GPU machine needs no GMP) in build-probe/ unless TCSIM_PROBE and TCSIM name the two programs, runs the probe into
# OUTDIR (gpu.txt, vectors/, timing.txt), then checks what it measured: `tcsim vectors`
# on the vectors (bit for bit against the model) and the timing table (measured beside
# the model) with `tcsim timing --params` on the measured record. Exit status: the
# probe's, else 1 if a result differs from the model.
set -u
out=${1:?usage: probe/run.sh OUTDIR [tcsim-probe options]}
shift
root=$(cd "$(dirname "$0")/.." && pwd)
probe=${TCSIM_PROBE:-}
tcsim=${TCSIM:-}
if [ -z "$probe" ] || [ -z "$tcsim" ]; then
    build=$root/build-probe
    mkdir -p "$build" && log=$build/run-build.log
    cmake -S "$root" -B "$build" -DCMAKE_BUILD_TYPE=Release -DTCSIM_RTL=OFF -DTCSIM_PROBE=ON \
        -DTCSIM_TESTS=OFF \
        >"$log" 2>&1 &&
        cmake --build "$build" -j "$(nproc)" --target tcsim tcsim-probe >>"$log" 2>&1 ||
        { echo "probe/run.sh: the build failed (see $log)" >&2; exit 2; }
    probe=$build/tcsim-probe
    tcsim=$build/tcsim
fi
"$probe" --out "$out" "$@" || exit $?
cat "$out/gpu.txt"
echo "== numerics: tcsim vectors on each form under $out/vectors"
status=0
: >"$out/vectors-check.txt"
for dir in "$out"/vectors/*/; do
    form=$(basename "$dir")
    # the folder names the instruction: mma_..., wgmma_..., tcgen05_...
    "$tcsim" vectors "$dir" --instr "${form%%_*}" --show 2 | tee -a "$out/vectors-check.txt"
    rc=${PIPESTATUS[0]}
    [ "$rc" -gt "$status" ] && status=$rc
done
echo "== timing: measured against the model ($out/timing.txt)"
grep '^#' "$out/timing.txt"
name=$(sed -n 's/^gpu \([^ ]*\) .*/\1/p' "$out/timing.txt" | head -1)
"$tcsim" timing --params "$out/timing.txt" --arch "$name" --op mma.m16n8k16 --in fp16 \
    --acc fp32 | tee "$out/timing-check.txt"
exit $status
