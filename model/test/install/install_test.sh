#!/bin/bash
# install_test.sh BUILD_DIR WORK_DIR CC - `cmake --install` into a fresh prefix, then
# build and run a consumer outside the tree twice: with find_package(tcsim) and with
# pkg-config. Fails on any step.
set -eu
build=$1 work=$2 cc=$3
here=$(cd "$(dirname "$0")" && pwd)
rm -rf "$work"
mkdir -p "$work"
prefix=$work/prefix
cmake --install "$build" --prefix "$prefix" >"$work/install.log"
for f in include/tcsim.h include/tcsim_sim.h include/tcsim_timing.h lib/libtcsim.a \
         lib/cmake/tcsim/tcsimConfig.cmake lib/pkgconfig/tcsim.pc share/tcsim/timing.txt; do
    [ -e "$prefix/$f" ] || { echo "FAIL: $f not installed"; exit 1; }
done
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
# The .pc file is relocatable: a moved prefix still works.
mv "$prefix" "$work/moved"
PKG_CONFIG_PATH=$work/moved/lib/pkgconfig "$cc" -std=c11 "$here/consumer/main.c" \
    $(PKG_CONFIG_PATH=$work/moved/lib/pkgconfig pkg-config --cflags --libs tcsim) -o "$work/consumer-moved"
"$work/consumer-moved"
echo PASSED
