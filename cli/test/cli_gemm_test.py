#!/usr/bin/env python3
"""cli_gemm_test.py TCSIM WORKDIR - `tcsim gemm` over .npy files, with the standard
library alone (the .npy files are made and read here byte by byte, not by NumPy or by
tcsim's own reader):

1. every element of D equals `tcsim dot` on row i of A, column j of B and c_ij, for small
   random cases of many profiles (fused, fp8 emulation, integer, block-scaled), stored in
   every dtype wide enough, C or Fortran order, .npy versions 1.0, 2.0 and 3.0; the
   mixed pairs (--in-a, --in-b) likewise, each file in its own format;
2. D does not depend on the files' order, dtype, version or the thread count; D's header
   follows the dtype rule; tcsim reads back what it wrote;
   b1 with --popc and the fp64 form (uint64 and float64 files) against references
   computed here (popcounts; an exact rational FMA chain rounded by Python);
3. every bad file (magic, version, header, dtype, big-endian, dimensions, empty,
   truncated, trailing data, huge shapes: refused before any allocation, under a memory
   limit), bad element, shape mismatch and bad option is named on stderr with status 2,
   and nothing is written: an old D stays as it was, no temporary file is left behind.
"""
import os
import random
import re
import resource
import struct
import subprocess
import sys

failures = []


def fail(msg):
    failures.append(msg)
    print("FAIL:", msg)


TCSIM, WORK = sys.argv[1], sys.argv[2]
os.makedirs(WORK, exist_ok=True)
os.chdir(WORK)


# ---------------------------------------------------------------- .npy by hand
SIZE = {"|u1": 1, "<u1": 1, "<u2": 2, "<u4": 4, "<f2": 2, "<f4": 4, "<u8": 8, "<f8": 8}
PACK = {1: "B", 2: "H", 4: "I", 8: "Q"}


def npy(descr, shape, data, fortran=False, version=(1, 0), header=None, pad=True):
    """The bytes of a .npy file: data (a list of ints, row-major) stored in the file's
    order; header replaces the dict's text when given."""
    if header is None:
        header = "{'descr': '%s', 'fortran_order': %s, 'shape': %s, }" % (
            descr, "True" if fortran else "False",
            "(%s)" % "".join("%d, " % d for d in shape) if len(shape) != 2 else
            "(%d, %d)" % shape)
    pre = 10 if version[0] == 1 else 12
    h = header.encode()
    if pad:
        h += b" " * ((-(pre + len(h) + 1)) % 64) + b"\n"
    ln = struct.pack("<H", len(h)) if version[0] == 1 else struct.pack("<I", len(h))
    body = b""
    if data is not None:
        if fortran and len(shape) == 2:
            r, c = shape
            data = [data[i * c + j] for j in range(c) for i in range(r)]
        fmt = PACK[SIZE.get(descr, 4)]
        body = struct.pack("<%d%s" % (len(data), fmt), *data)
    return b"\x93NUMPY" + bytes(version) + ln + h + body


def put(name, content):
    with open(name, "wb") as f:
        f.write(content)
    return name


def read_npy(name):
    """(descr, fortran, shape, data row-major) of a file tcsim wrote."""
    raw = open(name, "rb").read()
    assert raw[:8] == b"\x93NUMPY\x01\x00", raw[:8]
    hl = struct.unpack("<H", raw[8:10])[0]
    assert (10 + hl) % 64 == 0, "header not aligned to 64 bytes"
    head = raw[10:10 + hl].decode()
    m = re.fullmatch(r"\{'descr': '(.+?)', 'fortran_order': (True|False), "
                     r"'shape': \((\d+), (\d+)\), \} *\n", head)
    assert m, head
    descr, r, c = m.group(1), int(m.group(3)), int(m.group(4))
    n = SIZE[descr]
    body = raw[10 + hl:]
    assert len(body) == r * c * n, (len(body), r, c, n)
    data = list(struct.unpack("<%d%s" % (r * c, PACK[n]), body))
    return descr, m.group(2) == "True", (r, c), data


def tcsim(*args, stdin=None, limit_as=None):
    def limit():
        if limit_as:
            resource.setrlimit(resource.RLIMIT_AS, (limit_as, limit_as))
    p = subprocess.run([TCSIM, *args], input=stdin, capture_output=True, text=True,
                       timeout=120, preexec_fn=limit)
    return p.returncode, p.stdout, p.stderr


