#!/usr/bin/env bash
# broken_netlist.sh SYNTH_PY BLOCK NETLIST WORK - damaged copies of a good mapped netlist
# (truncated, a cell the liberty does not have, a syntax error, empty) must each make
# `synth.py --sta-only` fail with a message about the netlist; the good one must pass.
set -uo pipefail
[ $# -eq 4 ] || { echo "usage: broken_netlist.sh SYNTH_PY BLOCK NETLIST WORK" >&2; exit 2; }
synth=$1 block=$2 good=$3 work=$4
here=$(cd "$(dirname "$0")" && pwd)
[ -r "$good" ] || { echo "broken_netlist: $good is missing (run the quick synthesis first)"; exit 1; }
mkdir -p "$work"
sta_only() { python3 "$synth" --sta-only "$block" --netlist "$1" --work "$work"; }

status=0
sta_only "$good" || { echo "broken_netlist: the good netlist fails"; status=1; }

lines=$(wc -l < "$good")
head -n $((lines / 2)) "$good" > "$work/truncated.v"
sed '0,/NAND2X1 _/s//NAND9X9 _/' "$good" > "$work/unknown_cell.v"
sed '0,/^  wire /s//  wire ( /' "$good" > "$work/syntax.v"
: > "$work/empty.v"
for bad in truncated unknown_cell syntax empty; do
    echo "== $bad"
    bash "$here/expect_error.sh" 1 "netlist .*$bad\.v|$bad\.v.*(netlist|Error)" \
        python3 "$synth" --sta-only "$block" --netlist "$work/$bad.v" --work "$work" || status=1
done
exit $status
