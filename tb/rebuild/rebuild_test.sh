#!/bin/bash
# rebuild_test.sh SOURCE_DIR WORK_DIR [--plain] - an RTL edit between two builds of one
# build tree must not break the second build (cmake/TcsimVerilate.cmake says why it
# could). Builds tb/rebuild/project with version 1 of its design, replaces the design by
# version 2 (a module more), builds again without reconfiguring by hand, and checks the
# program computes version 2. --plain uses Verilator's verilate() alone: that run is
# expected to fail at the second build.
set -u
src=$1 work=$2 plain=OFF
[ "${3:-}" = --plain ] && plain=ON
here=$src/tb/rebuild/project
rm -rf "$work"
mkdir -p "$work/project"
cp "$here/CMakeLists.txt" "$here/rebuild_check.cpp" "$here/rebuild_inc.sv" "$work/project/"
cp "$here/rebuild_top_v1.sv" "$work/project/rebuild_top.sv"
fail() { echo "FAIL: $*"; exit 1; }
step() {  # step LOG COMMAND...: run, keep the output in LOG, print it on failure
    local log=$1; shift
    "$@" >"$log" 2>&1 || { tail -20 "$log"; return 1; }
}
step "$work/configure.log" cmake -S "$work/project" -B "$work/build" \
     -DTCSIM_SOURCE_DIR="$src" -DPLAIN_VERILATE=$plain || fail "configure"
step "$work/build1.log" cmake --build "$work/build" -j 2 || fail "first build (version 1)"
out=$("$work/build/rebuild_check") || fail "version 1 did not run"
[ "$out" = 6 ] || fail "version 1 gives '$out', expected 6 (5 + 1)"
# The edit: a new file, with a new time stamp even on a coarse-grained file system.
sleep 1
cp "$here/rebuild_top_v2.sv" "$work/project/rebuild_top.sv"
step "$work/build2.log" cmake --build "$work/build" -j 2 || fail "second build (version 2, after the edit)"
out=$("$work/build/rebuild_check") || fail "version 2 did not run"
[ "$out" = 12 ] || fail "version 2 gives '$out', expected 12 ((5 + 1) * 2)"
echo PASSED
