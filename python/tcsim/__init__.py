"""tcsim: the bit-exact tensor-core model (libtcsim) on NumPy arrays.

    import tcsim
    d = tcsim.gemm(a, b, c, arch="hopper", instr="wgmma", out="fp32")
    x = tcsim.dot(a_row, b_col, c, arch="ampere", out="fp32")

Arrays hold bit patterns: uint8, uint16 or uint32 for any format they are wide enough
for, float16 for fp16 and float32 for fp32 and tf32; fp64 (DMMA) takes uint64 or
float64 alone. The input format `inp` may be left out for float16 (fp16), float32 (tf32)
and float64 (fp64) arrays; in_a= and in_b= (both, instead of inp) give a and b
different formats where the instruction has the pair (e4m3 with e5m2; the f8f6f4
formats on tcgen05, mxf8f6f4 too; int8 with uint8, int4 with uint4). inp="b1" takes
popc="and" or "xor" (the 1-bit op). Results come back as float16/float32/float64
(fp16/fp32/fp64 output) when a, b or c was a float array, else as uint16 (fp16), uint32
(fp32, s32) or uint64 (fp64) bit patterns. Every bad argument raises TcsimError (a ValueError) whose
message names the argument and carries the model's status text (tc_strerror).
docs/gemm.md says more.
"""
import ctypes

import numpy as np

from . import _lib, _libpath
from ._lib import lib
from ._matrix import TcsimError, as_words

__all__ = ["gemm", "dot", "TcsimError", "version"]

_INT = ctypes.c_int


def version():
    """The model's version, as tcsim --version prints it."""
    return _libpath.VERSION


def _names(get):
    out, i = [], 0
    while True:
        n = get(i)
        if n is None or n == b"?":
            return out
        out.append(n.decode())
        i += 1


def _parse(argument, value, parser, names):
    if not isinstance(value, str):
        raise TcsimError(argument, _lib.TC_EINVAL, f"{value!r} is not a name (one of: "
                         f"{' '.join(names())})")
    v = _INT()
    if parser(value.encode(), ctypes.byref(v)) != _lib.TC_OK:
        raise TcsimError(argument, _lib.TC_EINVAL, f"unknown {value!r} (one of: "
                         f"{' '.join(names())})")
    return v.value


def _fmt_names():
    return _names(lambda i: lib.tc_fmt_get(i).contents.name if lib.tc_fmt_get(i) else None)


def _fmt(argument, value):
    return _parse(argument, value, lib.tc_fmt_parse, _fmt_names)


_KINDS = ("mxf8f6f4", "mxf4", "mxf4nvf4")


def _pair(inp, in_a, in_b):
    """(inp, in_b name or None): in_a and in_b stand for inp together (a mixed pair)."""
    if in_a is None and in_b is None:
        return inp, None
    if inp is not None:
        raise TcsimError("inp", _lib.TC_EINVAL, "inp sets both formats: give inp, or in_a "
                         "and in_b, not both")
    if in_a is None or in_b is None:
        raise TcsimError("in_a" if in_a is None else "in_b", _lib.TC_EINVAL,
                         "in_a and in_b go together (or inp for both)")
    return in_a, in_b


_POPC = {"and": _lib.TC_KIND_POPC_AND, "xor": _lib.TC_KIND_POPC_XOR}


def _popc_profile(ar, ins, arch, instr, inp, in_b, out, kind, popc):
    """The b1 profile: popc names the op, and goes with inp b1, out s32 alone."""
    if popc is None:
        raise TcsimError("popc", _lib.TC_EINVAL, "inp='b1' needs popc='and' or 'xor' (the "
                         "1-bit op)")
    if popc not in _POPC:
        raise TcsimError("popc", _lib.TC_EINVAL, f"unknown {popc!r} (one of: and xor)")
    if inp != "b1" or in_b not in (None, "b1") or out != "s32" or kind is not None:
        raise TcsimError("popc", _lib.TC_EINVAL, f"popc={popc!r} goes with inp='b1' "
                         "out='s32' alone (the 1-bit forms)")
    p = ctypes.POINTER(_lib.Profile)()
    st = lib.tc_profile_find_popc(ar, ins, _POPC[popc], ctypes.byref(p))
    if st != _lib.TC_OK:
        raise TcsimError("arch/instr/popc", st, f"arch={arch!r} instr={instr!r} has no b1 "
                         f".{popc}.popc form (tcsim list shows the supported combinations)")
    return p


