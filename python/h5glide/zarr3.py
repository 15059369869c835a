"""GLIDE for Zarr format 3 arrays: an array-to-bytes codec ("serializer",
metadata name "glide"), registered through the zarr.codecs entry point.

    zarr.create_array(store, shape=..., chunks=..., dtype="float32",
                      serializer=GlideSerializer(rel=1e-3), compressors=None)
"""
import asyncio
from dataclasses import dataclass

try:
    from zarr.abc.codec import ArrayBytesCodec
    from zarr.core.common import parse_named_configuration
except ImportError as e:
    raise ImportError("h5glide.GlideSerializer needs zarr >= 3 (Zarr format 3); with zarr 2, "
                      "use h5glide.GlideCodec as the compressor") from e

from ._options import FLOAT_DTYPES
from .codec import GlideCodec

NAME = "glide"
_OPTIONS = ("rel", "abs", "predictor", "codebook", "anchor_stride", "sentinel", "fill_value", "backend")


@dataclass(frozen=True, init=False)
class GlideSerializer(ArrayBytesCodec):
    """Each chunk, of the chunk's shape, becomes one GLIDE stream. Options as
    h5glide.GlideCodec; fill_value=None keeps no value exact beyond NaN, Inf
    and a sentinel (Zarr pads edge chunks with the array's fill value)."""

    is_fixed_size = False
    codec: GlideCodec

    def __init__(self, **options):
        object.__setattr__(self, "codec", GlideCodec(**options))

    @classmethod
    def from_dict(cls, data):
        _, config = parse_named_configuration(data, NAME, require_configuration=True)
        return cls(**config)

    def to_dict(self):
        config = self.codec.get_config()
        return {"name": NAME, "configuration": {k: config[k] for k in _OPTIONS if config[k] is not None}}

    def validate(self, *, shape, dtype, chunk_grid):
        native = dtype.to_native_dtype()
        if native.newbyteorder("=") not in FLOAT_DTYPES:
            raise TypeError(f"GLIDE compresses float32 or float64 arrays, got {native}")

    def __hash__(self):
        return hash(repr(sorted(self.to_dict()["configuration"].items())))

    def __eq__(self, other):
        return isinstance(other, GlideSerializer) and self.to_dict() == other.to_dict()

    def _encode(self, chunk_array, chunk_spec):
        values = chunk_array.as_numpy_array()
        # the stream holds values, not bytes: a big-endian array is coded from native order
        values = values.astype(values.dtype.newbyteorder("="), copy=False)
        return chunk_spec.prototype.buffer.from_bytes(self.codec.encode(values))

    def _decode(self, chunk_bytes, chunk_spec):
        values = self.codec.decode(chunk_bytes.as_numpy_array())
        values = values.reshape(chunk_spec.shape).astype(chunk_spec.dtype.to_native_dtype(), copy=False)
        return chunk_spec.prototype.nd_buffer.from_numpy_array(values)

    # The C codec runs outside the GIL, so chunks compress in parallel threads.
    async def _encode_single(self, chunk_array, chunk_spec):
        return await asyncio.to_thread(self._encode, chunk_array, chunk_spec)

    async def _decode_single(self, chunk_bytes, chunk_spec):
        return await asyncio.to_thread(self._decode, chunk_bytes, chunk_spec)

    def compute_encoded_size(self, input_byte_length, chunk_spec):
        raise NotImplementedError("GLIDE streams have data-dependent sizes")
