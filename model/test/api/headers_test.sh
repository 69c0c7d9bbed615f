#!/usr/bin/env bash
# headers_test.sh - each public header compiles on its own, first in a translation unit,
# as C11 and as C++17 (-Wall -Wextra -pedantic -Werror): a simulator may include just
# the part it uses (tcsim_sim.h), and C++ hosts (SystemC, gem5, SST) include them too.
# tcsim_tmem.h alone once failed: tcsim.h, which it included, needed its lane count.
# Usage: headers_test.sh INCLUDE_DIR CC [CXX]
set -u
inc=$1 cc=$2 cxx=${3:-}
fails=0 n=0
for h in "$inc"/*.h; do
    name=$(basename "$h")
    src="#include \"$name\"
int main(void) { return TCSIM_VERSION_MAJOR < 0; }"
    printf '%s\n' "$src" | "$cc" -std=c11 -Wall -Wextra -pedantic -Werror -I "$inc" \
        -fsyntax-only -x c - || { echo "FAIL: $name alone as C11"; fails=$((fails + 1)); }
    if [ -n "$cxx" ]; then
        printf '%s\n' "$src" | "$cxx" -std=c++17 -Wall -Wextra -pedantic -Werror -I "$inc" \
            -fsyntax-only -x c++ - || { echo "FAIL: $name alone as C++17"; fails=$((fails + 1)); }
    fi
    n=$((n + 1))
done
[ "$n" -gt 1 ] || { echo "FAIL: no headers in $inc"; exit 1; }
[ "$fails" = 0 ] && echo "PASSED: $n headers, each alone" || echo "FAILED ($fails)"
[ "$fails" = 0 ]
