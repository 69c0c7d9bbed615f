#!/usr/bin/env bash
# cli_io_test.sh TCSIM GEMM_SIM WORKDIR - files that cannot be read or written, and names
# that match nothing, as tcsim and the gemm_sim example meet them: a message naming the
# file or argument, a non-zero status, and no "wrote" after a write that failed.
set -u
tcsim=$1; gemm_sim=$2; work=$3
source "$(dirname "$0")/cli_harness.sh"
mkdir -p "$work"; cd "$work" || exit 1

# run EXPECTED_STATUS PROGRAM ARGS... : no input
run() { local want=$1; shift; run_with "$want" "" "$@"; }
expect_out() { grep -qF -- "$1" out.txt || fail "stdout lacks '$1': $(head -c 300 out.txt)"; }
expect_no_out() { [ ! -s out.txt ] || fail "stdout before the error: $(head -c 300 out.txt)"; }
lacks_out() { ! grep -qF -- "$1" out.txt || fail "stdout has '$1': $(head -c 300 out.txt)"; }

# 1. tcsim bench: the JSON file is opened before the run and its write is checked;
#    --profile must name a profile bench measures
prof=ampere_mma_fp16_fp32
run 1 "$tcsim" bench --quick --profile $prof --json /dev/full
expect_err "cannot write '/dev/full'"
lacks_out "wrote"
run 1 "$tcsim" bench --quick --profile $prof --json no_such_dir/x.json
expect_err "cannot write 'no_such_dir/x.json'"
expect_no_out
run 2 "$tcsim" bench --quick --profile nope --json bench.json
expect_err "unknown --profile 'nope'"
expect_no_out
run 2 "$tcsim" bench --quick --profile hopper_mma_e4m3_fp32 --json bench.json
expect_err "--profile 'hopper_mma_e4m3_fp32' is not an FEDP profile"
run 0 "$tcsim" bench --quick --profile $prof --json bench.json
expect_out "wrote bench.json"
grep -q "{\"profile\": \"$prof\", \"k\": 8," bench.json || fail "bench.json lacks $prof: $(cat bench.json)"

# 2. examples/gemm_sim: the JSON as in 1; a message that names the wrong option; out of
#    memory said, not a bare status 1
small="--m 64 --n 64 --k 32 --quiet"
run 1 "$gemm_sim" $small --json /dev/full
expect_err "gemm_sim: cannot write '/dev/full'"
run 1 "$gemm_sim" $small --json no_such_dir/x.json
expect_err "gemm_sim: cannot write 'no_such_dir/x.json'"
expect_no_out
run 0 "$gemm_sim" $small --json gemm.json
grep -q '"cycles": [1-9]' gemm.json || fail "gemm.json has no cycles: $(cat gemm.json)"
run 2 "$gemm_sim" --sms 4097
expect_err "gemm_sim: --sms 4097: invalid argument (the handle takes 1 to 4096 SMs)"
run 2 "$gemm_sim" --m 65537
expect_err "gemm_sim: bad value '65537' for --m (a whole number 1..65536)"
run 0 "$gemm_sim" --m 65536 --n 8 --k 16 --wm 16 --wn 8 --warps 1 --quiet
"$gemm_sim" $small >/dev/full 2>err.txt
rc=$?; [ "$rc" = 1 ] || fail "gemm_sim >/dev/full exited $rc, expected 1"
expect_err "gemm_sim: cannot write the report"
run 2 "$gemm_sim" --gpu h300
expect_err "gemm_sim: no timing for --gpu 'h300'; the GPUs: "
expect_err " a100 "
# A and B of --check need 16 GiB here; under a 1 GB address-space limit malloc fails.
# A sanitizer build cannot start under such a limit at all: then this is skipped.
if { (ulimit -v 1000000 && "$gemm_sim" --help) >/dev/null 2>&1; } 2>/dev/null; then
    run 1 bash -c "ulimit -v 1000000 && exec \"\$0\" --m 65536 --k 65536 --n 256 --check --quiet" "$gemm_sim"
    expect_err "gemm_sim: out of memory for the 65536x256x65536 GEMM"
else
    echo "SKIP: gemm_sim cannot start under ulimit -v (a sanitizer build): no out-of-memory check"
fi

