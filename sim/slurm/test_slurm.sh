#!/usr/bin/env bash
# test_slurm.sh BUILD WORKDIR - sim/regress --slurm on a real one-node Slurm cluster
# (sim/slurm/one_node.sh: Debian's slurm-wlm and munge, installed here as root when
# missing): a short regression of 3 shards, one failing on purpose, through --slurm
# --wait; its merged JUnit XML against the same shards run here, its merged coverage
# (made-up counters, one line per shard) against the known answer; bad input (no sbatch
# on PATH, a partition that does not exist, a shard past its time limit) refused or
# reported with a clear message and the local results untouched; synth/synth.py --slurm
# (two small blocks, and a failing one) against a local run; the daemons stopped
# afterwards, also when the test fails. Exit 77 (skipped), saying why, where Slurm cannot
# be installed or its daemons cannot start.
set -u
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
regress=$root/sim/regress
build=$(cd "$1" && pwd) || exit 2
work=$2; rm -rf "$work"; mkdir -p "$work"; work=$(cd "$work" && pwd); cd "$work" || exit 1
fails=0
fail() { echo "FAIL: $*"; fails=$((fails + 1)); }
skip() { echo "SKIPPED: $*"; exit 77; }

# --- Slurm and munge: Debian's packages, installed by the test itself (an optional tool)
if ! command -v slurmctld >/dev/null || ! command -v munged >/dev/null; then
    [ "$(id -u)" = 0 ] || skip "slurm-wlm and munge are not installed (as root: apt-get install slurm-wlm munge)"
    command -v apt-get >/dev/null || skip "slurm-wlm and munge are not installed and there is no apt-get"
    echo "installing slurm-wlm and munge"
    DEBIAN_FRONTEND=noninteractive apt-get install -y -q --no-install-recommends slurm-wlm munge \
        >apt.log 2>&1 || { DEBIAN_FRONTEND=noninteractive apt-get update -q >>apt.log 2>&1 &&
        DEBIAN_FRONTEND=noninteractive apt-get install -y -q --no-install-recommends slurm-wlm munge \
        >>apt.log 2>&1; } || skip "apt-get could not install slurm-wlm and munge: $(tail -1 apt.log)"
fi
[ "$(id -u)" = 0 ] || skip "starting slurmd needs root"

cluster=$(mktemp -d)
trap 'bash "$here/one_node.sh" stop "$cluster" && rm -rf "$cluster"' EXIT
bash "$here/one_node.sh" start "$cluster" >cluster.log 2>&1 \
    || skip "the Slurm daemons did not start: $(tr '\n' ' ' < cluster.log | tail -c 600)"
export SLURM_CONF=$cluster/slurm.conf

# --- the regression: a model test of the build, and made-up jobs. 7 jobs in 3 shards
# (job j in shard j mod 3 + 1): shard 1 = 0 3 6, shard 2 = 1 4, shard 3 = 2 5. "bad seed 2"
# (job 4, shard 2) fails on purpose; "cov" writes one coverage counter file per seed,
# seed 1 (job 5, shard 3) reaching line 10 of rtl/fedp.sv, seed 2 (job 6, shard 1) line 11.
cat > fakecov.sh <<'S'
# fakecov.sh ROOT SEED: a Verilator coverage file where seed N reached line 9+N of
# ROOT/rtl/fedp.sv (and not the other line), in $TCSIM_COVERAGE_DIR when it is set
[ -n "${TCSIM_COVERAGE_DIR:-}" ] || exit 0
point() { printf "C '\001t\002v_line\001page\002v_line/fedp\001f\002%s\001l\002%s\001n\0020\001o\002block\001h\002TOP.u\001S\002%s\001' %s\n" "$1/rtl/fedp.sv" "$2" "$2" "$3"; }
{ echo "# SystemC::Coverage-3"; point "$1" 10 $(( $2 == 1 )); point "$1" 11 $(( $2 == 2 )); } \
    > "$TCSIM_COVERAGE_DIR/fake-$2.dat"
S
cat > list.txt <<L
directed - ./model/test/test_directed
ok       2 test {seed} -ge 0
bad      2 sh -c 'echo checking seed {seed}; test {seed} -ne 2'
cov      2 sh $work/fakecov.sh {root} {seed}
L
[ -x "$build/model/test/test_directed" ] || { echo "FAIL: no $build/model/test/test_directed (build it)"; exit 1; }

# A shard past its time limit (1 minute, Slurm's smallest), submitted first so that it
# runs beside the regression: its merged results stay in the run's folder, the JUnit XML
# it was given keeps its old contents. "quick" runs first (-j 1) and keeps its verdict.
mkdir -p keep; echo "old results" > keep/junit.xml; cp keep/junit.xml keep.orig
printf 'quick - true\nslow - sleep 600\n' > slow.txt
"$regress" --list slow.txt --build "$build" --junit "$work/keep/junit.xml" --slurm --shards 1 \
    --time 1 --wait >slow.out 2>slow.err & slow_pid=$!

