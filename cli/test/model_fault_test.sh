#!/usr/bin/env bash
# model_fault_test.sh TCSIM_MODEL_FAULT WORKDIR - commands whose model calls fail on
# inputs that are valid (a bug): tcsim_model_fault is tcsim whose calls fail on demand
# (model_fault_shim.c); without TCSIM_MODEL_FAULT it is tcsim.
#  - `tcsim bench`, a measurement that cannot be made: status 1, the measurement named on
#    stderr with the reason, no figure printed for it, no JSON file (it would lack it);
#  - `tcsim demo`, an example that cannot be computed: status 1, the example and the arch
#    named, no row for it (a row used to be left out in silence).
set -u
tcsim=$1; work=$2
source "$(dirname "$0")/cli_harness.sh"
mkdir -p "$work"; cd "$work" || exit 1
prof=ampere_mma_fp16_fp32
bench() { rm -f b.json; run_with "$1" "" env ${2:+TCSIM_MODEL_FAULT=$2} "$tcsim" bench --quick --profile $prof --json b.json; }
lacks_out() { ! grep -qF -- "$1" out.txt || fail "stdout has '$1': $(head -c 300 out.txt)"; }
has_out() { grep -qF -- "$1" out.txt || fail "stdout lacks '$1': $(head -c 300 out.txt)"; }

bench 0 ""
[ -s b.json ] || fail "no fault: b.json not written"
has_out "$prof"; has_out "mma.m16n8k16 tile"; has_out "tcsim dot ampere"

why="bit pattern does not fit its format" # tc_strerror(TC_EFORMAT)
bench 1 single
expect_err "tcsim bench: $prof: $why"
lacks_out "$prof "; lacks_out "mma.m16n8k16 tile"
[ ! -e b.json ] || fail "single: b.json left behind"

bench 1 batch
expect_err "tcsim bench: $prof: $why"
lacks_out "$prof "; lacks_out "mma.m16n8k16 tile"
[ ! -e b.json ] || fail "batch: b.json left behind"

bench 1 tile
expect_err "tcsim bench: mma.m16n8k16 tile: $why"
has_out "$prof "; lacks_out "mma.m16n8k16 tile"; lacks_out "tcsim dot ampere"
[ ! -e b.json ] || fail "tile: b.json left behind"

bench 1 lines
expect_err "tcsim bench: tcsim dot: a run of its engine failed"
has_out "mma.m16n8k16 tile"; lacks_out "tcsim dot ampere"
[ ! -e b.json ] || fail "lines: b.json left behind"

run_with 0 "" "$tcsim" demo
has_out "  volta      4    3f800000"
run_with 1 "" env TCSIM_MODEL_FAULT=single "$tcsim" demo
expect_err "tcsim demo: 1 + 2^-24 + 2^-24: small terms vs the alignment width F on volta: $why"
lacks_out "  volta      4    "
finish
