#!/bin/bash
# probe_cli_test.sh PROBE CANNED TCSIM WORK - tcsim-probe as a user runs it, without a
# GPU: --list for four targets, a canned run (probe_canned.c: the model as the device)
# whose files `tcsim vectors` and `tcsim timing --params` read back, a canned GPU that
# disagrees (tcsim vectors must say so), and bad arguments.
probe=$1; canned=$2; tcsim=$3; work=$4
fail=0
bad() { echo "FAIL: $*"; fail=1; }
rm -rf "$work" && mkdir -p "$work" || exit 1
# The "gpu" line of a timing record, its continuation lines joined.
record_line() { sed -e ':a' -e '/\\$/{N; s/\\\n/ /; ta' -e '}' "$1" | grep '^gpu '; }

# --list: the PTX table's forms of each target, and the kernels this build has
for sm in 80 89 90 100; do
    "$probe" --list --sm $sm >"$work/list$sm.txt" || bad "--list --sm $sm exited $?"
done
grep -qE '^mma\.m16n8k16 +fp16 +fp32 +yes +yes$' "$work/list80.txt" || bad "sm_80 lacks mma.m16n8k16"
grep -q 'e4m3' "$work/list80.txt" && bad "sm_80 lists fp8"
grep -qE '^mma\.m16n8k32 +e4m3 +fp32 +yes' "$work/list89.txt" || bad "sm_89 lacks fp8 mma"
grep -qE '^wgmma\.m64n256k16 +fp16 +fp32 +- +yes$' "$work/list90.txt" || bad "sm_90 lacks wgmma"
grep -qE '^tcgen05\.m128n256k16 +bf16 +fp32' "$work/list100.txt" || bad "sm_100 lacks tcgen05"
grep -q wgmma "$work/list100.txt" && bad "sm_100 lists wgmma"
grep -qE '^tcgen05\.m128n16k32 +e2m1 +fp16 +yes +-$' "$work/list100.txt" || bad "sm_100 lacks fp4 f8f6f4"
grep -qE '^tcgen05\.m128n16k32 +e4m3xe2m1 +fp32 +yes +-$' "$work/list100.txt" || bad "sm_100 lacks a mixed pair"
grep -qE '^tcgen05\.mxf4nvf4\.m128n16k64 +e2m1\.ue4m3 +fp32 +yes +-$' "$work/list100.txt" ||
    bad "sm_100 lacks mxf4nvf4"
[ "$(grep -c '^tcgen05\.mxf' "$work/list100.txt")" = 28 ] ||
    bad "sm_100: not the 28 block-scaled forms (8 one-format, 20 mxf8f6f4 pairs)"
# issue 33's forms: b1, the pairs, each with a numerics kernel
grep -qE '^mma\.m16n8k256 +b1\.and +s32 +yes +-$' "$work/list80.txt" || bad "sm_80 lacks b1 .and.popc"
grep -qE '^mma\.m8n8k32 +int4xuint4 +s32 +yes +-$' "$work/list80.txt" || bad "sm_80 lacks s4 x u4"
grep -qE '^mma\.m16n8k64 +uint4 +s32 +yes +yes$' "$work/list89.txt" || bad "sm_89 lacks u4"
grep -qE '^mma\.m16n8k32 +e5m2xe4m3 +fp16 +yes +-$' "$work/list89.txt" || bad "sm_89 lacks e5m2 x e4m3"
grep -qE '^mma\.sp\.m16n8k64 +e4m3xe5m2 +fp32 +yes +-$' "$work/list90.txt" || bad "sm_90 lacks sparse fp8 pairs"
grep -qE '^wgmma\.m64n8k32 +e4m3xe5m2 +fp16 +yes +-$' "$work/list90.txt" || bad "sm_90 lacks wgmma fp8 pairs"
grep -qE '^wgmma\.m64n8k32 +uint8xint8 +s32 +yes +-$' "$work/list90.txt" || bad "sm_90 lacks wgmma u8 x s8"
grep -qE '^tcgen05\.m128n16k32 +int8xuint8 +s32 +yes +-$' "$work/list100.txt" || bad "sm_100 lacks i8 pairs"
grep -qE '^tcgen05\.mxf8f6f4\.m128n16k32 +e2m1xe4m3 +fp32 +yes +-$' "$work/list100.txt" ||
    bad "sm_100 lacks mxf8f6f4 pairs"
