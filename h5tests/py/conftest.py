"""pytest setup for the GLIDE HDF5 filter tests.

Runs under Debian's /usr/bin/python3 (h5py on HDF5 1.10) and under a pip h5py
wheel (bundled HDF5 2.0) alike. glide_check sets HDF5_PLUGIN_PATH before h5py
is imported (see there for the environment variables).
"""
import h5py
import pytest

import glide_check as gc


def pytest_report_header(config):
    return "glide plugin: %s; h5py %s on HDF5 %s; data: %s" % (
        gc.PLUGIN_DIR, h5py.version.version, h5py.version.hdf5_version, gc.DATA_DIR)


def pytest_sessionstart(session):
    lib = gc.PLUGIN_DIR / "libh5z_glide.so"
    if not lib.is_file():
        pytest.exit("GLIDE plugin not found at %s (build it, or set GLIDE_PLUGIN_DIR)" % lib,
                    returncode=2)
    if not h5py.h5z.filter_avail(gc.FILTER_ID):
        pytest.exit("HDF5 cannot load the GLIDE plugin from %s" % gc.PLUGIN_DIR, returncode=2)
