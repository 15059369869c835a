"""GLIDE through netCDF-4: writing with nc_def_var_filter (C), nccopy -F and
xarray's h5netcdf engine; reading with netCDF-C, netCDF4-python, xarray
(engines netcdf4 and h5netcdf), h5py and ncdump. Every read is checked
against the bound on the values actually decoded: per chunk,
|x - x'| <= 1e-3 * (max - min) of the chunk's finite non-fill values, fill
and non-finite values bit for bit. Plus the known limitations, asserted as
they are today so that a change shows up.

Readers, writers and netCDF4/xarray probes each run in a process of their
own (nc_helper.py); see there for why.
"""
import json
import re
import subprocess
import sys

import h5py
import numpy as np
import pytest

import glide_check as gc
from conftest import need_module, need_tool

HERE = gc.REPO / "h5tests" / "netcdf"
HELPER = HERE / "nc_helper.py"
EB = gc.eb_of(1, 3)  # every write here is REL 1e-3: cd_values (1, 1, 3)
SHAPE, CHUNKS = (8, 60, 90), (4, 30, 45)  # nc_glide.c's field
FILL = np.float32(1e20)

xarray_mark = pytest.mark.xarray


def run(cmd, check=True):
    r = subprocess.run([str(c) for c in cmd], capture_output=True, text=True, timeout=300)
    if check and r.returncode != 0:
        pytest.fail("%s failed (%d):\n%s\n%s" % (" ".join(map(str, cmd)), r.returncode,
                                                 r.stdout, r.stderr))
    return r


def helper(*args, check=True):
    return run([sys.executable, HELPER, *args], check=check)


def load_raw(path, shape):
    a = np.fromfile(path, dtype=np.float32)
    assert a.size == int(np.prod(shape)), path
    return a.reshape(shape)


def chunks_of(path, var):
    with h5py.File(path, "r") as f:
        return f[var].chunks


# -- writers ----------------------------------------------------------------

def write_c(tmp, nc_glide):
    path, raw = tmp / "c.nc", tmp / "c.raw"
    run([nc_glide, "write", path, raw])
    return path, load_raw(raw, SHAPE), FILL


def write_nccopy(tmp, nc_glide):
    need_tool("nccopy")
    plain, raw, path = tmp / "plain.nc", tmp / "plain.raw", tmp / "nccopy.nc"
    run([nc_glide, "plain", plain, raw])
    with h5py.File(plain, "r") as f:  # the input really is uncompressed
        assert gc.filter_ids(f["v"]) == []
    run(["nccopy", "-F", "v,45123,1,1,3", plain, path])
    return path, load_raw(raw, SHAPE), None


def write_xr_h5netcdf(tmp, nc_glide):
    need_module("xarray")
    need_module("h5netcdf")
    x = gc.smooth(SHAPE, np.float32, seed=3, offset=280.0)
    x[2:6, 20:35, 40:70] = np.nan  # missing: xarray writes _FillValue there
    src, path = tmp / "xr_in.npy", tmp / "xr_h5netcdf.nc"
    np.save(src, x)
    helper("write-xr-h5netcdf", src, path, ",".join(map(str, CHUNKS)), repr(float(FILL)))
    return path, np.where(np.isnan(x), FILL, x).astype(np.float32), FILL


WRITERS = {
    "c_nc_def_var_filter": write_c,
    "nccopy_F": write_nccopy,
    "xr_h5netcdf": write_xr_h5netcdf,
}


@pytest.fixture(scope="module", params=[
    "c_nc_def_var_filter", "nccopy_F", pytest.param("xr_h5netcdf", marks=xarray_mark)])
def written(request, tmp_path_factory, nc_glide):
    """(path, values written, _FillValue or None) of variable v, written
    with GLIDE REL 1e-3 by each writer once per module."""
    tmp = tmp_path_factory.mktemp(request.param)
    return WRITERS[request.param](tmp, nc_glide)


# -- the file is really compressed -------------------------------------------

def test_really_compressed(written):
    path, x, _ = written
    with h5py.File(path, "r") as f:
        d = f["v"]
        gc.assert_filtered(d)  # 45123 in the pipeline, no chunk stored raw
        assert d.chunks == CHUNKS
        stored = d.id.get_storage_size()
    assert stored < x.nbytes / 3, (stored, x.nbytes)

    h5dump = run([need_tool("h5dump"), "-p", "-H", "-d", "/v", path]).stdout
    assert re.search(r"FILTER_ID\s+45123", h5dump), h5dump
    assert "glide" in h5dump
    assert re.search(r"PARAMS\s*\{\s*1 1 3 ", h5dump), h5dump

    # netCDF-C's own view of it: the _Filter special attribute.
    hs = run([need_tool("ncdump"), "-hs", path]).stdout
    assert re.search(r'v:_Filter = "45123,1,1,3[",]', hs), hs