# the same shards run here, then through Slurm
for i in 1 2 3; do
    TCSIM_COVERAGE_DIR= "$regress" --list list.txt --build "$build" --shard $i/3 -j 1 \
        --junit "$work/local-$i.xml" >local-$i.out 2>&1
done
"$regress" --list list.txt --build "$build" --junit "$work/reports/junit.xml" --slurm --shards 3 \
    --wait >slurm.out 2>slurm.err; rc=$?
[ "$rc" = 1 ] || fail "--slurm --wait with a failing shard exited $rc, expected 1: $(tail -3 slurm.err)"
grep -q "^regress: submitted 7 jobs as array job [0-9]* (3 shards) and merge job [0-9]*" slurm.out \
    || fail "no job ids printed: $(head -2 slurm.out)"
grep -q "^FAILED bad seed 2; reproduce with:" slurm.out || fail "the failing job is not named"
grep -A1 "^  shard 2/3: bad seed 2$" slurm.out | grep -q -- "--shard 2/3$" \
    || fail "the failed shard is not named with its seed and rerun line: $(grep -A1 'shard 2/3' slurm.out)"
grep -q "^7 jobs (3 shards, Slurm array [0-9]*) in .*: 6 pass, 1 fail, 0 timeout, 0 skipped" slurm.out \
    || fail "summary counts: $(grep ' jobs (' slurm.out)"
run=$(ls -d reports/slurm/regress-* 2>/dev/null | head -1)
[ -n "$run" ] && cmp -s reports/junit.xml "$run/junit.xml" || fail "the merged JUnit XML is not in reports/"

# the merged JUnit XML holds what the shards run here hold, in job order: every testcase
# (name, seed, verdict, message, output) but its time
python3 - reports/junit.xml local-1.xml local-2.xml local-3.xml <<'P' || fail "merged JUnit XML differs from the local shards"
import sys, xml.etree.ElementTree as ET
def cases(path):
    out = []
    for c in ET.parse(path).getroot().findall("testcase"):
        kids = [(k.tag, k.get("message"), (k.text or "").strip()) for k in c]
        out.append((c.get("classname"), c.get("name"), kids))
    return out
merged = cases(sys.argv[1])
local = [c for p in sys.argv[2:] for c in cases(p)]
# job order: list order, then seed; the shards hold jobs j, j+3, ... in that order
order = [("directed", "-"), ("ok", "seed 1"), ("ok", "seed 2"), ("bad", "seed 1"),
         ("bad", "seed 2"), ("cov", "seed 1"), ("cov", "seed 2")]
assert [c[:2] for c in merged] == order, [c[:2] for c in merged]
assert sorted(merged) == sorted(local), (merged, local)
s = ET.parse(sys.argv[1]).getroot()
assert (s.get("tests"), s.get("failures"), s.get("errors"), s.get("skipped")) == ("7", "1", "0", "0")
P
# coverage: each shard reached one of the two lines; merged, both (100%, where a shard
# alone has 50%)
[ "$(head -1 reports/coverage/summary.txt 2>/dev/null)" = "line coverage: 100.0%" ] \
    || fail "merged coverage: '$(head -1 reports/coverage/summary.txt 2>&1)', expected 100.0%"

# --- bad input: exit 2 with the reason, nothing submitted or written
bad() {  # bad WHAT GREP [ENV...] -- ARGS...
    local what=$1 pat=$2; shift 2
    env "$@" --list list.txt --build "$build" --junit "$work/mine/junit.xml" --slurm \
        >bad.out 2>bad.err; local rc=$?
    [ "$rc" = 2 ] && grep -q -- "$pat" bad.err && ! grep -q Traceback bad.err \
        || fail "$what: exit $rc: $(cat bad.err)"
    cmp -s mine/junit.xml keep.orig && [ "$(ls mine)" = junit.xml ] \
        || fail "$what: the local results were touched: $(ls mine)"
}
mkdir -p mine nobin; cp keep.orig mine/junit.xml
# python3 itself (not a wrapper script that needs the PATH), alone on the PATH
ln -sf "$(python3 -c 'import sys; print(sys.executable)')" nobin/python3
bad "no sbatch" "sbatch, scontrol, squeue not on PATH" PATH="$work/nobin" python3 "$regress"
bad "unknown partition" "--partition nosuch: no such partition on this cluster (it has: debug)" \
    "$regress" --partition nosuch

