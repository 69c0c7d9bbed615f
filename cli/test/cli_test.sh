#!/usr/bin/env bash
# cli_test.sh TCSIM TEST_A100 WORKDIR - `tcsim dot` and friends, as a user runs them:
# the A100 vectors through the CLI, and every kind of bad input (message and status).
set -u
tcsim=$1; test_a100=$2; work=$3
source "$(dirname "$0")/cli_harness.sh"
cmakelists=$(cd "$(dirname "$0")/../.." && pwd)/CMakeLists.txt # before the cd below
mkdir -p "$work"; cd "$work" || exit 1

# run EXPECTED_STATUS STDIN ARGS... : runs tcsim
run() { local want=$1 input=$2; shift 2; run_with "$want" "$input" "$tcsim" "$@"; }
expect_out() { [ "$(cat out.txt)" = "$(printf '%b' "$1")" ] || fail "stdout '$(cat out.txt)' != '$1'"; }

# 1. the A100 vectors, bit for bit, through the command line (in/out as tcsim prints)
for set in fp16_fp32 fp16_fp16 bf16_fp32 tf32_fp32; do
    in=${set%_*}; out=${set#*_}
    "$test_a100" --emit "$set" "vec_$set.in" "vec_$set.expect" || { fail "cannot emit $set"; continue; }
    "$tcsim" dot --arch ampere --in "$in" --out "$out" <"vec_$set.in" >"vec_$set.out" 2>err.txt \
        || fail "tcsim dot on $set exited non-zero: $(head -c 300 err.txt)"
    n=$(wc -l <"vec_$set.expect")
    if cmp -s "vec_$set.out" "vec_$set.expect"; then
        echo "A100 $set: $n cases match through tcsim dot"
    else
        fail "A100 $set: $(diff "vec_$set.out" "vec_$set.expect" | grep -c '^<') of $n lines differ"
    fi
done

# 2. good input: comments, empty lines, 0x or not; 1*1 + 1*1 + 1 = 3; k > L (volta
#    L = 4, k = 5): five 1*1 products, c = 0, = 5
run 0 "# a comment\n\n3c00 3c00 3c00 0x3c00 3f800000\n0x3c00 0x3c00 0x3c00 0x3c00 0x3c00 3c00 3c00 3c00 3c00 3c00 00000000\n" \
    dot --arch volta --in fp16 --out fp32
expect_out "40400000\n40a00000"

# 3. bad lines: message names the line; results of earlier lines are printed; status 2.
#    A row: STATUS|OUT (the --out format)|STDIN|what stderr has|STDOUT (none if empty);
#    a row that starts with # is a comment.
while IFS='|' read -r want fmt input err want_out; do
    case $want in '#'*) continue ;; esac
    run "$want" "$input" dot --arch ampere --in fp16 --out "$fmt"
    [ -z "$err" ] || expect_err "$err"
    [ -z "$want_out" ] || expect_out "$want_out"
