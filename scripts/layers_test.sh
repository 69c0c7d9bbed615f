#!/usr/bin/env bash
# layers_test.sh SRC [MODEL_INCLUDE_DIR...] - the dependency rules of docs/architecture.md
# that a compiler would not catch:
#   model/  the library includes only its own headers: every include directory of
#           tcsim_model (given by CMake) lies in model/ (or its build folder), and every
#           #include "..." of model/src and model/include names a file there;
#   cli/    reaches the engines only through the registry: of engines/ it includes
#           engine_registry.h alone (cli_engine.h does), and no preprocessor condition names an engine or
#           the RTL (a build without the RTL links an empty registry instead).
set -u
src=$1; shift
fails=0
fail() { echo "FAIL: $*"; fails=$((fails + 1)); }

for dir in "$@"; do
    case "$dir" in
        "$src"/model|"$src"/model/*|*/model|*/model/*) ;;
        *) fail "tcsim_model has the include directory $dir, outside model/" ;;
    esac
done

# "name" of each #include "name" in the files given, one per line: FILE NAME
quoted_includes() {
    grep -Ho '^[[:space:]]*#[[:space:]]*include[[:space:]]*"[^"]*"' "$@" |
        sed 's/:[^"]*"\([^"]*\)"$/ \1/'
}

while read -r file name; do
    [ -n "$file" ] || continue
    found=0
    for d in "$src/model/include" "$src/model/src" "$(dirname "$file")"; do
        [ -f "$d/$name" ] && found=1
    done
    [ "$name" = "${name#*/}" ] || fail "$file includes \"$name\": a path, not a header of model/"
    [ $found = 1 ] || fail "$file includes \"$name\", which is not a header of model/"
done < <(quoted_includes "$src"/model/src/*.[ch] "$src"/model/include/*.h)

while read -r file name; do
    [ -n "$file" ] || continue
    if [ -f "$src/cli/$name" ] || [ -f "$src/model/include/$name" ]; then
        continue
    fi
    [ "$name" = engine_registry.h ] ||
        fail "$file includes \"$name\": cli/ reaches engines/ through engine_registry.h only"
done < <(quoted_includes "$src"/cli/*.[ch])

conditions=$(grep -HnE '^[[:space:]]*#[[:space:]]*(if|ifdef|ifndef|elif).*(RTL|HAVE_)' \
                   "$src"/cli/*.[ch])
[ -z "$conditions" ] || fail "cli/ chooses engines at compile time: $(head -3 <<<"$conditions")"

[ "$fails" = 0 ] && echo PASSED || echo "FAILED ($fails)"
[ "$fails" = 0 ]