# --- synth/synth.py --slurm: one task per block (two widths of the leading-zero counter),
# the reports as one local run writes them; a block that fails (a parameter its module
# does not have) named, no report written, the old one kept. Where the nodes can run it.
liberty=/usr/share/qflow/tech/osu018/osu018_stdcells.lib
if command -v yosys >/dev/null && command -v sta >/dev/null && [ -f $liberty ]; then
    synth=$root/synth/synth.py
    printf 'top fedp_lzc\nblock lzc_w8 fedp_lzc - set=W=8\nblock lzc_w16 fedp_lzc - set=W=16\n' > blocks.txt
    printf 'top fedp_lzc\nblock lzc_w8 fedp_lzc - set=W=8\nblock lzc_bad fedp_lzc - set=NoSuch=3\n' > blocks_bad.txt
    python3 "$synth" --blocks blocks.txt --work synth-local --reports synth-local --jobs 1 \
        --liberty $liberty >synth-local.out 2>&1 || fail "local synth.py: $(tail -2 synth-local.out)"
    python3 "$synth" --blocks blocks.txt --work synth-w --reports synth-r --liberty $liberty \
        --slurm --wait >synth.out 2>&1 || fail "synth.py --slurm --wait: exit $?: $(tail -3 synth.out)"
    grep -q "^synth.py: submitted 2 blocks as array job [0-9]* and merge job [0-9]*" synth.out \
        || fail "synth.py --slurm printed no job ids"
    python3 - synth-local/synth.json synth-r/synth.json <<'P' || fail "synth.json through Slurm differs from the local one"
import json, sys
a, b = (json.load(open(p))["blocks"] for p in sys.argv[1:])
same = lambda r: {k: v for k, v in r.items() if not k.endswith("seconds")}
assert list(a) == list(b) == ["lzc_w8", "lzc_w16"], (list(a), list(b))
assert all(same(a[k]) == same(b[k]) for k in a), (a, b)
P
    grep -q "^| lzc_w16 " synth-r/synth.md || fail "no lzc_w16 row in synth.md"
    cp synth-r/synth.json synth.orig
    python3 "$synth" --blocks blocks_bad.txt --work synth-w --reports synth-r --liberty $liberty \
        --slurm --wait >synth-bad.out 2>&1; rc=$?
    [ "$rc" = 1 ] && grep -q "^FAILED lzc_bad (task 2, Slurm state FAILED)" synth-bad.out \
        && grep -q "no report written" synth-bad.out || fail "a failing block: exit $rc: $(tail -4 synth-bad.out)"
    cmp -s synth-r/synth.json synth.orig || fail "a failed sweep changed synth.json"
    python3 "$synth" --blocks blocks.txt --reports synth-p --slurm --partition nosuch >/dev/null 2>err.txt; rc=$?
    [ "$rc" = 2 ] && grep -q -- "--partition nosuch: no such partition" err.txt && [ ! -e synth-p ] \
        || fail "synth.py --partition nosuch: exit $rc: $(cat err.txt)"
else
    echo "note: no yosys, sta or $liberty: synth.py --slurm not tested"
fi

# --- the shard past its time limit: reported as stopped by Slurm, its finished job kept,
# the local results untouched
wait $slow_pid; rc=$?
[ "$rc" = 1 ] || fail "a timed-out shard: exit $rc, expected 1: $(tail -3 slow.err)"
grep -q "shard 1/1 was stopped by Slurm (TIMEOUT)" slow.out || fail "no TIMEOUT message: $(tail -5 slow.out)"
grep -q "results incomplete: $work/keep/junit.xml left as it was" slow.out || fail "no 'left as it was'"
cmp -s keep/junit.xml keep.orig || fail "a timed-out run wrote the local JUnit XML"
python3 -c "
import sys, glob, xml.etree.ElementTree as ET
p = glob.glob('keep/slurm/regress-*/junit.xml'); assert len(p) == 1, p
c = {x.get('classname'): x for x in ET.parse(p[0]).getroot().findall('testcase')}
e = c['slow'].find('error'); assert e is not None and 'TIMEOUT' in e.get('message'), e
assert len(list(c['quick'])) == 1, 'quick did not pass'    # system-out only
" 2>err.txt || fail "timed-out run's JUnit XML: $(tail -1 err.txt)"

# --- the daemons stop (the trap stops them too when a check above exits early)
pids=$(cat "$cluster/slurmd.pid" "$cluster/slurmctld.pid" "$cluster/munge/munged.pid" 2>/dev/null)
bash "$here/one_node.sh" stop "$cluster" || fail "one_node.sh stop failed"
for p in $pids; do
    case $(ps -o stat= -p "$p" 2>/dev/null) in ""|Z*) ;; *) fail "daemon $p still runs";; esac
done

[ "$fails" = 0 ] && echo PASSED || echo "FAILED ($fails)"
[ "$fails" = 0 ]