def _profile(arch, instr, inp, out, kind, scale, block, a, in_a=None, in_b=None, popc=None):
    """The profile of the arguments (as `tcsim dot` finds it); inp from a's dtype when
    it is None and no pair (in_a, in_b) is given."""
    ar = _parse("arch", arch, lib.tc_arch_parse, lambda: _names(lib.tc_arch_name))
    ins = _parse("instr", instr, lib.tc_instr_parse, lambda: _names(lib.tc_instr_name))
    inp, in_b = _pair(inp, in_a, in_b)
    if popc is not None or "b1" in (inp, in_b):
        return _popc_profile(ar, ins, arch, instr, inp, in_b, out, kind, popc)
    if inp is None:
        inferred = {np.dtype(np.float16): "fp16", np.dtype(np.float32): "tf32",
                    np.dtype(np.float64): "fp64"}
        inp = inferred.get(np.asarray(a).dtype.newbyteorder("="))
        if inp is None:
            raise TcsimError("inp", _lib.TC_EINVAL, "the input format is needed for a "
                             "of dtype " + str(np.asarray(a).dtype) + " (inp='e4m3', ...)")
    f_in, f_out = _fmt("in_a" if in_b else "inp", inp), _fmt("out", out)
    f_in_b = _fmt("in_b", in_b) if in_b is not None else f_in
    p = ctypes.POINTER(_lib.Profile)()
    if kind is not None:
        if kind not in _KINDS:
            raise TcsimError("kind", _lib.TC_EINVAL, f"unknown {kind!r} (one of: "
                             f"{' '.join(_KINDS)})")
        if scale is None:
            raise TcsimError("scale", _lib.TC_EINVAL, "kind needs the scale format "
                             "(scale='ue8m0' or 'ue4m3')")
        f_sc = _fmt("scale", scale)
        st = lib.tc_profile_find_scaled_ab(ar, ins, kind.encode(), f_in, f_in_b, f_sc,
                                           int(block), ctypes.byref(p))
        if st == _lib.TC_OK and p.contents.out != f_out:
            st = _lib.TC_EUNSUPPORTED
    else:
        if scale is not None or block:
            raise TcsimError("scale" if scale is not None else "block", _lib.TC_EINVAL,
                             "a scale format and block are for block-scaled kinds (kind=)")
        st = lib.tc_profile_find_ab(ar, ins, f_in, f_in_b, f_out, ctypes.byref(p))
    if st != _lib.TC_OK:
        fmts = f"inp={inp!r}" if in_b is None else f"in_a={inp!r} in_b={in_b!r}"
        what = f"arch={arch!r} instr={instr!r} {fmts} out={out!r}"
        if kind is not None:
            what += f" kind={kind!r} scale={scale!r}" + (f" block={block}" if block else "")
        raise TcsimError("arch/instr/inp/out" if in_b is None else "arch/instr/in_a/in_b/out",
                         st, f"no profile for {what} (tcsim list shows the supported "
                         "combinations)")
    return p


def _out_dtype(p, arrays):
    """float16/float32 for fp16/fp32 output when any input was a float array, else the
    unsigned integer of the output's width."""
    floats = any(x is not None and np.asarray(x).dtype.kind == "f" for x in arrays)
    out = p.contents.out
    width = lib.tc_fmt_get(out).contents.width
    if floats and out == _fmt("out", "fp16"):
        return np.dtype(np.float16)
    if floats and out == _fmt("out", "fp32"):
        return np.dtype(np.float32)
    if width == 64:
        return np.dtype(np.float64 if floats else np.uint64)
    return np.dtype(np.uint16 if width == 16 else np.uint32)


def _as_out(words, dtype):
    if dtype.itemsize == 2:
        return words.astype(np.uint16).view(dtype)
    return words.view(dtype)


def _is_f64(p):
    return p.contents.kind == _lib.TC_KIND_FP64


def _threads(threads):
    if isinstance(threads, bool) or not isinstance(threads, (int, np.integer)) or \
            not 0 <= threads <= 4096:
        raise TcsimError("threads", _lib.TC_EINVAL, f"{threads!r} is not a thread count "
                         "from 0 (one per core) to 4096")
    return int(threads)


def _scaled(p):
    return p.contents.kind in (_lib.TC_KIND_MX, _lib.TC_KIND_MXF4)