# 3. tcsim demo --vectors: a folder laid out as data/vectors/a100, made here (two
#    cases a set: 1*1 summed k times, c = 0), so that it can be broken file by file
mk_a100() {
    local dir=$1 one8 one4
    one4="3f800000 3f800000 3f800000 3f800000"; one8="$one4 $one4"
    rm -rf "$dir" && mkdir -p "$dir/fp16" "$dir/bf16" "$dir/tf32"
    for f in fp16 bf16 tf32; do
        local ones=$one8 d=41000000
        [ $f = tf32 ] && ones=$one4 d=40800000
        printf '%s\n%s\n' "$ones" "$ones" >"$dir/$f/a_A100_$f.txt"
        cp "$dir/$f/a_A100_$f.txt" "$dir/$f/b_A100_$f.txt"
        printf '0\n0\n' >"$dir/$f/c_A100_fp32.txt"
        printf '%s\n%s\n' $d $d >"$dir/$f/d_A100_fp32.txt"
    done
    cp "$dir/fp16/d_A100_fp32.txt" "$dir/fp16/d_A100_fp16.txt"
}
mk_a100 a100_ok
run 0 "$tcsim" demo --vectors a100_ok
expect_out "tf32_fp32  2 cases, k = 4: 2 bit-exact, 0 differ"
expect_out "every A100 vector matches"
mk_a100 a100_differ && echo 41000001 >>a100_differ/bf16/d_A100_fp32.txt && sed -i 1d a100_differ/bf16/d_A100_fp32.txt
run 1 "$tcsim" demo --vectors a100_differ
expect_out "bf16_fp32  2 cases, k = 8: 1 bit-exact, 1 differ"
expect_out "some A100 vectors differ"
lacks_out "every A100 vector matches"
# the sets go through ampere's profiles (the A100's, docs/contract.md), not another arch's:
# 1 + 4 * (2^-24 * 0.5), E = 0: at F = 24 (ampere) each 2^-25 product truncates to 0 and
# d = 1.0 (fp32 and fp16 out); at F = 25 (hopper) they add 2^-23: 0x3f800001
mk_a100 a100_arch
sed -i '1s/.*/3f800000 33800000 33800000 33800000 33800000 0 0 0/' a100_arch/fp16/a_A100_fp16.txt
sed -i '1s/.*/3f800000 3f000000 3f000000 3f000000 3f000000 3f800000 3f800000 3f800000/' a100_arch/fp16/b_A100_fp16.txt
sed -i '1s/.*/3f800000/' a100_arch/fp16/d_A100_fp32.txt a100_arch/fp16/d_A100_fp16.txt
run 0 "$tcsim" demo --vectors a100_arch
expect_out "fp16_fp32  2 cases, k = 8: 2 bit-exact, 0 differ"
expect_out "fp16_fp16  2 cases, k = 8: 2 bit-exact, 0 differ"
run 2 "$tcsim" demo --vectors no_such_dir
expect_err "tcsim demo: cannot read --vectors 'no_such_dir': No such file or directory"
expect_no_out
mk_a100 a100_bad && sed -i '2s/^3f800000/zz/' a100_bad/fp16/a_A100_fp16.txt
run 2 "$tcsim" demo --vectors a100_bad
expect_err "a100_bad/fp16/a_A100_fp16.txt:2: word 'zz'"
expect_no_out
mk_a100 a100_part && rm -r a100_part/tf32
run 2 "$tcsim" demo --vectors a100_part
expect_err "a100_part/tf32/a_A100_tf32.txt: cannot open: No such file or directory"
expect_no_out