# fp64 (DMMA): m8n8k4 from sm_80, m16n8k4/k8/k16 from sm_90; numerics, no timing
grep -qE '^mma\.m8n8k4 +fp64 +fp64 +yes +-$' "$work/list80.txt" || bad "sm_80 lacks fp64 m8n8k4"
grep -q 'mma\.m16n8k16 *fp64' "$work/list80.txt" && bad "sm_80 lists fp64 m16n8k16"
for sm in 90 100; do
    [ "$(grep -cE '^mma\.m(8n8k4|16n8k4|16n8k8|16n8k16) +fp64 +fp64 +yes +-$' "$work/list$sm.txt")" = 4 ] ||
        bad "sm_$sm: not the 4 fp64 forms"
done
"$probe" --list --sm 61 2>"$work/err" >/dev/null; [ $? = 2 ] && grep -q "sm_61\|--sm 61" "$work/err" || bad "--sm 61 not refused"
"$probe" --bogus x 2>"$work/err"; [ $? = 2 ] && grep -q "unknown option '--bogus'" "$work/err" || bad "--bogus"
"$probe" --out "$work/x" --cases 0 2>"$work/err"; [ $? = 2 ] || bad "--cases 0 accepted"
"$probe" --list --out "$work/x" 2>/dev/null; [ $? = 2 ] || bad "--list with --out accepted"

# A canned H100 run: the files, then tcsim reading them.
out="$work/h100"
PROBE_CANNED_SM=90 "$canned" --out "$out" --cases 400 --iters 100 --date 2026-01-01T00:00:00Z \
    >/dev/null || bad "canned run exited $?"
grep -qx 'date 2026-01-01T00:00:00Z' "$out/gpu.txt" && grep -qx 'clock_mhz 1830' "$out/gpu.txt" ||
    bad "gpu.txt lacks date or clock"
