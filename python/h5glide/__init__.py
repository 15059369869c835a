"""GLIDE, error-bounded lossy compression of float32/float64 arrays, for
h5py, xarray (h5netcdf engine) and Zarr.

    import h5glide, h5py
    f.create_dataset("T", data=a, chunks=(64, 64, 64), **h5glide.Glide(rel=1e-3))
    zarr.create_array(..., serializer=h5glide.GlideSerializer(abs=0.01), compressors=None)  # Zarr format 3
    zarr.create_array(..., zarr_format=2, compressors=h5glide.GlideCodec(abs=0.01))         # Zarr format 2

Importing h5glide registers the filter (id 45123) with the HDF5 that h5py
uses, so no HDF5_PLUGIN_PATH is needed. Other HDF5 users in the process
(netCDF4, C tools) can take PLUGIN_PATH as HDF5_PLUGIN_PATH.
"""
import warnings

from ._h5py import PLUGIN_PATH, Glide, register
from ._lib import GlideError, backend_name
from ._options import FILTER_ID

__all__ = ["FILTER_ID", "PLUGIN_PATH", "Glide", "GlideCodec", "GlideSerializer", "GlideError",
           "backend_name", "register", "write_direct", "read_direct"]

try:
    from importlib.metadata import version as _version

    __version__ = _version("h5glide")
except Exception:  # running from a source tree without the distribution installed
    __version__ = "unknown"


def __getattr__(name):
    # numcodecs and zarr are optional: imported only when their codec is asked for
    if name == "GlideCodec":
        from .codec import GlideCodec

        return GlideCodec
    if name in ("write_direct", "read_direct"):  # needs h5py
        from . import direct

        return getattr(direct, name)
    if name == "GlideSerializer":
        from .zarr3 import GlideSerializer

        return GlideSerializer
    raise AttributeError(f"module 'h5glide' has no attribute {name!r}")


try:
    import h5py  # noqa: F401
except ImportError:
    pass
else:
    try:
        register()
    except (RuntimeError, OSError) as e:
        warnings.warn(str(e), RuntimeWarning, stacklevel=2)
