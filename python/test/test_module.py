"""The Python module tcsim: gemm against dot per element, against NumPy's own arithmetic
where that is exact, layouts and strides, threads, the dtype rule, and every bad argument
as a TcsimError that names it with the model's status text."""
import numpy as np
import pytest

import tcsim

RNG = np.random.default_rng(30)

# (arch, instr, inp, out, width of inp, extra keywords, scale width); a mixed pair gives
# (in_a, in_b) for inp and their two widths
PROFILES = [
    ("ampere", "mma", "fp16", "fp32", 16, {}, 0),
    ("ampere", "mma", "fp16", "fp16", 16, {}, 0),
    ("ampere", "mma", "bf16", "fp32", 16, {}, 0),
    ("ampere", "mma", "tf32", "fp32", 32, {}, 0),
    ("hopper", "wgmma", "e4m3", "fp32", 8, {}, 0),
    ("hopper", "mma", "e5m2", "fp16", 8, {}, 0),
    ("blackwell", "tcgen05", "e2m1", "fp32", 4, {}, 0),
    ("turing", "mma", "int8", "s32", 8, {}, 0),
    ("blackwell", "tcgen05", "e4m3", "fp32", 8, {"kind": "mxf8f6f4", "scale": "ue8m0"}, 8),
    ("blackwell", "tcgen05", "e2m1", "fp32", 4, {"kind": "mxf4", "scale": "ue8m0"}, 8),
    ("ada", "mma", ("e4m3", "e5m2"), "fp32", (8, 8), {}, 0),
    ("hopper", "mma", ("e5m2", "e4m3"), "fp16", (8, 8), {}, 0),
    ("blackwell", "tcgen05", ("e2m1", "e4m3"), "fp32", (4, 8), {}, 0),
    ("blackwell", "tcgen05", ("e3m2", "e2m3"), "fp32", (6, 6),
     {"kind": "mxf8f6f4", "scale": "ue8m0"}, 8),
]


def bits(shape, width):
    dt = np.uint8 if width <= 8 else np.uint16 if width <= 16 else np.uint32
    return RNG.integers(0, 1 << width, shape, dtype=np.uint64).astype(dt)


def prof_id(p):
    """arch_instr_in_out, a pair's in as in_axin_b (as tcsim list names it)."""
    fmts = "x".join(p[2]) if isinstance(p[2], tuple) else p[2]
    return "_".join((p[0], p[1], fmts, p[3]))