# -- every reader, every writer: the bound on the decoded values -------------

def read_ncdump(path, shape, fill):
    """ncdump -p 9 prints float32 values round-trippably; fill values as _."""
    out = run([need_tool("ncdump"), "-v", "v", "-p", "9,17", path]).stdout
    body = out.split("data:", 1)[1]
    body = body.split("v =", 1)[1].split(";", 1)[0]
    toks = [t for t in re.split(r"[\s,]+", body) if t]
    assert fill is not None or "_" not in toks
    vals = [fill if t == "_" else np.float32(t) for t in toks]
    return np.array(vals, dtype=np.float32).reshape(shape)


READERS = ["netcdf-c", "netcdf4", pytest.param("xr-netcdf4", marks=xarray_mark),
           pytest.param("xr-h5netcdf", marks=xarray_mark), "h5py", "ncdump"]


@pytest.mark.parametrize("reader", READERS)
def test_read_within_bound(written, reader, tmp_path, nc_glide):
    path, x, fill = written
    chunks = chunks_of(path, "v")
    if reader == "netcdf-c":
        orig, dec = tmp_path / "orig.raw", tmp_path / "dec.raw"
        x.tofile(orig)
        r = run([nc_glide, "check", path, "v", orig, 1, 1, 3, dec], check=False)
        assert r.returncode == 0, r.stdout + r.stderr  # its own per-chunk check
        assert "filter 45123 params: 1 1 3" in r.stdout, r.stdout
        y = load_raw(dec, x.shape)
    elif reader == "ncdump":
        y = read_ncdump(path, x.shape, fill)
    else:
        if reader.startswith("xr-"):
            need_module("xarray")
            need_module({"xr-netcdf4": "netCDF4", "xr-h5netcdf": "h5netcdf"}[reader])
        elif reader == "netcdf4":
            need_module("netCDF4")
        out = tmp_path / "y.npy"
        helper("read", reader, path, "v", out)
        y = np.load(out)
    worst = gc.check_bound(x, y, chunks, gc.REL, EB, fill=fill, what=reader)
    assert worst > 0.1, "decoded values suspiciously exact (max err/bound %g)" % worst
    if fill is not None:
        assert (x == fill).any() and ((y == fill) == (x == fill)).all()


# -- known limitations, asserted as they are now -----------------------------

def test_netcdf4_python_cannot_set_plugin_filter(tmp_path):
    """netCDF4-python (1.6 and 1.7) has no generic filter hook: createVariable's
    compression= takes only its built-in names (zlib, szip, zstd, bzip2,
    blosc_*), and Variable has no method that defines a filter (only
    filters(), which reads the built-in flags). Use nccopy -F, the C API or
    h5netcdf. If this fails, netCDF4-python gained a way: test it instead."""
    need_module("netCDF4")
    out = helper("probe-netcdf4-filter", tmp_path / "p.nc").stdout.splitlines()
    assert len(out) == 2, out
    for line, arg in zip(out, ("45123", "glide")):
        assert line.startswith(arg + " ValueError: Unsupported value for compression kwarg"), out
    r = run([sys.executable, "-c", "import netCDF4; print(sorted(m for m in dir(netCDF4.Variable)"
             " if 'filter' in m.lower()))"])
    assert r.stdout.strip() == "['filters']", r.stdout


@xarray_mark
def test_xarray_netcdf4_engine_filter_encoding(tmp_path):
    """xarray's netcdf4 engine does not ignore a plugin filter given in
    to_netcdf's encoding: it refuses it (netCDF4-python cannot set one)."""
    need_module("xarray")
    out = tmp_path / "x.nc"
    r = helper("probe-xr-netcdf4-encoding", out, json.dumps(
        {"compression": 45123, "compression_opts": [1, 1, 3], "chunksizes": [10, 100]}))
    assert r.stdout.startswith("ValueError: unexpected encoding parameters for 'netCDF4' "
                               "backend: ['compression_opts']"), r.stdout
    r = helper("probe-xr-netcdf4-encoding", out, json.dumps(
        {"compression": 45123, "chunksizes": [10, 100]}))
    assert r.stdout.startswith("ValueError: Unsupported value for compression kwarg"), r.stdout


