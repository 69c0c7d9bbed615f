#!/usr/bin/env bash
# test_regress.sh WORKDIR - the regression runner's own tests: a failing seed is
# reported with its reproduce command and a non-zero exit; shards cover every job
# exactly once; the JUnit XML is well-formed and its counts match; the time budget
# stops starting jobs and stops a running one with its children; bad usage, bad lists
# and bad placeholders are a clear error (exit 2) before any job runs.
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
# the reproduce line runs the job as the runner did, in the build folder, even when the
# command has its own & or ; (a plain `cd B && a & b` would run b here)
mkdir -p away; printf 'amp - pwd > where1 & pwd > where2; wait; false\n' > amp.txt
"$regress" --list amp.txt --build "$work" --junit ja.xml >amp.out 2>&1
line=$(grep -A1 "FAILED amp; reproduce with:" amp.out | tail -1)
rm -f where1 where2; (cd away && sh -c "$line") >/dev/null 2>&1
[ "$(cat where1 2>/dev/null)" = "$work" ] && [ "$(cat where2 2>/dev/null)" = "$work" ] \
    && [ ! -e away/where2 ] || fail "the reproduce line of a command with & ran elsewhere: $line"
# the JUnit failure message carries the same line
python3 -c "import sys, xml.etree.ElementTree as E; m=E.parse('ja.xml').getroot().find('testcase/failure').get('message'); \
sys.exit(m != 'reproduce: ' + sys.argv[1].strip())" "$line" || fail "ja.xml's failure message is not the reproduce line"
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
"$regress" --build "$work" --list list.txt --dry-run | cut -f1 | sort -n > all.txt
for i in 1 2 3; do "$regress" --build "$work" --list list.txt --dry-run --shard $i/3 | cut -f1; done | sort -n > shards.txt
[ -s all.txt ] && cmp -s all.txt shards.txt || fail "shards do not cover each job exactly once"
[ "$(wc -l < all.txt)" = 11 ] || fail "expected 11 jobs, got $(wc -l < all.txt)"

# 4. seed options: a seed list, and a count
"$regress" --build "$work" --list list.txt --dry-run --seed-list 3,42 --filter '^bad$' > s.txt
[ "$(cut -f2 s.txt | tr '\n' ,)" = "bad seed 3,bad seed 42," ] || fail "--seed-list: $(cat s.txt)"
n=$("$regress" --build "$work" --list list.txt --dry-run --seeds 2 | wc -l); [ "$n" = 5 ] || fail "--seeds 2 should give 5 jobs, got $n"
"$regress" --list list.txt --build "$work" --filter '^ok$' --junit j2.xml >/dev/null 2>&1 \
    || fail "a passing run exited non-zero"

# 5. time budget: jobs not started are skipped, a running one is stopped
printf 'slow 3 sleep {seed}\n' > slow.txt
"$regress" --list slow.txt --build "$work" -j 1 --budget 1.5 --junit j3.xml >out.txt 2>&1
grep -q "not run: the time budget was spent" out.txt || fail "budget: no skipped jobs reported"
python3 -c "import xml.etree.ElementTree as E,sys; s=E.parse('j3.xml').getroot(); sys.exit(int(s.get('skipped'))+int(s.get('errors'))<1)" \
    || fail "budget: JUnit shows nothing skipped or stopped"

# 6. bad usage and bad lists: exit 2 with the reason
"$regress" --build "$work" --list list.txt --shard 0/2 >/dev/null 2>err.txt; [ $? = 2 ] && grep -q "shard" err.txt || fail "--shard 0/2"
printf 'x 3 true\n' > nos.txt
"$regress" --build "$work" --list nos.txt >/dev/null 2>err.txt; [ $? = 2 ] && grep -q "nos.txt:1: entry 'x' runs 3 seeds but its command has no {seed}" err.txt || fail "missing {seed}: $(cat err.txt)"
printf 'x abc true {seed}\n' > badn.txt
"$regress" --build "$work" --list badn.txt >/dev/null 2>err.txt; [ $? = 2 ] && grep -q "badn.txt:1:" err.txt || fail "bad seed count"

