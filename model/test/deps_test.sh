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
# Run directly (it used to define its functions, print nothing and exit 0): it names
# what is missing with the apt-get line (status 1), or says all is installed (0).
script=$(dirname "$0")/../../scripts/deps.sh
out=$(bash "$script" 2>&1); rc=$?
unset -f id
. "$script"   # the real package list again
if [ -z "$(tcsim_missing_packages)" ]; then
    [ "$rc" = 0 ] && echo "$out" | grep -q "^every package the project needs is installed" \
        || { echo "FAIL: deps.sh run directly, nothing missing: status $rc: $out"; fails=1; }
else
    [ "$rc" = 1 ] && echo "$out" | grep -q "^as root: apt-get update && apt-get install -y" \
        || { echo "FAIL: deps.sh run directly, packages missing: status $rc: $out"; fails=1; }
fi
out=$(bash "$script" --bogus 2>&1); rc=$?
[ "$rc" = 2 ] || { echo "FAIL: deps.sh --bogus exited $rc: $out"; fails=1; }
[ "$fails" = 0 ] && echo PASSED
exit $fails
