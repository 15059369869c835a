#!/usr/bin/env bash
# The h5glide Python package as users get it: a fresh venv, `pip install` of
# this checkout (which builds the C library and the HDF5 plugin), then the
# tests in h5tests/python: h5py (its bundled HDF5, no HDF5_PLUGIN_PATH),
# xarray with h5netcdf, netCDF4 beside h5py, Zarr formats 2 and 3, the same
# bytes as the filter. Needs cmake, a C compiler and HDF5's headers
# (.ci/install-deps). PYTHON: the interpreter (default python3); the venv
# goes in a temporary folder, removed at the end.
set -euo pipefail
cd "$(dirname "$0")/../.."
root=$PWD
PY=${PYTHON:-python3}
work=$(mktemp -d /tmp/h5glide-test.XXXXXX)
trap 'rm -rf "$work"' EXIT
echo "== h5glide: pip install in a fresh venv ($("$PY" --version)), pytest h5tests/python"
if ! "$PY" -m venv "$work/venv" >/dev/null 2>&1; then
  # Debian's python3 has venv in a package of its own
  SUDO=""; [ "$(id -u)" -ne 0 ] && SUDO="sudo"
  $SUDO apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq --no-install-recommends python3-venv >/dev/null
  "$PY" -m venv "$work/venv"
fi
vpy=$work/venv/bin/python
# The build prints only on failure; netCDF4 brings a second HDF5 for the test
# of two copies in one process.
# pip builds the GPU backend wherever nvcc is found; without a GPU here, for one architecture only (time)
cuda=()
nvidia-smi -L >/dev/null 2>&1 || cuda=(-Ccmake.define.GLIDE_CUDA_ARCHITECTURES=90)
"$vpy" -m pip install -q --disable-pip-version-check "${cuda[@]}" "$root[test]" netCDF4
# From outside the checkout, so only the installed package can be imported,
# and with an empty plugin path, so h5py can get GLIDE from h5glide alone.
cd "$work"
export HDF5_PLUGIN_PATH=$work/no-plugins
"$vpy" -c 'import h5glide, h5py, zarr; print("h5glide", h5glide.__version__, "backend", h5glide.backend_name("auto"),
  "| h5py", h5py.__version__, "HDF5", h5py.version.hdf5_version, "| zarr", zarr.__version__)'
"$vpy" -m pytest -q -p no:cacheprovider "$root/h5tests/python"
