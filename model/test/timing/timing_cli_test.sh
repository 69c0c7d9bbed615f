#!/bin/bash
# timing_cli_test.sh TCSIM - `tcsim timing` as a user runs it: the latency line the
# issue asks for, the Volta wmma of Figure 9, and exit status 2 with a message naming
# the bad argument (and nothing on stdout).
tcsim=$1
fail=0
expect() { # expect STATUS PATTERN ARGS...: exit status and a line of output matching
    local want=$1 pat=$2; shift 2
    out=$("$tcsim" timing "$@" 2>&1); st=$?
    if [ "$st" != "$want" ] || ! grep -qE -- "$pat" <<<"$out"; then
        echo "FAIL: tcsim timing $* -> status $st (want $want), no line matching '$pat':"
        echo "$out"
        fail=1
    fi
}
expect 0 '^latency 26\.0 cycles per iteration$' --arch a100 --op mma.m16n8k16 --in fp16 --acc fp32
expect 0 '^throughput [0-9.]+ FMA/clk/SM$' --arch ampere --op mma.m16n8k16 --in bf16 --acc fp32 --warps 8 --ilp 2
expect 0 '^latency 32\.1 cycles per iteration$' --arch a100 --op mma.m16n8k16 --in fp16 --acc fp32 --warps 8 --ilp 2
expect 0 'completion latency 34 cycles' --arch rtx3070ti --op mma.sp.m16n8k32 --in fp16 --acc fp32
expect 0 'cumulative cycles after each HMMA: 12 21 25 34 38 47 51 64' --arch volta --op wmma.m16n16k16 --in fp16 --acc fp16
expect 0 '^latency 54 cycles' --arch v100 --op wmma.m16n16k16 --in fp16 --acc fp32
expect 0 '^rtx2080ti +turing' --list
expect 0 'usage: tcsim timing' --help
expect 2 "unknown --arch 'h300'" --arch h300 --op mma.m16n8k16 --in fp16 --acc fp32
expect 2 "bad --op 'mma.m16n8'" --arch a100 --op mma.m16n8 --in fp16 --acc fp32
expect 2 "required" --arch a100 --op mma.m16n8k16 --in fp16
expect 2 "--arch, --op, --in and --acc are required" --arch a100 --op mma.m16n8k16 --acc fp32
expect 2 "unknown option '--bogus'" --bogus
expect 2 "shape not supported" --arch a100 --op mma.m16n8k12 --in fp16 --acc fp32
expect 2 "not supported" --arch a100 --op mma.m16n8k16 --in int8 --acc fp32
expect 2 "bad value for --ilp '0' \(an integer from 1 to 16\)" --arch a100 --op mma.m16n8k16 --in fp16 --acc fp32 --ilp 0
expect 2 "bad value for --warps '010 '" --arch a100 --op mma.m16n8k16 --in fp16 --acc fp32 --warps '010 '
expect 2 "bad value for --warps '\+4'" --arch a100 --op mma.m16n8k16 --in fp16 --acc fp32 --warps +4
# A leading zero is decimal (strtoull's base 0 read 010 as 8), 0x is hex.
expect 0 "^benchmark: 10 warp\(s\)" --arch a100 --op mma.m16n8k16 --in fp16 --acc fp32 --warps 010
expect 0 "^benchmark: 16 warp\(s\)" --arch a100 --op mma.m16n8k16 --in fp16 --acc fp32 --warps 0x10
expect 2 "takes no other argument \('--bogus'\)" --list --bogus
# An instruction the GPU's PTX target lacks is timed as a what-if, and says so (it was
# printed like a measured one); one it has prints no such line.
expect 0 "^what-if: PTX for rtx2080ti \(turing, sm_75\) has no mma.m16n8k16 with fp16 inputs and fp32 accumulator \(from sm_80 on\)" \
    --arch rtx2080ti --op mma.m16n8k16 --in fp16 --acc fp32
