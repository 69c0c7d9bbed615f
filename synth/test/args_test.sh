#!/usr/bin/env bash
# args_test.sh SYNTH_PY WORK TCSIM - synth.py's handling of bad arguments and bad
# blocks files (TCSIM: the build's tcsim, whose fedp-params gives FEDP sources their
# parameters): each must stop it with exit 2 and a message naming the argument or the
# FILE:LINE, before any work starts (never a Python traceback, never a silent exit 0).
# Arguments and files only: no synthesis runs (the full-flow cases are given a liberty
# that does not exist as well, so a regression fails on that instead of synthesizing).
set -uo pipefail
[ $# -eq 3 ] || { echo "usage: args_test.sh SYNTH_PY WORK TCSIM" >&2; exit 2; }
synth=$1 work=$2 tcsim=$3
here=$(cd "$(dirname "$0")" && pwd)
rm -rf "$work"
mkdir -p "$work"
nolib=$work/no_such.lib
status=0

# expect EXIT REGEX ARGS...: synth.py ARGS exits EXIT with a message matching REGEX and
# without a traceback.
expect() {
    local want=$1 regex=$2
    shift 2
    echo "== synth.py $*"
    local out
    out=$(bash "$here/expect_error.sh" "$want" "$regex" python3 "$synth" "$@" 2>&1)
    local rc=$?
    echo "$out"
    if [ $rc -ne 0 ]; then
        status=1
    elif grep -q 'Traceback' <<<"$out"; then
        echo "args_test: a traceback"
        status=1
    fi
}

# blocks NAME LINE...: a blocks file of tmem blocks (no FEDP: no parameter tool needed)
# with the LINEs added from its line 4 (a `top` line there replaces tmem's own).
blocks() {
    local f=$work/$1.txt
    shift
    {
        echo "# $f"
        case "${1:-}" in
        top\ *) echo "# the top line is line 4" ;;
        *) echo "top tmem lists=tmem.f blackbox=tmem_bank:1.5:0.5:Depth*Lanes*WordW extrapolate=WordW:32" ;;
        esac
        echo "block tmem_w2 tmem - set=WordW=2"
        printf '%s\n' "$@"
    } > "$f"
    echo "$f"
}

run="--work $work/w --reports $work/r"

# ---- the blocks file itself
expect 2 "blocks file .*/nonexistent.*(does not exist|No such)" --blocks "$work/nonexistent" --lint
expect 2 "blocks file $work.*directory" --blocks "$work" --lint
printf 'block tmem_w2 tmem - set=WordW=2 # caf\xe9\n' > "$work/latin1.txt"
expect 2 "blocks file .*latin1\.txt.*UTF-8" --blocks "$work/latin1.txt" --lint

# ---- malformed lines: FILE:LINE, at load time, in lint and in the full flow
f=$(blocks bbox "top tmem blackbox=tmem_bank:x:0.5:Depth*Lanes*WordW")
expect 2 "bbox\.txt:4: .*blackbox.*x" --blocks "$f" --lint --only-top tmem
expect 2 "bbox\.txt:4: .*blackbox.*x" --blocks "$f" --only tmem_w2 $run --liberty "$nolib"
f=$(blocks setabc "block tmem_w4 tmem - set=WordW=abc")
expect 2 "setabc\.txt:4: .*WordW=abc" --blocks "$f" --lint --only-top tmem
expect 2 "setabc\.txt:4: .*WordW=abc" --blocks "$f" --only tmem_w4 $run --liberty "$nolib"
f=$(blocks setnov "block tmem_w4 tmem - set=WordW")
expect 2 "setnov\.txt:4: .*WordW" --blocks "$f" --lint --only-top tmem
expect 2 "setnov\.txt:4: .*WordW" --blocks "$f" --only tmem_w4 $run --liberty "$nolib"
for kv in stages=a:b_q lists=tmem.f params=L blackbox=tmem_bank:1:1:WordW extrapolate=WordW:32; do
    f=$(blocks topkey "block tmem_w4 tmem - $kv")
    expect 2 "topkey\.txt:4: .*${kv%%=*}=" --blocks "$f" --lint --only-top tmem
done
f=$(blocks topset "top tmem set=WordW=4")
expect 2 "topset\.txt:4: .*set=" --blocks "$f" --lint --only-top tmem
f=$(blocks toptwice "top tmem lists=tmem.f" "top tmem lists=tmem.f")
expect 2 "toptwice\.txt:5: .*already.*toptwice\.txt:4" --blocks "$f" --lint --only-top tmem
f=$(blocks source "block tmem_w4 tmem fdp:volta:mma:fp16")
expect 2 "source\.txt:4: .*fdp:volta" --blocks "$f" --lint --only-top tmem
f=$(blocks stage "top tmem stages=mul")
expect 2 "stage\.txt:4: .*mul" --blocks "$f" --lint --only-top tmem

