#!/bin/sh
# tmem_waves.sh TB OUTDIR GTKW: write the shift waveforms (OUTDIR/tmem{8,4}.fst), then
# check sim/waves/tmem.gtkw against them:
#  1. every signal the save file shows exists in the FST (fst2vcd);
#  2. when GTKWave and Xvfb are installed: GTKWave loads the view, and after the k-th
#     shift's A read the lane traces show lane n holding the tag of lane max(0, n-k),
#     for both organizations - i.e. the view really shows the lanes moving.
set -e
tb=$1 out=$2 gtkw=$3
mkdir -p "$out"
"$tb" --trace "$out"
for b in 8 4; do
    [ -s "$out/tmem$b.fst" ] || { echo "tmem_waves: $out/tmem$b.fst was not written" >&2; exit 1; }
done

if command -v fst2vcd >/dev/null; then
    names=$(fst2vcd "$out/tmem8.fst" 2>/dev/null | sed -n '/\$enddefinitions/q;p' | awk '
        $1 == "$scope" { path[++d] = $3 }
        $1 == "$upscope" { d-- }
        $1 == "$var" { n = ""; for (i = 1; i <= d; i++) n = n path[i] "."; print n $5 }')
    sigs=$(sed -n 's/^#{[^}]*} //p; /^TOP\./p' "$gtkw" | tr ' ' '\n' | sed 's/^([0-9]*)//; s/\[[0-9]*:[0-9]*\]$//' | sort -u)
    for sig in $sigs; do
        printf '%s\n' "$names" | grep -qxF "$sig" ||
            { echo "tmem_waves: $gtkw shows $sig, which $out/tmem8.fst does not have" >&2; exit 1; }
    done
    echo "tmem_waves: every signal of $gtkw is in the FST"
else
    echo "tmem_waves: no fst2vcd; signal names not checked"
fi

if ! command -v gtkwave >/dev/null || ! command -v xvfb-run >/dev/null; then
    echo "tmem_waves: no gtkwave or xvfb-run; the view itself is not checked"
    exit 0
fi
tcl="$out/dump_view.tcl"
cat > "$tcl" <<'TCL'
set n [gtkwave::getTotalNumTraces]
for {set t 0} {$t < 120} {incr t} {
    gtkwave::setMarker $t
    set line "T $t"
    for {set i 0} {$i < $n} {incr i} {
        set name [string map {" " "_"} [gtkwave::getTraceNameFromIndex $i]]
        append line " $name=[gtkwave::getTraceValueAtMarkerFromIndex $i]"
    }
    puts $line
}
gtkwave::/File/Quit
TCL
for b in 8 4; do
    timeout 120 xvfb-run -a gtkwave -S "$tcl" "$out/tmem$b.fst" "$gtkw" > "$out/view$b.txt" 2>&1 || true
    # Each A read result (a_rvalid_o=1, counted once per pulse): the k-th shows the
    # column shifted k times, lane n = 0xc0000000 + max(0, n - k).
    awk -v b=$b '
        /^T / {
            v = ""; delete val
            for (i = 3; i <= NF; i++) { split($i, kv, "="); val[kv[1]] = kv[2] }
            if (val["a_rvalid_o"] == "1" && !prev) {
                reads++
                if (reads > 4) { prev = 1; next }
                for (name in val) if (name ~ /^lane_[0-9]+/) {
                    split(name, p, "_"); lane = p[2] + 0
                    want = sprintf("C%07X", lane > reads ? lane - reads : 0)
                    if (val[name] != want) {
                        printf "tmem_waves: %u banks, read %d: %s = %s, expected %s\n", b, reads, name, val[name], want
                        bad = 1
                    }
                    checked++
                }
            }
            prev = (val["a_rvalid_o"] == "1")
        }
        END {
            if (reads < 4 || checked < 40) { printf "tmem_waves: %u banks: GTKWave showed %d reads, %d lane values\n", b, reads, checked; bad = 1 }
            exit bad
        }' "$out/view$b.txt" || { echo "tmem_waves: the $b-bank view is wrong (see $out/view$b.txt)" >&2; exit 1; }
    echo "tmem_waves: $b banks: GTKWave shows the lanes moving one lane per shift"
done