done <<'TABLE'
2|fp32|3c00 3c00 00000000\n3c00 3c00\n3c00 3c00 00000000\n|line 2: 2 words; expected an odd count|3f800000
2|fp32|3c00 3c00 00000000\n# x\n3c00 3g00 00000000\n|line 3: word 2 '3g00' is not a hex number|3f800000
2|fp32|3c00 3c00 00000000\n3c00\0000 3c00 00000000\n|line 2: a NUL byte|3f800000
2|fp32|13c00 3c00 00000000\n|line 1: a_0 = 0x13c00 is wider than fp16 (16 bits)|
2|fp16|3c00 3c00 13c00\n|line 1: c = 0x13c00 is wider than fp16 (16 bits)|
2|fp32|3c00 3c00 123456789\n|line 1: c = 0x123456789 is wider than fp32 (32 bits)|
# the narrowest word that does not fit (17 bits for fp16) is refused, not narrowed
2|fp32|10000 3c00 00000000\n|line 1: a_0 = 0x10000 is wider than fp16 (16 bits)|
# one word is no case: k = 0 has no product (not a dot product that returns c)
2|fp32|3f800000\n|line 1: 1 words; expected an odd count 2k+1 >= 3|
# leading zeros are not digits of the value; a word past 64 bits is named as written
0|fp32|3c00 3c00 00000000000000000000003f800000\n||40000000
2|fp32|3c00 3c00 10000000000000000\n|line 1: word 3 '10000000000000000' is wider than 64 bits|
# a CR ends a line only before its LF: a stray one is not a line end that drops the rest
0|fp32|3c00 3c00 00000000\r\n3c00 3c00 3f800000\r\n||3f800000\n40000000
2|fp32|3c00 3c00 3c00\r3c00 3c00 4000\n|line 1: word 3: a stray control character 0x0d after '3c00'|
TABLE
# the input cannot be read (a directory): an error, not an empty success
"$tcsim" dot --arch ampere --in fp16 --out fp32 <. >out.txt 2>err.txt
rc=$?; [ "$rc" = 2 ] || fail "dot < directory exited $rc, expected 2"
expect_err "line 1: cannot read the input"
# the output cannot be written (a full disk): an error, not a silent success
if [ -w /dev/full ]; then
    printf '3c00 3c00 00000000\n' | "$tcsim" dot --arch ampere --in fp16 --out fp32 >/dev/full 2>err.txt
    rc=$?; [ "$rc" = 1 ] || fail "dot >/dev/full exited $rc, expected 1"
    expect_err "tcsim: cannot write the output"
    "$tcsim" list >/dev/full 2>err.txt; rc=$?
    [ "$rc" = 1 ] || fail "list >/dev/full exited $rc, expected 1"
    "$tcsim" --help >/dev/full 2>err.txt; rc=$?
    [ "$rc" = 1 ] || fail "--help >/dev/full exited $rc, expected 1"
fi
# options: an unknown one and a stray argument are named as such, not as missing values
run 2 "" dot --bogus
expect_err "unknown option '--bogus'"
run 2 "" dot --arch ampere --in fp16 --out fp32 input.txt
expect_err "unexpected argument 'input.txt'"
run 2 "" dot --arch ampere --in fp16 --out fp32 --block 16
expect_err "--block is the scale block of --kind; it needs --kind"
run 2 "" dot --arch blackwell --instr tcgen05 --in e4m3 --out fp32 --kind mxf8f6f4 --scale ue8m0 --block 0
expect_err "bad value for --block '0' (an integer from 1 to 1024)"
# a --block the kind does not have is named, not "no profile for" without it
run 2 "" dot --arch blackwell --instr tcgen05 --in e2m1 --out fp32 --kind mxf4 --scale ue8m0 --block 16
expect_err "tcsim dot: --block 16: --kind mxf4 with --scale ue8m0 has scale blocks of 32"
run 2 "" dot --arch blackwell --instr tcgen05 --in e2m1 --out fp16 --kind mxf4 --scale ue8m0 --block 16
expect_err "--kind mxf4 --scale ue8m0 --block 16 (tcsim list"
run 2 "" --version extra
expect_err "unexpected argument 'extra' after --version"
# the version is the project's (CMakeLists.txt), after the program's name
ver=$(sed -n 's/^project(tcsim VERSION \([0-9.]*\) .*/\1/p' "$cmakelists")
[ -n "$ver" ] || fail "no project version in $cmakelists"
run 0 "" --version
expect_out "tcsim $ver"

# 4. bad combinations and options: status 2 before any input is read
run 2 "" dot --arch volta --in bf16 --out fp32
expect_err "no profile for --arch volta --instr mma --in bf16 --out fp32"
run 2 "" dot --arch ampere --in fp16 --out fp32 --instr tcgen05
expect_err "no profile for --arch ampere --instr tcgen05"
run 2 "" dot --arch pascal --in fp16 --out fp32
expect_err "unknown --arch 'pascal'"
run 2 "" dot --arch ampere --in fp17 --out fp32
expect_err "unknown format for --in 'fp17'"
run 2 "" dot --arch ampere --in fp16
expect_err "--arch, --in and --out are required"
run 2 "" dot --arch ampere --in fp16 --out fp32 --bogus 1
expect_err "unknown option '--bogus'"
run 2 "" dot --arch
expect_err "option '--arch' needs a value"
run 2 "" frobnicate
expect_err "unknown command 'frobnicate'"

