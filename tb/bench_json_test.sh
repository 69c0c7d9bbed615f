#!/usr/bin/env bash
# bench_json_test.sh WORKDIR BENCH ARGS... - a benchmark's JSON report that cannot be
# written is an error: ARGS holds @JSON@ where the file goes. An unwritable path fails
# at once (status 1, the path named, nothing on stdout); a write that fails (/dev/full)
# fails after the run, with no "wrote" line.
set -u
work=$1; shift
mkdir -p "$work"; cd "$work" || exit 1
fails=0
fail() { echo "FAIL: $*"; fails=$((fails + 1)); }

# with_json PATH BENCH ARGS...: runs it with @JSON@ replaced by PATH; status 1 expected
with_json() {
    local json=$1 args=() a; shift
    for a in "$@"; do args+=("${a//@JSON@/$json}"); done
    "${args[@]}" </dev/null >out.txt 2>err.txt
    local rc=$?
    [ "$rc" = 1 ] || fail "${args[*]} exited $rc, expected 1 (stderr: $(head -c 300 err.txt))"
    grep -qF -- "cannot write '$json'" err.txt || fail "stderr lacks cannot write '$json': $(head -c 300 err.txt)"
}
with_json no_such_dir/x.json "$@"
[ ! -s out.txt ] || fail "the run went ahead of the error: $(head -c 300 out.txt)"
with_json /dev/full "$@"
! grep -q '^wrote' out.txt || fail "'wrote' after a failed write: $(grep '^wrote' out.txt)"

[ "$fails" = 0 ] && echo PASSED || echo "FAILED ($fails)"
[ "$fails" = 0 ]
