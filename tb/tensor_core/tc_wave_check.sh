#!/usr/bin/env bash
# tc_wave_check.sh FST GTKW - every signal sim/waves/tensor_core.gtkw shows is in the
# waveform tc_warp_tb --fst wrote (names as GTKWave spells them: scope.path.name[msb:lsb]).
set -u
fst=$1; gtkw=$2
command -v fst2vcd >/dev/null || { echo "fst2vcd not found: skipped"; exit 0; }
# hierarchical names from the FST's header
names=$(fst2vcd "$fst" 2>/dev/null | awk '
    /^\$scope/ { path[++d] = $3; next }
    /^\$upscope/ { d--; next }
    /^\$var/ { n = ""; for (i = 1; i <= d; i++) n = n path[i] "."; r = ($6 == "$end") ? "" : $6;
               print n $5 r; next }
    /^\$enddefinitions/ { exit }')
[ -n "$names" ] || { echo "FAIL: no signals in $fst"; exit 1; }
fails=0; count=0
while IFS= read -r line; do
    case "$line" in ''|'['*|'@'*|'-'*|'*'*|'^'*) continue ;; esac   # ^: a translate filter
    line=${line#+\{*\} }                                             # +{alias} SIGNAL
    count=$((count + 1))
    grep -qxF -- "$line" <<<"$names" || { echo "FAIL: $line is not in $fst"; fails=$((fails + 1)); }
done <"$gtkw"
[ $fails = 0 ] && echo "PASSED: the $count signals of $(basename "$gtkw") are in the waveform" || echo "FAILED: $fails"
exit $((fails != 0))