# 5. block-scaled kinds: a, b, scale_a, scale_b, c
a32="2 $(printf '0 %.0s' $(seq 31))"
run 0 "$a32 $a32 7f 7f 7f 7f 00000000\n" dot --arch blackwell --instr tcgen05 --in e2m1 --out fp32 --kind mxf4nvf4 --scale ue8m0 --block 16
expect_out "3f800000"
run 2 "2 2 7f 7f 0\n" dot --arch blackwell --instr tcgen05 --in e2m1 --out fp32 --kind mxf4 --scale ue8m0
expect_err "line 1: 5 words; expected 2k + 2k/32 + 1"
run 2 "00000000\n" dot --arch blackwell --instr tcgen05 --in e2m1 --out fp32 --kind mxf4 --scale ue8m0
expect_err "line 1: 1 words; expected 2k + 2k/32 + 1"
# a scale word is ue8m0 (8 bits): 0x100 is named by its place, a's scale or b's
run 2 "$a32 $a32 100 7f 00000000\n" dot --arch blackwell --instr tcgen05 --in e2m1 --out fp32 --kind mxf4 --scale ue8m0
expect_err "line 1: scale_a_0 = 0x100 is wider than ue8m0 (8 bits)"
run 2 "$a32 $a32 7f 100 00000000\n" dot --arch blackwell --instr tcgen05 --in e2m1 --out fp32 --kind mxf4 --scale ue8m0
expect_err "line 1: scale_b_0 = 0x100 is wider than ue8m0 (8 bits)"
# the kinds' only output is fp32 (tcsim list): --out fp16 is no profile, not fp32 results
run 2 "" dot --arch blackwell --instr tcgen05 --in e2m1 --out fp16 --kind mxf4 --scale ue8m0
expect_err "no profile for --arch blackwell --instr tcgen05 --in e2m1 --out fp16 --kind mxf4 --scale ue8m0 (tcsim list"
run 2 "" dot --arch blackwell --in e2m1 --out fp32 --kind mxf4
expect_err "--kind and --scale go together"