[ -f "$out/vectors/mma_m16n8k16_fp16/d_H100_fp16.txt" ] || bad "no fp16-output set"
[ "$(wc -l <"$out/vectors/mma_m16n8k16_fp16/a_H100_fp16.txt")" = 400 ] || bad "not 400 cases"
[ -f "$out/vectors/wgmma_m64n8k32_e5m2/d_H100_fp16.txt" ] || bad "no wgmma fp8 -> fp16 set"
: >"$work/vec.txt"
for dir in "$out"/vectors/*/; do
    form=$(basename "$dir")
    "$tcsim" vectors "$dir" --instr "${form%%_*}" >>"$work/vec.txt" 2>&1 ||
        { bad "tcsim vectors on the canned run's $form:"; cat "$work/vec.txt"; }
done
# sm_90's 24 dense mma forms (the m16n8k4..k32, m8n8k16 and m8n8k4 shapes), 12 mma.sp
# ones (all but tf32's), issue 33's 6 b1, 6 + 4 int8 pairs and 8 + 2 e4m3 x e5m2 pairs
# (dense + mma.sp), 4 fp64, and 16 wgmma m64n8 (8 floating-point, int8 and uint8, 4 fp8
# pairs, 2 int8 pairs)
[ "$(grep -c 'hopper_mma_' "$work/vec.txt")" = 66 ] || bad "not the 66 mma sets read back"
[ -f "$out/vectors/mma_sp_m16n8k64_e4m3/d_H100_fp32.txt" ] || bad "no mma.sp set"
[ "$(grep -c 'hopper_wgmma_' "$work/vec.txt")" = 16 ] || bad "not the 16 wgmma sets read back"
grep -qE '^b1\.xor_s32 +hopper_mma_b1_xor_s32 +256 +400 +400 +0$' "$work/vec.txt" ||
    bad "no b1 set read back"
[ "$(cat "$out/vectors/mma_m16n8k128_b1_and/kind_H100.txt")" = and ] || bad "no b1 op file"
grep -qE '^uint8xint8_s32 +hopper_mma_uint8xint8_s32 +32 +400 +400 +0$' "$work/vec.txt" ||
    bad "no mma int8 pair read back"
grep -qE '^e5m2xe4m3_fp16 +hopper_wgmma_e5m2xe4m3_fp16 +32 +400 +400 +0$' "$work/vec.txt" ||
    bad "no wgmma fp8 pair read back"
# a b1 set without its op: refused naming the file
cp -r "$out/vectors/mma_m8n8k128_b1_xor" "$work/noop" && echo or >"$work/noop/kind_H100.txt"
"$tcsim" vectors "$work/noop" >/dev/null 2>"$work/err"
[ $? = 2 ] && grep -q 'kind_H100.txt' "$work/err" || bad "a b1 set with a bad op accepted"
# fp64: 16-hex-digit words, read back through tc_dot_f64; a malformed word (17 digits)
# or an fp64 set without its binary64 c is refused naming the file (and line)
grep -qE '^fp64_fp64 +hopper_mma_fp64_fp64 +16 +400 +400 +0$' "$work/vec.txt" ||
    bad "no fp64 m16n8k16 set read back"
fdir="$out/vectors/mma_m16n8k8_fp64"
[ "$(head -1 "$fdir/a_H100_fp64.txt" | awk '{print length($1), NF}')" = "16 8" ] ||
    bad "fp64 a words are not 8 of 16 hex digits"
cp -r "$fdir" "$work/badf64" && sed -i '3s/^[0-9a-f]*/1&/' "$work/badf64/b_H100_fp64.txt"
"$tcsim" vectors "$work/badf64" >/dev/null 2>"$work/err"
[ $? = 2 ] && grep -q 'b_H100_fp64.txt:3: .*at most 16 digits' "$work/err" ||
    bad "a 17-digit fp64 word accepted: $(cat "$work/err")"
cp -r "$fdir" "$work/nocf64" && mv "$work/nocf64/c_H100_fp64.txt" "$work/nocf64/c_H100_fp32.txt"
"$tcsim" vectors "$work/nocf64" >/dev/null 2>"$work/err"
[ $? = 2 ] && grep -q 'd_H100_fp64.txt: an fp64 set' "$work/err" ||
    bad "an fp64 set with an fp32 c accepted: $(cat "$work/err")"
grep -qE '^int8_s32 +hopper_mma_int8_s32 +32 +400 +400 +0$' "$work/vec.txt" ||
    bad "no integer set read back"
[ "$(head -c 8 "$out/vectors/mma_m16n8k32_int8/c_H100_s32.txt")" ] || bad "no s32 c file"
# depth, ii_min, ii_extra, sparse_ii_extra and async_wait raised by 3, 1, 1, 1 and 5 on
# the canned device: the record finds them (h100: m16n8k16 fp16 -> fp32 is 13 + 16/4 +
# 8 = 25 cycles on the built-in record, 28 measured; ii_min 4 -> 5, held by m8n8k16
# int8's 1 beat + 3; ii_extra 2 -> 3; sparse_ii_extra 2 -> 3; async_wait 169 -> 174),
# unmarked
rec=$(record_line "$out/timing.txt")
grep -qE '^gpu h100 arch hopper .* depth 16 .* ii_min 5 .* async_wait 174 ii_extra 3 sparse_ii_extra 3$' \
    <<<"$rec" ||
    bad "timing.txt has not calibrated depth 16, ii_min 5, async_wait 174, ii_extra 3," \
        "sparse_ii_extra 3: $rec"
