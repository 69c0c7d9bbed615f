#!/usr/bin/env bash
# test_coverage.sh WORKDIR - sim/coverage.py's report on coverage data made up here, with
# a known answer: a line counts once over instances (covered if any instance reached it),
# only rtl/ counts, the first line of summary.txt reads `line coverage: NN.N%`, the
# module table and the never-reached lines are right, and verilator_coverage takes the
# data (merged.dat and annotated/ are written); bad usage (a folder as data, -j 0, a
# missing build) is exit 2 before anything is created.
set -u
here=$(cd "$(dirname "$0")" && pwd)
root=$(dirname "$here")
work=$1; rm -rf "$work"; mkdir -p "$work"; cd "$work" || exit 1
fails=0
fail() { echo "FAIL: $*"; fails=$((fails + 1)); }

# point FILE LINE PAGE HIER COMMENT COUNT: one counter in Verilator's format
point() {
    printf "C '\001t\002%s\001page\002%s\001f\002%s\001l\002%s\001n\0020\001o\002%s\001h\002%s\001S\002%s\001' %s\n" \
        "${3%%/*}" "$3" "$1" "$2" "$5" "$4" "$2" "$6"
}
a=$root/rtl/fedp.sv b=$root/rtl/tmem.sv
{
    echo "# SystemC::Coverage-3"
    # fedp: lines 10, 11, 12; line 11 reached only by the second instance
    point "$a" 10 v_line/fedp TOP.u0 block 5
    point "$a" 11 v_line/fedp TOP.u0 block 0
    point "$a" 11 v_line/fedp TOP.u1 block 2
    point "$a" 12 v_branch/fedp TOP.u0 if 0
    point "$a" 12 v_branch/fedp TOP.u1 if 0
    point "$a" 20 v_toggle/fedp TOP.u0 'x:0->1' 1
    point "$a" 20 v_toggle/fedp TOP.u0 'x:1->0' 0
    # tmem: one line, reached
    point "$b" 7 v_line/tmem TOP.m block 9
    point "$b" 8 v_toggle/tmem TOP.m 'y:0->1' 3
    # outside rtl/: not counted
    point "$root/engines/fedp/fedp_tb_top.sv" 3 v_line/fedp_tb_top TOP block 0
} > a.dat

python3 "$root/sim/coverage.py" --report-only a.dat --reports out >log.txt 2>&1 \
    || fail "coverage.py exited $?: $(tail -3 log.txt)"