# 5b. mixed A and B formats (--in-a, --in-b): each operand read in its own format.
# Hand-worked: e4m3 0x38 = 1.0, e5m2 0x38 = 0.5, e5m2 0x3c = 1.0, e5m2 0x1f = 1.75 * 2^-8,
# e2m1 0x1 = 0.5; one product plus c = +0 is that product exactly.
run 0 "38 1f 0\n38 38 0\n" dot --arch ada --in-a e4m3 --in-b e5m2 --out fp32
expect_out "3be00000\n3f000000"
run 0 "1f 38 0\n38 38 0\n" dot --arch ada --in-a e5m2 --in-b e4m3 --out fp32
expect_out "3be00000\n3f000000"
run 0 "38 3c 0\n" dot --arch hopper --in-a e4m3 --in-b e5m2 --out fp16
expect_out "3c00"
run 0 "38 3c 0\n" dot --arch hopper --instr wgmma --in-a e4m3 --in-b e5m2 --out fp32
expect_out "3f800000"
run 0 "1 38 0\n" dot --arch blackwell --instr tcgen05 --in-a e2m1 --in-b e4m3 --out fp32
expect_out "3f000000"
# the widths are each operand's: a in --in-a, b in --in-b
run 2 "38 1 0\n" dot --arch blackwell --instr tcgen05 --in-a e2m1 --in-b e4m3 --out fp32
expect_err "line 1: a_0 = 0x38 is wider than e2m1 (4 bits)"
run 2 "1 1ff 0\n" dot --arch blackwell --instr tcgen05 --in-a e2m1 --in-b e4m3 --out fp32
expect_err "line 1: b_0 = 0x1ff is wider than e4m3 (8 bits)"
# a pair the instruction lacks names the instruction, the arch and the pair
run 2 "" dot --arch hopper --in-a e4m3 --in-b e2m1 --out fp32
expect_err "tcsim dot: hopper mma has no e4m3 x e2m1 form"
run 2 "" dot --arch ada --instr mma --in-a e2m3 --in-b e4m3 --out fp16
expect_err "tcsim dot: ada mma has no e2m3 x e4m3 form"
run 2 "" dot --arch ampere --in-a e4m3 --in-b e5m2 --out fp32
expect_err "tcsim dot: ampere mma has no e4m3 x e5m2 form"
# --in sets both: with --in-a/--in-b it is a usage error naming them
run 2 "" dot --arch ada --in e4m3 --in-a e4m3 --in-b e5m2 --out fp32
expect_err "tcsim dot: --in sets both formats: give --in, or --in-a and --in-b, not both"
run 2 "" dot --arch ada --in-b e5m2 --in e4m3 --out fp32
expect_err "--in sets both formats"
run 2 "" dot --arch ada --in-a e4m3 --out fp32
expect_err "tcsim dot: --in-a and --in-b go together"
# mxf8f6f4's pairs: 32 products of e2m1 0x2 = 1.0 and e4m3 0x38 = 1.0, unit scales: 32.0
run 0 "$(printf '2 %.0s' $(seq 32))$(printf '38 %.0s' $(seq 32))7f 7f 0\n" \
    dot --arch blackwell --instr tcgen05 --in-a e2m1 --in-b e4m3 --out fp32 --kind mxf8f6f4 --scale ue8m0
expect_out "42000000"
# a block-scaled kind without the pair names the kind, the pair and the scale
run 2 "" dot --arch blackwell --instr tcgen05 --in-a e2m1 --in-b e4m3 --out fp32 --kind mxf4 --scale ue8m0
expect_err "tcsim dot: blackwell tcgen05 kind::mxf4 has no e2m1 x e4m3 form with --scale ue8m0"
# --in-a and --in-b the same format are --in
run 0 "38 38 0\n" dot --arch ada --in-a e4m3 --in-b e4m3 --out fp32
expect_out "3f800000"

# 6. help and list
run 0 "" --help; grep -q "dot" out.txt || fail "tcsim --help does not list dot"
run 0 "" dot --help; grep -q "2k+1" out.txt || fail "tcsim dot --help does not describe the input"
run 0 "" help; grep -q "^usage: tcsim <command>" out.txt || fail "tcsim help does not print the usage"
run 0 "" dot -h; grep -q "2k+1" out.txt || fail "tcsim dot -h does not describe the input"
run 0 "" list
grep -q "^ampere *mma *fp16 *fp32 *fedp *8 *24 *rz *-132" out.txt || fail "tcsim list lacks the ampere fp16 row"
grep -q "^volta *mma *fp16 *fp16 *fedp *4 *23 *rne *-19" out.txt || fail "tcsim list lacks the volta fp16 row"
# docs/contract.md: volta's fp32 output has no Emin_align ("none"), shown as -
grep -q "^volta *mma *fp16 *fp32 *fedp *4 *23 *rz *- " out.txt || fail "tcsim list lacks the volta fp32 row"
# a block-scaled row names the --kind that selects it: docs/contract.md's nvf4 has scale
# blocks of 16 (ue8m0 or ue4m3), mxf4 of 32 (ue8m0); both k 64, F 35, RZ to fp32
grep -q "^blackwell *tcgen05 *e2m1 *fp32 *mxf4nvf4 *64 *35 *rz .* ue4m3/16 " out.txt ||
    fail "tcsim list lacks the mxf4nvf4 ue4m3 row"
grep -q "^blackwell *tcgen05 *e2m1 *fp32 *mxf4 *64 *35 *rz .* ue8m0/32 " out.txt ||
    fail "tcsim list lacks the mxf4 row"
