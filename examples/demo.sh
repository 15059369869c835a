#!/usr/bin/env bash
# The main job, from a fresh machine: install, build, then write a generated
# Nyx-like field through the GLIDE filter (H5Pset_filter) and read it back.
# Extra arguments go to glide_demo (-n SIDE -c CHUNK -e EXPONENT -o FILE).
set -euo pipefail
cd "$(dirname "$0")/.."
bash .ci/install-deps
cmake -S . -B build -DCMAKE_BUILD_TYPE=Release >/dev/null
# Only the plugin and the demo: the tests and benchmarks are h5tests/run.sh's.
cmake --build build -j"$(nproc)" --target h5z_glide glide_demo >/dev/null
export HDF5_PLUGIN_PATH="$PWD/build/plugin"
out=${TMPDIR:-/tmp}/glide_demo.h5
./build/examples/glide_demo -o "$out" "$@"
echo "written    : $out (h5dump -p -H $out shows the filter; reading needs HDF5_PLUGIN_PATH=$HDF5_PLUGIN_PATH)"
