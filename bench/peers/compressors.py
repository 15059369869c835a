"""The compressors compared, each as users run it through HDF5: a filter id
and the cd_values that ask for an ABSOLUTE error bound eb (the same eb for
all, computed from the field's range by measure.py).

Which process can run which peer:
- H5Z-ZFP from Debian (hdf5-filter-plugin-zfp-serial) is linked against
  Debian's libhdf5, so it runs under Debian's python3-h5py, with its plugin
  folder in HDF5_PLUGIN_PATH, and hdf5plugin NOT imported (hdf5plugin would
  register its own ZFP under the same id 32013).
- ZFP and SZ3 from hdf5plugin (PyPI) ship their own filter builds and run
  under a pip h5py wheel.
- GLIDE's plugin binds to whichever HDF5 loads it, so it runs in either.
measure.py checks this (see `needs_hdf5plugin`, `conflicts`).
"""
import math
import struct

GLIDE_ID = 45123
ZFP_ID = 32013
SZ3_ID = 32024

# GLIDE cd_values[3] option bits (README "cd_values")
GLIDE_LORENZO = 0x01  # bits 0-3: predictor 1
GLIDE_CUSTOM = 0x20  # bits 4-7: codebook 2, a per-chunk optimal book (the seed paper's baseline)


def glide_abs(eb, options=0):
    """GLIDE ABS mode: eb = mantissa * 10^-exponent with an integer mantissa.
    Six or seven significant digits, rounded DOWN, so GLIDE is never asked for
    a looser bound than the others (tighter by < 1e-5 relative)."""
    e = 5 - math.floor(math.log10(eb))
    e = max(0, min(40, e))
    m = math.floor(eb * 10.0 ** e)
    while m / 10.0 ** e > eb:  # floating-point guard: never round up
        m -= 1
    cd = (0, m, e) if options == 0 else (0, m, e, options)
    return GLIDE_ID, cd, m / 10.0 ** e  # the filter computes mantissa / pow(10, exponent)


def zfp_accuracy(eb):
    """H5Z-ZFP's generic interface, accuracy mode: (3, 0, accA, accB, 0, 0),
    the double split into two 32-bit words in native order, exactly what
    H5Pset_zfp_accuracy_cdata and hdf5plugin.Zfp(accuracy=) produce."""
    lo, hi = struct.unpack("II", struct.pack("d", eb))
    return ZFP_ID, (3, 0, lo, hi, 0, 0), eb


def sz3_absolute(eb):
    import hdf5plugin  # its own encoding of the bound; use it, don't reimplement

    f = hdf5plugin.SZ3(absolute=eb)
    return f.filter_id, tuple(f.filter_options), eb


class Peer:
    def __init__(self, key, label, params, needs_hdf5plugin=False, backend=None, lossless=False):
        self.key = key
        self.label = label
        self.params = params  # eb -> (filter id, cd_values, eb asked for)
        self.needs_hdf5plugin = needs_hdf5plugin
        self.backend = backend  # GLIDE_BACKEND this row needs, None: any
        self.lossless = lossless


PEERS = {p.key: p for p in [
    Peer("none", "no compression", lambda eb: (None, (), None), lossless=True),
    Peer("h5zzfp", "H5Z-ZFP (Debian)", zfp_accuracy),
    Peer("zfp", "ZFP (hdf5plugin)", zfp_accuracy, needs_hdf5plugin=True),
    Peer("sz3", "SZ3 (hdf5plugin)", sz3_absolute, needs_hdf5plugin=True),
    Peer("glide", "GLIDE CPU", lambda eb: glide_abs(eb), backend="cpu"),
    Peer("glide-custom", "GLIDE CPU custom book", lambda eb: glide_abs(eb, GLIDE_CUSTOM), backend="cpu"),
    Peer("glide-lorenzo", "GLIDE CPU Lorenzo", lambda eb: glide_abs(eb, GLIDE_LORENZO), backend="cpu"),
    Peer("glide-gpu", "GLIDE GPU", lambda eb: glide_abs(eb), backend="gpu"),
    Peer("glide-gpu-custom", "GLIDE GPU custom book", lambda eb: glide_abs(eb, GLIDE_CUSTOM), backend="gpu"),
    Peer("glide-gpu-lorenzo", "GLIDE GPU Lorenzo", lambda eb: glide_abs(eb, GLIDE_LORENZO), backend="gpu"),
]}

# Peer sets that one process runs (run.sh, run_device.sh).
DEBIAN = ["none", "h5zzfp", "glide", "glide-custom", "glide-lorenzo"]
PYPI = ["zfp", "sz3"]
DEVICE_CPU = ["none", "glide"]
DEVICE_GPU = ["glide-gpu", "glide-gpu-custom", "glide-gpu-lorenzo"]


def conflicts(keys):
    """Why these peers cannot share one process, or None."""
    peers = [PEERS[k] for k in keys]
    if "h5zzfp" in keys and any(p.needs_hdf5plugin for p in peers):
        return "h5zzfp (Debian's plugin) and hdf5plugin both claim filter 32013: run them in separate processes"
    backends = {p.backend for p in peers} - {None}
    if len(backends) > 1:
        return "GLIDE_BACKEND is read once per process: run cpu and gpu rows in separate processes"
    return None