@xarray_mark
def test_xarray_resave_drops_or_refuses_filter(tmp_path, nc_glide):
    """Opening a GLIDE file with xarray and saving it again does not keep the
    filter. Engine netcdf4: the encoding carries no trace of it and the copy
    is silently written uncompressed. Engine h5netcdf: the encoding says
    compression='unknown' and to_netcdf fails."""
    need_module("xarray")
    need_module("h5netcdf")
    src, x, _ = write_c(tmp_path, nc_glide)

    out = tmp_path / "resave_netcdf4.nc"
    r = helper("resave", "netcdf4", "netcdf4", src, out)
    assert r.stdout.splitlines() == ["{}", "ok"], r.stdout
    with h5py.File(out, "r") as f:
        assert gc.FILTER_ID not in gc.filter_ids(f["v"])
        assert f["v"].id.get_storage_size() >= x.nbytes  # stored raw

    r = helper("resave", "h5netcdf", "h5netcdf", src, tmp_path / "resave_h5netcdf.nc")
    lines = r.stdout.splitlines()
    assert lines[0] == "{'compression': 'unknown', 'compression_opts': None}", r.stdout
    assert lines[1] == 'ValueError: Compression filter "unknown" is unavailable', r.stdout


def test_two_hdf5_copies_in_one_process(tmp_path, nc_glide):
    """Read a GLIDE file with netCDF4-python, then write one with h5py, in
    the same process (what a notebook with xarray's two engines does)."""
    need_module("netCDF4")
    src, _, _ = write_c(tmp_path, nc_glide)
    code = (
        "import sys, numpy as np, netCDF4, h5py\n"
        "with netCDF4.Dataset(sys.argv[1]) as d: d['v'][...]\n"
        "x = np.linspace(0, 1, 4096, dtype=np.float32).reshape(16, 256)\n"
        "with h5py.File(sys.argv[2], 'w') as f:\n"
        "    f.create_dataset('x', data=x, chunks=(16, 256), compression=45123,"
        " compression_opts=(1, 1, 3))\n"
        "with h5py.File(sys.argv[2]) as f:\n"
        "    y = f['x'][...]; assert f['x'].id.get_chunk_info(0).filter_mask == 0\n"
        "assert np.abs(x - y).max() <= 1e-3\n")
    run([sys.executable, "-c", code, src, tmp_path / "h.h5"])


# -- nccopy's no-fill mode and a 1e20 _FillValue (issue 53 item 1) -----------

def test_tos_nccopy_fill_1e20(tmp_path, nc_glide):
    """CMIP tos (31 % land = 1e20) as a plain netCDF-4 file with
    _FillValue = 1e20, compressed by nccopy -F (which writes no-fill
    variables: HDF5's fill value is then not 1e20). Every ocean value must
    come back within 1e-3 x the range of its chunk's ocean values, every
    land value exactly 1e20."""
    need_tool("nccopy")
    need_module("netCDF4")
    with h5py.File(gc.data_file("real_fields_dev.h5"), "r") as f:
        d = f["/vtk_data/tos_O1_2001_2002/tos"]
        x = d[...].astype(np.float32)
        fill = np.float32(np.asarray(d.attrs["fill_value"]).item())
    assert fill == FILL and (x == fill).mean() > 0.25
    src, plain, out = tmp_path / "tos.npy", tmp_path / "tos_plain.nc", tmp_path / "tos.nc"
    np.save(src, x)
    helper("write-nc4", src, plain, "tos", repr(float(fill)))
    run(["nccopy", "-c", "d0/6,d1/85,d2/90", "-F", "tos,45123,1,1,3", plain, out])
    with h5py.File(out, "r") as f:
        gc.assert_filtered(f["tos"])
        chunks = f["tos"].chunks
    assert chunks == (6, 85, 90)

    # netCDF-C's own check (ocean within bound, land exact), then netCDF4-python's read.
    orig = tmp_path / "tos.raw"
    x.tofile(orig)
    r = run([nc_glide, "check", out, "tos", orig, 1, 1, 3], check=False)
    assert r.returncode == 0, r.stdout + r.stderr
    y_file = tmp_path / "y.npy"
    helper("read", "netcdf4", out, "tos", y_file)
    y = np.load(y_file)
    gc.check_bound(x, y, chunks, gc.REL, EB, fill=fill, what="tos via nccopy -F")
