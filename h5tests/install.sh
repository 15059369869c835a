#!/usr/bin/env bash
# The installed tree, as C users take it: `cmake --install` into a scratch
# prefix, then a project built against it with find_package(glide)
# (examples/consumer/) and a program built with pkg-config, both run; and
# the installed HDF5 plugin loads. BUILD: the build folder (default build).
set -euo pipefail
cd "$(dirname "$0")/.."
BUILD=${BUILD:-build}
echo "== install: cmake --install, find_package(glide), pkg-config, the plugin"
prefix=$(mktemp -d)
trap 'rm -rf "$prefix"' EXIT
cmake --install "$BUILD" --prefix "$prefix" >/dev/null
test -f "$prefix/include/glide.h"
export PKG_CONFIG_PATH
PKG_CONFIG_PATH=$(dirname "$(find "$prefix" -name glide.pc)")
libdir=$(pkg-config --variable=libdir glide)
test -f "$libdir/libglide.so"
cmake -S examples/consumer -B "$prefix/consumer" -DCMAKE_PREFIX_PATH="$prefix" >/dev/null
cmake --build "$prefix/consumer" >/dev/null
"$prefix/consumer/codec_roundtrip"
# shellcheck disable=SC2046  # pkg-config's flags are meant to split
cc -Wall -Wextra -o "$prefix/pc_roundtrip" examples/codec_roundtrip.c $(pkg-config --cflags --libs glide) -lm \
  -Wl,-rpath,"$libdir"
"$prefix/pc_roundtrip"
plugindir=$(pkg-config --variable=plugindir glide)
test -f "$plugindir/libh5z_glide.so"
HDF5_PLUGIN_PATH=$plugindir python3 -c 'import h5py, sys; sys.exit(0 if h5py.h5z.filter_avail(45123) else 1)'
echo "install: ok ($plugindir)"
