#!/usr/bin/env bash
# The whole CPU test suite: C unit tests (ctest, also under ASan/UBSan), and
# the h5py tests of the plugin under both Debian's h5py (HDF5 1.10, with
# h5repack/h5dump/h5diff) and h5py from a wheel (bundled HDF5), a short
# libFuzzer pass over the decoder and the round trip (h5tests/fuzz/run.sh),
# parallel HDF5 under MPI (h5tests/mpi/run.sh), and the pip-installed Python
# package in a fresh venv (h5tests/python/run.sh).
set -euo pipefail
cd "$(dirname "$0")/.."
bash .ci/install-deps
jobs=$(nproc)
# Without a GPU the CUDA sources are compiled but never run, and nvcc builds
# the kernels once per architecture: there the oldest of the default list and
# Hopper (with its PTX) check them in two builds instead of five. With a GPU
# the default (gpu/CMakeLists.txt: that GPU's own architecture).
if nvidia-smi -L >/dev/null 2>&1; then arch=(-UGLIDE_CUDA_ARCHITECTURES); else arch=(-DGLIDE_CUDA_ARCHITECTURES="75-real;90"); fi
cmake -S . -B build -DCMAKE_BUILD_TYPE=Release "${arch[@]}" >/dev/null
cmake --build build -j"$jobs" >/dev/null
export GLIDE_PLUGIN_DIR="$PWD/build/plugin"
export GLIDE_DATA_DIR=${GLIDE_DATA_DIR:-$PWD/../shared/data}
[ "${CI:-}" = true ] && export GLIDE_REQUIRE_DATA=1

echo "== C unit tests and h5py tests (python3: $(python3 -c 'import h5py; print("h5py", h5py.__version__, "HDF5", h5py.version.hdf5_version)'))"
(cd build && ctest --output-on-failure -j"$jobs")

echo "== h5py tests under Debian's python3-h5py ($(/usr/bin/python3 -c 'import h5py; print("h5py", h5py.__version__, "HDF5", h5py.version.hdf5_version)'))"
/usr/bin/python3 -m pytest -q -p no:cacheprovider h5tests/py

echo "== C unit tests under AddressSanitizer + UBSan"
cmake -S . -B build-asan -DCMAKE_BUILD_TYPE=Debug -DGLIDE_WITH_CUDA=OFF \
  -DCMAKE_C_FLAGS="-O1 -g -fsanitize=address,undefined -fno-sanitize-recover=all" >/dev/null
cmake --build build-asan -j"$jobs" >/dev/null
(cd build-asan && ctest --output-on-failure -E filter_h5py -j"$jobs")

echo "== libFuzzer: hostile streams and arbitrary values/parameters (clang, 30 s per target)"
bash h5tests/fuzz/run.sh 30
bash h5tests/netcdf/run.sh
bash h5tests/filter_paths.sh
bash h5tests/mpi/run.sh
bash h5tests/cli.sh
bash h5tests/install.sh
bash h5tests/python/run.sh
