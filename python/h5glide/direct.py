"""Direct chunk I/O (include/glide_h5.h, docs/GPU_IO.md) for h5py datasets:
the chunks of a box compressed by worker threads, several at once on the
GPU, and stored with H5Dwrite_chunk; read back through H5Dread_chunk. The
chunks are the filter's bytes. Arrays are NumPy (host memory) or anything
with __cuda_array_interface__, such as CuPy (device memory).

    ds = f.create_dataset("T", shape=a.shape, dtype="f4", chunks=(64, 64, 64), **Glide(rel=1e-3))
    h5glide.write_direct(ds, a)              # a: numpy or cupy
    b = h5glide.read_direct(ds)              # numpy; read_direct(ds, out=cupy_array) fills device memory
"""
import ctypes

import numpy as np

from ._h5py import _h5py_hdf5
from ._lib import BACKENDS, LIB, GlideError

MEM_HOST, MEM_DEVICE = 0, 1


class Opts(ctypes.Structure):
    """glide_h5_opts (include/glide_h5.h)."""

    _fields_ = [("memory", ctypes.c_int), ("backend", ctypes.c_int), ("threads", ctypes.c_uint)]


_U64P = ctypes.POINTER(ctypes.c_uint64)
_sigs = {
    "glide_h5_bind": (ctypes.c_size_t, [ctypes.c_void_p]),
    "glide_h5_write": (ctypes.c_size_t, [ctypes.c_int64, ctypes.c_int64, _U64P, _U64P, ctypes.c_void_p,
                                         ctypes.POINTER(Opts)]),
    "glide_h5_read": (ctypes.c_size_t, [ctypes.c_int64, ctypes.c_int64, _U64P, _U64P, ctypes.c_void_p,
                                        ctypes.POINTER(Opts)]),
    "glide_h5_last_error": (ctypes.c_char_p, []),
}
for _name, (_res, _args) in _sigs.items():
    getattr(LIB, _name).restype, getattr(LIB, _name).argtypes = _res, _args
_bound = False


def _bind():
    """The calls take h5py's ids, which belong to the libhdf5 h5py loaded."""
    global _bound
    if not _bound:
        r = LIB.glide_h5_bind(ctypes.cast(_h5py_hdf5().H5open, ctypes.c_void_p).value)
        if LIB.glide_is_error(r):
            raise GlideError(LIB.glide_h5_last_error().decode(), r)
        _bound = True


def _buffer(a, dtype, writable):
    """(pointer, memory kind, shape) of a C-contiguous array of the dataset's type."""
    cai = getattr(a, "__cuda_array_interface__", None)
    if cai is not None:
        shape, got = tuple(cai["shape"]), np.dtype(cai["typestr"])
        if got != dtype:
            raise TypeError(f"h5glide: the device array is {got}, the dataset {dtype} (no conversion)")
        contiguous = tuple(int(np.prod(shape[i + 1:])) * dtype.itemsize for i in range(len(shape)))
        if cai.get("strides") not in (None, contiguous):
            raise ValueError("h5glide: the device array must be C-contiguous")
        return cai["data"][0], MEM_DEVICE, shape
    if not isinstance(a, np.ndarray) or a.dtype != dtype or not a.flags.c_contiguous or (writable and not a.flags.writeable):
        raise TypeError(f"h5glide: a C-contiguous{' writable' if writable else ''} numpy array of {dtype} "
                        "(the dataset's type, no conversion) or a device array is needed")
    return a.ctypes.data, MEM_HOST, a.shape


def _box(ds, start, shape):
    start = tuple(start) if start is not None else (0,) * ds.ndim
    if len(start) != ds.ndim or len(shape) != ds.ndim:
        raise ValueError(f"h5glide: the dataset has rank {ds.ndim}")
    return (ctypes.c_uint64 * ds.ndim)(*start), (ctypes.c_uint64 * ds.ndim)(*shape)


def _run(fn, ds, start, buffer, backend, threads):
    ptr, mem, shape = buffer
    st, cnt = _box(ds, start, shape)
    o = Opts(mem, BACKENDS[backend], threads)
    r = fn(ds.id.id, 0, st, cnt, ptr, ctypes.byref(o))
    if LIB.glide_is_error(r):
        raise GlideError(LIB.glide_h5_last_error().decode(), r)


def write_direct(ds, data, start=None, *, backend="auto", threads=0):
    """Writes `data` into `ds` (a GLIDE dataset of h5py) at `start` (default
    the origin): a box of whole chunks, which may end at the dataset's edge."""
    _bind()
    _run(LIB.glide_h5_write, ds, start, _buffer(data, ds.dtype, False), backend, threads)


def read_direct(ds, start=None, count=None, *, out=None, backend="auto", threads=0):
    """Reads the box at `start` of shape `count` (default: the whole dataset)
    into `out` (numpy or a device array; default a new numpy array) and returns it."""
    _bind()
    if out is None:
        shape = tuple(count) if count is not None else tuple(ds.shape) if start is None else None
        if shape is None:
            raise ValueError("h5glide: give count (or out) with start")
        out = np.empty(shape, ds.dtype)
    _run(LIB.glide_h5_read, ds, start, _buffer(out, ds.dtype, True), backend, threads)
    return out
