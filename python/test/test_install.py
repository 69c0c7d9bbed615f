"""The module as `cmake --install` puts it: imported from the installed tree alone (no
network, no build tree), it finds the installed libtcsim.so and computes. TCSIM_BUILD_DIR
and TCSIM_CMAKE name the build and cmake."""
import os
import subprocess
import sys

import pytest

BUILD, CMAKE = os.environ.get("TCSIM_BUILD_DIR"), os.environ.get("TCSIM_CMAKE")
PYDIR = os.environ.get("TCSIM_PYTHON_DIR", "lib/python3/site-packages")


@pytest.mark.skipif(not BUILD or not CMAKE, reason="TCSIM_BUILD_DIR and TCSIM_CMAKE not set")
def test_installed_module(tmp_path):
    prefix = tmp_path / "prefix"
    p = subprocess.run([CMAKE, "--install", BUILD, "--prefix", str(prefix)],
                       capture_output=True, text=True, timeout=300)
    assert p.returncode == 0, p.stderr
    code = ("import numpy as np, tcsim, tcsim._lib as L; print(L._path()); "
            "print(tcsim.gemm(np.ones((2, 3), np.float16), np.ones((3, 2), np.float16), "
            "arch='ampere').tolist())")
    env = {k: v for k, v in os.environ.items() if k not in ("PYTHONPATH", "TCSIM_LIBRARY")}
    env["PYTHONPATH"] = str(prefix / PYDIR)
    q = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, env=env,
                       cwd=tmp_path, timeout=60)
    assert q.returncode == 0, q.stderr
    lib, result = q.stdout.splitlines()
    assert lib.startswith(str(prefix)) and os.path.exists(lib), lib
    assert result == "[[3.0, 3.0], [3.0, 3.0]]"
