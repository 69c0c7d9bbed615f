#!/usr/bin/env bash
# gemm_sim_test.sh GEMM_SIM WORKDIR [timing|options|fault] - examples/gemm_sim on GEMMs
# small enough to work out by hand: its cycles, IPC, throughput and busy figures (and the
# JSON's); or the options it must accept or refuse; or (GEMM_SIM is then gemm_sim_fault,
# with a wrong bit put into one mma's D) its --check finding that bit.
#
# The timing, from docs/timing.md and model/data/timing.txt. mma.m16n8k16, fp16 -> fp32:
#   a100: rate = 1 tc x 64 FEDPs x 4 = 256 FMA/cycle per sub-core; k_step 8, steps 2;
#         beats = 16*8*8 / 256 = 4; issue interval I = 2 x 4 = 8;
#         latency L = depth 14 + ceil(16/4) + (2-1) x max(step_fwd 8, 4) = 26.
#   rtx3070ti: rate = 32 x 4 / acc32_rate_div 2 = 64; beats 16; I = 32;
#         L = 14 + 4 + max(8, 16) = 34. Peak FMA/clk/SM = 4 x 32 x 4 / 2 = 256.
# A sub-core takes an mma I cycles after its last one; the result is readable L cycles
# after issue, and the warp's next mma on that accumulator waits for it. Warp tiles are
# dealt to the warps in turn (tile t to warp t mod warps); warp w runs on sub-core
# w mod 4; each mma is 16*8*16 = 2048 FMAs.
set -u
gemm_sim=$1; work=$2
source "$(dirname "$0")/../cli/test/cli_harness.sh"
mkdir -p "$work"; cd "$work" || exit 1

# expect_line LINE WHAT : stdout (out.txt) has the line LINE
expect_line() {
    grep -qxF -- "$1" out.txt || fail "$2: stdout lacks '$1': $(tr '\n' '|' <out.txt)"
}
# expect ARGS : the lines that follow on stdin must all be in the report
expect() {
    run_with 0 "" "$gemm_sim" "$@" --quiet
    local line
    while IFS= read -r line; do expect_line "$line" "gemm_sim $*"; done
}

# expect_report CYCLES MMA IPC IPC_PER_SM FMA PEAK PCT BUSY ARGS : the report's figures
expect_report() {
    local cycles=$1 mma=$2 ipc=$3 ipc_sm=$4 fma=$5 peak=$6 pct=$7 busy=$8; shift 8
    expect "$@" <<EOF
cycles $cycles
mma instructions $mma
IPC $ipc mma/cycle ($ipc_sm per SM)
tensor throughput $fma FMA/clk/SM (peak $peak, $pct%)
tensor-core busy $busy% of sub-core cycles
EOF
}

case "${3:-timing}" in
timing)
# 1. The scheduler. 144x16 in 16x16 warp tiles: 9 tiles of 2 accumulators, one k-step;
#    warp 0 owns tiles 0 and 8, so sub-core 0 runs warp 0 (4 mma, the second tile's
#    waiting for the first's accumulators) and warp 4 (2 mma); the other sub-cores 2
#    warps x 2 independent mma each: issued at 0, 8, 16, 24, done at 50.
#  gto (greedy, then oldest: warp 0 first): w0 a0 @0, w0 a1 @8 (still ready), w4 a0 @16,
#    w4 a1 @24; w0's second tile: a0 ready at 26, the sub-core free at 32: @32; a1 ready
#    at 34, free at 40: @40; readable at 66.
#  lrr (alternate): starting at w4: w4 @0, w0 @8, w4 @16, w0 @24, then w0's a0 waits
#    until 8 + 26 = 34 and its a1 until 24 + 26 = 50: readable at 76; starting at w0:
#    w0 @0, w4 @8, w0 @16, w4 @24, w0 @32, @42 (16 + 26): readable at 68.
#  18 mma in 66 cycles: IPC 0.273; 18 x 2048 / 66 = 558.5 FMA/clk of 1024, 54.5%; busy
#    18 x 8 / (66 x 4 sub-cores) = 54.5%.
g1="--gpu a100 --m 144 --n 16 --k 16 --wm 16 --wn 16 --warps 8 --sms 1"
expect_report 66 18 0.273 0.273 558.5 1024 54.5 54.5 $g1 --policy gto
run_with 0 "" "$gemm_sim" $g1 --policy lrr --quiet
grep -qxE "cycles (76|68)" out.txt ||
    fail "gemm_sim --policy lrr: cycles not 76 or 68: $(head -c 300 out.txt)"

