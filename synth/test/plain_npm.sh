#!/usr/bin/env bash
# plain_npm.sh PKG_DIR CHECK_REPORT REPORTS SYNTH_CMD... - the plain flow with the Yosys of
# the npm package @yowasp/yosys, then its report's fields (check_report.py, stem
# synth-plain-npm, block fedp_volta_fp16). Exit 77 (ctest: skipped) when the package is
# not installed in PKG_DIR (the yosys_npm target installs it) or Node is missing.
set -uo pipefail
[ $# -ge 4 ] || { echo "usage: plain_npm.sh PKG_DIR CHECK_REPORT REPORTS SYNTH_CMD..." >&2; exit 2; }
pkg=$1 check=$2 reports=$3
shift 3
if ! command -v node >/dev/null; then
    echo "plain_npm.sh: skipped: node is not on PATH (Debian package nodejs)"
    exit 77
fi
if [ ! -f "$pkg/gen/bundle.js" ]; then
    echo "plain_npm.sh: skipped: @yowasp/yosys is not installed in $pkg (cmake --build build --target yosys_npm)"
    exit 77
fi
"$@" || exit 1
python3 "$check" --stem synth-plain-npm "$reports" fedp_volta_fp16
