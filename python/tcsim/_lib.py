"""The C library under the module: libtcsim.so opened with ctypes, and the C types of
the part of tcsim.h it calls (their layouts are the header's, field for field)."""
import ctypes
import os

from . import _libpath


class Profile(ctypes.Structure):
    """tc_profile (tcsim.h)."""
    _fields_ = [("name", ctypes.c_char_p), ("arch", ctypes.c_int), ("instr", ctypes.c_int),
                ("in_", ctypes.c_int), ("out", ctypes.c_int), ("kind", ctypes.c_int),
                ("L", ctypes.c_uint), ("F", ctypes.c_uint), ("round", ctypes.c_int),
                ("emin_align", ctypes.c_int), ("out_man_bits", ctypes.c_uint),
                ("scale", ctypes.c_int), ("scale_block", ctypes.c_uint),
                ("source", ctypes.c_char_p), ("zero_plus", ctypes.c_int),
                ("in_b", ctypes.c_int)]


class FmtInfo(ctypes.Structure):
    """tc_fmt_info (tcsim.h)."""
    _fields_ = [("name", ctypes.c_char_p), ("cls", ctypes.c_int), ("width", ctypes.c_uint),
                ("exp_bits", ctypes.c_uint), ("man_bits", ctypes.c_uint), ("bias", ctypes.c_int),
                ("emin", ctypes.c_int), ("emax", ctypes.c_int), ("ignore_low", ctypes.c_uint),
                ("has_inf", ctypes.c_int), ("nan_style", ctypes.c_int),
                ("is_signed", ctypes.c_int)]


class Matrix(ctypes.Structure):
    """tc_matrix and tc_matrix_out (tcsim_gemm.h): the same layout."""
    _fields_ = [("data", ctypes.c_void_p), ("layout", ctypes.c_int), ("ld", ctypes.c_size_t)]


class GemmOpts(ctypes.Structure):
    """tc_gemm_opts (tcsim_gemm.h)."""
    _fields_ = [("threads", ctypes.c_uint), ("scale_a", Matrix), ("scale_b", Matrix),
                ("simd", ctypes.c_uint)]  # 0: TC_SIMD_AUTO


# tcsim.h's enums, as far as the module names them
TC_OK, TC_EINVAL, TC_EFORMAT, TC_ESHAPE, TC_ENOMEM, TC_EIO, TC_EUNSUPPORTED = range(7)
TC_LAYOUT_ROW, TC_LAYOUT_COL = 0, 1
TC_KIND_MX, TC_KIND_MXF4, TC_KIND_POPC_AND, TC_KIND_POPC_XOR, TC_KIND_FP64 = 3, 4, 5, 6, 7


def _path():
    """TCSIM_LIBRARY if set, else the library this module was built or installed with."""
    env = os.environ.get("TCSIM_LIBRARY")
    if env:
        return env
    here = os.path.dirname(os.path.abspath(__file__))
    return os.path.normpath(os.path.join(here, _libpath.LIBRARY))


def _open():
    path = _path()
    try:
        lib = ctypes.CDLL(path)
    except OSError as e:
        raise ImportError(f"tcsim: cannot load the model library {path!r}: {e} (set "
                          "TCSIM_LIBRARY to libtcsim.so's path)") from e
    P = ctypes.POINTER
    u32p, cint, sz = P(ctypes.c_uint32), ctypes.c_int, ctypes.c_size_t
    u64p = P(ctypes.c_uint64)
    sigs = {
        "tc_strerror": (ctypes.c_char_p, [cint]),
        "tc_fmt_get": (P(FmtInfo), [cint]),
        "tc_fmt_parse": (cint, [ctypes.c_char_p, P(cint)]),
        "tc_arch_parse": (cint, [ctypes.c_char_p, P(cint)]),
        "tc_instr_parse": (cint, [ctypes.c_char_p, P(cint)]),
        "tc_arch_name": (ctypes.c_char_p, [cint]),
        "tc_instr_name": (ctypes.c_char_p, [cint]),
        "tc_profile_find": (cint, [cint, cint, cint, cint, P(P(Profile))]),
        "tc_profile_find_ab": (cint, [cint, cint, cint, cint, cint, P(P(Profile))]),
        "tc_profile_find_scaled_ab": (cint, [cint, cint, ctypes.c_char_p, cint, cint, cint,
                                             ctypes.c_uint, P(P(Profile))]),
        "tc_dot": (cint, [P(Profile), sz, u32p, u32p, ctypes.c_uint32, u32p]),
        "tc_dot_scaled": (cint, [P(Profile), sz, u32p, u32p, u32p, u32p, ctypes.c_uint32,
                                 u32p]),
        "tc_gemm": (cint, [P(Profile), sz, sz, sz, P(Matrix), P(Matrix), P(Matrix),
                           P(Matrix), P(GemmOpts)]),
        "tc_profile_find_popc": (cint, [cint, cint, cint, P(P(Profile))]),
        # fp64 (tcsim_f64.h): tc_matrix64 has tc_matrix's layout with 64-bit elements
        "tc_dot_f64": (cint, [P(Profile), sz, u64p, u64p, ctypes.c_uint64, u64p]),
        "tc_gemm_f64": (cint, [P(Profile), sz, sz, sz, P(Matrix), P(Matrix), P(Matrix),
                               P(Matrix), P(GemmOpts)]),
    }
    for name, (res, args) in sigs.items():
        f = getattr(lib, name)
        f.restype, f.argtypes = res, args
    return lib


lib = _open()


def strerror(status):
    return lib.tc_strerror(status).decode()