expect 0 "^what-if: PTX for a100 \(ampere, sm_80\) has no mma.m16n8k32 with fp16 inputs and fp32 accumulator: " \
    --arch a100 --op mma.m16n8k32 --in fp16 --acc fp32
expect 0 "^what-if: .* has no wmma.m16n8k16 with fp16 inputs and fp16 accumulator: " \
    --arch rtx2080ti --op wmma.m16n8k16 --in fp16 --acc fp16
# expect_none RE WHAT ARGS...: for each ARGS (one string of options), `tcsim timing ARGS`
# prints no line matching RE (one that would call the instruction WHAT).
expect_none() {
    local re=$1 what=$2 args
    shift 2
    for args in "$@"; do
        if "$tcsim" timing $args 2>&1 | grep -q "$re"; then
            echo "FAIL: tcsim timing $args calls $what"; fail=1
        fi
    done
}
expect_none what-if "the GPU's own instruction a what-if" \
    "--arch a100 --op mma.m16n8k16 --in fp16 --acc fp32" \
    "--arch rtx2080ti --op mma.m16n8k8 --in fp16 --acc fp16" \
    "--arch rtx2080ti --op wmma.m32n8k16 --in int8 --acc s32" \
    "--arch rtx3070ti --op mma.sp.m16n8k32 --in fp16 --acc fp32"
# Hopper's fp8 mma.sync is an fp16 emulation (the profile's kind; measured on the H200):
# the structure's native figures say so; Ada's native fp8 mma and Hopper's fp16 do not.
expect 0 "^emulated: h200 \(hopper\) runs mma with e4m3 inputs as conversions, fp16 mma " \
    --arch h200 --op mma.m16n8k32 --in e4m3 --acc fp32
expect_none '^emulated:' "a native mma emulated" \
    "--arch l40s --op mma.m16n8k32 --in e4m3 --acc fp32" \
    "--arch h200 --op mma.m16n8k16 --in fp16 --acc fp32"
# Hopper and Blackwell (issue 32): wgmma and tcgen05.mma as asynchronous operations,
# latencies worked by hand in test_async_timing.c; the records' assumed latencies are
# named on an uncalibrated: line, which the seed GPUs' figures never print.
# h100 m64n256k16 (the H200's calibration): completion 13 + 16/4 + 64 + 64 + async_wait
# 169 = 314; one warpgroup ILP 1: + warp_overhead 7 = 321; ILP 4: 3 x 128 more = 705
expect 0 '^latency 321\.0 cycles per iteration$' --arch h100 --op wgmma.m64n256k16 --in fp16 --acc fp32 --warps 4 --ilp 1
expect 0 '^latency 705\.0 cycles per iteration$' --arch h100 --op wgmma.m64n256k16 --in fp16 --acc fp32 --warps 4 --ilp 4
expect 0 '^throughput 204[0-7]\.[0-9] FMA/clk/SM$' --arch h100 --op wgmma.m64n256k16 --in fp16 --acc fp32 --warps 8 --ilp 4
expect 0 'completion latency 314 cycles' --arch hopper --op wgmma.m64n256k16 --in bf16 --acc fp32
expect 0 '^uncalibrated: depth, drain_rows, step_fwd, acc32_extra, ii_min, warp_overhead, async_wait of h100 are assumed' \
    --arch h100 --op wgmma.m64n256k16 --in fp16 --acc fp32
# the H200's measured keys are not named; mma.sync names no async_wait
expect 0 '^uncalibrated: drain_rows, step_fwd, acc32_extra, warp_overhead of h200 are assumed' \
    --arch h200 --op wgmma.m64n256k16 --in fp16 --acc fp32
expect 0 '^uncalibrated: drain_rows, step_fwd, acc32_extra, warp_overhead of h200 are assumed' \
    --arch h200 --op mma.m16n8k16 --in fp16 --acc fp32
