#!/usr/bin/env bash
# screenshot.sh BUILD VIEW.gtkw WAVE.fst OUT.png [WIDTHxHEIGHT]
#
# A PNG of a GTKWave view without a display: GTKWave runs under Xvfb (xvfb-run) with the
# save file and the waveform, and the picture is Xvfb's own screen (-fbdir keeps it in a
# file), converted by BUILD/sim/waves/xwd2png. The screen is WIDTHxHEIGHT (default: the
# view's own [size] line, else 1600x1000), and the PNG is exactly that size.
#
# The views name their translate filter as build/sim/waves/fpfilter (relative to the
# project, where one runs gtkwave); a copy of the view with BUILD in its place is what
# GTKWave loads here, so any build directory works.
#
# The picture is taken once GTKWave has run the Tcl script (its last step writes a file)
# and the screen has stopped changing for a second, at most 60 s after the start.
# Exit status: 0 with OUT.png written; 1 if anything failed (the reason on stderr);
# 2 for bad usage.
set -u
if [ $# -lt 4 ] || [ $# -gt 5 ]; then
    sed -n '2,2p' "$0" | sed 's/^# /usage: /' >&2
    exit 2
fi
build=$(cd "$1" && pwd) || exit 2
view=$2 wave=$3 out=$4
size=${5:-$(awk '$1 == "[size]" { print $2 "x" $3; exit }' "$view" 2>/dev/null)}
size=${size:-1600x1000}
[[ $size =~ ^[1-9][0-9]*x[1-9][0-9]*$ ]] ||
    { echo "screenshot: size must be WIDTHxHEIGHT, both positive, got '$size'" >&2; exit 2; }
for f in "$view" "$wave"; do
    [ -s "$f" ] || { echo "screenshot: $f is missing or empty" >&2; exit 1; }
done
# A file that is not a save file would give a picture of an empty window: a view shows
# traces, and each trace follows a flags line '@...'.
grep -q '^@' "$view" ||
    { echo "screenshot: $view is not a GTKWave save file with traces (no '@' flags line)" >&2; exit 2; }
for p in xvfb-run gtkwave; do
    command -v $p >/dev/null || { echo "screenshot: $p is not installed (scripts/deps.sh installs it)" >&2; exit 1; }
done
xwd2png=$build/sim/waves/xwd2png
[ -x "$xwd2png" ] || { echo "screenshot: $xwd2png is not built" >&2; exit 1; }

work=$(mktemp -d "${TMPDIR:-/tmp}/tcsim-shot.XXXXXX") || exit 1
trap 'rm -rf "$work"' EXIT
mkdir -p "$work/fb" "$(dirname "$out")"
# The copy: the filter under BUILD, and the signal tree folded (sst_expanded 0) so that
# the picture gives its width to the waves.
sed -e "s|^\(\^>[0-9]* \)build/sim/waves/|\1$build/sim/waves/|" \
    -e 's|^\[sst_expanded\] 1|[sst_expanded] 0|' "$view" > "$work/view.gtkw"
cat > "$work/ready.tcl" <<TCL
# Whole signal names are long: show only the last two levels, as a reader wants them.
gtkwave::/Edit/Set_Trace_Max_Hier 2
set f [open "$work/ready" w]
close \$f
TCL

# Runs inside xvfb-run: start GTKWave, wait for the script and a still screen, copy it.
cat > "$work/inside.sh" <<'SH'
work=$1; shift
gtkwave --rcvar 'splash_disable on' -S "$work/ready.tcl" "$@" >"$work/gtkwave.log" 2>&1 &
pid=$!
prev="" still=0
for _ in $(seq 1 120); do
    sleep 0.5
    kill -0 $pid 2>/dev/null || { echo "screenshot: gtkwave exited early" >&2; exit 1; }
    [ -e "$work/ready" ] || continue
    cp "$work/fb/Xvfb_screen0" "$work/shot.xwd" || exit 1
    sum=$(cksum < "$work/shot.xwd")
    if [ "$sum" = "$prev" ]; then still=$((still + 1)); else still=0; fi
    prev=$sum
    [ $still -ge 2 ] && { kill $pid; wait $pid 2>/dev/null; exit 0; }
done
kill $pid
echo "screenshot: gtkwave did not settle in 60 s" >&2
exit 1
SH
if ! xvfb-run -a -s "-screen 0 ${size}x24 -fbdir $work/fb" \
        bash "$work/inside.sh" "$work" "$wave" "$work/view.gtkw"; then
    echo "screenshot: no picture; GTKWave said:" >&2
    tail -20 "$work/gtkwave.log" >&2 2>/dev/null
    exit 1
fi
"$xwd2png" "$work/shot.xwd" "$out" || exit 1
echo "screenshot: $out ($size)"
