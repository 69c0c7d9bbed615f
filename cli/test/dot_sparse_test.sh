#!/bin/bash
# dot_sparse_test.sh TCSIM WORK - `tcsim dot --sparse` (mma.sp, docs/tcsim.md "Sparse dot
# products") as a user runs it: hand-worked results, the metadata choosing the products,
# and refusals that name the line, the word and the nibble, with nothing written for the
# bad line.
tcsim=$1 work=$2 here=$(cd "$(dirname "$0")" && pwd)
mkdir -p "$work" && cd "$work" || exit 2
. "$here/cli_harness.sh"
dot() { run_with "$@"; }
f16="--arch ampere --in fp16 --out fp32 --sparse"
a8='3c00 4000 3c00 4000 3c00 4000 3c00 4000'            # 1 2 1 2 1 2 1 2: k = 16 stored 8
b1234='3c00 4000 4200 4400 3c00 4000 4200 4400 3c00 4000 4200 4400 3c00 4000 4200 4400'

# keep (0,2) of every chunk of 4: 1*1 + 2*3 = 7 a chunk, 28 = 0x41e00000;
# keep (0,1): 1*1 + 2*2 = 5 a chunk, 20 = 0x41a00000: the metadata picks the products
dot 0 "$a8 8888 $b1234 0\n$a8 4444 $b1234 0\n" "$tcsim" dot $f16
[ "$(cat out.txt)" = $'41e00000\n41a00000' ] || fail "fp16 sparse: $(cat out.txt)"
# keep (2,3) and (1,3) in turn, c = 1: 3*1+4*2 = 11 and 2*1+4*2 = 10, 4 chunks alternating:
# 11+10+11+10 + 1 = 43 = 0x422c0000
dot 0 "$a8 0xdede $b1234 3f800000\n" "$tcsim" dot $f16
[ "$(cat out.txt)" = 422c0000 ] || fail "alternating patterns: $(cat out.txt)"
# tf32 (1:2): 4 keeps the first of two, e the second: e4 keeps k 0 and 3: 1*3 + 2*6 = 15
dot 0 "3f800000 40000000 e4 40400000 40800000 40a00000 40c00000 0\n" \
    "$tcsim" dot --arch ampere --in tf32 --out fp32 --sparse
[ "$(cat out.txt)" = 41700000 ] || fail "tf32 sparse: $(cat out.txt)"
# int4 (4:8 in pairs): 9 keeps pairs 1 and 2 (k 2..5): 1+4+9+16 = 30; the -1s are dropped
dot 0 "1 2 3 4 9 f f 1 2 3 4 f f 0\n" "$tcsim" dot --arch ampere --in int4 --out s32 --sparse
[ "$(cat out.txt)" = 0000001e ] || fail "int4 sparse: $(cat out.txt)"
# e4m3 on ada, k 64: 32 stored ones, metadata 0x44444444 twice, b ones: 32 = 0x42000000
ones32=$(printf '38 %.0s' {1..32}) ones64=$(printf '38 %.0s' {1..64})
dot 0 "$ones32 44444444 44444444 $ones64 0\n" "$tcsim" dot --arch ada --in e4m3 --out fp32 --sparse
[ "$(cat out.txt)" = 42000000 ] || fail "e4m3 sparse: $(cat out.txt)"

# refusals: the line, the word, the nibble; the lines before are answered (tcsim dot)
dot 2 "$a8 8888 $b1234 0\n$a8 8858 $b1234 0\n" "$tcsim" dot $f16
expect_err "line 2: word 9 (m_0), nibble 1 (bits 7..4, k 4..7): 0x5 is not two ascending"
[ "$(cat out.txt)" = 41e00000 ] || fail "the line before the bad one: $(cat out.txt)"
dot 2 "$a8 8886 $b1234 0\n" "$tcsim" dot $f16   # descending (2, 1)
expect_err "nibble 0 (bits 3..0, k 0..3): 0x6"
dot 2 "$a8 8881 $b1234 0\n" "$tcsim" dot $f16
expect_err "0x1 is not two ascending 2-bit indices"
dot 2 "$a8 18888 $b1234 0\n" "$tcsim" dot $f16
expect_err "nibble 4 (bits 19..16, k 16..19): 0x1 lies past the row's last chunk"
[ -s out.txt ] && fail "output written for a bad line: $(cat out.txt)"
dot 2 "$a8 8888 $b1234\n" "$tcsim" dot $f16
expect_err "line 1: 25 words; expected k/2 + W + k + 1"
dot 2 "3f800000 40000000 84 40400000 40800000 40a00000 40c00000 0\n" \
    "$tcsim" dot --arch ampere --in tf32 --out fp32 --sparse
expect_err "nibble 1 (bits 7..4, k 2..3): 0x8 is not tf32 metadata"
dot 2 "$a8 8888 $b1234 100000000\n" "$tcsim" dot $f16
expect_err "word 26 (c) = 0x100000000"
dot 2 "$a8 8888 10000 $b1234\n" "$tcsim" dot $f16
expect_err "word 10 (b_0) = 0x10000 is wider than fp16"
dot 2 "" "$tcsim" dot --arch volta --in fp16 --out fp32 --sparse
expect_err "volta_mma_fp16_fp32 has no mma.sp form"
dot 2 "" "$tcsim" dot --arch hopper --instr wgmma --in fp16 --out fp32 --sparse
expect_err "hopper_wgmma_fp16_fp32 has no mma.sp form"
dot 2 "" "$tcsim" dot --arch ampere --in e4m3 --out fp32 --sparse
expect_err "no profile for --arch ampere"
dot 2 "" "$tcsim" dot --arch blackwell --instr tcgen05 --in e2m1 --out fp32 --kind mxf4 \
    --scale ue8m0 --sparse
expect_err "--sparse goes with neither --kind nor --engine rtl"
dot 0 "" "$tcsim" dot --help
grep -q -- "--sparse" out.txt || fail "tcsim dot --help says nothing of --sparse"
finish