# 2. The same on 2 SMs: 288x16, 18 tiles for 16 warps; warps 0 and 1 (SM 0, sub-cores
#    0 and 1) own two tiles, each sub-core as sub-core 0 above (66 cycles); SM 1's
#    sub-cores 4 mma each (50). 36 mma in 66 cycles: IPC 0.545, 0.273 per SM;
#    36 x 2048 / 66 / 2 = 558.5 FMA/clk/SM, 54.5%; busy 36 x 8 / (66 x 8) = 54.5%.
expect_report 66 36 0.545 0.273 558.5 1024 54.5 54.5 \
    --gpu a100 --m 288 --n 16 --k 16 --wm 16 --wn 16 --warps 8 --sms 2

# 3. The order and the dependencies: one warp, one 16x16 tile, k 32: accumulators 0 and
#    1 of k-step 0 at 0 and 8; k-step 1's a0 waits for a0 (26), a1 for a1 (34): readable
#    at 60. (K-steps inner would give 0, 26, 34, 60: 86; no waiting 0, 8, 16, 24: 50.)
#    4 mma: IPC 0.067; 8192 / 60 = 136.5 FMA/clk, 13.3%; busy 32 / 240 = 13.3%.
expect_report 60 4 0.067 0.067 136.5 1024 13.3 13.3 \
    --gpu a100 --m 16 --n 16 --k 32 --wm 16 --wn 16 --warps 1

# 4. A GPU with fp32 accumulation at half rate: one mma on rtx3070ti, readable at 34;
#    2048 / 34 = 60.2 FMA/clk of a peak of 256, 23.5%; busy 32 / (34 x 4) = 23.5%.
expect_report 34 1 0.029 0.029 60.2 256 23.5 23.5 \
    --gpu rtx3070ti --m 16 --n 8 --k 16 --wm 16 --wn 8 --warps 1

# 5. Greedy stays greedy, round-robin keeps rotating: 128x24 in 16x24 tiles, one per
#    warp, 3 accumulators, 2 k-steps; each sub-core runs two warps (x: warp 0 or 1..3,
#    y: warp 4..7) of 6 mma.
#  gto: x a0 a1 a2 @0 8 16; y a0 @24 (x's k-step 1 waits until 26); y a1 a2 @32 40 (y
#    stays); x a0 a1 a2 @48 56 64 (y's a0 not before 50); y a0 a1 a2 @72 80 88: 114.
#  lrr (either start): y x y x y x @0..40, then y x y x y x @48..88 (each ready by 26
#    after its first): 114.
#  (Starting from the same warp every cycle instead, gto gives x's second k-step at 32
#    and ends at 116, lrr y's and ends at 116 too.) 48 mma: IPC 0.421; 48 x 2048 / 114
#    = 862.3 FMA/clk, 84.2%; busy 384 / 456 = 84.2%.
for p in gto lrr; do
expect_report 114 48 0.421 0.421 862.3 1024 84.2 84.2 \
    --gpu a100 --m 128 --n 24 --k 32 --wm 16 --wn 24 --warps 8 --policy $p
done

