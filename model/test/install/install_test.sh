#!/bin/bash
# install_test.sh BUILD_DIR WORK_DIR CC - `cmake --install` into a fresh prefix outside
# the build tree, then:
#  - a consumer built outside the tree twice: with find_package(tcsim) and pkg-config;
#  - the installed tcsim: `tcsim vectors` and `tcsim demo` check the A100 vectors that
#    the install put in share/tcsim (with their LICENCE), from any folder, also once the
#    prefix is moved; with those vectors gone they fail naming the folder, so an
#    installed tcsim does not read the source or build tree (cli/data_dir.h).
# Fails on any step.
set -eu
build=$1 work=$2 cc=$3
here=$(cd "$(dirname "$0")" && pwd)
src=$(cd "$here/../../.." && pwd)
rm -rf "$work"
mkdir -p "$work"
# The prefix must not lie in the build tree: a tcsim there counts as the build tree's.
tmp=$(cd "$(mktemp -d "${TMPDIR:-/tmp}/tcsim_install.XXXXXX")" && pwd -P)
trap 'rm -rf "$tmp"' EXIT
case "$tmp/" in "$(cd "$build" && pwd -P)"/*) echo "FAIL: TMPDIR $tmp is in the build tree"; exit 1;; esac
prefix=$tmp/prefix
cmake --install "$build" --prefix "$prefix" >"$work/install.log"
for f in include/tcsim.h include/tcsim_sim.h include/tcsim_timing.h lib/libtcsim.a \
         lib/cmake/tcsim/tcsimConfig.cmake lib/pkgconfig/tcsim.pc share/tcsim/timing.txt bin/tcsim; do
    [ -e "$prefix/$f" ] || { echo "FAIL: $f not installed"; exit 1; }
done
# The vectors as the repository holds them: the LICENCE (BSD-2 asks that it travel with
# them) and README included, every file byte for byte.
diff -r "$src/data/vectors" "$prefix/share/tcsim/vectors" >"$work/vectors.diff" ||
    { echo "FAIL: share/tcsim/vectors differs from data/vectors:"; cat "$work/vectors.diff"; exit 1; }
# The installed headers are the whole API: nothing may include a header not installed.
echo '#include "tcsim.h"' | "$cc" -std=c11 -Wall -Wextra -Werror -fsyntax-only \
    -I"$prefix/include" -x c - || { echo "FAIL: installed headers do not compile alone"; exit 1; }

echo "== find_package"
cmake -S "$here/consumer" -B "$work/cmake-build" -DCMAKE_PREFIX_PATH="$prefix" \
      -DCMAKE_C_COMPILER="$cc" >"$work/cmake-config.log"
cmake --build "$work/cmake-build" >"$work/cmake-build.log"
"$work/cmake-build/consumer"

echo "== pkg-config"
export PKG_CONFIG_PATH=$prefix/lib/pkgconfig
flags=$(pkg-config --cflags --libs tcsim)
"$cc" -std=c11 -Wall -Wextra -Werror "$here/consumer/main.c" $flags -o "$work/consumer-pc"
"$work/consumer-pc"

echo "== tcsim from share/tcsim"
# expect STATUS PATTERN CMD...: CMD, run from / without TCSIM_DATA_DIR, exits STATUS and
# its output (stdout and stderr) holds a line that is PATTERN (grep -x).
expect() {
    local want=$1 pattern=$2 got=0
    shift 2
    (cd / && env -u TCSIM_DATA_DIR "$@") >"$work/out.txt" 2>&1 || got=$?
    [ "$got" = "$want" ] && grep -qx -- "$pattern" "$work/out.txt" || {
        echo "FAIL: $* exits $got (not $want) or prints no line '$pattern':"
        head -20 "$work/out.txt"
        exit 1
    }
}
# installed_tcsim PREFIX: its tcsim checks the vectors of PREFIX/share/tcsim.
installed_tcsim() {
    local vec=$1/share/tcsim/vectors/a100
    expect 0 "A100 results in $vec, through ampere mma (model)" "$1/bin/tcsim" vectors
    grep -qx "every result bit-exact" "$work/out.txt" || { echo "FAIL: vectors: $(tail -1 "$work/out.txt")"; exit 1; }
    expect 0 "A100 hardware vectors ($vec):" "$1/bin/tcsim" demo
    grep -qx "every A100 vector matches" "$work/out.txt" || { echo "FAIL: demo: $(tail -1 "$work/out.txt")"; exit 1; }
}
installed_tcsim "$prefix"

# The .pc file and tcsim are relocatable: a moved prefix still works.
mv "$prefix" "$tmp/moved"
PKG_CONFIG_PATH=$tmp/moved/lib/pkgconfig "$cc" -std=c11 "$here/consumer/main.c" \
    $(PKG_CONFIG_PATH=$tmp/moved/lib/pkgconfig pkg-config --cflags --libs tcsim) -o "$work/consumer-moved"
"$work/consumer-moved"
installed_tcsim "$tmp/moved"

# Without its vectors the installed tcsim names the folder it looked in, though the
# source tree still holds data/vectors: it never falls back on the tree it came from.
rm -rf "$tmp/moved/share/tcsim/vectors"
for cmd in vectors demo; do
    expect 2 "tcsim $cmd: no folder $tmp/moved/share/tcsim/vectors/a100 (.*)" "$tmp/moved/bin/tcsim" $cmd
done
# TCSIM_DATA_DIR names another data folder.
(cd / && TCSIM_DATA_DIR=$src/data "$tmp/moved/bin/tcsim" vectors) >"$work/out.txt" ||
    { echo "FAIL: TCSIM_DATA_DIR=$src/data tcsim vectors:"; cat "$work/out.txt"; exit 1; }
grep -qx "A100 results in $src/data/vectors/a100, through ampere mma (model)" "$work/out.txt" ||
    { echo "FAIL: TCSIM_DATA_DIR not used: $(head -1 "$work/out.txt")"; exit 1; }
echo PASSED
