"""pytest setup for the netCDF / xarray tests of the GLIDE filter.

Reuses h5tests/py/glide_check.py (bound check, plugin path). Extra env:
  GLIDE_NC_GLIDE   the compiled nc_glide program (run.sh builds it)
Under GLIDE_REQUIRE_DATA=1 (set by h5tests/run.sh when CI=true) a missing
tool, module or data file fails the test instead of skipping it.
"""
import importlib.util
import os
import pathlib
import shutil
import sys

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parents[1] / "py"))

import glide_check as gc  # noqa: E402  (sets HDF5_PLUGIN_PATH before h5py loads)
import h5py  # noqa: E402
import pytest  # noqa: E402

REQUIRE = gc.REQUIRE_DATA or os.environ.get("CI") == "true"


def missing(msg):
    if REQUIRE:
        pytest.fail(msg + " (required: GLIDE_REQUIRE_DATA=1 or CI=true)")
    pytest.skip(msg)


def need_tool(name):
    path = shutil.which(name)
    if not path:
        missing("%s not installed" % name)
    return path


def need_module(name):
    if importlib.util.find_spec(name) is None:
        missing("python module %s not installed for %s" % (name, sys.executable))


@pytest.fixture(scope="session")
def nc_glide():
    path = os.environ.get("GLIDE_NC_GLIDE")
    if not path or not os.access(path, os.X_OK):
        missing("nc_glide not built (GLIDE_NC_GLIDE=%r; run h5tests/netcdf/run.sh)" % path)
    return path


def pytest_configure(config):
    config.addinivalue_line("markers", "xarray: needs xarray and h5netcdf")


def pytest_report_header(config):
    return "glide plugin: %s; h5py %s on HDF5 %s; data: %s; require tools: %s" % (
        gc.PLUGIN_DIR, h5py.version.version, h5py.version.hdf5_version, gc.DATA_DIR, REQUIRE)


def pytest_sessionstart(session):
    lib = gc.PLUGIN_DIR / "libh5z_glide.so"
    if not lib.is_file():
        pytest.exit("GLIDE plugin not found at %s (build it, or set GLIDE_PLUGIN_DIR)" % lib,
                    returncode=2)
