"""Two HDF5 copies in one process, each loading the plugin: the netCDF4 and
h5py wheels bundle their own libhdf5. Each copy must get a filter bound to
itself, whichever loads the plugin first. Runs in fresh processes, since the
order in which the copies load the plugin is what matters."""
import importlib.util
import os
import subprocess
import sys

import h5py
import numpy as np
import pytest

import glide_check as gc

SCRIPT = r"""
import sys
import numpy as np
order, src, out = sys.argv[1:4]
x = np.sin(np.linspace(0, 20, 5000)).astype(np.float32).reshape(50, 100)
bound = 1e-3 * float(x.max() - x.min())

def nc_read(path):
    with netCDF4.Dataset(path) as ds:
        y = np.asarray(ds["x"][...])
    assert np.abs(y.astype(np.float64) - x).max() <= bound, "netCDF4 read out of bound"

def h5py_write_read(path):
    with h5py.File(path, "w") as f:
        f.create_dataset("x", data=x, chunks=x.shape, compression=45123,
                         compression_opts=(1, 1, 3))
    with h5py.File(path, "r") as f:
        assert f["x"].id.get_chunk_info(0).filter_mask == 0, "stored unfiltered"
        y = f["x"][...]
    assert np.abs(y.astype(np.float64) - x).max() <= bound, "h5py read out of bound"

if order == "netcdf4-first":
    import netCDF4, h5py
    nc_read(src)
    h5py_write_read(out)
    nc_read(out)
else:
    import h5py, netCDF4
    h5py_write_read(out)
    nc_read(src)
    h5py_write_read(out)
print("ok", h5py.version.hdf5_version, netCDF4.__hdf5libversion__)
"""


@pytest.mark.parametrize("order", ["netcdf4-first", "h5py-first"])
def test_netcdf4_and_h5py_in_one_process(tmp_path, order):
    if importlib.util.find_spec("netCDF4") is None:
        pytest.skip("netCDF4 is not importable by %s" % sys.executable)
    src = tmp_path / "src.h5"
    x = np.sin(np.linspace(0, 20, 5000)).astype(np.float32).reshape(50, 100)
    with h5py.File(src, "w") as f:
        gc.create(f, "x", x, x.shape, (gc.REL, 1, 3))
    r = subprocess.run([sys.executable, "-c", SCRIPT, order, str(src), str(tmp_path / "out.h5")],
                       capture_output=True, text=True, timeout=120, env=dict(os.environ))
    assert r.returncode == 0 and "ok" in r.stdout, (r.returncode, r.stdout, r.stderr[-3000:])