# ---------------------------------------------------------------- profiles
# (arch, instr, in, out, width of in, width of out, extra options, scale width, block
#  [, B's format, its width: a mixed pair, A in `in`])
PROFILES = [
    ("ampere", "mma", "fp16", "fp32", 16, 32, [], 0, 0),
    ("ampere", "mma", "fp16", "fp16", 16, 16, [], 0, 0),
    ("volta", "mma", "fp16", "fp32", 16, 32, [], 0, 0),
    ("ampere", "mma", "bf16", "fp32", 16, 32, [], 0, 0),
    ("ampere", "mma", "tf32", "fp32", 32, 32, [], 0, 0),
    ("ada", "mma", "e4m3", "fp16", 8, 16, [], 0, 0),
    ("hopper", "mma", "e5m2", "fp32", 8, 32, [], 0, 0),
    ("hopper", "wgmma", "e4m3", "fp32", 8, 32, [], 0, 0),
    ("blackwell", "tcgen05", "e2m1", "fp32", 4, 32, [], 0, 0),
    ("turing", "mma", "int8", "s32", 8, 32, [], 0, 0),
    ("turing", "mma", "int4", "s32", 4, 32, [], 0, 0),
    ("blackwell", "tcgen05", "e4m3", "fp32", 8, 32, ["--kind", "mxf8f6f4", "--scale", "ue8m0"],
     8, 32),
    ("blackwell", "tcgen05", "e2m1", "fp32", 4, 32, ["--kind", "mxf4nvf4", "--scale", "ue4m3"],
     8, 16),
    ("ada", "mma", "e4m3", "fp32", 8, 32, [], 0, 0, "e5m2", 8),
    ("hopper", "mma", "e5m2", "fp16", 8, 16, [], 0, 0, "e4m3", 8),
    ("hopper", "wgmma", "e5m2", "fp32", 8, 32, [], 0, 0, "e4m3", 8),
    ("blackwell", "tcgen05", "e2m1", "fp16", 4, 16, [], 0, 0, "e3m2", 6),
    ("blackwell", "tcgen05", "e4m3", "fp32", 8, 32, ["--kind", "mxf8f6f4", "--scale", "ue8m0"],
     8, 32, "e2m1", 4),
]


def dtypes_for(width):
    return [d for d, n in (("|u1", 1), ("<u2", 2), ("<u4", 4)) if n * 8 >= width]


def rand_word(rng, width):
    w = rng.getrandbits(width)
    if width >= 16 and rng.random() < 0.5:  # mostly tame values: small exponents
        w = (w & ~(0x3 << (width - 3))) if width == 16 else (w & 0x80ffffff) | 0x3f000000
    return w


def rand_matrix(rng, rows, cols, width, scale=False):
    if scale:  # scales near 1 (ue8m0 127, ue4m3 0x38): products stay finite mostly
        base = 127 if width == 8 else 0x38
        return [base + rng.randrange(-3, 4) for _ in range(rows * cols)]
    return [rand_word(rng, width) for _ in range(rows * cols)]


def save(rng, name, rows, cols, width, data):
    descr = rng.choice(dtypes_for(width))
    fortran = rng.random() < 0.5
    version = rng.choice([(1, 0), (2, 0), (3, 0)])
    return put(name, npy(descr, (rows, cols), data, fortran, version))


