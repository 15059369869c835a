#!/usr/bin/env bash
# The installed tree, as C users take it: `cmake --install` into a scratch
# prefix, then a project built against it with find_package(glide)
# (examples/consumer/) and programs built with pkg-config (the codec alone;
# direct chunk I/O with HDF5), all run; and the installed HDF5 plugin loads. BUILD: the build folder (default build).
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
# direct chunk I/O (glide_h5.h) through the installed library, built with
# the serial HDF5's compiler wrapper (-shlib: glide_h5 finds HDF5's
# functions among the process's symbols)
test -f "$prefix/include/glide_h5.h"
# (in the scratch prefix: h5cc leaves its object files in the current folder)
src=$PWD/examples
# shellcheck disable=SC2046
(cd "$prefix" && h5cc -shlib -Wall -Wextra -I"$src" -o "$prefix/direct_io" "$src/direct_io.c" "$src/nyx_field.c" \
  $(pkg-config --cflags --libs glide) -lm -Wl,-rpath,"$libdir")
HDF5_PLUGIN_PATH=$plugindir "$prefix/direct_io" -n 48 -c 16 -t 1 -o "$prefix/direct_io.h5"
echo "install: ok ($plugindir)"
