"""NumPy arrays as the model's operands: checked (dtype against the format, every
element's width, the shape) and seen as 32-bit words (64-bit for fp64), without a copy
where the array's memory already is one (uint32/float32, or uint64/float64 for fp64, in
C or Fortran order, or rows or columns at a regular stride: tc_matrix's layout and
leading dimension)."""
import ctypes

import numpy as np

from . import _lib
from ._lib import lib


class TcsimError(ValueError):
    """A bad argument or a model error: .argument names the argument, .status is the
    model's tc_status, and the message carries its text (tc_strerror)."""

    def __init__(self, argument, status, detail):
        self.argument, self.status = argument, status
        text = f"{argument}: {_lib.strerror(status)}"
        super().__init__(text + (f": {detail}" if detail else ""))


_DTYPES = {np.dtype(t) for t in (np.uint8, np.uint16, np.uint32, np.float16, np.float32)}
_DTYPES64 = {np.dtype(np.uint64), np.dtype(np.float64)}  # fp64's words, and fp64's alone


class Words:
    """An operand as words: .array (uint32, kept alive for the call), .shape, and
    .matrix (tc_matrix) for a matrix."""

    def __init__(self, array, shape, layout=_lib.TC_LAYOUT_ROW, ld=0):
        self.array, self.shape = array, shape
        self.matrix = _lib.Matrix(array.ctypes.data, layout, ld)

    def pointer(self, ptype):
        return self.array.ctypes.data_as(ptype)

    def scalar(self):
        return int(self.array.reshape(-1)[0])


def _fmt_info(fmt):
    return lib.tc_fmt_get(fmt).contents


def _check_dtype(argument, x, fmt):
    info = _fmt_info(fmt)
    name = info.name.decode()
    dt = x.dtype
    wide = dt.newbyteorder("=") in _DTYPES64
    if wide != (name == "fp64"):
        raise TcsimError(argument, _lib.TC_EFORMAT, f"dtype {dt} holds 64-bit words, for "
                         f"fp64 alone, not {name}" if wide else f"dtype {dt} is not uint64 "
                         "or float64 (fp64)")
    if wide:
        return
    if dt.newbyteorder("=") not in _DTYPES:
        raise TcsimError(argument, _lib.TC_EFORMAT, f"dtype {dt} is not uint8, uint16, "
                         "uint32, float16 or float32 (bit patterns, or fp16/fp32 values)")
    if dt.kind == "f":
        ok = name == "fp16" if dt.itemsize == 2 else name in ("fp32", "tf32")
        if not ok:
            raise TcsimError(argument, _lib.TC_EFORMAT, f"dtype {dt} holds "
                             f"fp{dt.itemsize * 8}, not {name} (give {name} as its bit "
                             "patterns in an unsigned integer dtype)")
    elif dt.itemsize * 8 < info.width:
        raise TcsimError(argument, _lib.TC_EFORMAT, f"dtype {dt} is narrower than {name} "
                         f"({info.width} bits)")


def _widen(x):
    """x's bit patterns as uint32 (8-byte dtypes: uint64), in x's memory order where it
    has one."""
    if not x.dtype.isnative:
        x = x.astype(x.dtype.newbyteorder("="))
    u = x.view(f"u{x.dtype.itemsize}")
    return u if x.dtype.itemsize >= 4 else u.astype(np.uint32, order="K")


def check_fits(argument, w, fmt):
    """Every word of w fits fmt's width; else the first that does not is named."""
    info = _fmt_info(fmt)
    if info.width >= 32:
        return
    bad = np.argwhere(np.atleast_1d(w) >> np.uint32(info.width))
    if bad.size:
        at = tuple(int(i) for i in bad[0])
        where = at[0] if len(at) == 1 else at
        raise TcsimError(argument, _lib.TC_EFORMAT, f"element {where} = "
                         f"{int(np.atleast_1d(w)[at]):#x} is wider than {info.name.decode()} "
                         f"({info.width} bits)")


def _layout(w):
    """(array, layout, ld): w itself where its strides are a tc_matrix's, else a copy."""
    rows, cols = w.shape
    s0, s1 = w.strides
    n = w.dtype.itemsize
    if w.flags.c_contiguous:
        return w, _lib.TC_LAYOUT_ROW, cols
    if w.flags.f_contiguous:
        return w, _lib.TC_LAYOUT_COL, rows
    if (s1 == n or cols == 1) and s0 > 0 and s0 % n == 0 and s0 // n >= cols:
        return w, _lib.TC_LAYOUT_ROW, s0 // n
    if (s0 == n or rows == 1) and s1 > 0 and s1 % n == 0 and s1 // n >= rows:
        return w, _lib.TC_LAYOUT_COL, s1 // n
    return np.ascontiguousarray(w), _lib.TC_LAYOUT_ROW, cols


def as_words(argument, x, fmt, ndim, shape=None):
    """Operand x (ndim dimensions, shape if given) of format fmt as words."""
    x = np.asarray(x)
    if x.ndim != ndim:
        raise TcsimError(argument, _lib.TC_ESHAPE, f"a {x.ndim}-D array of shape {x.shape}; "
                         f"{ndim}-D is needed" if ndim else f"a {x.ndim}-D array; a scalar "
                         "is needed")
    if ndim and 0 in x.shape:
        raise TcsimError(argument, _lib.TC_EINVAL, f"an empty array (shape {x.shape})")
    if shape is not None and x.shape != tuple(shape):
        raise TcsimError(argument, _lib.TC_ESHAPE, f"shape {x.shape}; {tuple(shape)} is "
                         "needed")
    if ndim == 0 and x.dtype.kind in "iu":
        v = int(x)
        info = _fmt_info(fmt)
        if not 0 <= v < 1 << info.width:
            raise TcsimError(argument, _lib.TC_EFORMAT, f"{v:#x} is not a bit pattern of "
                             f"{info.name.decode()} ({info.width} bits)")
        return Words(np.array([v], np.uint64 if info.width > 32 else np.uint32), ())
    _check_dtype(argument, x, fmt)
    w = _widen(x)
    check_fits(argument, w, fmt)
    if ndim == 2:
        w, layout, ld = _layout(w)
        return Words(w, x.shape, layout, ld)
    return Words(np.ascontiguousarray(w).reshape(-1), x.shape)
