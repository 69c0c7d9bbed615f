#!/usr/bin/env bash
# gate_level.sh - simulate a mapped fedp netlist with Icarus Verilog and the liberty
# cells' Verilog models, against the golden model's results (gl_vectors).
#
#   gate_level.sh GL_VECTORS NETLIST CELL_MODELS ARCH INSTR FMTS COUNT SEED WORKDIR [LATENCY]
#
# LATENCY: the netlist's registers from input to output (fedp's Depth), 4 by default.
# Exit 0 when every result matches bit for bit, 1 on a mismatch or a failed step (the
# message says which), 2 on bad usage.
set -euo pipefail
if [ $# -ne 9 ] && [ $# -ne 10 ]; then
    echo "usage: gate_level.sh GL_VECTORS NETLIST CELL_MODELS ARCH INSTR FMTS COUNT SEED WORKDIR [LATENCY]" >&2
    exit 2
fi
gen=$1 netlist=$2 cells=$3 arch=$4 instr=$5 fmts=$6 count=$7 seed=$8 work=$9 latency=${10:-4}
case $latency in
[1-9]) ;;
*) echo "gate_level.sh: LATENCY '$latency' is not 1..9" >&2; exit 2 ;;
esac
here=$(cd "$(dirname "$0")" && pwd)
for f in "$netlist" "$cells"; do
    [ -r "$f" ] || { echo "gate_level.sh: $f is missing (run the quick synthesis first)" >&2; exit 1; }
done
command -v iverilog >/dev/null || { echo "gate_level.sh: iverilog not found (Debian package iverilog)" >&2; exit 1; }
mkdir -p "$work"
vectors=$work/vectors.txt
"$gen" "$arch" "$instr" "$fmts" "$count" "$seed" > "$vectors"
read -r _ _ L _ ELEM_W _ C_W < "$vectors"
# the format selects' width, tc_pkg::FMT_BITS, from the package the netlist was made from
pkg=$here/../../rtl/tc_pkg.sv
FMT_W=$(sed -n 's/^ *localparam int FMT_BITS = \([0-9][0-9]*\);.*/\1/p' "$pkg")
[ -n "$FMT_W" ] || { echo "gate_level.sh: no FMT_BITS in $pkg" >&2; exit 1; }
iverilog -g2005 -o "$work/gl.vvp" -s gl_fedp_tb \
    -Pgl_fedp_tb.L="$L" -Pgl_fedp_tb.ELEM_W="$ELEM_W" -Pgl_fedp_tb.C_W="$C_W" \
    -Pgl_fedp_tb.FMT_W="$FMT_W" \
    -Pgl_fedp_tb.MAX_VECTORS="$count" -Pgl_fedp_tb.LATENCY="$latency" \
    "$here/gl_fedp_tb.v" "$netlist" "$cells"
out=$(vvp -n "$work/gl.vvp" +vectors="$vectors")
echo "$out"
grep -q '^PASSED' <<<"$out"