# 7. a stopped job leaves nothing running: the budget and SIGTERM (as Ctrl-C) stop the
#    job's whole process group, and a job's background leftovers go when it ends
# The waits below are generous and polled, not fixed sleeps: on a loaded machine a job
# may take seconds to start, and a killed process a moment to go; a wrong runner still
# fails (the child it leaves runs `sleep 47`, far past them).
gone() {  # gone PIDFILE: the process ends within 3 s (a zombie counts as gone); else kill it
    local pid st; pid=$(cat "$1" 2>/dev/null) || return 0
    for _ in $(seq 30); do
        st=$(ps -o stat= -p "$pid" 2>/dev/null); case $st in ""|Z*) return 0;; esac
        sleep 0.1
    done
    kill "$pid"; return 1
}
started() {  # started PIDFILE: the job wrote its child's pid within 30 s
    for _ in $(seq 300); do [ -s "$1" ] && return 0; sleep 0.1; done
    return 1
}
printf 'kid - sleep 47 & echo $! > kid.pid; wait\n' > kid.txt
rm -f kid.pid; "$regress" --list kid.txt --build "$work" --budget 2 --junit j4.xml >out.txt 2>&1; rc=$?
[ "$rc" = 1 ] && grep -q "stopped: time budget" out.txt || fail "budget on kid: exit $rc"
[ -s kid.pid ] || fail "the job did not start its child"
gone kid.pid || fail "budget: the job's child still runs after the run"
printf 'bg - sleep 47 >/dev/null 2>&1 & echo $! > bg.pid\n' > bg.txt
rm -f bg.pid; "$regress" --list bg.txt --build "$work" --junit j5.xml >/dev/null 2>&1 || fail "bg job failed"
gone bg.pid || fail "a passed job's background child still runs after the run"
rm -f kid.pid; "$regress" --list kid.txt --build "$work" --junit j6.xml >/dev/null 2>&1 & rp=$!
started kid.pid || fail "SIGTERM: the job did not start within 30 s"
kill -TERM $rp; wait $rp; rc=$?
[ "$rc" = 130 ] || fail "SIGTERM: exit $rc, expected 130"
gone kid.pid || fail "SIGTERM: the job's child still runs after the runner stopped"
python3 -c "import xml.etree.ElementTree as E; s=E.parse('j6.xml').getroot(); c=s.find('testcase/skipped'); \
m=(s.get('tests'), s.get('skipped'), c is not None and c.get('message')); \
assert m==('1', '1', 'stopped: interrupted'), m" 2>err.txt \
    || fail "SIGTERM: the JUnit XML is not the interrupted run's: $(tail -1 err.txt)"
# a job that finished before the interrupt keeps its verdict; one never started says so
printf 'done - true\nkid - sleep 47 & echo $! > kid.pid; wait\nlater - true\n' > int.txt
rm -f kid.pid; "$regress" --list int.txt --build "$work" -j 1 --junit j9.xml >/dev/null 2>&1 & rp=$!
started kid.pid || fail "interrupted run: the job did not start within 30 s"
kill -TERM $rp; wait $rp; rc=$?; gone kid.pid
python3 -c "import xml.etree.ElementTree as E; c=E.parse('j9.xml').getroot().findall('testcase'); \
m=[(x.get('classname'), x.find('skipped').get('message') if x.find('skipped') is not None else 'ran') for x in c]; \
assert m==[('done','ran'),('kid','stopped: interrupted'),('later','not started: interrupted')], m" 2>err.txt \
    && [ "$rc" = 130 ] || fail "interrupted run's JUnit: exit $rc: $(tail -1 err.txt)"
# the stop signal reaching the job's processes, then the runner (as Slurm's time limit
# does, to every process of the task): the job it ended is "stopped: interrupted" too,
# not a failure (the job's session id is its shell's pid)
# ("other", still running, keeps the runner going until its own signal)
printf 'term - echo $$ > sh.pid; sleep 47\nother - echo $$ > o.pid; sleep 47\n' > term.txt
rm -f sh.pid o.pid; "$regress" --list term.txt --build "$work" -j 2 --junit j10.xml >/dev/null 2>&1 & rp=$!
started sh.pid && started o.pid || fail "signal to both: the jobs did not start within 30 s"
kill -TERM -- "-$(cat sh.pid)"; sleep 0.5; kill -TERM $rp; wait $rp; rc=$?
python3 -c "import xml.etree.ElementTree as E; c=E.parse('j10.xml').getroot().find('testcase'); \
m=c.find('skipped') is not None and c.find('skipped').get('message'); assert m=='stopped: interrupted', m" 2>err.txt \
    && [ "$rc" = 130 ] || fail "a job and the runner stopped together: exit $rc: $(tail -1 err.txt)"