s=out/summary.txt
[ -s $s ] || fail "no summary.txt"
[ "$(head -1 $s)" = "line coverage: 75.0%" ] || fail "first line: '$(head -1 $s)', expected 'line coverage: 75.0%'"
grep -qx "toggle coverage: 66.7%" $s || fail "toggle line: $(sed -n 2p $s)"
grep -Eq "^fedp +66\.7% +2/3 +50\.0% +1/2" $s || fail "fedp row: $(grep ^fedp $s)"
grep -Eq "^tmem +100\.0% +1/1 +100\.0% +1/1" $s || fail "tmem row: $(grep ^tmem $s)"
grep -q "fedp_tb_top" $s && fail "a file outside rtl/ was counted"
grep -qx "  rtl/fedp.sv: 12" $s || fail "never-reached lines: $(grep 'rtl/' $s)"
# rtl/ files without data are named as not measured (tensor_core.sv here), fedp.sv is not
grep "^not measured" $s | grep -q "rtl/tensor_core.sv" || fail "not-measured line: $(grep '^not measured' $s)"
grep "^not measured" $s | grep -q "rtl/fedp.sv" && fail "fedp.sv has data but is listed as not measured"
if command -v verilator_coverage >/dev/null; then
    [ -s out/merged.dat ] || fail "no merged.dat"
    ls out/annotated/*fedp.sv >/dev/null 2>&1 || fail "no annotated fedp.sv"
    # lcov tracefile of rtl/ only; genhtml's page for every module measured
    grep -q "^SF:$a\$" out/coverage.info || fail "coverage.info lacks $a"
    grep -q "fedp_tb_top" out/coverage.info && fail "coverage.info has a file outside rtl/"
    if command -v genhtml >/dev/null; then
        for m in $(python3 -c "import json; print(' '.join(f for m in json.load(open('out/summary.json'))['modules'] for f in m['files']))"); do
            [ -s "out/html/$m.gcov.html" ] || fail "no genhtml page out/html/$m.gcov.html"
        done
        [ -s out/html/rtl/fedp.sv.gcov.html ] && [ -s out/html/rtl/tmem.sv.gcov.html ] \
            || fail "genhtml pages of fedp.sv and tmem.sv missing"
    fi
    # without genhtml: the exact install line, exit 1, the summary still written
    mkdir -p nolcov   # a PATH with what coverage.py and verilator_coverage run, no genhtml
    for t in verilator_coverage verilator_coverage_bin_dbg perl bash sh env; do
        command -v $t >/dev/null && ln -sf "$(command -v $t)" nolcov/
    done
    PATH=$work/nolcov "$(python3 -c "import sys; print(sys.executable)")" "$root/sim/coverage.py" --report-only a.dat --reports out4 >log4.txt 2>&1; rc=$?
    [ "$rc" = 1 ] && grep -q "As root: apt-get install -y lcov$" log4.txt && [ -s out4/summary.txt ] \
        || fail "no genhtml: exit $rc: $(tail -2 log4.txt)"
fi
python3 - <<'PY' || fail "summary.json figures"
import json
d = json.load(open("out/summary.json"))
m = {x["module"]: x for x in d["modules"]}
assert d["line_pct"] == 75.0 and d["toggle_pct"] == 66.7, d
assert (m["fedp"]["line_hit"], m["fedp"]["line"], m["fedp"]["toggle_hit"], m["fedp"]["toggle"]) == (2, 3, 1, 2), m
assert m["fedp"]["files"] == ["rtl/fedp.sv"] and m["tmem"]["files"] == ["rtl/tmem.sv"], m
PY
# a run through sim/regress: its JUnit XML goes to the reports folder, and the default
# regression's (BUILD/reports/junit.xml) is left as it was (issue 35: it was overwritten)
mkdir -p fakebuild/reports; echo default > fakebuild/reports/junit.xml
printf 'copy 1 cp %s/a.dat "$TCSIM_COVERAGE_DIR/a{seed}.dat"\n' "$work" > copy.list
python3 "$root/sim/coverage.py" --build fakebuild --list copy.list --reports out5 -j 1 >log5.txt 2>&1
rc=$?; [ "$rc" = 0 ] || command -v genhtml >/dev/null || rc=0
[ "$rc" = 0 ] || fail "coverage.py --build: exit $rc: $(tail -2 log5.txt)"
grep -q 'tests="1"' out5/junit.xml 2>/dev/null || fail "no out5/junit.xml of the coverage runs"
[ "$(cat fakebuild/reports/junit.xml)" = default ] || fail "the default regression's junit.xml was overwritten"
[ "$(head -1 out5/summary.txt)" = "line coverage: 75.0%" ] || fail "coverage.py --build summary: $(head -1 out5/summary.txt)"
# no rtl/ data at all is an error, not 100%
printf '# SystemC::Coverage-3\n' > empty.dat
python3 "$root/sim/coverage.py" --report-only empty.dat --reports out2 >/dev/null 2>&1 \
    && fail "data with no rtl/ points should fail"
# bad usage: exit 2 naming the argument, before anything is created or run (a folder
# given as data made verilator_coverage spin forever: timeout stops an old coverage.py)
printf 'x 1 true {seed}\n' > tiny.list
bad() {  # bad WHAT GREP ARGS...
    local what=$1 pat=$2; shift 2; rm -rf out3
    timeout 20 python3 "$root/sim/coverage.py" --reports out3 "$@" >/dev/null 2>err.txt; local rc=$?
    [ "$rc" = 2 ] && grep -q -- "$pat" err.txt && [ ! -e out3 ] || fail "$what: exit $rc: $(tail -1 err.txt)"
}
mkdir -p datdir
bad "--report-only a folder" "--report-only datdir: not a file" --report-only datdir
bad "--report-only missing" "--report-only nosuch.dat: not a file" --report-only a.dat nosuch.dat
bad "-j 0" "-j must be >= 1" --build "$work" --list tiny.list -j 0
bad "--seeds -3" "--seeds must be >= 0" --build "$work" --list tiny.list --seeds -3
bad "--build missing" "--build $work/nobuild: not a folder" --build "$work/nobuild" --list tiny.list
[ -e nobuild ] && fail "--build missing: $work/nobuild was created"
[ "$fails" = 0 ] && echo PASSED || echo "FAILED ($fails)"
[ "$fails" = 0 ]
