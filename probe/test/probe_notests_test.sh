#!/bin/bash
# probe_notests_test.sh SRC WORK - probe/run.sh's configuration on a GPU machine that lacks
# GMP: with -DTCSIM_TESTS=OFF the project configures (tcsim and tcsim-probe need no GMP);
# with the tests on, the same machine stops at the exact reference, naming GMP (so the
# first run did hide GMP). GMP is hidden by rooting CMake's library and header searches
# in an empty folder.
src=$1; work=$2
rm -rf "$work" && mkdir -p "$work/empty" || exit 1
hide=(-DCMAKE_FIND_ROOT_PATH="$work/empty" -DCMAKE_FIND_ROOT_PATH_MODE_LIBRARY=ONLY
      -DCMAKE_FIND_ROOT_PATH_MODE_INCLUDE=ONLY -DCMAKE_FIND_ROOT_PATH_MODE_PACKAGE=ONLY
      -DTCSIM_RTL=OFF)
fail=0
if ! cmake -S "$src" -B "$work/off" "${hide[@]}" -DTCSIM_TESTS=OFF >"$work/off.log" 2>&1; then
    echo "FAIL: -DTCSIM_TESTS=OFF without GMP did not configure:"; tail -20 "$work/off.log"
    fail=1
fi
if cmake -S "$src" -B "$work/on" "${hide[@]}" -DTCSIM_TESTS=ON >"$work/on.log" 2>&1; then
    echo "FAIL: with the tests on, a machine without GMP configured (GMP was not hidden)"
    fail=1
elif ! grep -q "GMP not found" "$work/on.log"; then
    echo "FAIL: with the tests on, configuring failed without naming GMP:"; tail -20 "$work/on.log"
    fail=1
fi
[ $fail = 0 ] && echo PASSED || echo FAILED
exit $fail
