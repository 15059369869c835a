#!/usr/bin/env bash
# Builds the peer compressor cuSZ-Hi (github.com/shixun404/cuSZ-Hi, branch cuSZ-Hi) from a source
# copy carried to the GPU machine; no internet needed. Its source never enters this repository.
#   bash bench/peers/cuszhi_build.sh SRC BUILD      ->  BUILD/cuszhi (the CLI), path printed last
# SRC: an unpacked source tree (e.g. .devdata/cuszhi-src, made with `git archive`; no .git needed).
# BUILD: build folder; the source is copied to BUILD/src and only that copy is patched.
# Env: CUSZHI_CUDA_ARCH (default 90: H100/H200), JOBS (default nproc), CUDACXX (default nvcc on
# PATH, else /usr/local/cuda/bin/nvcc).
#
# Patches (to the copy, idempotent; none changes what cuSZ-Hi computes):
#  1. CUDA 13 ships CCCL 3, whose thrust headers no longer pull in each other: the sources call
#     thrust::transform_reduce, max_element/min_element, reduce, transform and plus<> having
#     included only device_ptr.h / execution_policy.h. The missing #include <thrust/...> lines
#     are added after the existing `#include <thrust/execution_policy.h>` of compare.thrust.inl
#     and maxerr.thrust.inl (both failed to compile without) and of extrema.thrust.inl (only in
#     the PSZ_REACTIVATE_THRUSTGPU build, not the default one; patched all the same).
#  2. CUDA 13 keeps thrust under include/cccl/, which nvcc adds by itself but g++ does not, and
#     src/cli_psz.cc (C++) includes <thrust/device_ptr.h>: -DCMAKE_CXX_FLAGS="-isystem
#     <cuda>/include/cccl" (a flag, no source change).
#  3. -DBUILD_TESTING=OFF: include(CTest) turns testing on, and test/ needs the googletest
#     submodule, which a source archive does not have.
# NVML: this snapshot's CMake does not use NVML (checked: no nvml anywhere in it), so nothing
# to make optional. Only the CLI target (cusz-bin -> cuszhi) and the libraries it needs are
# built. From scratch with JOBS=1 on a shared 2-core CPU machine: 6 min 36 s (measured).
set -euo pipefail
if [ $# -ne 2 ]; then
  echo "usage: $0 SRC BUILD" >&2
  exit 2
fi
src=$(cd "$1" && pwd)
mkdir -p "$2"
build=$(cd "$2" && pwd)
arch=${CUSZHI_CUDA_ARCH:-90}
jobs=${JOBS:-$(nproc)}
if [ -z "${CUDACXX:-}" ]; then
  if command -v nvcc >/dev/null; then CUDACXX=$(command -v nvcc); else CUDACXX=/usr/local/cuda/bin/nvcc; fi
fi
export CUDACXX
[ -x "$CUDACXX" ] || { echo "no nvcc at $CUDACXX (set CUDACXX)" >&2; exit 1; }
[ -f "$src/CMakeLists.txt" ] && [ -f "$src/src/cli_psz.cc" ] || { echo "$src is not a cuSZ-Hi source tree" >&2; exit 1; }
t0=$SECONDS

copy=$build/src
if [ ! -f "$copy/.glide_patched" ]; then
  rm -rf "$copy"
  mkdir -p "$copy"
  cp -a "$src/." "$copy/"

  # add_include FILE ANCHOR HEADER...: puts `#include <HEADER>` after the line ANCHOR (a
  # top-level include, so the new ones are not inside a namespace), unless already there
  add_include() {
    local f=$copy/$1 anchor=$2 h
    shift 2
    grep -qF "$anchor" "$f" || { echo "patch: '$anchor' not in $f; sources differ from the expected snapshot" >&2; exit 1; }
    for h in "$@"; do
      grep -qF "#include <$h>" "$f" && continue
      sed -i "\\|^$anchor|a #include <$h>  // added by GLIDE's cuszhi_build.sh (CCCL 3)" "$f"
    done
  }
  add_include src/stat/detail/compare.thrust.inl "#include <thrust/execution_policy.h>" \
    thrust/transform_reduce.h thrust/functional.h thrust/iterator/zip_iterator.h
  add_include src/stat/detail/maxerr.thrust.inl "#include <thrust/execution_policy.h>" \
    thrust/transform.h thrust/extrema.h
  add_include src/stat/detail/extrema.thrust.inl "#include <thrust/execution_policy.h>" \
    thrust/extrema.h thrust/reduce.h thrust/functional.h
  touch "$copy/.glide_patched"
  echo "patched copy: $copy"
fi

# CUDA 13 keeps thrust/cub/libcu++ under include/cccl/, which nvcc finds by itself but the host
# compiler does not: src/cli_psz.cc (C++, via utils/analyzer.hh) includes <thrust/device_ptr.h>
cuda_root=$(dirname "$(dirname "$(readlink -f "$CUDACXX")")")
cxxflags=
for d in "$cuda_root/include/cccl" "$cuda_root/targets/x86_64-linux/include/cccl"; do
  [ -d "$d" ] && { cxxflags="-isystem $d"; break; }
done
cmake -S "$copy" -B "$build" \
  -DPSZ_BACKEND=cuda -DPSZ_BUILD_EXAMPLES=OFF -DBUILD_TESTING=OFF \
  -DCMAKE_CXX_FLAGS="$cxxflags" \
  -DCMAKE_CUDA_ARCHITECTURES="$arch" -DCMAKE_BUILD_TYPE=Release >"$build/configure.log" 2>&1 ||
  { tail -30 "$build/configure.log" >&2; echo "configure failed ($build/configure.log)" >&2; exit 1; }
if ! cmake --build "$build" -j"$jobs" --target cusz-bin >"$build/build.log" 2>&1; then
  grep -n "error" "$build/build.log" | head -30 >&2
  echo "build failed ($build/build.log)" >&2
  exit 1
fi
[ -x "$build/cuszhi" ] || { echo "no $build/cuszhi after the build" >&2; exit 1; }
echo "cuSZ-Hi built in $((SECONDS - t0)) s (arch $arch, $("$CUDACXX" --version | tail -1))"
echo "$build/cuszhi"