# 6. More completions in one cycle than one poll of 64 takes: 20 SMs x 4 warps, one per
#    sub-core, each a 16x8 tile of 2 k-steps: all 80 issue at 0, are readable at 26,
#    issue again at 26 and are readable at 52. 160 mma: IPC 3.077, 0.154 per SM;
#    160 x 2048 / 52 / 20 = 315.1 FMA/clk/SM, 30.8%; busy 1280 / (52 x 80) = 30.8%.
expect_report 52 160 3.077 0.154 315.1 1024 30.8 30.8 \
    --gpu a100 --m 1280 --n 8 --k 32 --wm 16 --wn 8 --warps 4 --sms 20

# 7. Greedy, then the oldest: three warps per sub-core (j0, j1, j2: warps 0, 4, 8 on
#    sub-core 0), one 16x24 tile each (3 accumulators, 2 k-steps).
#  gto: j0 a0 a1 a2 @0 8 16; j0 stalls (a0 of k-step 1 at 26): the oldest ready, j1,
#    a0 a1 a2 @24 32 40; j1 stalls (50): the oldest ready is j0 again (not j2): k-step 1
#    @48 56 64; then j1 @72 80 88; then j2 @96 104 112 and, each waiting for its result,
#    @122 130 138: readable at 164. 72 mma: IPC 0.439; 72 x 2048 / 164 = 899.1 FMA/clk,
#    87.8%; busy 576 / 656 = 87.8%.
#  lrr: j0 j1 j2 in turn: k-step 0 @0..64, k-step 1 (each ready 26 after) @72..136: 162.
expect_report 164 72 0.439 0.439 899.1 1024 87.8 87.8 \
    --gpu a100 --m 192 --n 24 --k 32 --wm 16 --wn 24 --warps 12 --policy gto
expect --gpu a100 --m 192 --n 24 --k 32 --wm 16 --wn 24 --warps 12 --policy lrr <<'EOF'
cycles 162
mma instructions 72
EOF

# 8. The JSON of case 1: the same cycles, mma and IPC (18 / 66 = 0.2727).
run_with 0 "" "$gemm_sim" $g1 --policy gto --quiet --json g1.json
for kv in '"cycles": 66,' '"mma": 18,' '"ipc": 0.2727,' '"sms": 1,' '"gemm": [144, 16, 16],'; do
    grep -qF -- "$kv" g1.json || fail "g1.json lacks '$kv': $(cat g1.json)"
done
;;
options)
# The options: (wm/16) x (wn/8) up to 64 accumulators per warp, the limit the message
# names; a policy that is neither lrr nor gto refused (status 2).
run_with 0 "" "$gemm_sim" --m 128 --n 64 --k 16 --wm 128 --wn 64 --warps 1 --check --quiet
expect_line "mma instructions 64" "gemm_sim --wm 128 --wn 64"
expect_line "check: D matches the integer GEMM exactly" "gemm_sim --wm 128 --wn 64"
run_with 2 "" "$gemm_sim" --m 256 --n 64 --k 16 --wm 256 --wn 64 --warps 1
expect_err "(wm/16)*(wn/8) <= 64"
run_with 2 "" "$gemm_sim" --policy fifo
expect_err "gemm_sim: --policy is lrr or gto"
# A bad word is quoted, not echoed whole: 40 characters, then "...", controls as \xNN
# (a 3000-character --warps value gave a 3000-byte line).
long=$(printf '%03000d' 7 | tr 0 9)
run_with 2 "" "$gemm_sim" --warps "$long"
expect_err "gemm_sim: bad value '$(printf '%040d' 0 | tr 0 9)...' for --warps"
[ "$(wc -c <err.txt)" -lt 200 ] || fail "gemm_sim --warps <3000 digits>: $(wc -c <err.txt) bytes"
run_with 2 "" "$gemm_sim" --gpu "$(printf 'x\033[2Jy')"
expect_err "gemm_sim: no timing for --gpu 'x\\x1b[2Jy'"
# mma.m16n8k16 is PTX's from sm_80 on: on Turing the run is a what-if and says so; on
# the Ampere parts it is the GPU's own instruction and no such line is printed.
run_with 0 "" "$gemm_sim" --gpu rtx2080ti --m 64 --n 64 --k 64 --quiet
expect_line "what-if: PTX for rtx2080ti (sm_75) has no mma.m16n8k16 (from sm_80 on): the timing structure's figures, not a kernel the GPU runs" \
    "gemm_sim --gpu rtx2080ti"
