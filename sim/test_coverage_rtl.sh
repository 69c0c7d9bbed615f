#!/usr/bin/env bash
# test_coverage_rtl.sh WORKDIR - sim/coverage.py on real Verilator counters: tmem_bank
# (8 rows of 8 bytes; its defaults name tmem_pkg, read first) Verilated with --coverage
# and driven by coverage_smoke_tb.cpp; the
# lcov tracefile names rtl/tmem_bank.sv, and genhtml wrote a page for every file of every
# module summary.json lists as measured. Skips (77) with the install line without
# verilator or genhtml.
set -u
here=$(cd "$(dirname "$0")" && pwd)
root=$(dirname "$here")
work=$1; rm -rf "$work"; mkdir -p "$work"; cd "$work" || exit 1
command -v verilator >/dev/null || { echo "SKIPPED: no verilator. As root: apt-get install -y verilator"; exit 77; }
command -v genhtml >/dev/null || { echo "SKIPPED: no genhtml (Debian package lcov). As root: apt-get install -y lcov"; exit 77; }
fails=0
fail() { echo "FAIL: $*"; fails=$((fails + 1)); }
verilator --cc --exe --build --coverage --top-module tmem_bank --prefix Vtmem_bank \
    -GDepth=8 -GLanes=8 -GWordW=8 -j 2 \
    "$root/rtl/tmem_pkg.sv" "$root/rtl/tmem_bank.sv" "$here/coverage_smoke_tb.cpp" -o smoke_tb >build.log 2>&1 \
    || { echo "FAIL: verilator: $(tail -5 build.log)"; exit 1; }
obj_dir/smoke_tb "$work/tmem_bank.dat" || { echo "FAIL: smoke_tb exited $?"; exit 1; }
python3 "$root/sim/coverage.py" --report-only tmem_bank.dat --reports rep >log.txt 2>&1 \
    || fail "coverage.py exited $?: $(tail -3 log.txt)"
grep -qx "SF:$root/rtl/tmem_bank.sv" rep/coverage.info || fail "coverage.info lacks rtl/tmem_bank.sv"
[ -s rep/html/index.html ] || fail "no genhtml index.html"
n=0
for f in $(python3 -c "import json; print(' '.join(f for m in json.load(open('rep/summary.json'))['modules'] for f in m['files']))"); do
    n=$((n + 1))
    [ -s "rep/html/$f.gcov.html" ] || fail "no genhtml page rep/html/$f.gcov.html"
done
[ "$n" -ge 1 ] || fail "summary.json lists no module"
grep -q "^tmem_bank " rep/summary.txt || fail "no tmem_bank row in summary.txt"
[ "$fails" = 0 ] && echo PASSED || echo "FAILED ($fails)"
[ "$fails" = 0 ]