def check_against_dot(rng, prof, case):
    arch, instr, fin, fout, win, wout, extra, wsc, blk = prof[:9]
    fin_b, win_b = prof[9:] or (fin, win)
    fmts = ["--in", fin] if fin_b == fin else ["--in-a", fin, "--in-b", fin_b]
    M, N = rng.randint(1, 5), rng.randint(1, 5)
    K = rng.choice([1, 3, 7, 17, 40]) if not blk else blk * rng.randint(1, 2)
    A = rand_matrix(rng, M, K, win)
    B = rand_matrix(rng, K, N, win_b)
    C = rand_matrix(rng, M, N, wout) if rng.random() < 0.7 else None
    args = ["gemm", "--arch", arch, "--instr", instr, *fmts, "--out", fout, *extra,
            "--a", save(rng, "a.npy", M, K, win, A), "--b", save(rng, "b.npy", K, N, win_b, B),
            "-o", "d.npy", "--threads", str(rng.randint(0, 4))]
    if C is not None:
        args += ["--c", save(rng, "c.npy", M, N, wout, C)]
    SA = SB = None
    if blk:
        SA = rand_matrix(rng, M, K // blk, wsc, True)
        SB = rand_matrix(rng, K // blk, N, wsc, True)
        args += ["--scale-a", save(rng, "sa.npy", M, K // blk, wsc, SA),
                 "--scale-b", save(rng, "sb.npy", K // blk, N, wsc, SB)]
    if os.path.exists("d.npy"):
        os.remove("d.npy")
    rc, _, err = tcsim(*args)
    what = f"{arch} {instr} {fin}x{fin_b}->{fout} case {case} ({M}x{N}x{K})"
    if rc != 0:
        return fail(f"{what}: tcsim gemm exited {rc}: {err[:300]}")
    descr, fortran, shape, D = read_npy("d.npy")
    want_descr = "<u2" if wout == 16 else "<u4"
    if descr != want_descr or fortran or shape != (M, N):
        fail(f"{what}: D is {descr} fortran={fortran} {shape}, expected {want_descr} (M, N)")
    lines = []
    for i in range(M):
        for j in range(N):
            words = [A[i * K + k] for k in range(K)] + [B[k * N + j] for k in range(K)]
            if blk:
                words += [SA[i * (K // blk) + s] for s in range(K // blk)]
                words += [SB[s * N + j] for s in range(K // blk)]
            words.append(C[i * N + j] if C is not None else 0)
            lines.append(" ".join("%x" % w for w in words))
    rc, out, err = tcsim("dot", "--arch", arch, "--instr", instr, *fmts, "--out", fout,
                         *extra, stdin="\n".join(lines) + "\n")
    if rc != 0:
        return fail(f"{what}: tcsim dot exited {rc}: {err[:300]}")
    dots = [int(x, 16) for x in out.split()]
    bad = [(e // N, e % N, D[e], dots[e]) for e in range(M * N) if D[e] != dots[e]]
    if bad:
        fail(f"{what}: {len(bad)} elements differ from tcsim dot, first (i, j, gemm, dot) = "
             f"{bad[0]}")
    return 1


rng = random.Random(30)
checked = 0
for prof in PROFILES:
    for case in range(6):
        checked += bool(check_against_dot(rng, prof, case))
print(f"1. {checked} random GEMMs over {len(PROFILES)} profiles equal tcsim dot per element")

# ---------------------------------------------------------------- 2. invariance, dtype rule
base = ["gemm", "--arch", "ampere", "--in", "fp16", "--out", "fp32"]
M, N, K = 3, 4, 9
A = rand_matrix(rng, M, K, 16)
B = rand_matrix(rng, K, N, 16)
C = rand_matrix(rng, M, N, 32)
put("a1.npy", npy("<u2", (M, K), A))
put("b1.npy", npy("<u2", (K, N), B))
put("c1.npy", npy("<u4", (M, N), C))
put("a2.npy", npy("<u4", (M, K), A, fortran=True, version=(2, 0)))
put("b2.npy", npy("<f2", (K, N), B, fortran=True, version=(3, 0)))
put("c2.npy", npy("<f4", (M, N), C, fortran=True))
ref = None
for t in ("1", "2", "3", "4", "0"):
    for files in (("a1", "b1", "c1"), ("a2", "b2", "c2"), ("a2", "b1", "c1")):
        rc, _, err = tcsim(*base, "--a", files[0] + ".npy", "--b", files[1] + ".npy",
                           "--c", files[2] + ".npy", "-o", "d.npy", "--threads", t)
        if rc != 0:
            fail(f"{files} threads {t}: exited {rc}: {err[:300]}")
            continue
        descr, _, _, D = read_npy("d.npy")
        floats = files[1] == "b2"
        if descr != ("<f4" if floats else "<u4"):
            fail(f"{files}: D's dtype {descr}, expected {'<f4' if floats else '<u4'}")
        if ref is None:
            ref = D
        elif D != ref:
            fail(f"{files} threads {t}: D differs from the first run")
print("2. D is the same for every order, dtype, version and thread count")

# the dtype rule: float only with a float operand and a float output
for a, c, out, want in (("a1", None, "fp16", "<u2"), ("a1", "c16f", "fp16", "<f2"),
                        ("a1", "c1", "fp32", "<u4"), ("a1", "c2", "fp32", "<f4")):
    put("c16f.npy", npy("<f2", (M, N), [0x3c00] * (M * N)))
    args = ["gemm", "--arch", "ampere", "--in", "fp16", "--out", out, "--a", a + ".npy",
            "--b", "b1.npy", "-o", "d.npy"] + (["--c", c + ".npy"] if c else [])
    rc, _, err = tcsim(*args)
    descr = read_npy("d.npy")[0] if rc == 0 else None
    if descr != want:
        fail(f"dtype rule: A {a}, C {c}, --out {out}: D is {descr}, expected {want} ({err[:200]})")
put("ai.npy", npy("|u1", (2, 16), [1] * 32))
put("bi.npy", npy("|u1", (16, 2), [2] * 32))
rc, _, err = tcsim("gemm", "--arch", "turing", "--in", "int8", "--out", "s32", "--a", "ai.npy",
                   "--b", "bi.npy", "-o", "d.npy")
if rc != 0 or read_npy("d.npy")[0::3] != ("<u4", [32] * 4):
    fail(f"int8 2x16 ones times twos: {rc} {err[:200]}")
# tcsim reads its own D back: D as C of a second run (D2 = A*B + D)
rc1, _, _ = tcsim(*base, "--a", "a1.npy", "--b", "b1.npy", "-o", "d.npy")
rc2, _, err = tcsim(*base, "--a", "a1.npy", "--b", "b1.npy", "--c", "d.npy", "-o", "d2.npy")
if rc1 or rc2:
    fail(f"D read back as C: {err[:300]}")
print("   the dtype rule holds; tcsim reads back the D it wrote")

# ---------------------------------------------------------------- 3. bad input
good_a = npy("<u2", (2, 3), [0x3c00] * 6)
good_b = npy("<u2", (3, 2), [0x3c00] * 6)
put("ga.npy", good_a)
put("gb.npy", good_b)
OLD = b"the old D, untouched\n"


def expect_refused(args, status, *needles, what=None):
    """tcsim with args exits `status` naming each needle; D.npy keeps its old bytes; no
    new file in the folder."""
    put("D.npy", OLD)
    before = set(os.listdir("."))
    rc, out, err = tcsim(*args)
    what = what or " ".join(args)
    if rc != status:
        fail(f"{what}: exited {rc}, expected {status}: {err[:300]}")
    for n in needles:
        if n not in err:
            fail(f"{what}: stderr lacks {n!r}: {err[:300]}")
    if open("D.npy", "rb").read() != OLD:
        fail(f"{what}: D.npy was written over")
    new = set(os.listdir(".")) - before
    if new:
        fail(f"{what}: left {sorted(new)}")


def bad_a(content, *needles, opts=()):
    put("bad.npy", content)
    expect_refused([*base, *opts, "--a", "bad.npy", "--b", "gb.npy", "-o", "D.npy"], 2,
                   "--a 'bad.npy'", *needles, what=f"A = {content[:60]!r}")


hdr = "{'descr': '<u2', 'fortran_order': False, 'shape': (2, 3), }"
data6 = [0x3c00] * 6
bad_a(b"", "not a .npy file")
bad_a(b"PK\x03\x04 a zip file", "not a .npy file")
bad_a(b"\x93NUMPY\x04\x00\x10\x00", "unsupported .npy version 4.0")
bad_a(b"\x93NUMPY\x01\x01\x10\x00", "unsupported .npy version 1.1")
bad_a(b"\x93NUMPY\x01", "truncated")
bad_a(b"\x93NUMPY\x02\x00\x10\x00", "truncated")
bad_a(npy("<u2", (2, 3), None, header=hdr)[:40], "truncated", "header")
bad_a(npy("<u2", (2, 3), data6, header=hdr, pad=False), "does not end with a newline")
bad_a(npy("<u2", (2, 3), data6, header="[1, 2]"), "bad header")
bad_a(npy("<u2", (2, 3), data6, header=hdr.replace("shape", "shap")), "unknown key 'shap'")
bad_a(npy("<u2", (2, 3), data6, header=hdr.replace("}", "'shape': (2, 3), }")),
      "key 'shape' twice")
bad_a(npy("<u2", (2, 3), data6, header="{'descr': '<u2', 'fortran_order': False}"),
      "no 'shape' key")
bad_a(npy("<u2", (2, 3), data6, header=hdr.replace("False", "0")), "fortran_order")
bad_a(npy("<u2", (2, 3), data6, header=hdr.replace("(2, 3)", "(2, x)")), "shape")
bad_a(npy("<u2", (2, 3), data6, header=hdr + "junk"), "text after the header dict")
bad_a(npy("<i4", (2, 3), data6 * 2), "unknown dtype '<i4'")
bad_a(npy("<f8", (2, 3), data6), "dtype float64 holds 64-bit words, for fp64 alone")
bad_a(npy("<u8", (2, 3), data6), "dtype uint64 holds 64-bit words, for fp64 alone")
bad_a(npy("<i8", (2, 3), data6 * 2), "unknown dtype '<i8'", "float64 (<f8)")
bad_a(npy(">u2", (2, 3), data6), "big-endian", "'>u2'")
bad_a(npy(">f2", (2, 3), data6), "big-endian", "'>f2'")
bad_a(npy("<u2", (2, 3), data6, header=hdr.replace("'<u2'", "[('x', '<u2')]")),
      "structured dtype")
bad_a(npy("<u2", (6,), data6), "a 1-D array (shape (6,))")
bad_a(npy("<u2", (1, 2, 3), data6), "a 3-D array")
bad_a(npy("<u2", (), data6[:1]), "a 0-D array")
bad_a(npy("<u2", (0, 3), []), "an empty matrix (shape (0, 3))")
bad_a(npy("<u2", (2, 3), data6[:5]), "truncated: shape (2, 3) of uint16 needs 12 bytes")
bad_a(npy("<u2", (2, 3), data6 + [0]), "2 bytes after the data")
bad_a(npy("|u1", (2, 3), [0x3c] * 6), "dtype uint8 is narrower than --in fp16 (16 bits)")
bad_a(npy("<f4", (2, 3), data6), "dtype float32 holds fp32, not --in fp16")
bad_a(npy("<u4", (2, 3), [0x3c00, 0x3c00, 0x3c00, 0x3c00, 0x13c00, 0x3c00]),
      "element (1, 1) = 0x13c00 is wider than --in fp16 (16 bits)")
bad_a(npy("<u4", (2, 3), [0x3c00, 0x3c00, 0x3c00, 0x3c00, 0x3c00, 0x13c00], fortran=True),
      "element (1, 2) = 0x13c00 is wider than --in fp16")
bad_a(npy("<u2", (2, 3), data6, header=hdr + " " * 70000, version=(2, 0)), "bad header",
      "at most 65536")
# huge shapes: refused from the header and the file's size, before any allocation (under a
# 256 MiB address-space limit, a 40 GB allocation would fail as "out of memory" instead).
# A sanitizer build cannot start under that limit (its shadow memory): there the shapes
# are checked without it.
limit = 256 << 20
if "Sanitizer" in tcsim("gemm", "--help", limit_as=limit)[2]:
    print("   (a sanitizer build: the huge shapes run without the address-space limit)")
    limit = None
for shape, needle in (((100000, 100000), "truncated: shape (100000, 100000) of uint16 needs "
                                         "20000000000 bytes of data, the file has 12"),
                      ((1 << 40, 1 << 40), "too large to hold in memory"),
                      ((2, 99999999999999999999), "wider than 64 bits")):
    put("bad.npy", npy("<u2", (2, 3), data6, header=hdr.replace("(2, 3)", "(%d, %d)" % shape)))
    put("D.npy", OLD)
    rc, _, err = tcsim(*base, "--a", "bad.npy", "--b", "gb.npy", "-o", "D.npy",
                       limit_as=limit)
    if rc != 2 or needle not in err:
        fail(f"huge shape {shape}: exited {rc}: {err[:300]}")
# a file that is no regular file, a folder, a missing file
expect_refused([*base, "--a", "/dev/zero", "--b", "gb.npy", "-o", "D.npy"], 2,
               "--a '/dev/zero': not a regular file")
expect_refused([*base, "--a", ".", "--b", "gb.npy", "-o", "D.npy"], 2, "--a '.'")
expect_refused([*base, "--a", "nope.npy", "--b", "gb.npy", "-o", "D.npy"], 2,
               "--a 'nope.npy': cannot open: No such file")
# a name with control characters is quoted, not printed raw
expect_refused([*base, "--a", "x\x1b[31m.npy", "--b", "gb.npy", "-o", "D.npy"], 2,
               "--a 'x\\x1b[31m.npy'")
print("3. every bad file is named, status 2, nothing written")

# shape mismatches between A, B, C and the scales
put("b43.npy", npy("<u2", (4, 2), [0x3c00] * 8))
expect_refused([*base, "--a", "ga.npy", "--b", "b43.npy", "-o", "D.npy"], 2,
               "--b 'b43.npy' has 4 rows; --a 'ga.npy' is 2 x 3, so B (K x N) needs K = 3")
put("c33.npy", npy("<u4", (3, 3), [0] * 9))
expect_refused([*base, "--a", "ga.npy", "--b", "gb.npy", "--c", "c33.npy", "-o", "D.npy"], 2,
               "--c 'c33.npy' is 3 x 3; A x B (C is M x N) needs 2 x 2")
put("c16.npy", npy("<u2", (2, 2), [0] * 4))
expect_refused([*base, "--a", "ga.npy", "--b", "gb.npy", "--c", "c16.npy", "-o", "D.npy"], 2,
               "--c 'c16.npy': dtype uint16 is narrower than --out fp32 (32 bits)")
mx = ["gemm", "--arch", "blackwell", "--instr", "tcgen05", "--in", "e4m3", "--out", "fp32",
      "--kind", "mxf8f6f4", "--scale", "ue8m0"]
put("a64.npy", npy("|u1", (2, 64), [0x38] * 128))
put("b64.npy", npy("|u1", (64, 3), [0x38] * 192))
put("a40.npy", npy("|u1", (2, 40), [0x38] * 80))
put("b40.npy", npy("|u1", (40, 3), [0x38] * 120))
put("sa.npy", npy("|u1", (2, 2), [127] * 4))
put("sb.npy", npy("|u1", (2, 3), [127] * 6))
put("sb_bad.npy", npy("|u1", (3, 3), [127] * 9))
rc, _, err = tcsim(*mx, "--a", "a64.npy", "--b", "b64.npy", "--scale-a", "sa.npy",
                   "--scale-b", "sb.npy", "-o", "d.npy")
# 64 products of 1 * 1 with unit scales: 64.0 = 0x42800000
if rc != 0 or read_npy("d.npy")[3] != [0x42800000] * 6:
    fail(f"mxf8f6f4 ones: exited {rc}: {err[:300]}")
expect_refused([*mx, "--a", "a64.npy", "--b", "b64.npy", "--scale-a", "sa.npy",
                "--scale-b", "sb_bad.npy", "-o", "D.npy"], 2,
               "--scale-b 'sb_bad.npy' is 3 x 3; B's K x N with scale blocks")
expect_refused([*mx, "--a", "a40.npy", "--b", "b40.npy", "--scale-a", "sa.npy",
                "--scale-b", "sb.npy", "-o", "D.npy"], 2,
               "K = 40 is not a multiple of the scale block 32")
expect_refused([*mx, "--a", "a64.npy", "--b", "b64.npy", "-o", "D.npy"], 2,
               "--scale-a and --scale-b are the scales of --kind")
expect_refused([*base, "--a", "ga.npy", "--b", "gb.npy", "--scale-a", "sa.npy", "-o", "D.npy"],
               2, "they need --kind")
# options
expect_refused([*base, "--a", "ga.npy", "-o", "D.npy"], 2, "are required")
expect_refused([*base, "--a", "ga.npy", "--b", "gb.npy", "-o", "D.npy", "--bogus"], 2,
               "unknown option '--bogus'")
expect_refused([*base, "--a", "ga.npy", "--b", "gb.npy", "-o", "D.npy", "--threads", "-1"], 2,
               "bad value for --threads '-1'")
expect_refused(["gemm", "--arch", "volta", "--instr", "wgmma", "--in", "fp16", "--out", "fp32",
                "--a", "ga.npy", "--b", "gb.npy", "-o", "D.npy"], 2, "no profile for --arch volta")
# mixed pairs: a pair the instruction lacks names the instruction and the pair; --in with
# --in-a/--in-b, or one of them alone, is a usage error; each file is checked against its
# own format (B in e2m1: 4 bits)
put("a8.npy", npy("|u1", (2, 3), [0x38] * 6))
put("b8.npy", npy("|u1", (3, 2), [0x38] * 6))
pair = ["gemm", "--a", "a8.npy", "--b", "b8.npy", "-o", "D.npy", "--out", "fp32"]
expect_refused([*pair, "--arch", "hopper", "--in-a", "e4m3", "--in-b", "e2m1"], 2,
               "tcsim gemm: hopper mma has no e4m3 x e2m1 form")
expect_refused([*pair, "--arch", "ampere", "--in-a", "e4m3", "--in-b", "e5m2"], 2,
               "tcsim gemm: ampere mma has no e4m3 x e5m2 form")
expect_refused([*pair, "--arch", "blackwell", "--instr", "tcgen05", "--in-a", "e2m1",
                "--in-b", "e4m3", "--kind", "mxf4", "--scale", "ue8m0", "--scale-a", "sa.npy",
                "--scale-b", "sb.npy"], 2,
               "tcsim gemm: blackwell tcgen05 kind::mxf4 has no e2m1 x e4m3 form")
expect_refused([*pair, "--arch", "ada", "--in", "e4m3", "--in-b", "e5m2"], 2,
               "--in sets both formats")
expect_refused([*pair, "--arch", "ada", "--in-a", "e4m3"], 2, "--in-a and --in-b go together")
expect_refused([*pair, "--arch", "blackwell", "--instr", "tcgen05", "--in-a", "e4m3",
                "--in-b", "e2m1"], 2,
               "--b 'b8.npy': element (0, 0) = 0x38 is wider than --in-b e2m1 (4 bits)")
# a hand-worked pair: e4m3 0x38 = 1.0 times e5m2 0x38 = 0.5, three times: 1.5
rc, _, err = tcsim(*pair[:-4], "-o", "d.npy", "--out", "fp32", "--arch", "ada",
                   "--in-a", "e4m3", "--in-b", "e5m2")
if rc != 0 or read_npy("d.npy")[3] != [0x3fc00000] * 4:
    fail(f"ada e4m3 x e5m2 ones: exited {rc}: {err[:300]}")
# b1: the option that --in b1 asks for exists, and goes with b1 alone
b1 = ["gemm", "--arch", "ampere", "--in", "b1", "--out", "s32", "--a", "a8.npy", "--b", "b8.npy",
      "-o", "D.npy"]
expect_refused(b1, 2, "--in b1 needs --popc and|xor")
expect_refused([*b1, "--popc", "or"], 2, "unknown --popc 'or' (and or xor")
expect_refused([*b1, "--popc", "and"], 2,
               "--a 'a8.npy': element (0, 0) = 0x38 is wider than --in b1 (1 bits)")
expect_refused([*base, "--a", "ga.npy", "--b", "gb.npy", "-o", "D.npy", "--popc", "xor"], 2,
               "--popc xor goes with --in b1 --out s32 alone")
expect_refused([*b1[:2], "volta", *b1[3:], "--popc", "xor"], 2,
               "volta mma has no b1 .xor.popc form")
print("   --popc, fp64 and b1 options and dtypes are checked like the others")


def popc_case(op, arch, M, N, K):
    A = [rng.getrandbits(1) for _ in range(M * K)]
    B = [rng.getrandbits(1) for _ in range(K * N)]
    C = [rng.randrange(1 << 20) for _ in range(M * N)]
    put("pa.npy", npy(rng.choice(["|u1", "<u2", "<u4"]), (M, K), A, fortran=rng.random() < .5))
    put("pb.npy", npy("|u1", (K, N), B, fortran=rng.random() < .5))
    put("pc.npy", npy("<u4", (M, N), C))
    rc, _, err = tcsim("gemm", "--arch", arch, "--in", "b1", "--out", "s32", "--popc", op,
                       "--a", "pa.npy", "--b", "pb.npy", "--c", "pc.npy", "-o", "d.npy")
    if rc != 0:
        return fail(f"b1 {op} {arch} {M}x{N}x{K}: exited {rc}: {err[:300]}")
    want = [C[i * N + j] + sum((A[i * K + k] & B[k * N + j]) if op == "and" else
                               (A[i * K + k] ^ B[k * N + j]) for k in range(K))
            for i in range(M) for j in range(N)]
    got = read_npy("d.npy")
    if got[0] != "<u4" or got[3] != want:
        fail(f"b1 {op} {arch} {M}x{N}x{K}: D {got[0]} {got[3][:4]}..., expected {want[:4]}...")


for op, arch in (("and", "ampere"), ("xor", "turing"), ("xor", "hopper")):
    for _ in range(3):
        popc_case(op, arch, rng.randint(1, 6), rng.randint(1, 6), rng.choice([1, 128, 300]))


def f64_bits(x):
    return struct.unpack("<Q", struct.pack("<d", x))[0]


def f64_of(bits):
    return struct.unpack("<d", struct.pack("<Q", bits))[0]


def fma_chain(c, pairs):
    """c, then d = fma(a, b, d) in order: each step exact in rationals, rounded once by
    float() (a correctly rounded int / int). Finite, non-zero results only (the cases
    below keep to them)."""
    from fractions import Fraction
    d = c
    for a, b in pairs:
        d = float(Fraction(a) * Fraction(b) + Fraction(d))
    return d


def rand_f64():
    # random sign, 53-bit significand, exponent within +-40: no overflow, no zero sums
    m = (1 << 52) | rng.getrandbits(52)
    return (-1) ** rng.getrandbits(1) * m * 2.0 ** (rng.randint(-40, 40) - 52)


for case in range(12):
    M, N, K = rng.randint(1, 5), rng.randint(1, 5), rng.choice([1, 4, 7, 16, 33])
    arch = rng.choice(["ampere", "hopper", "blackwell"])
    A = [rand_f64() for _ in range(M * K)]
    B = [rand_f64() for _ in range(K * N)]
    C = [rand_f64() for _ in range(M * N)] if case % 3 else None
    floats = case % 2 == 0
    dt = "<f8" if floats else "<u8"
    put("fa.npy", npy(dt, (M, K), [f64_bits(x) for x in A], fortran=case % 4 == 1,
                      version=rng.choice([(1, 0), (2, 0)])))
    put("fb.npy", npy("<u8", (K, N), [f64_bits(x) for x in B], fortran=case % 4 == 2))
    args = ["gemm", "--arch", arch, "--in", "fp64", "--out", "fp64", "--a", "fa.npy",
            "--b", "fb.npy", "-o", "d.npy", "--threads", str(case % 3)]
    if C is not None:
        put("fc.npy", npy("<u8", (M, N), [f64_bits(x) for x in C]))
        args += ["--c", "fc.npy"]
    rc, _, err = tcsim(*args)
    what = f"fp64 {arch} {M}x{N}x{K} case {case}"
    if rc != 0:
        fail(f"{what}: exited {rc}: {err[:300]}")
        continue
    descr, fortran, shape, D = read_npy("d.npy")
    want = [f64_bits(fma_chain(C[i * N + j] if C else 0.0,
                               [(A[i * K + k], B[k * N + j]) for k in range(K)]))
            for i in range(M) for j in range(N)]
    if descr != dt or shape != (M, N) or D != want:
        bad = [e for e in range(M * N) if D[e] != want[e]]
        fail(f"{what}: D is {descr} {shape}, expected {dt}; {len(bad)} elements differ from "
             f"the exact FMA chain, first {[(f64_of(D[e]), f64_of(want[e])) for e in bad[:1]]}")
# a hand-worked one: 1.0 * 2^-60 + 1.0 rounds to 1.0 in binary64; then + 1.0 * -1.0 = 0
put("fa.npy", npy("<f8", (1, 2), [f64_bits(2.0 ** -60), f64_bits(1.0)]))
put("fb.npy", npy("<f8", (2, 1), [f64_bits(1.0), f64_bits(-1.0)]))
put("fc.npy", npy("<f8", (1, 1), [f64_bits(1.0)]))
rc, _, err = tcsim("gemm", "--arch", "ampere", "--in", "fp64", "--out", "fp64", "--a", "fa.npy",
                   "--b", "fb.npy", "--c", "fc.npy", "-o", "d.npy")
if rc != 0 or read_npy("d.npy")[3] != [0]:
    fail(f"fp64 1 + 2^-60 - 1: exited {rc}, D {read_npy('d.npy')[3] if rc == 0 else None} "
         f"(expected +0: the 2^-60 is lost in the first FMA) {err[:200]}")
expect_refused(["gemm", "--arch", "ampere", "--in", "fp64", "--out", "fp64", "--a", "ga.npy",
                "--b", "fb.npy", "-o", "D.npy"], 2,
               "--a 'ga.npy': dtype uint16 is not uint64 or float64 (--in fp64)")
expect_refused(["gemm", "--arch", "turing", "--in", "fp64", "--out", "fp64", "--a", "fa.npy",
                "--b", "fb.npy", "-o", "D.npy"], 2, "no profile for --arch turing")
print("   b1 popcounts and fp64 FMA chains equal the references computed here")

# outputs that cannot be written: status 1, no temporary file left
expect_refused([*base, "--a", "ga.npy", "--b", "gb.npy", "-o", "no_dir/d.npy"], 1,
               "cannot write 'no_dir/d.npy' (-o): cannot create a file in its folder")
os.makedirs("adir", exist_ok=True)
expect_refused([*base, "--a", "ga.npy", "--b", "gb.npy", "-o", "adir"], 1,
               "cannot write 'adir' (-o): not a regular file")
if os.listdir("adir"):
    fail(f"adir holds {os.listdir('adir')}")
rc, out, _ = tcsim("gemm", "--help")
if rc != 0 or "usage: tcsim gemm" not in out:
    fail("tcsim gemm --help")
print("   shape mismatches, options and unwritable outputs likewise")

print(f"FAILED ({len(failures)})" if failures else "PASSED")
sys.exit(1 if failures else 0)