"$tcsim" timing --params "$out/timing.txt" --arch h100 --op mma.m16n8k16 --in fp16 --acc fp32 \
    >"$work/t.txt" 2>&1 || bad "tcsim timing --params exited $?"
grep -q 'completion latency 28 cycles' "$work/t.txt" || { bad "the record does not give 28:"; cat "$work/t.txt"; }
grep -q '^uncalibrated: drain_rows' "$work/t.txt" || bad "the uncalibrated keys lost their mark"
grep -qE '^# wgmma\.m64n256k16 +fp16>fp32 +8 +4 ' "$out/timing.txt" || bad "no wgmma point in the table"

# A GPU that disagrees with the model in one result: tcsim vectors says so (exit 1).
PROBE_CANNED_SM=90 PROBE_CANNED_FLIP=1 "$canned" --out "$work/flip" --cases 80 --iters 10 \
    >/dev/null || bad "flipped canned run exited $?"
"$tcsim" vectors "$work/flip/vectors/mma_m16n8k16_fp16" >/dev/null 2>&1; [ $? = 1 ] || bad "a flipped result went unnoticed"
"$tcsim" vectors "$work/flip/vectors/wgmma_m64n8k16_fp16" --instr wgmma >/dev/null 2>&1
[ $? = 1 ] || bad "a flipped wgmma result went unnoticed"
# fp64: the flipped case named with its words, which `tcsim dot` gives the model's d for
"$tcsim" vectors "$work/flip/vectors/mma_m16n8k8_fp64" >"$work/flip64.txt" 2>&1
[ $? = 1 ] && grep -q '^    case 3: model [0-9a-f]\{16\}, H100 ' "$work/flip64.txt" ||
    bad "a flipped fp64 result went unnoticed: $(cat "$work/flip64.txt")"
want=$(sed -n 's/.*case 3: model \([0-9a-f]*\),.*/\1/p' "$work/flip64.txt")
got=$(sed -n '/input of/{n;p;q}' "$work/flip64.txt" |
      "$tcsim" dot --arch hopper --in fp64 --out fp64 2>&1)
[ -n "$want" ] && [ "$got" = "$want" ] ||
    bad "the flipped fp64 case through tcsim dot: $got, not $want"
for set in mma_m16n8k256_b1_xor mma_m8n8k16_uint8xint8 mma_m16n8k32_e5m2xe4m3 \
           mma_sp_m16n8k64_e4m3xe5m2 wgmma_m64n8k32_e4m3xe5m2 wgmma_m64n8k32_int8xuint8; do
    "$tcsim" vectors "$work/flip/vectors/$set" --instr "${set%%_*}" >/dev/null 2>&1
    [ $? = 1 ] || bad "a flipped $set result went unnoticed"
done

# A canned B200 run: tcgen05.mma's numerics sets (m128n16, 16 cases an instruction:
# fp16 and e4m3/e5m2 with both accumulators, bf16, tf32, int8, uint8) read back by
# tcsim vectors, and its timing points calibrating the record: depth and async_wait
# raised by 3 and 5 on the canned device (ii_min, ii_extra and sparse_ii_extra by 1: the
# b200 record has none, so 1 each), so a tcgen05.mma's completion latency under the
# record is the built-in record's plus 8.
out="$work/b200"
PROBE_CANNED_SM=100 "$canned" --out "$out" --cases 400 --iters 100 >/dev/null ||
    bad "canned B200 run exited $?"
: >"$work/vec100.txt"
for dir in "$out"/vectors/tcgen05_*/; do
    "$tcsim" vectors "$dir" --instr tcgen05 >>"$work/vec100.txt" 2>&1 ||
        { bad "tcsim vectors on the canned B200's $(basename "$dir"):"; cat "$work/vec100.txt"; }