expect 0 'completion latency 142 cycles \(to the mbarrier\)' --arch b200 --op tcgen05.m128n256k16 --in fp16 --acc fp32
expect 0 '^throughput 4095\.7 FMA/clk/SM$' --arch b200 --op tcgen05.m128n256k16 --in fp16 --acc fp32 --warps 8 --ilp 4
expect 0 '^uncalibrated: depth, warp_overhead, async_wait of b200' --arch b200 --op tcgen05.m128n256k16 --in fp16 --acc fp32
expect 0 '^uncalibrated: .*of l40s' --arch l40s --op mma.m16n8k32 --in e4m3 --acc fp32
expect 2 'multiple of 4' --arch h100 --op wgmma.m64n256k16 --in fp16 --acc fp32 --warps 6
expect 2 'wgmma.m64n256k8 on h100: shape not supported' --arch h100 --op wgmma.m64n256k8 --in fp16 --acc fp32
expect 2 'not supported' --arch l40s --op wgmma.m64n256k16 --in fp16 --acc fp32
expect 2 "bad --op 'wgmma.m64'" --arch h100 --op wgmma.m64 --in fp16 --acc fp32
for g in v100 a100 rtx3070ti rtx2080ti; do
    if "$tcsim" timing --arch $g --op mma.m16n8k16 --in fp16 --acc fp32 | grep -q uncalibrated; then
        echo "FAIL: $g prints an uncalibrated: line (its parameters are the seeds')"; fail=1
    fi
done
# --params: a record from a file, as the probe writes it; errors name the file.
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
sed -n '/^gpu a100 /,/volta_fedps_per_tg/p' "$(dirname "$0")/../../data/timing.txt" | sed 's/gpu a100/gpu mygpu/; s/depth 14/depth ~20/' > "$tmp/rec.txt"
expect 0 'completion latency 32 cycles' --arch mygpu --params "$tmp/rec.txt" --op mma.m16n8k16 --in fp16 --acc fp32
expect 0 '^uncalibrated: depth of mygpu is assumed' --arch mygpu --params "$tmp/rec.txt" --op mma.m16n8k16 --in fp16 --acc fp32
expect 2 "has no 'gpu a100' record" --arch a100 --params "$tmp/rec.txt" --op mma.m16n8k16 --in fp16 --acc fp32
expect 2 "--params .*nofile.*No such file" --arch a100 --params "$tmp/nofile" --op mma.m16n8k16 --in fp16 --acc fp32
echo "gpu mygpu arch ampere subcores" > "$tmp/bad.txt"
expect 2 "malformed record" --arch mygpu --params "$tmp/bad.txt" --op mma.m16n8k16 --in fp16 --acc fp32
expect 0 "^mma +m16n8k16 +fp16 +fp32 +sm_80$" --list-ptx
expect 0 "^wmma +m32n8k16 +int8 +s32 +sm_72$" --list-ptx
expect 2 "--list-ptx takes no other argument \('--arch'\)" --list-ptx --arch a100
# The benchmark's options mean nothing to a wmma (one warp's HMMA sequence): refused, not
# ignored (they were, silently).
expect 2 "tcsim timing: --warps is for mma" --arch v100 --op wmma.m16n16k16 --in fp16 --acc fp32 --warps 4
expect 2 "tcsim timing: --ilp is for mma" --arch v100 --op wmma.m16n16k16 --in fp16 --acc fp32 --ilp 2
expect 2 "tcsim timing: --iters is for mma" --arch rtx2080ti --op wmma.m16n16k16 --in fp16 --acc fp16 --iters 5
expect 2 "takes no other argument \('--arch'\)" --arch a100 --list
# Formats the arch has no instruction for: no timing for an instruction that does not
# exist (the profile table is the list: bf16 and tf32 from Ampere, fp8 from Ada).
expect 2 "not supported" --arch v100 --op mma.m16n8k16 --in bf16 --acc fp32
expect 2 "not supported" --arch a100 --op mma.m16n8k32 --in e4m3 --acc fp32
expect 2 "not supported" --arch a100 --op mma.m16n8k16 --in bf16 --acc fp16
expect 2 "not supported" --arch rtx2080ti --op mma.m16n8k8 --in tf32 --acc fp32
expect 0 "completion latency" --arch rtx2080ti --op mma.m8n8k32 --in int4 --acc s32
# The largest shape, by hand from timing.txt's a100 line: 256 FMA/clk, 512 k-steps of
# 4096*4096*8/256 = 2^19 beats: issue interval 2^28, latency 14 + 4096/4 + 511 * 2^19 =
# 267912206. One warp, ILP 1: the 200 mma go every 2^28 cycles, the last done after its
# latency: 199 * 2^28 + 267912206 = 53686567950 cycles, 268432839.75 per iteration. The
# benchmark jumps over cycles in which nothing can issue (it stepped one at a time:
# some five minutes).
out=$(timeout 60 "$tcsim" timing --arch a100 --op mma.m4096n4096k4096 --in fp16 --acc fp32 2>&1)
if [ $? != 0 ] || ! grep -q '^latency 268432839\.8 cycles per iteration$' <<<"$out"; then
    echo "FAIL: mma.m4096n4096k4096 on a100 (within 60 s):"; echo "$out"; fail=1
