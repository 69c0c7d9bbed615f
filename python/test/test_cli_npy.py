"""`tcsim gemm` on files NumPy writes and reads: every .npy version and order NumPy
writes is read, D is what the Python module computes (the other front end over the same
API), NumPy reads D back with the dtype of the rule, and D equals NumPy's own float
arithmetic where that is exact. TCSIM_CLI names the tcsim executable."""
import os
import subprocess

import numpy as np
import pytest

import tcsim

TCSIM = os.environ.get("TCSIM_CLI")
pytestmark = pytest.mark.skipif(not TCSIM, reason="TCSIM_CLI (the tcsim executable) not set")
RNG = np.random.default_rng(31)


def save(path, x, version):
    with open(path, "wb") as f:
        np.lib.format.write_array(f, x, version=version)
    return str(path)


def run(*args):
    p = subprocess.run([TCSIM, "gemm", *args], capture_output=True, text=True, timeout=120)
    assert p.returncode == 0, p.stderr
    return p


@pytest.mark.parametrize("version", [(1, 0), (2, 0), (3, 0)])
@pytest.mark.parametrize("order", ["C", "F"])
def test_numpy_files_and_module_agree(tmp_path, version, order):
    a = np.asarray(RNG.integers(0, 1 << 16, (5, 23)).astype(np.uint16), order=order)
    b = np.asarray(RNG.integers(0, 1 << 16, (23, 4)).astype(np.uint16), order=order)
    c = np.asarray(RNG.integers(0, 1 << 32, (5, 4), dtype=np.uint64).astype(np.uint32),
                   order=order)
    d = tmp_path / "d.npy"
    run("--arch", "hopper", "--instr", "wgmma", "--in", "fp16", "--out", "fp32",
        "--a", save(tmp_path / "a.npy", a, version), "--b", save(tmp_path / "b.npy", b, version),
        "--c", save(tmp_path / "c.npy", c, version), "-o", str(d))
    got = np.load(d)
    assert got.dtype == np.uint32 and got.flags.c_contiguous
    np.testing.assert_array_equal(got, tcsim.gemm(a, b, c, arch="hopper", instr="wgmma",
                                                  inp="fp16", out="fp32"))


def test_float_files_exact_against_numpy(tmp_path):
    a = RNG.integers(-8, 9, (6, 50)).astype(np.float16)
    b = np.asfortranarray(RNG.integers(-8, 9, (50, 7)).astype(np.float16))
    c = RNG.integers(-50, 51, (6, 7)).astype(np.float32)
    d = tmp_path / "d.npy"
    run("--arch", "ampere", "--in", "fp16", "--out", "fp32", "--a", save(tmp_path / "a.npy", a,
        (1, 0)), "--b", save(tmp_path / "b.npy", b, (1, 0)), "--c",
        save(tmp_path / "c.npy", c, (1, 0)), "-o", str(d), "--threads", "3")
    got = np.load(d)
    assert got.dtype == np.float32
    np.testing.assert_array_equal(got, a.astype(np.float32) @ b.astype(np.float32) + c)
    d16 = tmp_path / "d16.npy"
    a2, b2 = a[:, :8] / 4, b[:8] / 2  # small dyadic values, sums exact in fp16
    run("--arch", "ampere", "--in", "fp16", "--out", "fp16", "--a",
        save(tmp_path / "a2.npy", a2, (1, 0)), "--b", save(tmp_path / "b2.npy", b2, (1, 0)),
        "-o", str(d16))
    got16 = np.load(d16)
    assert got16.dtype == np.float16
    np.testing.assert_array_equal(got16, (a2.astype(np.float32) @ b2.astype(np.float32))
                                  .astype(np.float16))


def test_uint8_and_tf32_files(tmp_path):
    a = RNG.integers(0, 256, (3, 64)).astype(np.uint8)
    b = RNG.integers(0, 256, (64, 2)).astype(np.uint8)
    d = tmp_path / "d.npy"
    run("--arch", "ada", "--in", "e5m2", "--out", "fp16", "--a", save(tmp_path / "a.npy", a,
        (1, 0)), "--b", save(tmp_path / "b.npy", b, (1, 0)), "-o", str(d))
    got = np.load(d)
    assert got.dtype == np.uint16
    np.testing.assert_array_equal(got, tcsim.gemm(a, b, arch="ada", inp="e5m2", out="fp16"))
    x = RNG.standard_normal((4, 9)).astype(np.float32)
    y = RNG.standard_normal((9, 3)).astype(np.float32)
    run("--arch", "ampere", "--in", "tf32", "--out", "fp32", "--a",
        save(tmp_path / "x.npy", x, (1, 0)), "--b", save(tmp_path / "y.npy", y, (1, 0)),
        "-o", str(d))
    np.testing.assert_array_equal(np.load(d), tcsim.gemm(x, y, arch="ampere"))
