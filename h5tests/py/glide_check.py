"""Shared helpers for the GLIDE filter tests.

The error-bound check here is written from the filter's contract alone, not
from the codec: per chunk, every finite value that is not bit-equal to the
fill value must come back within eb (ABS) or eb * (max - min) of the chunk's
finite non-fill values (REL); NaN, Inf and fill values must come back
bit for bit.

Environment:
  GLIDE_PLUGIN_DIR    folder holding libh5z_glide.so (default <repo>/build/plugin)
  GLIDE_DATA_DIR      real test data (default <repo>/../shared/data)
  GLIDE_REQUIRE_DATA=1  fail, rather than skip, when the data is missing
"""
import itertools
import os
import pathlib
import shutil
import subprocess

REPO = pathlib.Path(__file__).resolve().parents[2]
PLUGIN_DIR = pathlib.Path(os.environ.get("GLIDE_PLUGIN_DIR", REPO / "build" / "plugin")).resolve()
DATA_DIR = pathlib.Path(os.environ.get("GLIDE_DATA_DIR", REPO.parent / "shared" / "data"))
REQUIRE_DATA = os.environ.get("GLIDE_REQUIRE_DATA") == "1"

# HDF5 reads this once, when h5py first initialises the library.
os.environ["HDF5_PLUGIN_PATH"] = str(PLUGIN_DIR)

import h5py  # noqa: E402
import numpy as np  # noqa: E402
import pytest  # noqa: E402

FILTER_ID = 45123
ABS, REL = 0, 1
# options bits (predictor 0 = auto)
LORENZO = 0x1
INTERP = 0x2
BOOK_DICT = 0x10
BOOK_CUSTOM = 0x20


def stride(log2):
    return log2 << 8


def eb_of(mantissa, exponent):
    """The bound the cd_values promise: mantissa * 10^-exponent."""
    return mantissa / 10.0 ** exponent


def data_file(*parts):
    """Path of a real data file, or skip (fail under GLIDE_REQUIRE_DATA=1)."""
    path = DATA_DIR.joinpath(*parts)
    if not path.is_file():
        msg = "test data missing: %s (set GLIDE_DATA_DIR)" % path
        if REQUIRE_DATA:
            pytest.fail(msg)
        pytest.skip(msg)
    return path


def tool(name):
    """Path of an HDF5 command-line tool, or skip."""
    path = shutil.which(name)
    if not path:
        pytest.skip("%s not installed" % name)
    return path


def run(cmd, **kw):
    return subprocess.run([str(c) for c in cmd], capture_output=True, text=True, timeout=120, **kw)


def create(f, name, data, chunks, cd, fillvalue=None, dtype=None):
    kw = {}
    if fillvalue is not None:
        kw["fillvalue"] = fillvalue
    return f.create_dataset(name, data=data, dtype=dtype, chunks=chunks, compression=FILTER_ID,
                            compression_opts=tuple(int(v) for v in cd), **kw)


def filter_ids(dset):
    """Filter ids of the dataset's pipeline (h5py's .compression is None for
    filters it does not know in some versions, so it cannot be used)."""
    plist = dset.id.get_create_plist()
    return [plist.get_filter(i)[0] for i in range(plist.get_nfilters())]


def assert_filtered(dset):
    """h5py marks user filters optional, and HDF5 silently stores a chunk raw
    when an optional filter fails: so a passing read alone proves nothing.
    Every stored chunk must have gone through the filter."""
    assert FILTER_ID in filter_ids(dset), "dataset %s has no glide filter" % dset.name
    n = dset.id.get_num_chunks()
    assert n > 0, "dataset %s has no stored chunks" % dset.name
    for i in range(n):
        info = dset.id.get_chunk_info(i)
        assert info.filter_mask == 0, "chunk %s of %s stored unfiltered" % (
            info.chunk_offset, dset.name)


def roundtrip(path, data, chunks, cd, fillvalue=None, dtype=None):
    """Write data compressed, close, reopen (so reads decode from the file,
    not HDF5's chunk cache) and return (decoded, fill value of the dataset)."""
    with h5py.File(path, "w") as f:
        create(f, "x", data, chunks, cd, fillvalue=fillvalue, dtype=dtype)
    with h5py.File(path, "r") as f:
        d = f["x"]
        assert_filtered(d)
        return d[...], d.fillvalue


def native(a):
    """Same values in native byte order, bit for bit (a plain astype could
    canonicalise NaN payloads)."""
    a = np.ascontiguousarray(a)
    if not a.dtype.isnative:
        a = a.byteswap().view(a.dtype.newbyteorder("="))
    return a


def bits(a):
    a = native(a)
    return a.view(np.uint32 if a.dtype.itemsize == 4 else np.uint64)


def chunk_slices(shape, chunks):
    for start in itertools.product(*[range(0, s, c) for s, c in zip(shape, chunks)]):
        yield tuple(slice(b, min(b + c, s)) for b, c, s in zip(start, chunks, shape))


def check_bound(orig, dec, chunks, mode, eb, fill=0.0, what=""):
    """Assert the filter's contract on every chunk; returns the largest error
    seen relative to its chunk's bound (<= 1), for tests that want to know
    the codec actually was lossy."""
    orig, dec = native(orig), native(dec)
    assert dec.shape == orig.shape, what
    assert dec.dtype == orig.dtype, what
    assert orig.dtype in (np.float32, np.float64), what
    ob_all, db_all = bits(orig), bits(dec)
    fill_bits = None
    if fill is not None:
        fill_bits = bits(np.array([fill], dtype=orig.dtype))[0]
    worst = 0.0
    for sl in chunk_slices(orig.shape, chunks):
        o, d = orig[sl], dec[sl]
        ob, db = ob_all[sl], db_all[sl]
        exact = ~np.isfinite(o)
        if fill_bits is not None:
            exact |= ob == fill_bits
        wrong = exact & (ob != db)
        if wrong.any():
            i = tuple(int(v[0]) for v in np.nonzero(wrong))
            pytest.fail("%s chunk %s: value %r (bits %x) must be kept exactly, got %r (bits %x)" % (
                what, sl, o[i], ob[i], d[i], db[i]))
        keep = ~exact
        if not keep.any():
            continue
        of = o[keep].astype(np.float64)
        df = d[keep].astype(np.float64)
        bound = eb if mode == ABS else eb * (of.max() - of.min())
        assert np.isfinite(bound), "%s: test bound not finite; choose other data" % what
        with np.errstate(invalid="ignore", over="ignore"):
            err = np.abs(of - df)
        bad = ~(err <= bound)
        if bad.any():
            j = int(np.argmax(np.where(bad, np.nan_to_num(err, nan=np.inf), -1.0)))
            pytest.fail("%s chunk %s: %d of %d values out of bound %r (mode %s, eb %r); worst: "
                        "orig %r decoded %r |err| %r" % (
                            what, sl, int(bad.sum()), of.size, bound, "REL" if mode else "ABS",
                            eb, of[j], df[j], err[j]))
        if bound > 0:
            worst = max(worst, float(err.max() / bound))
    return worst


def smooth(shape, dtype, seed=0, noise=0.01, offset=0.0):
    """A smooth field with some noise: what the predictor is made for."""
    rng = np.random.default_rng(seed)
    grids = np.meshgrid(*[np.linspace(0, 3, s) for s in shape], indexing="ij")
    f = np.zeros(shape)
    for k, g in enumerate(grids):
        f += np.sin(g * (k + 1.3) + k)
    f += noise * rng.standard_normal(shape)
    return (f + offset).astype(dtype)