# 4. tcsim emit-pkg: a file --check cannot read is not "differs ... regenerate it";
#    -o - is standard output; a write that fails (to a file or to stdout) is an error
rm -rf pkg_dir ./- && mkdir pkg_dir
run 2 "$tcsim" emit-pkg --check pkg_dir
expect_err "tcsim emit-pkg: cannot read 'pkg_dir': Is a directory"
run 2 "$tcsim" emit-pkg --check no_such.sv
expect_err "tcsim emit-pkg: cannot read 'no_such.sv': No such file or directory"
run 0 "$tcsim" emit-pkg -o pkg.sv
sed '2s/^/x/' pkg.sv >pkg_edited.sv
run 1 "$tcsim" emit-pkg --check pkg_edited.sv
expect_err "'pkg_edited.sv' differs from the model's format table at line 2"
# the package and more after it is not the package (nor is it without its last line)
{ cat pkg.sv; echo "// more"; } >pkg_longer.sv
run 1 "$tcsim" emit-pkg --check pkg_longer.sv
expect_err "'pkg_longer.sv' differs from the model's format table"
sed '$d' pkg.sv >pkg_shorter.sv
run 1 "$tcsim" emit-pkg --check pkg_shorter.sv
expect_err "'pkg_shorter.sv' differs from the model's format table"
run 0 "$tcsim" emit-pkg --check pkg.sv
run 2 "$tcsim" emit-pkg -o pkg_both.sv --check pkg.sv
expect_err "tcsim emit-pkg: give -o or --check, not both"
[ ! -e pkg_both.sv ] || fail "emit-pkg -o with --check wrote pkg_both.sv"
run 0 "$tcsim" emit-pkg -o -
cmp -s out.txt pkg.sv || fail "emit-pkg -o - did not write the package to stdout"
[ ! -e ./- ] || fail "emit-pkg -o - wrote a file named '-'"
run 1 "$tcsim" emit-pkg -o /dev/full
expect_err "tcsim emit-pkg: cannot write '/dev/full'"
"$tcsim" emit-pkg >/dev/full 2>err.txt
rc=$?; [ "$rc" = 1 ] || fail "emit-pkg >/dev/full exited $rc, expected 1"
expect_err "tcsim: cannot write the output"
[ "$(grep -c 'cannot write' err.txt)" = 1 ] || fail "emit-pkg >/dev/full: not one message: $(cat err.txt)"

