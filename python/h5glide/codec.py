"""GLIDE as a numcodecs codec (id "glide"), registered through the
numcodecs.codecs entry point: the compressor of Zarr format 2 arrays, and
the codec behind h5glide.zarr3.GlideSerializer for format 3."""
import numpy as np
from numcodecs.abc import Codec
from numcodecs.compat import ensure_contiguous_ndarray, ensure_ndarray_like, ndarray_copy

from . import _lib
from ._options import FLOAT_DTYPES, Options


def as_float_chunk(buf):
    """The chunk as a C-contiguous float32/float64 array of its own shape, or
    TypeError: GLIDE needs the values and their shape. Native byte order
    only: Zarr format 2 views the decoded bytes as the array's dtype, and a
    stream always decodes to native order."""
    arr = np.asarray(ensure_ndarray_like(buf))
    if arr.dtype not in FLOAT_DTYPES:
        hint = {np.dtype(np.uint8): " (raw bytes: no filter that changes the dtype may come before GLIDE)"}
        if arr.dtype.kind == "f" and arr.dtype.newbyteorder("=") in FLOAT_DTYPES:
            hint[arr.dtype] = " (not native byte order: use the native dtype, or GlideSerializer in Zarr format 3)"
        raise TypeError(f"GLIDE compresses native float32 or float64 arrays, got {arr.dtype.str}"
                        + hint.get(arr.dtype, ""))
    if arr.ndim > _lib.MAX_RANK:
        raise ValueError(f"GLIDE takes arrays of at most {_lib.MAX_RANK} dimensions, got {arr.ndim}")
    return np.ascontiguousarray(arr).reshape(arr.shape or (1,))


class GlideCodec(Codec):
    """Error-bounded lossy compression of float32/float64 chunks.

    rel, abs, predictor, codebook, anchor_stride, sentinel: as h5glide.Glide
        (a numeric sentinel takes the chunk's dtype, so no dtype= here).
    fill_value: values bit-equal to it come back exact and stay out of the
        REL range, as the HDF5 filter does with a dataset's fill value; None
        (default): no fill value. With fill_value=0.0 a chunk's stream is
        byte for byte the one the HDF5 filter writes for the same values and
        options in a dataset with HDF5's default fill value.
    backend: "auto" (the GPU when this build has one and a GPU is present),
        "cpu" or "gpu" (an error where there is none). The same bytes either
        way; decoding always falls back to the CPU.
    """

    codec_id = "glide"

    def __init__(self, rel=None, abs=None, predictor="auto", codebook="auto", anchor_stride=None,
                 sentinel="auto", fill_value=None, backend="auto"):
        self._opts = Options(rel=rel, abs=abs, predictor=predictor, codebook=codebook,
                             anchor_stride=anchor_stride, sentinel=sentinel)
        if fill_value is not None and not np.isfinite(fill_value):
            raise ValueError(f"fill_value={fill_value!r}: expected a finite number or None "
                             "(NaN and Inf always come back exact)")
        if backend not in _lib.BACKENDS:
            raise ValueError(f"backend={backend!r}: expected 'auto', 'cpu' or 'gpu'")
        # get_config() stores the public attributes, so they are the arguments as given
        self.rel, self.abs = rel, abs
        self.predictor, self.codebook, self.anchor_stride = predictor, codebook, anchor_stride
        self.sentinel, self.fill_value, self.backend = sentinel, fill_value, backend

    @property
    def eb(self):
        """The bound used, as a double: as in h5glide.Glide."""
        return self._opts.eb

    def encode(self, buf):
        arr = as_float_chunk(buf)
        p = _lib.params_for(arr)
        self._opts.fill_params(p, arr.dtype, self.fill_value)
        p.backend = _lib.BACKENDS[self.backend]
        return _lib.compress(p, arr)

    def decode(self, buf, out=None):
        src = ensure_contiguous_ndarray(buf).view(np.uint8)
        dec = _lib.decompress(src, self.backend)
        return dec if out is None else ndarray_copy(dec, out)
