"""ctypes binding to the codec library shipped in this package (libglide.so,
include/glide.h): one buffer in, one self-describing GLIDE stream out."""
import ctypes
import os

import numpy as np

HERE = os.path.dirname(os.path.abspath(__file__))
MAX_RANK = 32

# glide.h's enums, frozen there (they are stored in files)
DTYPES = {np.dtype(np.float32): 1, np.dtype(np.float64): 2}
BACKENDS = {"auto": 0, "cpu": 1, "gpu": 2}
ERR_BACKEND = 11  # GLIDE_ERR_BACKEND


class Params(ctypes.Structure):
    """glide_params, field for field (include/glide.h)."""

    _fields_ = [
        ("dtype", ctypes.c_int),
        ("rank", ctypes.c_uint),
        ("dims", ctypes.c_uint64 * MAX_RANK),
        ("mode", ctypes.c_int),
        ("eb", ctypes.c_double),
        ("predictor", ctypes.c_int),
        ("codebook", ctypes.c_int),
        ("backend", ctypes.c_int),
        ("has_fill", ctypes.c_int),
        ("fill_bits", ctypes.c_uint64),
        ("block_log2", ctypes.c_uint),
        ("sentinel", ctypes.c_int),
        ("sentinel_bits", ctypes.c_uint64),
        # Spare room: glide_params_init writes the whole struct, so a field
        # appended in C must not run past Python's copy.
        ("_spare", ctypes.c_uint8 * 256),
    ]


def _load():
    lib = ctypes.CDLL(os.path.join(HERE, "libglide.so"))
    sz, vp, pp = ctypes.c_size_t, ctypes.c_void_p, ctypes.POINTER(Params)
    sigs = {
        "glide_params_init": (None, [pp, ctypes.c_int, ctypes.c_uint, ctypes.POINTER(ctypes.c_uint64)]),
        "glide_compress_bound": (sz, [pp]),
        "glide_compress": (sz, [pp, vp, sz, vp, sz]),
        "glide_stream_info": (sz, [vp, sz, pp]),
        "glide_decompress_with": (sz, [ctypes.c_int, vp, sz, vp, sz]),
        "glide_backend_resolve": (ctypes.c_int, [ctypes.c_int]),
        "glide_is_error": (ctypes.c_uint, [sz]),
        "glide_get_error": (ctypes.c_int, [sz]),
        "glide_error_name": (ctypes.c_char_p, [sz]),
    }
    for name, (res, args) in sigs.items():
        f = getattr(lib, name)
        f.restype, f.argtypes = res, args
    return lib


LIB = _load()


class GlideError(RuntimeError):
    """An error code from the C library, with its name."""

    def __init__(self, what, code):
        super().__init__(f"glide: {what}: {LIB.glide_error_name(code).decode()}")
        self.code = LIB.glide_get_error(code)


def _check(what, r):
    if LIB.glide_is_error(r):
        raise GlideError(what, r)
    return r


def backend_name(backend):
    """What `backend` ("auto", "cpu", "gpu") resolves to in this build on this machine."""
    return {1: "cpu", 2: "gpu"}.get(LIB.glide_backend_resolve(BACKENDS[backend]), "none")


def params_for(arr):
    """glide_params_init for a C-contiguous native float32/float64 array."""
    p = Params()
    dims = (ctypes.c_uint64 * MAX_RANK)(*arr.shape)
    LIB.glide_params_init(ctypes.byref(p), DTYPES[arr.dtype], arr.ndim, dims)
    return p


def compress(p, arr):
    cap = _check("cannot size the output", LIB.glide_compress_bound(ctypes.byref(p)))
    out = ctypes.create_string_buffer(cap)
    n = _check("cannot compress", LIB.glide_compress(ctypes.byref(p), arr.ctypes.data, arr.nbytes, out, cap))
    return out.raw[:n]


def stream_info(src):
    """(dtype, shape) that the stream `src` (a contiguous uint8 array) decodes to."""
    p = Params()
    _check("not a valid GLIDE stream", LIB.glide_stream_info(src.ctypes.data, src.nbytes, ctypes.byref(p)))
    dtype = {v: k for k, v in DTYPES.items()}[p.dtype]
    return dtype, tuple(p.dims[: p.rank])


def decompress(src, backend):
    """Decodes the stream `src` (a contiguous uint8 array) into a new array.
    A GPU asked for but missing decodes on the CPU: files read anywhere."""
    dtype, shape = stream_info(src)
    out = np.empty(shape, dtype)
    r = LIB.glide_decompress_with(BACKENDS[backend], src.ctypes.data, src.nbytes, out.ctypes.data, out.nbytes)
    if LIB.glide_is_error(r) and LIB.glide_get_error(r) == ERR_BACKEND:
        r = LIB.glide_decompress_with(BACKENDS["cpu"], src.ctypes.data, src.nbytes, out.ctypes.data, out.nbytes)
    _check("cannot decompress", r)
    if r != out.nbytes:
        raise RuntimeError(f"glide: the stream decoded to {r} bytes, its header says {out.nbytes}")
    return out