def _scales(p, kind, K, scale_a, scale_b, shapes):
    """The scale operands (scale_a, scale_b) of a block-scaled profile, None for the other
    profiles (which take none). shapes(K / B) gives their two shapes."""
    if not _scaled(p):
        if scale_a is not None or scale_b is not None:
            raise TcsimError("scale_a" if scale_a is not None else "scale_b", _lib.TC_EINVAL,
                             "scales are for block-scaled kinds (kind=)")
        return None
    if scale_a is None or scale_b is None:
        raise TcsimError("scale_a" if scale_a is None else "scale_b", _lib.TC_EINVAL,
                         f"kind {kind!r} needs scale_a and scale_b")
    pr = p.contents
    if K % pr.scale_block:
        raise TcsimError("a", _lib.TC_ESHAPE, f"K = {K} is not a multiple of the scale "
                         f"block {pr.scale_block}")
    sa, sb = shapes(K // pr.scale_block)
    return (as_words("scale_a", scale_a, pr.scale, len(sa), sa),
            as_words("scale_b", scale_b, pr.scale, len(sb), sb))


def _check(argument, status):
    if status != _lib.TC_OK:
        raise TcsimError(argument, status, "")


def gemm(a, b, c=None, *, arch, instr="mma", inp=None, out="fp32", threads=0, kind=None,
         scale=None, block=0, scale_a=None, scale_b=None, in_a=None, in_b=None, popc=None):
    """D (M x N) = a (M x K) @ b (K x N) + c (M x N) in the profile's arithmetic, each
    element as tcsim.dot computes it (tc_gemm; fp64: tc_gemm_f64). c None: every c is
    +0. Block-scaled kinds (kind=, scale=, block=) take scale_a (M x K/B) and scale_b
    (K/B x N). in_a, in_b: a in in_a and b in in_b (a mixed pair), instead of inp for
    both. popc: the op of inp="b1" ("and" or "xor"). threads: worker threads, 0 = one
    per core; the result does not depend on it."""
    p = _profile(arch, instr, inp, out, kind, scale, block, a, in_a, in_b, popc)
    pr = p.contents
    nthreads = _threads(threads)
    A = as_words("a", a, pr.in_, 2)
    B = as_words("b", b, pr.in_b, 2)
    M, K = A.shape
    if B.shape[0] != K:
        raise TcsimError("b", _lib.TC_ESHAPE, f"b has {B.shape[0]} rows; a is {M} x {K}, so "
                         f"b (K x N) needs K = {K} rows")
    N = B.shape[1]
    C = as_words("c", c, pr.out, 2, (M, N)) if c is not None else None
    opts = _lib.GemmOpts(threads=nthreads)
    scales = _scales(p, kind, K, scale_a, scale_b, lambda n: ((M, n), (n, N)))
    if scales:
        opts.scale_a, opts.scale_b = scales[0].matrix, scales[1].matrix
    f64 = _is_f64(p)
    d = np.empty((M, N), np.uint64 if f64 else np.uint32)
    D = _lib.Matrix(d.ctypes.data, _lib.TC_LAYOUT_ROW, N)
    st = (lib.tc_gemm_f64 if f64 else lib.tc_gemm)(p, M, N, K, ctypes.byref(A.matrix), ctypes.byref(B.matrix),
                     ctypes.byref(C.matrix) if C is not None else None, ctypes.byref(D),
                     ctypes.byref(opts))
    _check("gemm", st)
    return _as_out(d, _out_dtype(p, (a, b, c)))


def dot(a, b, c=0, *, arch, instr="mma", inp=None, out="fp32", kind=None, scale=None,
        block=0, scale_a=None, scale_b=None, in_a=None, in_b=None, popc=None):
    """d = c + sum a[i] * b[i] in the profile's arithmetic (tc_dot; k > L chains steps;
    fp64: tc_dot_f64, one FMA per k). a, b: 1-D arrays of k bit patterns (or
    float16/float32/float64); c: a bit pattern (int) or a float scalar of the format;
    in_a, in_b and popc as for gemm. Returns d as a NumPy scalar of the output dtype."""
    p = _profile(arch, instr, inp, out, kind, scale, block, a, in_a, in_b, popc)
    pr = p.contents
    A = as_words("a", a, pr.in_, 1)
    B = as_words("b", b, pr.in_b, 1, A.shape)
    k = A.shape[0]
    cw = as_words("c", c, pr.out, 0)
    if _is_f64(p):
        d64 = ctypes.c_uint64()
        u64p = ctypes.POINTER(ctypes.c_uint64)
        st = lib.tc_dot_f64(p, k, A.pointer(u64p), B.pointer(u64p), cw.scalar(),
                            ctypes.byref(d64))
        _check("dot", st)
        return _as_out(np.array([d64.value], np.uint64), _out_dtype(p, (a, b, c)))[0]
    d = ctypes.c_uint32()
    u32p = ctypes.POINTER(ctypes.c_uint32)
    scales = _scales(p, kind, k, scale_a, scale_b, lambda n: ((n,), (n,)))
    if scales:
        st = lib.tc_dot_scaled(p, k, A.pointer(u32p), B.pointer(u32p),
                               scales[0].pointer(u32p), scales[1].pointer(u32p), cw.scalar(),
                               ctypes.byref(d))
    else:
        st = lib.tc_dot(p, k, A.pointer(u32p), B.pointer(u32p), cw.scalar(), ctypes.byref(d))
    _check("dot", st)
    return _as_out(np.array([d.value], np.uint32), _out_dtype(p, (a, b, c)))[0]

