#!/usr/bin/env bash
# test_regress.sh WORKDIR - the regression runner's own tests: a failing seed is
# reported with its reproduce command and a non-zero exit; shards cover every job
# exactly once; the JUnit XML is well-formed and its counts match; the time budget
# stops starting jobs; bad usage is a clear error.
set -u
regress="$(cd "$(dirname "$0")" && pwd)/regress"
work=$1; mkdir -p "$work"; cd "$work" || exit 1
fails=0
fail() { echo "FAIL: $*"; fails=$((fails + 1)); }

cat > list.txt <<'L'
# name   seeds command
ok       5     test {seed} -ge 0
bad      5     test {seed} -ne 3
noseed   -     true
L

# 1. a failing seed: non-zero exit, the job named, the command to reproduce it
"$regress" --list list.txt --build "$work" -j 2 --junit j1.xml >out.txt 2>err.txt; rc=$?
[ "$rc" = 1 ] || fail "a failing seed exited $rc, expected 1"
grep -q "FAILED bad seed 3; reproduce with:" out.txt || fail "no FAILED line for bad seed 3"
grep -q "test 3 -ne 3" out.txt || fail "the reproduce command is missing"
grep -q "11 jobs (shard 1/1).*10 pass, 1 fail" out.txt || fail "summary counts wrong: $(grep jobs out.txt)"
grep -q "\[11/11\]" err.txt || fail "no progress line"

# 2. JUnit XML: well-formed, counts match the testcases
python3 - j1.xml <<'P' || fail "JUnit XML check"
import sys, xml.etree.ElementTree as ET
s = ET.parse(sys.argv[1]).getroot()
cases = s.findall("testcase")
assert s.tag == "testsuite" and int(s.get("tests")) == len(cases) == 11, "tests count"
assert int(s.get("failures")) == len([c for c in cases if c.find("failure") is not None]) == 1
assert int(s.get("skipped")) == 0 and int(s.get("errors")) == 0
P

# 3. shards: every job in exactly one of 3 shards
"$regress" --list list.txt --dry-run | cut -f1 | sort -n > all.txt
for i in 1 2 3; do "$regress" --list list.txt --dry-run --shard $i/3 | cut -f1; done | sort -n > shards.txt
[ -s all.txt ] && cmp -s all.txt shards.txt || fail "shards do not cover each job exactly once"
[ "$(wc -l < all.txt)" = 11 ] || fail "expected 11 jobs, got $(wc -l < all.txt)"

# 4. seed options: a seed list, and a count
"$regress" --list list.txt --dry-run --seed-list 3,42 --filter '^bad$' > s.txt
[ "$(cut -f2 s.txt | tr '\n' ,)" = "bad seed 3,bad seed 42," ] || fail "--seed-list: $(cat s.txt)"
n=$("$regress" --list list.txt --dry-run --seeds 2 | wc -l); [ "$n" = 5 ] || fail "--seeds 2 should give 5 jobs, got $n"
"$regress" --list list.txt --build "$work" --filter '^ok$' --junit j2.xml >/dev/null 2>&1 \
    || fail "a passing run exited non-zero"

# 5. time budget: jobs not started are skipped, a running one is stopped
printf 'slow 3 sleep {seed}\n' > slow.txt
"$regress" --list slow.txt --build "$work" -j 1 --budget 1.5 --junit j3.xml >out.txt 2>&1
grep -q "not run: the time budget was spent" out.txt || fail "budget: no skipped jobs reported"
python3 -c "import xml.etree.ElementTree as E,sys; s=E.parse('j3.xml').getroot(); sys.exit(int(s.get('skipped'))+int(s.get('errors'))<1)" \
    || fail "budget: JUnit shows nothing skipped or stopped"

# 6. bad usage and bad lists: exit 2 with the reason
"$regress" --list list.txt --shard 0/2 >/dev/null 2>err.txt; [ $? = 2 ] && grep -q "shard" err.txt || fail "--shard 0/2"
printf 'x 3 true\n' > nos.txt
"$regress" --list nos.txt >/dev/null 2>err.txt; [ $? = 2 ] && grep -q "nos.txt:1: entry 'x' runs 3 seeds but its command has no {seed}" err.txt || fail "missing {seed}: $(cat err.txt)"
printf 'x abc true {seed}\n' > badn.txt
"$regress" --list badn.txt >/dev/null 2>err.txt; [ $? = 2 ] && grep -q "badn.txt:1:" err.txt || fail "bad seed count"

[ "$fails" = 0 ] && echo PASSED || echo "FAILED ($fails)"
[ "$fails" = 0 ]
