#!/usr/bin/env bash
# symbols_test.sh - the library links into a larger simulator beside that simulator's own
# code, so every global symbol it defines must be in the tc_ namespace (tcsim.h's names,
# and the internal ones shared between its files). Names the compiler or a sanitizer
# makes up (a leading '_' or '.') are not the library's and are skipped.
# Usage: symbols_test.sh NM LIBRARY
set -u
nm_tool=$1 lib=$2
syms=$("$nm_tool" -g --defined-only "$lib") || { echo "FAIL: $nm_tool could not read $lib"; exit 1; }
count=$(printf '%s\n' "$syms" | awk 'NF == 3 {n++} END {print n + 0}')
[ "$count" -gt 0 ] || { echo "FAIL: no global symbols read from $lib"; exit 1; }
bad=$(printf '%s\n' "$syms" | awk 'NF == 3 && $3 !~ /^(tc_|_|\.)/ {print "  " $3 " (" $2 ")"}')
if [ -n "$bad" ]; then
    echo "FAIL: global symbols of $lib outside the tc_ namespace:"
    printf '%s\n' "$bad"
    exit 1
fi
echo "PASSED: $count global symbols, all tc_"