# 5. a folder where a vector file should be: "cannot read", not "no cases"; through
#    tcsim vectors (found by name) and tcsim demo (the A100 names, read directly)
rm -rf vec_dir && mkdir vec_dir && cp a100_ok/fp16/[abc]_A100_* vec_dir/
for f in vec_dir/*; do mv "$f" "${f/A100/X9}"; done
mkdir vec_dir/d_X9_fp32.txt
run 2 "$tcsim" vectors vec_dir --arch ampere
expect_err "vec_dir/d_X9_fp32.txt: cannot read: not a regular file"
mk_a100 a100_dir && rm a100_dir/fp16/d_A100_fp16.txt && mkdir a100_dir/fp16/d_A100_fp16.txt
run 2 "$tcsim" demo --vectors a100_dir
expect_err "a100_dir/fp16/d_A100_fp16.txt: cannot read: Is a directory"

# 6. input that cannot be read whole: an error naming the file, never the lines before it
#    taken for the whole input. A line too long for the memory (64 MiB of spaces under a
#    40 MB address-space limit: getline's out of memory sets no error flag on the stream)
#    through each reader; skipped where tcsim cannot start so (a sanitizer build). And a
#    folder given as tcsim mma's input file (it read as an empty file).
big_line() { head -c 67108864 /dev/zero | tr '\0' ' '; }
rm -rf vec_big && mkdir vec_big && cp vec_dir/[abc]_X9_* vec_big/ && cp a100_ok/fp16/d_A100_fp32.txt vec_big/d_X9_fp32.txt
big_line >>vec_big/a_X9_fp16.txt
{ echo "3c00 3c00 3c00 3c00 3f800000"; big_line; } >dot_big.txt
{ echo "3c00 4000 4200"; big_line; } >conv_big.txt
echo "3c00 3c00 3c00" >conv_wgt.txt
{ echo "# A"; big_line; } >mma_big.txt
conv_args="--n 1 --h 1 --w 1 --c 3 --k 1 --r 1 --s 1 --algo 1 --wgt conv_wgt.txt --act conv_big.txt"
if { (ulimit -v 40000 && "$tcsim" --version) >/dev/null 2>&1; } 2>/dev/null; then
    limited() { run "$1" bash -c "ulimit -v 40000 && exec \"\$@\"" limited "${@:2}"; }
    run 0 "$tcsim" vectors vec_big --arch ampere
    limited 2 "$tcsim" vectors vec_big --arch ampere
    expect_err "vec_big/a_X9_fp16.txt: cannot read: Cannot allocate memory"
    limited 2 sh -c 'exec "$0" dot --arch ampere --in fp16 --out fp32 <dot_big.txt' "$tcsim"
    expect_err "line 2: cannot read the input: Cannot allocate memory"
    limited 2 "$tcsim" conv $conv_args
    expect_err "tcsim conv: --act 'conv_big.txt': cannot read it: Cannot allocate memory"
    limited 2 "$tcsim" mma --arch volta --acc f32 --a mma_big.txt --b mma_big.txt --c mma_big.txt
    expect_err "tcsim mma: --a mma_big.txt: cannot read: Cannot allocate memory"
else
    echo "SKIP: tcsim cannot start under ulimit -v (a sanitizer build): no out-of-memory check"
fi
rm -f dot_big.txt conv_big.txt mma_big.txt && cp vec_dir/a_X9_fp16.txt vec_big/
rm -rf mma_dir && mkdir mma_dir
run 2 "$tcsim" mma --arch volta --acc f32 --a mma_dir --b mma_dir --c mma_dir
expect_err "tcsim mma: --a mma_dir: cannot read: Is a directory"

# 7. a line longer than the limit (64 MiB, docs/tcsim.md) is refused with its number,
#    read no further than the limit: under a 100 MB address-space limit, so that reading
#    the whole line fails for want of memory. An endless line (spaces from /dev/zero) in
#    each reader, within the time limit; exactly 64 MiB with its newline is a line,
#    1 byte more is not. /dev/zero itself is refused at its first NUL byte.
if { (ulimit -v 100000 && "$tcsim" --version) >/dev/null 2>&1; } 2>/dev/null; then
    capped() { run "$1" timeout 60 bash -c "ulimit -v 100000 && exec \"\$@\"" capped "${@:2}"; }
    too_long="longer than 64 MiB (the limit of a line)"
    capped 2 sh -c '{ echo "3c00 3c00 0"; tr "\\0" " " </dev/zero; } | "$0" dot --arch ampere --in fp16 --out fp32' "$tcsim"
    expect_err "line 2: $too_long"
    expect_out "3f800000"
    capped 2 sh -c '{ echo "# A"; tr "\\0" " " </dev/zero; } | "$0" mma --arch volta --acc f32 --a /dev/stdin --b mma_dir --c mma_dir' "$tcsim"
    expect_err "tcsim mma: --a /dev/stdin: line 2: $too_long"
    capped 2 sh -c '{ echo "3c00 4000 4200"; tr "\\0" " " </dev/zero; } | "$0" conv $1 --act /dev/stdin' "$tcsim" "${conv_args% --act *}"
    expect_err "tcsim conv: --act '/dev/stdin' line 2: $too_long"
    head -c $(((64 << 20) + 1)) /dev/zero | tr '\0' ' ' >>vec_big/a_X9_fp16.txt
    capped 2 "$tcsim" vectors vec_big --arch ampere
    expect_err "vec_big/a_X9_fp16.txt:3: $too_long"
    { head -c $(((64 << 20) - 1)) /dev/zero | tr '\0' ' '; echo; } >line_max.txt
    capped 0 sh -c 'exec "$0" dot --arch ampere --in fp16 --out fp32 <line_max.txt' "$tcsim"
    capped 2 sh -c '{ printf " "; cat line_max.txt; } | "$0" dot --arch ampere --in fp16 --out fp32' "$tcsim"
    expect_err "line 1: $too_long"
    capped 2 sh -c 'exec "$0" dot --arch ampere --in fp16 --out fp32 </dev/zero' "$tcsim"
    expect_err "line 1: a NUL byte"
    capped 2 "$tcsim" mma --arch volta --acc f32 --a /dev/zero --b /dev/zero --c /dev/zero
    expect_err "tcsim mma: --a /dev/zero: line 1: a NUL byte"
    rm -f vec_big/* line_max.txt
else
    echo "SKIP: tcsim cannot start under ulimit -v (a sanitizer build): no line-limit check"
fi

# 8. a message quotes what it echoes (cli_quote.c): a 100 kB bad word or value in a line
#    shorter than 200 bytes, cut at 40 characters with its length said; an escape
#    sequence (in an input file, a file name or an argument) named \x1b, never raw
long_word=$(head -c 100000 /dev/zero | tr '\0' g)
esc=$(printf '\033[2J')
short_err() { awk 'length > 200 { exit 1 }' err.txt || fail "a message line over 200 bytes: $(head -c 300 err.txt)"; }
no_raw_ctl() {
    ! tr -d '\n' <err.txt | LC_ALL=C grep -q '[[:cntrl:]]' ||
        fail "a raw control character in the message: $(od -c err.txt | head -5)"
}
quoted() { expect_err "$1"; short_err; no_raw_ctl; }
cut_word="'gggggggggggggggggggggggggggggggggggggggg... (100000 bytes)'"
run_with 2 "3c00 $long_word 0\n" "$tcsim" dot --arch ampere --in fp16 --out fp32
quoted "line 1: word 2 $cut_word is not a hex number"
run 2 "$tcsim" dot --arch "$long_word" --in fp16 --out fp32
quoted "tcsim dot: unknown --arch $cut_word (one of:"
run 2 "$tcsim" timing --arch "$esc$long_word" --op mma.m16n8k16 --in fp16 --acc fp32
quoted "tcsim timing: unknown --arch '\x1b[2J$(printf %33s | tr ' ' g)... (100004 bytes)'"
echo "$long_word" >long_word.txt
run 2 "$tcsim" mma --arch volta --acc f32 --a long_word.txt --b long_word.txt --c long_word.txt
quoted "tcsim mma: --a long_word.txt: line 1: word 1 $cut_word is not a hex number"
{ echo "3c00 4000 4200"; head -c 100000 /dev/zero | tr '\0' 0; echo 1; } >conv_more.txt
run 2 "$tcsim" conv ${conv_args% --act *} --act conv_more.txt
quoted "more words than the shape needs at '0000000000000000000000000000000000000000... (100001 bytes)'"
rm -rf vec_q && mkdir vec_q && cp vec_dir/[bc]_X9_* vec_q/ && cp a100_ok/fp16/d_A100_fp32.txt vec_q/d_X9_fp32.txt
printf '3f800000 %s[31mred\n' "$(printf '\033')" >vec_q/a_X9_fp16.txt
run 2 "$tcsim" vectors vec_q --arch ampere
quoted "vec_q/a_X9_fp16.txt:1: word '\x1b[31mred' is neither hex"
echo "3f800000 $long_word" >vec_q/a_X9_fp16.txt
run 2 "$tcsim" vectors vec_q --arch ampere
quoted "vec_q/a_X9_fp16.txt:1: word $cut_word is neither hex"
rm vec_q/a_X9_fp16.txt && touch "vec_q/a_X9${esc}_fp16.txt"
run 2 "$tcsim" vectors vec_q --arch ampere
quoted "vec_q/a_X9\x1b[2J_fp16.txt: no b_X9\x1b[2J_fp16.txt beside it"
run_with 2 "3c00 3c00\t3c00\033[31m 0\n" "$tcsim" dot --arch ampere --in fp16 --out fp32
quoted "line 1: word 3: a stray control character 0x1b after '3c00'"
run 2 "$tcsim" "$esc"
quoted "tcsim: unknown command '\x1b[2J'"
run 2 "$tcsim" fedp-params "$esc$long_word"
quoted "tcsim fedp-params: unknown preset '\x1b[2J$(printf %33s | tr ' ' g)... (100004 bytes)'"
run 2 "$tcsim" fedp-params "n:volta:mma:$long_word"
quoted "tcsim fedp-params: n: unknown format $cut_word"
run 2 env TCSIM_DATA_DIR="${esc}data" "$tcsim" vectors
quoted "tcsim vectors: no folder \x1b[2Jdata/vectors/a100 (TCSIM_DATA_DIR names"
run 2 env TCSIM_DATA_DIR="$long_word" "$tcsim" vectors   # a path: 200 characters kept
expect_err "no folder $(printf %200s | tr ' ' g)... (100000 bytes)/vectors/a100"
awk 'length > 400 { exit 1 }' err.txt || fail "a message line over 400 bytes: $(head -c 500 err.txt)"
run 2 "$tcsim" emit-pkg --package "$esc"
quoted "tcsim emit-pkg: unknown package '\x1b[2J' (tc_pkg or tmem_pkg)"
rm -rf vec_q long_word.txt conv_more.txt

finish
