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
expect 2 "unknown --arch 'h200'" --arch h200 --op mma.m16n8k16 --in fp16 --acc fp32
expect 2 "bad --op 'mma.m16n8'" --arch a100 --op mma.m16n8 --in fp16 --acc fp32
expect 2 "required" --arch a100 --op mma.m16n8k16 --in fp16
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
if [ $fail = 0 ]; then echo PASSED; else echo FAILED; fi
exit $fail