fi
# An error prints nothing on stdout: no header of a result that never comes.
out=$("$tcsim" timing --arch a100 --op mma.m16n8k12 --in fp16 --acc fp32 2>/dev/null)
if [ -n "$out" ]; then
    echo "FAIL: an unsupported shape printed on stdout: $out"
    fail=1
fi
# --progress: on stderr (not a terminal here) each tenth of the mma simulated, the last
# at 100%; stdout as without it. A short run without --progress reports nothing.
args="--arch a100 --op mma.m16n8k16 --in fp16 --acc fp32 --warps 8 --ilp 4 --iters 100"
tmp=$(mktemp -d)
plain=$("$tcsim" timing $args 2>"$tmp/quiet.err")
with=$("$tcsim" timing $args --progress 2>"$tmp/progress.err")
want=$(for p in 10 20 30 40 50 60 70 80 90 100; do printf 'tcsim timing: %3d%% of 3200 mma simulated\n' $p; done)
if [ "$plain" != "$with" ] || [ -s "$tmp/quiet.err" ] ||
   [ "$(sed 's/, [0-9]* s$//' "$tmp/progress.err")" != "$want" ]; then
    echo "FAIL: --progress: stdout differs, or stderr is not the ten tenths:"
    diff <(echo "$plain") <(echo "$with"); cat "$tmp/quiet.err" "$tmp/progress.err"; fail=1