done
# 16 one-format sets (fp16, e4m3, e5m2, e3m2, e2m3, e2m1 with both accumulators, bf16,
# tf32, int8, uint8), the 40 mixed kind::f8f6f4 sets and kind::i8's 2 pairs, 8
# block-scaled ones and the 20 mxf8f6f4 pairs, and the CTA pair's 10 one-format kinds
# with a 32-bit accumulator (m256n32, 32 cases an instruction)
[ "$(grep -c 'blackwell_tcgen05_' "$work/vec100.txt")" = 96 ] ||
    bad "not the 96 tcgen05 sets read back: $(cat "$work/vec100.txt")"
grep -qE '^tcgen05\.pair\.m256n32k32 +int8 +s32 +yes +-$' "$work/list100.txt" ||
    bad "sm_100 lacks the CTA pair's kind::i8"
[ "$(grep -c '^tcgen05\.pair\.m256n32' "$work/list100.txt")" = 10 ] ||
    bad "sm_100: not the CTA pair's 10 kinds"
grep -qE '^int8xuint8_s32 +blackwell_tcgen05_int8xuint8_s32 +32 +400 +400 +0$' "$work/vec100.txt" ||
    bad "no kind::i8 pair read back"
grep -qE '^e2m1xe4m3_fp32 +blackwell_tcgen05_mxf8f6f4_e2m1xe4m3_fp32 +32 +400 +400 +0$' \
    "$work/vec100.txt" || bad "no mxf8f6f4 pair read back"
[ -f "$out/vectors/tcgen05_pair_m256n32k16_fp16/d_B200_fp32.txt" ] || bad "no CTA pair set"
grep -qE '^# tcgen05\.pair\.m256n256k16 +fp16>fp32 +16 +4 ' "$out/timing.txt" ||
    bad "no CTA pair timing point"
grep -qE '^e2m1xe3m2_fp16 +blackwell_tcgen05_e2m1xe3m2_fp16 +32 +400 +400 +0$' "$work/vec100.txt" ||
    bad "no mixed pair read back"
grep -qE '^e2m1_fp32 +blackwell_tcgen05_mxf4nvf4_e2m1_ue4m3_fp32 +64 +400 +400 +0$' \
    "$work/vec100.txt" || bad "no mxf4nvf4 set read back"
grep -qE '^e3m2_fp32 +blackwell_tcgen05_mxf8f6f4_e3m2_fp32 +32 +400 +400 +0$' "$work/vec100.txt" ||
    bad "no mxf8f6f4 set read back"
sdir="$out/vectors/tcgen05_mxf4_m128n16k64_e2m1_ue8m0"
[ "$(head -1 "$sdir/sa_B200_ue8m0.txt" | wc -w)" = 2 ] && [ "$(cat "$sdir/kind_B200.txt")" = mxf4 ] ||
    bad "mxf4's scale files: not 2 scales a case, or not its kind"
# a scaled set without its kind, or with a scale that is no ue8m0 pattern: refused (2)
cp -r "$sdir" "$work/nokind" && rm "$work/nokind/kind_B200.txt"
"$tcsim" vectors "$work/nokind" --instr tcgen05 >/dev/null 2>"$work/err"
[ $? = 2 ] && grep -q 'kind_B200.txt' "$work/err" || bad "a scaled set without kind_ accepted"
cp -r "$sdir" "$work/badsf" && sed -i '3s/^[0-9a-f]*/1ff/' "$work/badsf/sb_B200_ue8m0.txt"
"$tcsim" vectors "$work/badsf" --instr tcgen05 >/dev/null 2>"$work/err"
[ $? = 2 ] && grep -q 'sb_B200_ue8m0.txt:3:' "$work/err" || bad "a 9-bit ue8m0 scale accepted"
grep -qE '^int8_s32 +blackwell_tcgen05_int8_s32 +32 +400 +400 +0$' "$work/vec100.txt" ||
    bad "no tcgen05 integer set read back"