# ---- a mistyped top is an error naming the module it resembles; a module that does not
# exist yet (and resembles none) is still skipped, as blocks.txt documents.
f=$(blocks typo "block tmem_w4 tmme - set=WordW=4")
expect 2 "typo\.txt:4: .*tmme.*tmem" --blocks "$f" --lint
expect 2 "typo\.txt:4: .*tmme.*tmem" --blocks "$f" --only tmem_w4 $run --liberty "$nolib"
f=$(blocks future "block later qqzz_not_written_yet -")
expect 0 "later +skipped: no module qqzz_not_written_yet" --blocks "$f" --lint --only later
# a module that exists in rtl/ but in none of the block's file lists is named with its file
f=$(blocks unlisted "block x tmem_bank -")
expect 0 "x +skipped: rtl/tmem_bank\.sv is not in rtl/rtl\.f" --blocks "$f" --lint --only x

# ---- --lint selects as the full flow does (--only, --quick)
f=$(blocks sel "block later qqzz_not_written_yet -" "block later2 qqzz_not_written_yet - quick")
expect 2 "unknown block.*nosuch" --blocks "$f" --lint --only nosuch
echo "== --lint --only later2 / --quick lint later2 only"
for sel in "--only later2" "--quick"; do
    out=$(python3 "$synth" --blocks "$f" --lint $sel 2>&1)
    rc=$?
    echo "$out"
    if [ $rc -ne 0 ] || ! grep -q 'later2 ' <<<"$out" || grep -Eq 'tmem_w2|later ' <<<"$out"; then
        echo "args_test: --lint $sel did not select later2 alone (exit $rc)"
        status=1
    fi
done

# ---- --quick that selects nothing is an error, not an empty report
f=$(blocks noquick)
expect 2 "--quick: no block in .*noquick\.txt is marked quick" --blocks "$f" --quick $run --liberty "$nolib"
expect 2 "--quick: no block of top tmem in .*noquick\.txt is marked quick" --blocks "$f" --quick --lint --only-top tmem

# ---- numeric arguments, checked before anything runs
f=$(blocks ok)
for p in nan inf -inf 0 -1 abc; do
    expect 2 "--period" --blocks "$f" --only tmem_w2 $run --liberty "$nolib" --period="$p"
done
for j in 0 -1; do
    expect 2 "--jobs" --blocks "$f" --only tmem_w2 $run --liberty "$nolib" --jobs="$j"
done
[ ! -e "$work/w" ] || { echo "args_test: $work/w was created: work started"; status=1; }
# ---- an FEDP block with no tcsim to give its parameters
expect 2 "tcsim '$work/nowhere/tcsim' is missing \(build the target tcsim" \
    --lint --only fedp_volta_fp16 --tcsim "$work/nowhere/tcsim"

# ---- an FEDP source the profile table has no parameter set for: tcsim's message
fedp_top="top fedp params=L,F,InFmts,OutFmts,EminAlignFp32,EminAlignFp16,Fp32ManBits,ScaleFmts,ZeroPlusFp16"
for case in "fp16->bf16|output format 'bf16' is not fp32 or fp16" \
            "tf32|no profile for volta mma tf32" \
            "fp16->|output format '' is not fp32 or fp16" \
            "fp9|unknown format 'fp9'"; do
    printf '%s\nblock bad fedp fedp:volta:mma:%s\n' "$fedp_top" "${case%%|*}" > "$work/badfedp.txt"
    expect 2 "tcsim fedp-params failed \(exit 2\): tcsim fedp-params: bad: ${case#*|}" \
        --blocks "$work/badfedp.txt" --lint --tcsim "$tcsim"
done
printf '%s\nblock bad fedp fedp:ampere:mma:tf32->fp16\n' "$fedp_top" > "$work/badfedp.txt"
expect 2 "tcsim fedp-params: bad: no profile for ampere mma tf32 -> fp16" \
    --blocks "$work/badfedp.txt" --lint --tcsim "$tcsim"
# a preset tc_pkg does not name
printf '%s\nblock bad fedp fedp:volta_fp17\n' "$fedp_top" > "$work/badfedp.txt"
expect 2 "tcsim fedp-params: unknown preset 'volta_fp17'" \
    --blocks "$work/badfedp.txt" --lint --tcsim "$tcsim"

# The Slurm options (sim_slurm runs --slurm on a real cluster): only with --slurm, which
# runs the flow, not --lint; a time limit in Slurm's form.
expect 2 "--wait goes with --slurm" --wait --liberty "$nolib"
expect 2 "--slurm runs the synthesis flow, not --lint" --slurm --lint --tcsim "$tcsim"
expect 2 "--time must be a Slurm time limit" --slurm --time 2h --liberty "$nolib"
# the array tasks run the project flow: another flow or Yosys is refused, not dropped
expect 2 "--slurm runs the project flow with Debian's Yosys" --slurm --flow plain \
    --tcsim "$tcsim" --liberty "$nolib"

[ $status -eq 0 ] && echo "args_test: all passed" || echo "args_test: FAILED"
exit $status
