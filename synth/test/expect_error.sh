#!/usr/bin/env bash
# expect_error.sh EXIT REGEX COMMAND... - passes when COMMAND exits with status EXIT and
# its output (stdout and stderr) matches the extended regular expression REGEX: a failure
# must be reported, and reported with a message that names the problem.
set -uo pipefail
[ $# -ge 3 ] || { echo "usage: expect_error.sh EXIT REGEX COMMAND..." >&2; exit 2; }
want=$1 regex=$2
shift 2
out=$("$@" 2>&1)
got=$?
echo "$out"
if [ "$got" -ne "$want" ]; then
    echo "expect_error: exit status $got, expected $want"
    exit 1
fi
if ! grep -Eq -- "$regex" <<<"$out"; then
    echo "expect_error: no message matching /$regex/"
    exit 1
fi
echo "expect_error: exit $got with the expected message"