@pytest.mark.parametrize("prof", PROFILES, ids=prof_id)
def test_gemm_equals_dot(prof):
    arch, instr, inp, out, w, kw, wsc = prof
    blk = {"mxf8f6f4": 32, "mxf4": 32}.get(kw.get("kind"), 0)
    wa, wb = w if isinstance(w, tuple) else (w, w)
    if isinstance(inp, tuple):  # a mixed pair: a in in_a, b in in_b
        kw = dict(kw, in_a=inp[0], in_b=inp[1])
        inp = None
    for _ in range(3):
        M, N = (int(x) for x in RNG.integers(1, 6, 2))
        K = int(RNG.choice([1, 5, 19, 33])) if not blk else blk * int(RNG.integers(1, 3))
        a, b = bits((M, K), wa), bits((K, N), wb)
        c = bits((M, N), 16 if out == "fp16" else 32)
        sc = {}
        if blk:
            sc = {"scale_a": (127 + RNG.integers(-2, 3, (M, K // blk))).astype(np.uint8),
                  "scale_b": (127 + RNG.integers(-2, 3, (K // blk, N))).astype(np.uint8)}
        d = tcsim.gemm(a, b, c, arch=arch, instr=instr, inp=inp, out=out, **kw, **sc)
        assert d.shape == (M, N) and d.dtype == (np.uint16 if out == "fp16" else np.uint32)
        for i in range(M):
            for j in range(N):
                s = {}
                if blk:
                    s = {"scale_a": sc["scale_a"][i], "scale_b": sc["scale_b"][:, j]}
                x = tcsim.dot(a[i], b[:, j], int(c[i, j]), arch=arch, instr=instr, inp=inp,
                              out=out, **kw, **s)
                assert x == d[i, j], (i, j, hex(x), hex(d[i, j]))


def test_numpy_exact_small_integers():
    """Small integers in fp16 with fp32 output: every product and partial sum is an
    integer far below 2^24, exact in any order and any alignment, so NumPy's float32
    arithmetic must give the same values."""
    for arch, instr in (("volta", "mma"), ("ampere", "mma"), ("hopper", "wgmma")):
        a = RNG.integers(-8, 9, (7, 45)).astype(np.float16)
        b = RNG.integers(-8, 9, (45, 5)).astype(np.float16)
        c = RNG.integers(-100, 101, (7, 5)).astype(np.float32)
        d = tcsim.gemm(a, b, c, arch=arch, instr=instr, out="fp32")
        assert d.dtype == np.float32
        np.testing.assert_array_equal(d, a.astype(np.float32) @ b.astype(np.float32) + c)
        # fp16 output: the sums stay below 2048, exact in fp16 too
        a2 = RNG.integers(-3, 4, (4, 9)).astype(np.float16)
        b2 = RNG.integers(-3, 4, (9, 6)).astype(np.float16)
        d2 = tcsim.gemm(a2, b2, arch=arch, instr=instr, out="fp16")
        assert d2.dtype == np.float16
        np.testing.assert_array_equal(d2, (a2.astype(np.float32) @ b2.astype(np.float32))
                                      .astype(np.float16))


def test_int8_against_numpy():
    a = RNG.integers(-128, 128, (5, 37)).astype(np.int8)
    b = RNG.integers(-128, 128, (37, 4)).astype(np.int8)
    d = tcsim.gemm(a.view(np.uint8), b.view(np.uint8), arch="turing", inp="int8", out="s32")
    np.testing.assert_array_equal(d.view(np.int32), a.astype(np.int32) @ b.astype(np.int32))


def test_layouts_strides_byte_order_threads():
    a = bits((6, 20), 16) & np.uint16(0x3fff)
    b = bits((20, 7), 16) & np.uint16(0x3fff)
    c = bits((6, 7), 32)
    ref = tcsim.gemm(a, b, c, arch="ampere", inp="fp16")
    wide = np.zeros((6, 31), np.uint32)
    wide[:, 3:23] = a
    variants = [
        (np.asfortranarray(a), np.asfortranarray(b), np.asfortranarray(c)),
        (a.astype(np.uint32), b.astype(np.uint32), c),
        (wide[:, 3:23], b.T.copy().T, c.T.copy().T),        # a row stride, F-order views
        (a.astype(">u2"), b.astype(">u4"), c.astype(">u4")),  # big-endian in memory
        (a[::-1][::-1], b[:, ::-1][:, ::-1], c),              # negative-stride round trip
    ]
    for va, vb, vc in variants:
        np.testing.assert_array_equal(tcsim.gemm(va, vb, vc, arch="ampere", inp="fp16"), ref)
    for t in (1, 2, 3, 4):
        np.testing.assert_array_equal(tcsim.gemm(a, b, c, arch="ampere", inp="fp16",
                                                 threads=t), ref)


def test_no_copy_where_the_memory_allows():
    from tcsim._matrix import as_words
    fp16 = 2  # TC_FMT_FP16
    base = np.zeros((5, 40), np.uint32)
    for x in (base, np.asfortranarray(base), base[:, 2:30], base.T[3:9]):
        w = as_words("a", x, fp16, 2)
        assert np.shares_memory(w.array, x)
    assert w.matrix.layout == 1 and w.matrix.ld == 40  # base.T[3:9]: columns 40 apart


def test_output_dtype_rule():
    a16, b16 = np.ones((2, 3), np.float16), np.ones((3, 2), np.float16)
    u16a, u16b = a16.view(np.uint16), b16.view(np.uint16)
    assert tcsim.gemm(a16, b16, arch="ampere").dtype == np.float32
    assert tcsim.gemm(u16a, u16b, arch="ampere", inp="fp16").dtype == np.uint32
    assert tcsim.gemm(u16a, u16b, arch="ampere", inp="fp16", out="fp16").dtype == np.uint16
    assert tcsim.gemm(u16a, u16b, np.zeros((2, 2), np.float32), arch="ampere",
                      inp="fp16").dtype == np.float32
    np.testing.assert_array_equal(tcsim.gemm(a16, b16, arch="ampere"), 3.0)
    assert tcsim.dot(np.ones(3, np.float16), np.ones(3, np.float16), np.float32(1.5),
                     arch="ampere") == np.float32(4.5)
    assert tcsim.dot(u16a[0], u16b[:, 0], 0, arch="ampere", inp="fp16") == 0x40400000
    assert tcsim.version().count(".") == 2


def err(call, argument, *needles):
    with pytest.raises(tcsim.TcsimError) as e:
        call()
    assert e.value.argument == argument, str(e.value)
    for n in needles:
        assert n in str(e.value), str(e.value)
    return e.value


def test_errors_name_the_argument():
    a, b = np.ones((2, 3), np.float16), np.ones((3, 2), np.float16)
    g = tcsim.gemm
    err(lambda: g(a, b, arch="pascal"), "arch", "invalid argument", "'pascal'", "volta")
    err(lambda: g(a, b, arch=3), "arch", "invalid argument")
    err(lambda: g(a, b, arch="ampere", instr="xmma"), "instr", "'xmma'")
    err(lambda: g(a, b, arch="ampere", out="fp8"), "out", "'fp8'")
    err(lambda: g(a.view(np.uint16), b, arch="ampere"), "inp", "input format is needed")
    e = err(lambda: g(a, b, arch="volta", instr="wgmma"), "arch/instr/inp/out",
            "combination not supported", "no profile for arch='volta' instr='wgmma'")
    assert e.status == 6  # TC_EUNSUPPORTED
    err(lambda: g(a, b, arch="ampere", inp="bf16"), "a", "bit pattern does not fit its "
        "format", "dtype float16 holds fp16, not bf16")
    err(lambda: g(a.astype(np.float64), b, arch="ampere", inp="fp16"), "a",
        "dtype float64 holds 64-bit words, for fp64 alone")
    err(lambda: g(np.ones((2, 3), np.uint8), b, arch="ampere", inp="fp16"), "a",
        "dtype uint8 is narrower than fp16 (16 bits)")
    wide = np.full((2, 3), 0x3c00, np.uint32)
    wide[1, 2] = 0x13c00
    err(lambda: g(wide, b, arch="ampere", inp="fp16"), "a",
        "element (1, 2) = 0x13c00 is wider than fp16 (16 bits)")
    err(lambda: g(a, np.ones((4, 2), np.float16), arch="ampere"), "b", "shape not supported",
        "b has 4 rows; a is 2 x 3, so b (K x N) needs K = 3 rows")
    err(lambda: g(a, b, np.ones((3, 3), np.float32), arch="ampere"), "c", "shape (3, 3); "
        "(2, 2) is needed")
    err(lambda: g(a[0], b, arch="ampere"), "a", "a 1-D array")
    err(lambda: g(np.ones((0, 3), np.float16), b[:0], arch="ampere"), "a", "an empty array")
    err(lambda: g(a, b, arch="ampere", threads=-1), "threads", "not a thread count")
    err(lambda: g(a, b, arch="ampere", threads="2"), "threads")
    e8 = np.full((2, 64), 0x38, np.uint8)
    bw = dict(arch="blackwell", instr="tcgen05", inp="e4m3")
    err(lambda: g(e8, e8.T, kind="mxf9", scale="ue8m0", **bw), "kind", "'mxf9'")
    err(lambda: g(e8, e8.T, kind="mxf8f6f4", **bw), "scale", "needs the scale format")
    err(lambda: g(e8, e8.T, kind="mxf8f6f4", scale="ue8m0", **bw), "scale_a", "needs scale_a")
    err(lambda: g(e8, e8.T, kind="mxf8f6f4", scale="ue8m0", scale_a=np.ones((2, 2), np.uint8),
                  scale_b=np.ones((3, 2), np.uint8), **bw), "scale_b", "shape (3, 2)")
    err(lambda: g(e8[:, :40], e8.T[:40], kind="mxf8f6f4", scale="ue8m0",
                  scale_a=np.ones((2, 1), np.uint8), scale_b=np.ones((1, 2), np.uint8), **bw),
        "a", "K = 40 is not a multiple of the scale block 32")
    err(lambda: g(a, b, arch="ampere", scale_a=np.ones((2, 2), np.uint8)), "scale_a",
        "block-scaled kinds")
    d = tcsim.dot
    err(lambda: d(a[0], b[:2, 0], arch="ampere"), "b", "shape (2,); (3,) is needed")
    err(lambda: d(a[0], b[:, 0], 0x1_0000_0000, arch="ampere"), "c",
        "0x100000000 is not a bit pattern of fp32")
    err(lambda: d(a[0], b[:, 0], -1, arch="ampere"), "c", "is not a bit pattern")
    err(lambda: d(a[0], b[:, 0], 1.5, arch="ampere"), "c", "dtype float64")
    assert isinstance(err(lambda: d(a, b, arch="ampere"), "a", "a 2-D array"), ValueError)


def test_pair_hand_worked_and_errors():
    # e4m3 0x38 = 1.0 times e5m2 0x38 = 0.5, five times: 2.5 (0x40200000)
    a, b = np.full((2, 5), 0x38, np.uint8), np.full((5, 3), 0x38, np.uint8)
    d = tcsim.gemm(a, b, arch="ada", in_a="e4m3", in_b="e5m2")
    assert (d == 0x40200000).all()
    # the same words in one format: 1.0 * 1.0 (e4m3) five times is 5.0
    assert (tcsim.gemm(a, b, arch="ada", inp="e4m3") == 0x40a00000).all()
    g = tcsim.gemm
    e = err(lambda: g(a, b, arch="hopper", in_a="e4m3", in_b="e2m1"),
            "arch/instr/in_a/in_b/out", "no profile for arch='hopper' instr='mma' "
            "in_a='e4m3' in_b='e2m1'")
    assert e.status == 6  # TC_EUNSUPPORTED
    err(lambda: g(a, b, arch="ada", inp="e4m3", in_b="e5m2"), "inp", "inp sets both formats")
    err(lambda: g(a, b, arch="ada", in_a="e4m3"), "in_b", "in_a and in_b go together")
    err(lambda: g(a, b, arch="ada", in_a="e9", in_b="e5m2"), "in_a", "'e9'")
    # b is checked against its own format: 0x38 does not fit e2m1's 4 bits
    err(lambda: g(a, b, arch="blackwell", instr="tcgen05", in_a="e4m3", in_b="e2m1"), "b",
        "is wider than e2m1 (4 bits)")


def _fma_chain(c, pairs):
    """binary64 FMAs in k order, each exact in rationals and rounded once by float() (a
    correctly rounded int / int): independent of the model's integer FMA."""
    from fractions import Fraction
    d = float(c)
    for x, y in pairs:
        d = float(Fraction(float(x)) * Fraction(float(y)) + Fraction(d))
    return d


def _rand_f64(shape):
    m = RNG.integers(1 << 52, 1 << 53, size=shape, dtype=np.int64).astype(np.float64)
    e = RNG.integers(-40, 41, size=shape) - 52
    return np.where(RNG.integers(0, 2, size=shape) == 1, -1.0, 1.0) * np.ldexp(m, e)


def test_fp64_against_exact_fma_chain():
    for arch, (M, N, K) in (("ampere", (3, 4, 4)), ("hopper", (2, 5, 9)),
                            ("blackwell", (4, 1, 16))):
        a, b, c = _rand_f64((M, K)), _rand_f64((K, N)), _rand_f64((M, N))
        d = tcsim.gemm(a, b, c, arch=arch, out="fp64")  # inp from float64: fp64
        assert d.dtype == np.float64 and d.shape == (M, N)
        want = np.array([[_fma_chain(c[i, j], zip(a[i], b[:, j])) for j in range(N)]
                         for i in range(M)])
        assert (d.view(np.uint64) == want.view(np.uint64)).all(), arch
        # bit patterns in, bit patterns out; a Fortran-order a and a strided b: the same
        du = tcsim.gemm(np.asfortranarray(a.view(np.uint64)),
                        np.repeat(b.view(np.uint64), 2, axis=1)[:, ::2], c.view(np.uint64),
                        arch=arch, inp="fp64", out="fp64", threads=2)
        assert du.dtype == np.uint64 and (du == want.view(np.uint64)).all()
        x = tcsim.dot(a[0], b[:, 0], c[0, 0], arch=arch, out="fp64")
        assert x.dtype == np.float64 and x.view(np.uint64) == want[0, 0].view(np.uint64)
    # the order is k's: 1 + 2^-60 rounds to 1 in the first FMA, then 1 - 1 = +0 (a single
    # rounding of the whole sum would keep the 2^-60)
    z = tcsim.dot(np.array([2.0 ** -60, 1.0]), np.array([1.0, -1.0]), 1.0, arch="ampere",
                  out="fp64")
    assert z.view(np.uint64) == 0


def test_b1_popc_against_numpy():
    A = RNG.integers(0, 2, size=(5, 300), dtype=np.uint8)
    B = RNG.integers(0, 2, size=(300, 3), dtype=np.uint8)
    C = RNG.integers(0, 1 << 20, size=(5, 3), dtype=np.uint32)
    ai, bi = A.astype(np.int64), B.astype(np.int64)
    want_and = C + ai @ bi
    want_xor = C + (ai[:, :, None] ^ bi[None, :, :]).sum(axis=1)
    d = tcsim.gemm(A, B, C, arch="ampere", inp="b1", out="s32", popc="and")
    assert d.dtype == np.uint32 and (d == want_and).all()
    d = tcsim.gemm(A, B, C, arch="turing", inp="b1", out="s32", popc="xor")
    assert (d == want_xor).all()
    x = tcsim.dot(A[1], B[:, 2], int(C[1, 2]), arch="hopper", inp="b1", out="s32", popc="xor")
    assert x == want_xor[1, 2]


def test_fp64_b1_errors():
    g = tcsim.gemm
    a, b = np.ones((2, 4)), np.ones((4, 2))
    err(lambda: g(a, b, arch="turing", out="fp64"), "arch/instr/inp/out", "no profile")
    err(lambda: g(a.view(np.uint64).astype(np.uint32), b, arch="ampere", inp="fp64",
                  out="fp64"), "a", "dtype uint32 is not uint64 or float64")
    err(lambda: g(a, b, arch="ampere", inp="tf32"), "a", "dtype float64 holds 64-bit words")
    bits = np.ones((2, 4), np.uint8)
    err(lambda: g(bits, bits.T, arch="ampere", inp="b1", out="s32"), "popc",
        "needs popc='and' or 'xor'")
    err(lambda: g(bits, bits.T, arch="ampere", inp="b1", out="s32", popc="or"), "popc",
        "unknown 'or'")
    err(lambda: g(bits, bits.T, arch="ampere", inp="int8", out="s32", popc="and"), "popc",
        "goes with inp='b1' out='s32' alone")
    err(lambda: g(bits, bits.T, arch="turing", inp="b1", out="s32", popc="and"),
        "arch/instr/popc", "has no b1 .and.popc form")
    err(lambda: g(bits * 2, bits.T, arch="ampere", inp="b1", out="s32", popc="and"), "a",
        "is wider than b1 (1 bits)")