# 8. bad arguments and files: exit 2, the argument or file named, no traceback, no job run
printf 'mark - touch marker\n' > mark.txt
bad() {  # bad WHAT GREP ARGS...: exit 2, GREP in stderr, no traceback, nothing ran
    local what=$1 pat=$2; shift 2; rm -f marker
    "$regress" "$@" >/dev/null 2>err.txt; local rc=$?
    [ "$rc" = 2 ] && grep -q -- "$pat" err.txt && ! grep -q Traceback err.txt && [ ! -e marker ] \
        || fail "$what: exit $rc: $(tail -1 err.txt)"
}
bad "--build missing" "--build /nonexistent" --list mark.txt --build /nonexistent --junit j7.xml
bad "--build missing, dry run" "--build /nonexistent" --list mark.txt --build /nonexistent --dry-run
for b in nan inf 1e300 -1; do bad "--budget $b" "--budget must be a finite number" --list mark.txt --build "$work" --budget $b --junit j7.xml; done
bad "--junit a folder" "--junit" --list mark.txt --build "$work" --junit "$work"
bad "--junit under a file" "--junit $work/mark.txt/j.xml: '$work/mark.txt' is not a folder" --list mark.txt --build "$work" --junit "$work/mark.txt/j.xml"
bad "--junit two below a file" "'$work/mark.txt' is not a folder" --list mark.txt --build "$work" --junit "$work/mark.txt/a/j.xml"
printf 'ok - true\nx - true \377\n' > bad8.txt
bad "non-UTF-8 list" "bad8.txt:2: not UTF-8 text" --list bad8.txt --build "$work" --dry-run
bad "dry run, no job" "no jobs to run" --list mark.txt --build "$work" --dry-run --filter nomatch
for c in 'echo {sed} {seed}' 'echo {bulid} {seed}' 'echo {seed {seed}'; do
    printf 'x 2 %s\n' "$c" > ph.txt; bad "placeholder in '$c'" "ph.txt:1: .*placeholder" --list ph.txt --build "$work" --dry-run
done
printf 'x - echo ${HOME} | awk '"'"'{print $1}'"'"' | grep -E "o{1,2}"\n' > shell.txt
"$regress" --list shell.txt --build "$work" --dry-run >/dev/null 2>err.txt || fail "shell braces taken for placeholders: $(cat err.txt)"
bad "--seeds with --seed-list" "--seed-list" --list list.txt --build "$work" --dry-run --seeds 3 --seed-list 7
# the Slurm options: only with --slurm, checked before Slurm is asked anything
bad "--wait alone" "--wait goes with --slurm" --list mark.txt --build "$work" --wait
bad "--partition alone" "--partition goes with --slurm" --list mark.txt --build "$work" --partition p
bad "--shard with --slurm" "--slurm deals the shards itself" --list mark.txt --build "$work" --slurm --shard 1/2
bad "--time 1h" "--time must be a Slurm time limit" --list mark.txt --build "$work" --slurm --time 1h
bad "--shards -1" "--shards must be >= 1" --list mark.txt --build "$work" --slurm --shards -1
"$regress" --list list.txt --build "$work" --slurm --shards 4 --dry-run > sd.txt 2>&1
[ "$(grep -c '^shard [1-4]/4: ' sd.txt)" = 4 ] && grep -q "^sbatch --array=1-4 " sd.txt \
    && grep -q "^sbatch --dependency=afterany:ARRAY " sd.txt || fail "--slurm --dry-run: $(cat sd.txt)"
# the JUnit XML cannot be written after the run: the summary is printed all the same
"$regress" --list mark.txt --build "$work" --junit /dev/full >out.txt 2>err.txt; rc=$?
[ "$rc" = 2 ] && grep -q "1 jobs (shard 1/1)" out.txt && grep -q -- "--junit /dev/full" err.txt \
    && ! grep -q Traceback err.txt || fail "JUnit write failure: exit $rc: $(tail -1 err.txt)"

# 9. a relative --build is made absolute: {build} names the folder from the job's folder too
mkdir -p rel; printf 'rel - test -d {build}/../rel\n' > rel.txt
"$regress" --list rel.txt --build rel --junit j8.xml >out.txt 2>&1 || fail "relative --build: $(grep -A2 FAILED out.txt)"
"$regress" --list rel.txt --build rel --dry-run | grep -q "test -d $work/rel/" || fail "relative --build: {build} not absolute"

[ "$fails" = 0 ] && echo PASSED || echo "FAILED ($fails)"
[ "$fails" = 0 ]