# mixed pairs show as A x B (docs/contract.md "Mixed A and B formats"): e4m3 with e5m2
# both ways on ada mma, hopper mma (fp16 emulation) and wgmma; every ordered pair of the
# five f8f6f4 formats (20) on tcgen05; each with fp32 and fp16 out, to the contract
grep -q "^ada *mma *e4m3xe5m2 *fp32 *fedp *16 *13 *rz *-132 .*to contract" out.txt ||
    fail "tcsim list lacks the ada e4m3 x e5m2 row"
grep -q "^hopper *mma *e5m2xe4m3 *fp16 *fp8-emu " out.txt || fail "tcsim list lacks hopper mma e5m2 x e4m3"
grep -q "^hopper *wgmma *e5m2xe4m3 *fp32 *fedp *32 *13 " out.txt || fail "tcsim list lacks hopper wgmma e5m2 x e4m3"
n=$(grep -cE "^(ada|hopper) .* (e4m3xe5m2|e5m2xe4m3) " out.txt)
[ "$n" = 12 ] || fail "tcsim list shows $n e4m3/e5m2 pair rows on ada and hopper, expected 12"
n=$(grep -cE "^blackwell *tcgen05 *e[0-9]m[0-9]xe[0-9]m[0-9] *fp(32|16) *fedp *32 *25 " out.txt)
[ "$n" = 40 ] || fail "tcsim list shows $n tcgen05 f8f6f4 pair rows, expected 40"
grep -qE "^[a-z]+ +[a-z0-9]+ +([a-z0-9]+)x\1 " out.txt && fail "tcsim list shows an equal pair as A x B"
grep -qE "^(volta|turing|ampere) .*xe" out.txt && fail "tcsim list shows a pair before ada"
run 2 "" list extra
run 2 ""

# 7. tcsim vectors: measured results laid out as data/vectors/a100, for any GPU
run 0 "" vectors
grep -q "^A100 results in .*, through ampere mma (model)" out.txt || fail "vectors: no A100 header: $(head -1 out.txt)"
for set in bf16_fp32 fp16_fp16 fp16_fp32 tf32_fp32; do
    grep -q "^$set  *ampere_mma_${set}  *[48]  *5000  *5000  *0$" out.txt || fail "vectors: no exact row for $set"
done
grep -qx "every result bit-exact" out.txt || fail "vectors: no verdict line"
# the sets in file-name order, as docs/tcsim.md shows them (readdir's order is not that)
[ "$(sed -n '3,6s/ .*//p' out.txt | tr '\n' ' ')" = "bf16_fp32 fp16_fp16 fp16_fp32 tf32_fp32 " ] ||
    fail "vectors: sets not in name order: $(cat out.txt)"
src=$(sed -n 's/^A100 results in \(.*\), through.*/\1/p' out.txt)/fp16
# the same results named as a V100's: the name chooses volta (L = 4, k = 8 chains two
# steps), which is not how the A100 computed them; --arch ampere puts it right
rm -rf vec_v100 && mkdir -p vec_v100/fp16
cp "$src/a_A100_fp16.txt" vec_v100/fp16/a_V100_fp16.txt
cp "$src/b_A100_fp16.txt" vec_v100/fp16/b_V100_fp16.txt
cp "$src/c_A100_fp32.txt" vec_v100/fp16/c_V100_fp32.txt
cp "$src/d_A100_fp32.txt" vec_v100/fp16/d_V100_fp32.txt
run 1 "" vectors vec_v100 --show 1
grep -q "^V100 results in vec_v100, through volta mma" out.txt || fail "vectors: V100 not volta: $(head -1 out.txt)"
grep -q "^fp16_fp32  *volta_mma_fp16_fp32  *8  *5000 " out.txt || fail "vectors: no volta row"
# the shown case, fed to `tcsim dot` as printed, gives the model's result it names
case_line=$(grep -m1 "^    case " out.txt); input=$(grep -m1 "^      " out.txt)
model_d=$(echo "$case_line" | sed 's/.*model \([0-9a-f]*\),.*/\1/')
[ "$(echo "$input" | "$tcsim" dot --arch volta --in fp16 --out fp32)" = "$model_d" ] \
    || fail "vectors: the shown case does not reproduce through tcsim dot: $case_line"
