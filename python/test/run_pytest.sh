#!/usr/bin/env bash
# run_pytest.sh PYTHON PYTHONPATH TESTS... - runs pytest on TESTS with the module at
# PYTHONPATH, under the first of PYTHON (CMake's), python3 and /usr/bin/python3 (Debian's,
# where python3-numpy and python3-pytest install) that has NumPy and pytest; exit 77
# (ctest: skipped) with the install line when none has them.
set -u
py=$1; path=$2; shift 2
for p in "$py" python3 /usr/bin/python3; do
    command -v "$p" >/dev/null 2>&1 || continue
    if "$p" -c "import numpy, pytest" 2>/dev/null; then
        PYTHONPATH="$path${PYTHONPATH:+:$PYTHONPATH}" exec "$p" -m pytest -q -p no:cacheprovider "$@"
    fi
done
echo "SKIPPED: no Python with NumPy and pytest; as root: apt-get install -y python3-numpy python3-pytest"
exit 77