for gpu in a100 rtx3070ti; do
    run_with 0 "" "$gemm_sim" --gpu $gpu --m 64 --n 64 --k 64 --quiet
    ! grep -q "what-if" out.txt || fail "gemm_sim --gpu $gpu: a what-if line for its own mma"
done
;;
fault)
# gemm_sim_fault flips bit B of element E of the N-th mma's D after the model computed
# it (GEMM_SIM_FAULT=N:E:B, fault_shim.c). --check must report that one element of the
# GEMM's D, with the value worked out here from gemm_sim's data (A[i][k] = small(i, k, 1),
# B[k][j] = small(k, j, 5), C = 0) as the fp32 pattern of an exact integer, and fail.
small() { echo $(( ($1 * 7 + $2 * 13 + $3) % 9 - 4 )); }
# d_want I J K: sum (integer) and bits (fp32 pattern) of sum over k < K of A[I][k] B[k][J]
d_want() {
    local k e=0 mag
    sum=0
    for ((k = 0; k < $3; k++)); do sum=$(( sum + $(small "$1" $k 1) * $(small $k "$2" 5) )); done
    mag=${sum#-}
    ((mag > 0 && mag < 1 << 24)) || { fail "D[$1][$2] = $sum: pick an element not 0"; return; }
    while (( mag >> (e + 1) )); do e=$((e + 1)); done
    bits=$(printf '%08x' $(( (sum < 0) << 31 | (127 + e) << 23 | (mag << (23 - e) & 0x7fffff) )))
}
# fault_case "GEMM OPTIONS" N:E:B I J K: the fault shows as D[I][J] of the K-deep GEMM
fault_case() {
    local flip
    d_want "$3" "$4" "$5"
    GEMM_SIM_FAULT=$2 run_with 1 "" "$gemm_sim" $1 --check --quiet
    flip=$(printf '%08x' $(( 0x$bits ^ 1 << ${2##*:} )))
    expect_line "MISMATCH D[$3][$4] = $flip, want $bits ($sum)" "fault $2"
    expect_line "check: FAILED" "fault $2"
    [ "$(grep -c '^MISMATCH' out.txt)" = 1 ] || fail "fault $2: not one MISMATCH: $(cat out.txt)"
}
# 1. One mma (16x8x16): its element 0 is D[0][0]. Without the fault the same program
#    passes the check; a fault outside the mma's 16 x 8 elements is refused.
one="--m 16 --n 8 --k 16 --wm 16 --wn 8 --warps 1"
fault_case "$one" 0:0:0 0 0 16
fault_case "$one" 0:0:22 0 0 16
run_with 0 "" "$gemm_sim" $one --check --quiet
expect_line "check: D matches the integer GEMM exactly" "no fault"
GEMM_SIM_FAULT=0:128:0 run_with 2 "" "$gemm_sim" $one --check --quiet
expect_err "fault_shim: GEMM_SIM_FAULT '0:128:0'"
# 2. One warp, a 32x16 warp tile (accumulators 0..3: rows 0-15 / 16-31, columns 0-7 /
#    8-15), two k-steps: mma 5 is k-step 1 of accumulator 1 (rows 0-15, columns 8-15),
#    its element 29 = row 3, column 5: D[3][13], over all 32 of k. Mma 7 (accumulator
#    3), element 127: D[31][15]; its sign bit.
two="--m 32 --n 16 --k 32 --wm 32 --wn 16 --warps 1"
fault_case "$two" 5:29:0 3 13 32
fault_case "$two" 7:127:31 31 15 32
;;
*) echo "gemm_sim_test.sh: mode is timing, options or fault, not '$3'" >&2; exit 2 ;;
esac
finish
