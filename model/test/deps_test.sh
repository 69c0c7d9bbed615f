#!/usr/bin/env bash
# deps_test.sh - the setup step of ./run: as non-root with a package missing, it prints
# the exact apt-get line and fails; with nothing missing it succeeds quietly.
set -u
. "$(dirname "$0")/../../scripts/deps.sh"
fails=0
id() { echo 1000; }   # pretend to be a normal user
TCSIM_PACKAGES="dpkg tcsim-no-such-package"
out=$(tcsim_install_deps 2>&1); rc=$?
[ "$rc" != 0 ] || { echo "FAIL: a missing package did not fail"; fails=1; }
echo "$out" | grep -qx "  apt-get update && apt-get install -y tcsim-no-such-package" \
    || { echo "FAIL: no exact apt-get line in: $out"; fails=1; }
TCSIM_PACKAGES="dpkg"
out=$(tcsim_install_deps 2>&1); rc=$?
[ "$rc" = 0 ] && [ -z "$out" ] || { echo "FAIL: installed packages were reported: $out"; fails=1; }
[ "$fails" = 0 ] && echo PASSED
exit $fails
