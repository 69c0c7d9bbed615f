#!/usr/bin/env bash
# Install (as root) or name (otherwise) the Debian 12 packages the project needs.
# Sourced by ./run; exits non-zero, with the exact apt-get line, when it cannot install.
# zlib1g-dev: Verilator's FST writer (and sim/waves/xwd2png) include zlib.h; xauth:
# xvfb-run needs it. Neither comes with its user package when recommends are not installed.
# lcov: genhtml, the coverage HTML; python3-matplotlib: the plots of build/reports/index.html.
# python3-numpy, python3-pytest: the Python module (python/) and its tests, which skip without.
TCSIM_PACKAGES="cmake make gcc g++ git python3 verilator yosys libsystemc-dev gtkwave opensta \
qflow-tech-osu018 iverilog xvfb xauth libgmp-dev libmpfr-dev pkgconf zlib1g-dev lcov \
python3-matplotlib python3-numpy python3-pytest"
# Only for the tests that look at build/reports/index.html in a browser (sim_report_page_
# browser, which skips without it): not installed by ./run, named by scripts/deps.sh.
TCSIM_TEST_PACKAGES="chromium"

tcsim_missing_packages() {
    local p missing=""
    for p in $TCSIM_PACKAGES; do
        dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" \
            || missing="$missing $p"
    done
    echo "${missing# }"
}

tcsim_install_deps() {
    command -v dpkg-query >/dev/null || { echo "run: needs a Debian 12 system (no dpkg-query)" >&2; return 1; }
    local missing; missing=$(tcsim_missing_packages)
    [ -z "$missing" ] && return 0
    if [ "$(id -u)" != 0 ]; then
        echo "run: missing Debian packages. As root, run:" >&2
        echo "  apt-get update && apt-get install -y $missing" >&2
        return 1
    fi
    echo "run: installing:$missing"
    export DEBIAN_FRONTEND=noninteractive
    apt-get update -q >/dev/null && apt-get install -y -q --no-install-recommends $missing >/dev/null \
        || { echo "run: apt-get install failed for: $missing" >&2; return 1; }
}

# Run directly rather than sourced by ./run: say what is missing, install nothing.
if [ "${BASH_SOURCE[0]}" = "$0" ]; then
    case "${1:-}" in
      "") ;;
      -h|--help) echo "usage: scripts/deps.sh   names the Debian 12 packages the project needs"
                 echo "that are not installed, and the apt-get line that installs them (./run"
                 echo "installs them itself, as root)"; exit 0 ;;
      *) echo "scripts/deps.sh: no options but --help ('$1')" >&2; exit 2 ;;
    esac
    command -v dpkg-query >/dev/null || { echo "scripts/deps.sh: needs a Debian 12 system (no dpkg-query)" >&2; exit 1; }
    missing=$(tcsim_missing_packages)
    optional=$(TCSIM_PACKAGES=$TCSIM_TEST_PACKAGES tcsim_missing_packages)
    [ -z "$optional" ] || echo "optional, for the browser test of the HTML report: $optional" \
        "(as root: apt-get install -y $optional)"
    if [ -z "$missing" ]; then
        echo "every package the project needs is installed: $TCSIM_PACKAGES"
        exit 0
    fi
    echo "missing Debian packages: $missing"
    echo "as root: apt-get update && apt-get install -y $missing"
    exit 1
fi