run 0 "" vectors vec_v100 --arch ampere
# k = 16 (two A100 cases joined) named as an H100's: hopper, one 16-term step; the
# expected results come from `tcsim dot --arch hopper` on the same cases, in hex
rm -rf vec_h100 && mkdir vec_h100
paste -d' ' - - <"$src/a_A100_fp16.txt" | head -200 >vec_h100/a_H100_fp16.txt
paste -d' ' - - <"$src/b_A100_fp16.txt" | head -200 >vec_h100/b_H100_fp16.txt
awk 'NR % 2 == 1' "$src/c_A100_fp32.txt" | head -200 >vec_h100/c_H100_fp32.txt
"$test_a100" --emit fp16_fp32 vec_in.txt vec_expect.txt || fail "cannot emit fp16_fp32"
grep -v '^#' vec_in.txt | paste -d' ' - - | head -200 |
    awk '{ printf "%s", $1; for (i = 2; i <= 8; i++) printf " %s", $i;      # a: 8 + 8
           for (i = 18; i <= 25; i++) printf " %s", $i;
           for (i = 9; i <= 16; i++) printf " %s", $i;                      # b: 8 + 8
           for (i = 26; i <= 33; i++) printf " %s", $i; printf " %s\n", $17 }' |
    "$tcsim" dot --arch hopper --in fp16 --out fp32 >vec_h100/d_H100_fp32.txt || fail "tcsim dot hopper"