grep -qE '^# tcgen05\.m128n256k32 +e4m3>fp32 +16 +4 ' "$out/timing.txt" || bad "no tcgen05 point in the table"
rec=$(record_line "$out/timing.txt")
grep -q '^gpu b200 arch blackwell .* async_wait 5 ii_extra 1 sparse_ii_extra 1$' <<<"$rec" ||
    bad "the B200 record has not calibrated async_wait 5 from tcgen05.mma: $rec"
lat() { sed -n 's/.*completion latency \([0-9]*\) cycles.*/\1/p'; }
t0=$("$tcsim" timing --arch b200 --op tcgen05.m128n256k16 --in fp16 --acc fp32 | lat)
t1=$("$tcsim" timing --params "$out/timing.txt" --arch b200 --op tcgen05.m128n256k16 \
     --in fp16 --acc fp32 | lat)
[ -n "$t0" ] && [ "$t1" = $((t0 + 8)) ] || bad "tcgen05 latency under the record: $t1, not $t0 + 8"
PROBE_CANNED_SM=100 PROBE_CANNED_FLIP=1 "$canned" --out "$work/flip100" --cases 64 --iters 10 \
    >/dev/null || bad "flipped canned B200 run exited $?"
for set in tcgen05_m128n16k16_bf16 tcgen05_m128n16k32_e4m3xe2m1 tcgen05_pair_m256n32k16_fp16 \
           tcgen05_pair_m256n32k8_tf32 tcgen05_pair_m256n32k32_e2m1 tcgen05_pair_m256n32k32_uint8 \
           tcgen05_m128n16k32_uint8xint8 tcgen05_mxf8f6f4_m128n16k32_e3m2xe2m1 \
           tcgen05_mxf4nvf4_m128n16k64_e2m1_ue8m0 tcgen05_mxf8f6f4_m128n16k32_e2m3_ue8m0; do
    "$tcsim" vectors "$work/flip100/vectors/$set" --instr tcgen05 >"$work/flip.txt" 2>&1
    [ $? = 1 ] || bad "a flipped $set result went unnoticed"
done
# the differing case as `tcsim dot` input (the scales between b and c) gives the model's d
line=$(sed -n '/input of/{n;p;q}' "$work/flip.txt")
want=$(sed -n 's/.*case [0-9]*: model \([0-9a-f]*\),.*/\1/p' "$work/flip.txt" | head -1)
got=$(echo "$line" | "$tcsim" dot --arch blackwell --instr tcgen05 --in e2m3 --out fp32 \
      --kind mxf8f6f4 --scale ue8m0 2>&1)
[ -n "$want" ] && [ "$got" = "$want" ] || bad "the flipped mxf8f6f4 case through tcsim dot: $got, not $want"

# probe/run.sh end to end on the canned device: the probe, then tcsim on what it wrote.
PROBE_CANNED_SM=89 TCSIM_PROBE="$canned" TCSIM="$tcsim" \
    bash "$(dirname "$0")/../run.sh" "$work/run" --cases 160 --iters 50 >"$work/run.txt" 2>&1 ||
    { bad "run.sh exited $?:"; tail -20 "$work/run.txt"; }
grep -qE '^e4m3_fp32 +ada_mma_e4m3_fp32 +32 +160 +160 +0$' "$work/run.txt" || bad "run.sh: no L40S fp8 set checked"
grep -q '^gpu l40s (ada): mma.m16n8k16 fp16 -> fp32' "$work/run.txt" || bad "run.sh: no timing check"

# Without CUDA, tcsim-probe has no GPU to measure and says so.
if "$probe" --out "$work/none" 2>"$work/err"; then
    :   # built with CUDA and a GPU present
else
    grep -q "no GPU\|no CUDA device" "$work/err" || bad "no reason given: $(cat "$work/err")"
fi
[ $fail = 0 ] && echo PASSED || echo FAILED
exit $fail
