#!/usr/bin/env bash
# src_headers_test.sh - each of the library's own headers (model/src/*.h, not installed)
# compiles on its own, first in a translation unit, as C11 (-Wall -Wextra -pedantic
# -Werror), and none includes, directly or through others, a header that includes it
# back. Include guards hide such a circle from the compiler, so it is checked here:
# round.h once compiled only after internal.h, which included it at its end and held
# the format table round.h reads.
# Usage: src_headers_test.sh SRC_DIR INCLUDE_DIR CC
set -u
src=$1 inc=$2 cc=$3
fails=0 n=0

# The model/src headers that header $1 includes by name ("x.h" lines that name one).
direct() {
    sed -n 's/^[[:space:]]*#[[:space:]]*include[[:space:]]*"\([^"]*\)".*/\1/p' "$src/$1" |
        while read -r d; do [ -f "$src/$d" ] && echo "$d"; done
}

for h in "$src"/*.h; do
    name=$(basename "$h")
    printf '#include "%s"\nint main(void) { return 0; }\n' "$name" |
        "$cc" -std=c11 -Wall -Wextra -pedantic -Werror -I "$src" -I "$inc" -fsyntax-only -x c - ||
        { echo "FAIL: $name alone as C11"; fails=$((fails + 1)); }
    # Every header reachable from $name; a circle when $name is among them.
    seen=" " todo=$(direct "$name")
    while [ -n "$todo" ]; do
        next=""
        for d in $todo; do
            case "$seen" in *" $d "*) continue ;; esac
            seen="$seen$d "
            next="$next $(direct "$d")"
        done
        todo=$(echo $next)
    done
    case "$seen" in *" $name "*)
        echo "FAIL: $name includes itself back (through:$seen)"; fails=$((fails + 1)) ;;
    esac
    n=$((n + 1))
done
[ "$n" -gt 1 ] || { echo "FAIL: no headers in $src"; exit 1; }
[ "$fails" = 0 ] && echo "PASSED: $n headers, each alone, no circle" || echo "FAILED ($fails)"
[ "$fails" = 0 ]