run 0 "" vectors vec_h100
grep -q "^fp16_fp32  *hopper_mma_fp16_fp32  *16  *200  *200  *0$" out.txt || fail "vectors: H100 k = 16 not exact: $(cat out.txt)"
run 1 "" vectors vec_h100 --arch ampere --show 0
# bad files and options: status 2, the message names the file and line
rm -rf vec_x9 && mkdir vec_x9 && for f in vec_v100/fp16/*; do b=$(basename "$f"); cp "$f" "vec_x9/${b/V100/X9}"; done
run 2 "" vectors vec_x9
expect_err "which architecture is the GPU 'X9'? give --arch"
sed -i '3s/^[0-9a-f]*/zz/' vec_x9/a_X9_fp16.txt
run 2 "" vectors vec_x9 --arch volta
expect_err "vec_x9/a_X9_fp16.txt:3: word 'zz' is neither hex"
cp vec_v100/fp16/a_V100_fp16.txt vec_x9/a_X9_fp16.txt
sed -i '4s/^\(.\{8\}\)/\1\x00/' vec_x9/c_X9_fp32.txt  # the rest of the word unseen: silently 8 hex digits
run 2 "" vectors vec_x9 --arch volta
expect_err "vec_x9/c_X9_fp32.txt:4: a NUL byte"
cp vec_v100/fp16/c_V100_fp32.txt vec_x9/c_X9_fp32.txt
sed -i '5s/^[0-9a-f]* //' vec_x9/b_X9_fp16.txt
run 2 "" vectors vec_x9 --arch volta
expect_err "vec_x9/b_X9_fp16.txt:5: 7 words; expected 8"
cp vec_v100/fp16/b_V100_fp16.txt vec_x9/b_X9_fp16.txt
sed -i '9d' vec_x9/d_X9_fp32.txt
run 2 "" vectors vec_x9 --arch volta
expect_err "d_X9_fp32.txt 4999: the files must hold the same cases"
rm vec_x9/c_X9_fp32.txt
run 2 "" vectors vec_x9 --arch volta
expect_err "vec_x9/d_X9_fp32.txt: no c_X9_fp32.txt beside it"
rm -rf vec_two && mkdir vec_two && cp -r vec_v100/fp16 vec_two/v && cp vec_h100/* vec_two/
run 2 "" vectors vec_two
expect_err "holds results of H100 and V100: choose one with --gpu"
run 0 "" vectors vec_two --gpu H100
run 2 "" vectors vec_two --gpu B200
expect_err "no results of --gpu 'B200'"
run 2 "" vectors vec_v100 --arch volta --instr wgmma
expect_err "no profile for --arch volta --instr wgmma --in fp16 --out fp32"
run 2 "" vectors no_such_folder
expect_err "no_such_folder: cannot read the folder: No such file or directory"
run 2 "" vectors vec_v100 extra
expect_err "unexpected argument 'extra'"
# mk_one DIR OUT D...: a set of one case per D, eight 1.0 * 1.0 (a as 32 binary digits, b
# with 0x), c = 0 (c_A100_OUT.txt, no fp32 c to round for fp16), the GPU's results D...
mk_one() {
    local dir=$1 out=$2 d; shift 2
    rm -rf "$dir" && mkdir "$dir"
    for d in "$@"; do printf '00111111100000000000000000000000 %.0s' {1..8}; echo; done >"$dir/a_A100_fp16.txt"
    for d in "$@"; do printf '0x3f800000 %.0s' {1..8}; echo; done >"$dir/b_A100_fp16.txt"
    for d in "$@"; do echo 0; done >"$dir/c_A100_$out.txt"
    printf '%s\n' "$@" >"$dir/d_A100_$out.txt"
}
# 8.0 is 41000000; the GPU's case 2 one bit off: that case, named and shown (as tcsim dot
# input, k = 8 fp16 1.0 twice and c), and a verdict of one
mk_one vec_one fp32 41000000 41000001
run 1 "" vectors vec_one
grep -q "^fp16_fp32  *ampere_mma_fp16_fp32  *8  *2  *1  *1$" out.txt || fail "vectors vec_one: $(cat out.txt)"
grep -qxF "    case 2: model 41000000, A100 41000001; input of \`tcsim dot --arch ampere --instr mma --in fp16 --out fp32\`:" out.txt ||
    fail "vectors vec_one: no case 2: $(cat out.txt)"
grep -qx "      $(printf '3c00 %.0s' {1..16})00000000" out.txt || fail "vectors vec_one: no input line: $(cat out.txt)"
grep -qx "1 result differs from A100's" out.txt || fail "vectors vec_one: no verdict of one: $(cat out.txt)"
mk_one vec_one fp16 41000000 41002000  # 8.0078125: one fp16 ulp above
run 1 "" vectors vec_one
grep -q "^fp16_fp16  *ampere_mma_fp16_fp16  *8  *2  *1  *1$" out.txt || fail "vectors c_A100_fp16: $(cat out.txt)"
# --show: three differing cases by default, as many as asked
mk_one vec_one fp32 41000001 41000001 41000001 41000001
run 1 "" vectors vec_one
[ "$(grep -c '^    case ' out.txt)" = 3 ] || fail "vectors: not three cases by default: $(cat out.txt)"
grep -qx "4 results differ from A100's" out.txt || fail "vectors: no verdict of four: $(cat out.txt)"
run 1 "" vectors vec_one --show 1
[ "$(grep -c '^    case ' out.txt)" = 1 ] || fail "vectors --show 1: $(cat out.txt)"
# a word of nine hex digits is refused, its value small or not; a and b of different k
mk_one vec_one fp32 41000000
sed -i 's/0x3f800000/03f800000/' vec_one/b_A100_fp16.txt
run 2 "" vectors vec_one
expect_err "vec_one/b_A100_fp16.txt:1: word '03f800000' is neither hex (at most 8 digits)"
mk_one vec_one fp32 41000000
cut -d' ' -f1-4 vec_one/a_A100_fp16.txt >vec_one/x && mv vec_one/x vec_one/a_A100_fp16.txt
run 2 "" vectors vec_one
expect_err "the files must hold the same cases"
# a set without the GPU's results; files without a case
mk_one vec_one fp32 41000000 && rm vec_one/d_A100_fp32.txt
run 2 "" vectors vec_one
expect_err "vec_one/a_A100_fp16.txt: no d_A100_<format>.txt (the GPU's results) beside it"
mk_one vec_one fp32 && : >vec_one/d_A100_fp32.txt
run 2 "" vectors vec_one
expect_err "vec_one/a_A100_fp16.txt: no cases"
# the architecture from the GPU's name, for the names of docs/contract.md's table
for g in T4:turing RTX2080Ti:turing A30:ampere A2:ampere RTX3070Ti:ampere L40S:ada \
         RTX4090:ada H200:hopper B200:blackwell; do
    rm -rf vec_g && mkdir vec_g
    for f in vec_v100/fp16/*; do b=$(basename "$f"); cp "$f" "vec_g/${b/V100/${g%:*}}"; done
    "$tcsim" vectors vec_g --show 0 >out.txt 2>err.txt
    grep -q "^${g%:*} results in vec_g, through ${g#*:} mma" out.txt ||
        fail "vectors: ${g%:*} not ${g#*:}: $(head -1 out.txt) $(cat err.txt)"
done
run 0 "" vectors --help; grep -q "d_<GPU>_<out>.txt" out.txt || fail "tcsim vectors --help does not describe the files"

# 8. tcsim tmem-map and tmem-demo: the word's place by tcsim_tmem.h's formulas (group =
#    lane / 32, bank = col % banks, row = col / banks), the last lane and column the
#    largest accepted; the demo's cycles from tcsim_tmem.h's table (8 x 64: one cycle a
#    request; 4 x 128: two, ld/st of up to 4 columns one), ld .x128 16 requests of 8
run 0 "" tmem-map --lane 127 --col 511
expect_out "lane 127 col 511, 8 banks x 64 rows: group 3 (lane 31 of the group), bank 7, row 63\nlane 127 col 511, 4 banks x 128 rows: group 3 (lane 31 of the group), bank 3, row 127"
run 0 "" tmem-map --lane 37 --col 10 --banks 4
expect_out "lane 37 col 10, 4 banks x 128 rows: group 1 (lane 5 of the group), bank 2, row 2"
run 2 "" tmem-map --lane 128 --col 0
expect_err "bad value for --lane '128' (an integer from 0 to 127)"
run 2 "" tmem-map --lane 0 --col 512
expect_err "bad value for --col '512' (an integer from 0 to 511)"
run 2 "" tmem-map --lane 0
expect_err "--col is required"
run 2 "" tmem-map --col 0
expect_err "--lane is required"
run 2 "" tmem-map --lane 0 --col 0 --banks 2
expect_err "bad value for --banks '2' (8 or 4)"
run 0 "" tmem-demo
want="cp 1 2\nld .x8 1 2\nld .x128 16 32\nst .x4 1 1\nshift 1 2\nshift x2 2 4\nmma-d 1 2\nmma-a 1 2"
got=$(sed -n 's/^\(.*[^ ]\)  *8 banks x 64 rows: \([0-9]*\) cycles*$/\1 \2/p' out.txt |
      paste -d' ' - <(sed -n 's/.* 4 banks x 128 rows: \([0-9]*\) cycles*$/\1/p' out.txt))
[ "$got" = "$(printf '%b' "$want")" ] || fail "tmem-demo cycles: $(cat out.txt)"
grep -qx "cp         8 banks x 64 rows: 1 cycle" out.txt || fail "tmem-demo: not '1 cycle': $(head -2 out.txt)"
grep -qx "cp         4 banks x 128 rows: 2 cycles" out.txt || fail "tmem-demo: not '2 cycles': $(head -3 out.txt)"
grep -q "^data checks: the ld sees the cp" out.txt || fail "tmem-demo: no data checks line"
run 0 "" tmem-demo --banks 4
[ "$(grep -c ' banks x ' out.txt)" = 8 ] && ! grep -q ' 8 banks x ' out.txt || fail "tmem-demo --banks 4: $(cat out.txt)"

finish
