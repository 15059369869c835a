#!/usr/bin/env bash
# GLIDE through netCDF-4 and xarray (h5tests/netcdf/): builds nc_glide.c
# against libnetcdf and runs the pytest files under the default python3
# (pip netCDF4, xarray, h5netcdf, h5py wheels) and, without the xarray tests,
# under Debian's /usr/bin/python3 (python3-netcdf4, python3-h5py: HDF5 1.10).
# Needs the plugin built (h5tests/run.sh does that first); BUILD=<dir>
# (default build) is where it is, and where nc_glide goes.
set -euo pipefail
cd "$(dirname "$0")/../.."
BUILD=${BUILD:-build}
export GLIDE_PLUGIN_DIR=${GLIDE_PLUGIN_DIR:-$PWD/$BUILD/plugin}
export HDF5_PLUGIN_PATH=$GLIDE_PLUGIN_DIR
export GLIDE_DATA_DIR=${GLIDE_DATA_DIR:-$PWD/../shared/data}
[ "${CI:-}" = true ] && export GLIDE_REQUIRE_DATA=1
[ -f "$GLIDE_PLUGIN_DIR/libh5z_glide.so" ] || { echo "no plugin in $GLIDE_PLUGIN_DIR: build first" >&2; exit 2; }

if pkg-config --exists netcdf 2>/dev/null; then nc_flags=$(pkg-config --cflags --libs netcdf)
else nc_flags="$(nc-config --cflags) $(nc-config --libs)"; fi
mkdir -p "$BUILD/netcdf"
export GLIDE_NC_GLIDE=$PWD/$BUILD/netcdf/nc_glide
# shellcheck disable=SC2086
gcc -std=c11 -O2 -Wall -Wextra -Werror -o "$GLIDE_NC_GLIDE" h5tests/netcdf/nc_glide.c $nc_flags -lm

echo "== netCDF / xarray tests ($(nc-config --version), python3: $(python3 -c 'import netCDF4, xarray, h5netcdf; print("netCDF4", netCDF4.__version__, "on netCDF-C", netCDF4.__netcdf4libversion__, "| xarray", xarray.__version__, "| h5netcdf", h5netcdf.__version__)'))"
python3 -m pytest -q -p no:cacheprovider -rxX h5tests/netcdf

if [ -x /usr/bin/python3 ] && /usr/bin/python3 -c 'import netCDF4, h5py, pytest' 2>/dev/null; then
  echo "== netCDF tests under Debian's python3 (netCDF4 $(/usr/bin/python3 -c 'import netCDF4; print(netCDF4.__version__, "HDF5", netCDF4.__hdf5libversion__)')), xarray tests deselected"
  /usr/bin/python3 -m pytest -q -p no:cacheprovider -rxX -m "not xarray" h5tests/netcdf
elif [ "${GLIDE_REQUIRE_DATA:-}" = 1 ]; then
  echo "Debian's python3-netcdf4 / python3-h5py missing" >&2; exit 1
fi
