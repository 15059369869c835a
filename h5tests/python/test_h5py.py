"""h5py and xarray through the filter registered by `import h5glide`."""
import h5py
import numpy as np
import pytest

import h5glide
from conftest import check_abs, check_rel, field, run_python


def test_import_registers_with_h5pys_hdf5(tmp_path):
    out = run_python(
        "import h5py\n"
        "before = h5py.h5z.filter_avail(45123)\n"
        "import h5glide\n"
        "print(before, h5py.h5z.filter_avail(45123), h5py.h5z.get_filter_info(45123))\n",
        tmp_path)
    before, after, info = out.split()
    assert (before, after) == ("False", "True")
    # both directions available: FILTER_CONFIG_ENCODE_ENABLED | DECODE_ENABLED
    assert int(info) == h5py.h5z.FILTER_CONFIG_ENCODE_ENABLED | h5py.h5z.FILTER_CONFIG_DECODE_ENABLED


def test_three_lines(tmp_path):
    """The README's quick start: write with h5py, read back with h5py, xarray and zarr."""
    for m in ("xarray", "zarr", "h5netcdf"):  # the package's extras; a machine without them skips
        pytest.importorskip(m)
    out = run_python(
        "import numpy as np, h5py, h5glide\n"
        "a = np.random.default_rng(1).random((64, 64, 64), dtype='f4')\n"
        "h5py.File('t.h5', 'w').create_dataset('T', data=a, chunks=(32, 32, 32), **h5glide.Glide(abs=1e-3))\n"
        "import xarray, zarr\n"
        "b = h5py.File('t.h5')['T'][...]\n"
        "c = xarray.open_dataset('t.h5', engine='h5netcdf', phony_dims='sort')['T'].values\n"
        "if int(zarr.__version__.split('.')[0]) >= 3:\n"
        "    zarr.create_array('t.zarr', data=b, chunks=(32, 32, 32), serializer=h5glide.GlideSerializer(abs=1e-3), compressors=None)\n"
        "else:\n"
        "    zarr.array(b, store='t.zarr', chunks=(32, 32, 32), compressor=h5glide.GlideCodec(abs=1e-3))\n"
        "d = zarr.open_array('t.zarr')[...]\n"
        "print(abs(a - b).max() <= 1e-3, (b == c).all(), abs(a - d).max() <= 1e-3)\n",
        tmp_path)
    assert out.split() == ["True", "True", "True"]


@pytest.mark.parametrize("dtype", ["f4", "f8", ">f4"])
def test_abs_roundtrip(tmp_path, dtype):
    a = field((50, 70, 90), dtype)  # partial edge chunks on every axis
    a[3, 4, 5], a[6, 7, 8], a[9, 9, 9] = np.nan, np.inf, -np.inf
    opts = h5glide.Glide(abs=5e-3)
    with h5py.File(tmp_path / "a.h5", "w") as f:
        d = f.create_dataset("x", data=a, chunks=(32, 32, 32), **opts)
        # h5py marks the filter optional: a chunk stored raw would pass the
        # bound check, so the size must show the filter ran
        assert d.id.get_storage_size() * 4 < a.nbytes
        assert d.id.get_create_plist().get_filter_by_id(45123)[1][:3] == (0, 5, 3)
    with h5py.File(tmp_path / "a.h5") as f:
        check_abs(a, f["x"][...], opts.eb)


def test_rel_per_chunk(tmp_path):
    a = field((64, 96), "f4", seed=3)
    a[:32] *= 100  # chunks of different ranges: REL scales with each one's own
    with h5py.File(tmp_path / "r.h5", "w") as f:
        d = f.create_dataset("x", data=a, chunks=(32, 32), **h5glide.Glide(rel=1e-3))
        assert d.id.get_storage_size() * 3 < a.nbytes
    with h5py.File(tmp_path / "r.h5") as f:
        check_rel(a, f["x"][...], 1e-3, (32, 32))


def test_options_and_sentinel(tmp_path):
    a = field((40, 40, 40), "f4", seed=4)
    a[:, :, :8] = -9999.0  # a land mask marked with a sentinel
    opts = h5glide.Glide(abs=1e-3, predictor="lorenzo", codebook="custom", anchor_stride=8,
                         sentinel=-9999.0, dtype="float32")
    assert opts["compression_opts"] == (0, 1, 3, 0x2321, 3323739136, 0)
    with h5py.File(tmp_path / "s.h5", "w") as f:
        d = f.create_dataset("x", data=a, chunks=(20, 20, 20), **opts)
        assert d.id.get_storage_size() * 3 < a.nbytes
    with h5py.File(tmp_path / "s.h5") as f:
        b = f["x"][...]
    check_abs(a, b, opts.eb)
    assert (b[:, :, :8] == -9999.0).all()


def test_filter_refuses_integers(tmp_path):
    with h5py.File(tmp_path / "i.h5", "w") as f:
        with pytest.raises(ValueError):
            f.create_dataset("x", data=np.arange(100, dtype="i4"), chunks=(10,), **h5glide.Glide(abs=1))


def test_xarray_h5netcdf(tmp_path):
    xr = pytest.importorskip("xarray")
    pytest.importorskip("h5netcdf")
    t = field((12, 45, 90), "f4", seed=5)
    ds = xr.Dataset({"tos": (("time", "lat", "lon"), t)},
                    coords={"lat": np.linspace(-90, 90, 45), "lon": np.linspace(0, 358, 90)})
    enc = {"tos": {**h5glide.Glide(rel=1e-3), "chunksizes": (6, 45, 90)}}
    ds.to_netcdf(tmp_path / "x.nc", engine="h5netcdf", encoding=enc)
    with h5py.File(tmp_path / "x.nc") as f:
        d = f["tos"]
        assert d.id.get_create_plist().get_filter_by_id(45123)[1][:3] == (1, 1, 3)
        assert d.id.get_storage_size() * 3 < t.nbytes
    with xr.open_dataset(tmp_path / "x.nc", engine="h5netcdf") as back:
        check_rel(t, back["tos"].values, 1e-3, (6, 45, 90))


def test_two_hdf5_copies(tmp_path):
    """netCDF4's wheel brings a second libhdf5: h5glide must register with
    h5py's, and netCDF4's copy can load the plugin itself from PLUGIN_PATH."""
    pytest.importorskip("netCDF4")
    pytest.importorskip("xarray")
    pytest.importorskip("h5netcdf")
    out = run_python(
        "import netCDF4\n"  # its HDF5 first, before h5py's
        "import numpy as np, xarray as xr, h5glide\n"
        "a = np.random.default_rng(2).random((20, 30, 40)).astype('f4')\n"
        "xr.Dataset({'T': (('z', 'y', 'x'), a)}).to_netcdf('n.nc', engine='h5netcdf',\n"
        "    encoding={'T': {**h5glide.Glide(abs=1e-3), 'chunksizes': (10, 30, 40)}})\n"
        "import h5py\n"
        "with h5py.File('n.nc') as f:\n"
        "    print(f['T'].id.get_create_plist().get_filter_by_id(45123)[1][:3])\n"
        "with netCDF4.Dataset('n.nc') as nc:\n"  # decoded by netCDF4's HDF5
        "    print(float(np.abs(nc['T'][...] - a).max()) <= 1e-3)\n",
        tmp_path, {"HDF5_PLUGIN_PATH": h5glide.PLUGIN_PATH})
    assert out.split("\n")[:2] == ["(0, 1, 3)", "True"]
