"""The GLIDE filter for h5py: registration with the HDF5 that h5py uses, and
Glide(), the keyword arguments of create_dataset."""
import ctypes
import os

from ._lib import HERE
from ._options import FILTER_ID, Options

PLUGIN_PATH = os.path.join(HERE, "plugin")
_plugin = None  # the loaded plugin, kept for the life of the process


def _h5py_hdf5():
    """A handle whose symbols are those of the libhdf5 that h5py itself uses.
    The wheel loads it RTLD_LOCAL, and other packages (netCDF4) may bring
    another copy, so it is reached through h5py's own extension module:
    dlsym on a handle searches that object's dependencies, where h5py's
    libhdf5 is."""
    from h5py import h5z

    return ctypes.CDLL(h5z.__file__, mode=os.RTLD_NOLOAD | os.RTLD_LOCAL)


def register():
    """Registers the GLIDE filter (id 45123) with h5py's HDF5; importing
    h5glide does this. Safe to call again. Raises RuntimeError on failure."""
    global _plugin
    import h5py

    if _plugin is None:
        lib = ctypes.CDLL(os.path.join(PLUGIN_PATH, "libh5z_glide.so"))
        lib.glide_h5z_class_for.restype = ctypes.c_void_p
        lib.glide_h5z_class_for.argtypes = [ctypes.c_void_p]
        _plugin = lib
    hdf5 = _h5py_hdf5()
    cls = _plugin.glide_h5z_class_for(ctypes.cast(hdf5.H5open, ctypes.c_void_p).value)
    if hasattr(h5py.h5z, "register_filter"):
        ok = cls and h5py.h5z.register_filter(cls)
    else:  # h5py < 3.8 (Debian 12's python3-h5py): HDF5's own H5Zregister
        hdf5.H5Zregister.argtypes = [ctypes.c_void_p]
        ok = cls and hdf5.H5Zregister(cls) >= 0
    if not ok:
        raise RuntimeError("h5glide: cannot register the GLIDE filter with h5py's HDF5 "
                           f"{h5py.version.hdf5_version} (the reason, if any, is on stderr)")
    return True


class Glide(dict):
    """Keyword arguments that make h5py (and xarray's h5netcdf engine) write
    with the GLIDE filter:

        f.create_dataset("T", data=a, chunks=(64, 64, 64), **Glide(rel=1e-3))
        ds.to_netcdf(path, engine="h5netcdf", encoding={"T": Glide(abs=0.01)})

    It is the dict {"compression": 45123, "compression_opts": cd_values}.

    rel: bound relative to each chunk's range: |x - x'| <= rel * (max - min)
         of the chunk's finite values (the fill value and a sentinel left out).
    abs: absolute bound, |x - x'| <= abs. Give exactly one of rel and abs.
         The filter stores the bound as mantissa * 10**-exponent (mantissa
         below 2**32, exponent 0..40): the shortest decimal that reads back
         as the float given (1e-3, 2.5e-7, 0.05) is stored exactly; a bound
         needing more digits is rounded DOWN, so it only gets tighter. The
         bound used is in `.eb` (as a double, exactly what the filter uses).
    predictor: "auto" (a trial per chunk), "lorenzo" or "interpolation".
    codebook: "auto", "dictionary" (the frozen books only) or "custom" (a
         book built per chunk).
    anchor_stride: None (the codec's default) or a power of two, 4..32768.
    sentinel: "auto" (a missing-value marker such as 1e20 or -9999 found per
         chunk and kept exact), "off", or the value itself; a value needs
         dtype="float32" or "float64", the dataset's type, since the filter
         takes its bits.

    Bad options raise ValueError or TypeError here. h5py marks the filter
    optional, so HDF5 would store a chunk the filter fails on uncompressed
    without a word: check a dataset's storage size if that matters.
    """

    filter_id = FILTER_ID

    def __init__(self, *, rel=None, abs=None, predictor="auto", codebook="auto", anchor_stride=None,
                 sentinel="auto", dtype=None):
        opts = Options(rel=rel, abs=abs, predictor=predictor, codebook=codebook,
                       anchor_stride=anchor_stride, sentinel=sentinel)
        super().__init__(compression=FILTER_ID, compression_opts=opts.cd_values(dtype))
        self.eb = opts.eb

    @property
    def filter_options(self):
        """cd_values, as hdf5plugin's filters name them."""
        return self["compression_opts"]

    def __repr__(self):
        return f"Glide({dict(self)!r})"
