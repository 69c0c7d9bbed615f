#!/bin/sh
# standalone_test.sh SOURCE_DIR - the project stands alone: no tracked file names the
# team's folder beside the checkout, nor the CMake variable that pointed there, so that
# a clone builds, tests and installs on its own (data/ holds what it needs). Skips
# (status 77) outside a git checkout, e.g. in an unpacked source archive.
src=$1
if ! command -v git >/dev/null || ! git -C "$src" rev-parse --git-dir >/dev/null 2>&1; then
    echo "SKIP: $src is not a git checkout"
    exit 77
fi
# The patterns are written so that this file does not match them itself.
if git -C "$src" grep -n -I -E '\.\./share[d]|TCSIM_SHARE[D]_DIR'; then
    echo "FAIL: the tracked files above refer to the folder beside the checkout"
    exit 1
fi
echo PASSED
