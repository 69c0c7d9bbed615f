#!/usr/bin/env bash
# make_waves.sh BUILD [BLOCK...] - the waveform of each block and its PNG:
#   BUILD/logs/<block>.fst            (the testbench's own --fst/--trace run)
#   BUILD/reports/waves/<block>.png   (screenshot.sh of sim/waves/<block>.gtkw on it)
# BLOCK: fedp, tensor_core, tmem, tc_blackwell (default: all). To look at one yourself:
#   gtkwave BUILD/logs/<block>.fst sim/waves/<block>.gtkw      (from the project folder)
# Exit status 1 if a waveform or a PNG could not be made.
set -u
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
usage() { sed -n '2,2p' "$0" | sed 's/^# /usage: /'; }
case "${1:-}" in
  -h|--help) usage; sed -n '3,7p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
  "") usage >&2; exit 2 ;;
esac
[ -d "$1" ] || { echo "make_waves: no build folder '$1'" >&2; exit 2; }
build=$(cd "$1" && pwd) || exit 2
shift
all="fedp tensor_core tmem tc_blackwell"
for b in "$@"; do  # every name checked before any testbench runs
    case " $all " in
      *" $b "*) [ -n "$b" ] && continue ;;
    esac
    echo "make_waves: no block '$b' ($all)" >&2
    exit 2
done
blocks=${*:-$all}
mkdir -p "$build/logs" "$build/reports/waves"
rc=0
for b in $blocks; do
    fst=$build/logs/$b.fst
    case $b in
      # ampere_half is the fedp instance Verilated with --trace-fst (engines/fedp/CMakeLists.txt)
      fedp) "$build/tb/fedp/fedp_tb" --instance ampere_half --count 300 --random-only --fst "$fst" ;;
      # one wmma.mma m16n16k16, mixed precision
      tensor_core) "$build/tb/tensor_core/tc_warp_tb" --fst "$fst" ;;
      # a tcgen05.shift moving lanes, 8-bank organization
      tmem) mkdir -p "$build/logs/tmem" && "$build/tb/tmem/tmem_tb" --trace "$build/logs/tmem" && cp "$build/logs/tmem/tmem8.fst" "$fst" ;;
      # one tcgen05.mma kind::mxf4nvf4, M 128, N 8
      tc_blackwell) "$build/tb/blackwell/bw_tb" --fst "$fst" ;;
    esac >"$build/logs/$b.wave.log" 2>&1 || { echo "make_waves: $b: the testbench failed (see $build/logs/$b.wave.log)" >&2; rc=1; continue; }
    bash "$here/screenshot.sh" "$build" "$root/sim/waves/$b.gtkw" "$fst" "$build/reports/waves/$b.png" || rc=1
done
exit $rc