fi
rm -rf "$tmp"
# Whole reports, each line by hand from timing.txt and docs/timing.md's formulas (m16n8k16
# fp16, k_step 8: two steps). a100: rate 1 x 64 x 4 = 256, beats 16*8*8/256 = 4, issue 8,
# latency 14 + 16/4 + max(8, 4) = 26; one warp waits for each mma: 200 x 26 cycles,
# 2048 FMA / 26 = 78.8 a cycle; fp32 at the full rate: no front-end line. rtx2080ti:
# 2 x 16 x 4 = 128, fp32 at half: 64, beats 16, issue 32, latency 7 + 16/2 + 16 + 3 =
# 34; the front end at 128: 2 x 1024/128 = 16 cycles, acc32_buffer 1: 16 ahead.
# rtx3070ti: 1 x 32 x 4 = 128 the same, latency 14 + 4 + 16 = 34, acc32_buffer 0: 0.
expect_report() { # expect_report "LINES" ARGS...: the whole stdout
    local want=$1; shift
    out=$("$tcsim" timing "$@" 2>&1)
    if [ "$out" != "$(printf '%b' "$want")" ]; then
        echo "FAIL: tcsim timing $*:"; echo "$out"; fail=1
    fi
}
m16="--op mma.m16n8k16 --in fp16 --acc fp32"
expect_report "gpu a100 (ampere): mma.m16n8k16 fp16 -> fp32
instruction: 2 step(s) of 4 beat(s), issue interval 8 cycles, completion latency 26 cycles
benchmark: 1 warp(s) x ILP 1, 200 iterations, 5200 cycles
latency 26.0 cycles per iteration
throughput 78.8 FMA/clk/SM" --arch a100 $m16
expect_report "gpu rtx2080ti (turing): mma.m16n8k16 fp16 -> fp32
what-if: PTX for rtx2080ti (turing, sm_75) has no mma.m16n8k16 with fp16 inputs and fp32 accumulator (from sm_80 on): the structure's figures, checked against no measurement
instruction: 2 step(s) of 16 beat(s), issue interval 32 cycles, completion latency 34 cycles
front end: 16 cycles, ahead of the accumulator by up to 16
benchmark: 1 warp(s) x ILP 1, 200 iterations, 6800 cycles
latency 34.0 cycles per iteration
throughput 60.2 FMA/clk/SM" --arch rtx2080ti $m16
expect 0 "^front end: 16 cycles, ahead of the accumulator by up to 0$" --arch rtx3070ti $m16
# --list: every GPU of timing.txt, its parameters in the header's order, read from the
# file itself
keys="arch subcores tc_per_subcore fedps_per_tc fedp_len16 acc32_rate_div step_k16 depth
      drain_rows step_fwd acc32_extra ii_min sparse_ii_min ii_extra sparse_ii_extra
      warp_overhead measure_offset acc32_buffer async_wait"
timing_txt=$(dirname "$0")/../../data/timing.txt
# (a value's "~" mark, uncalibrated, is not a column of --list)
want=$(sed -e 's/#.*//' -e ':a' -e '/\\$/{N; s/\\\n/ /; ta' -e '}' -e 's/~//g' "$timing_txt" |
       awk -v keys="$keys" '$1 == "gpu" { split("", v); v["async_wait"] = 0  # optional keys
                                          v["ii_extra"] = v["sparse_ii_extra"] = 0
                                          for (i = 1; i < NF; i += 2) v[$i] = $(i + 1)
                                          n = split(keys, k); s = v["gpu"]
                                          for (j = 1; j <= n; j++) s = s " " v[k[j]]; print s }')
got=$("$tcsim" timing --list | tail -n +2 | tr -s ' ')
if [ -z "$want" ] || [ "$got" != "$want" ]; then
    echo "FAIL: timing --list is not timing.txt:"; diff <(echo "$want") <(echo "$got"); fail=1
fi
# a table: every line as long as the header (b200's "blackwell" overran the arch column)
widths=$("$tcsim" timing --list | awk '{ print length($0) }' | sort -u | wc -l)
[ "$widths" = 1 ] || { echo "FAIL: timing --list lines of $widths lengths:"; "$tcsim" timing --list; fail=1; }
# the limits docs/timing.md gives for the largest run: 64 warps, ILP 16, 10^6 iterations
expect 0 "^benchmark: 64 warp\(s\) x ILP 16, 1 iterations" --arch a100 $m16 --warps 64 --ilp 16 \
    --iters 1
expect 2 "bad value for --warps '65' \(an integer from 1 to 64\)" --arch a100 $m16 --warps 65
expect 2 "bad value for --ilp '17' \(an integer from 1 to 16\)" --arch a100 $m16 --ilp 17
expect 2 "bad value for --iters '1000001' \(an integer from 1 to 1000000\)" --arch a100 $m16 \
    --iters 1000001
if [ $fail = 0 ]; then echo PASSED; else echo FAILED; fi
exit $fail
