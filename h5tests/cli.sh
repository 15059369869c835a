#!/usr/bin/env bash
# First contact: the programs print their usage when asked or given nothing,
# and the demo's configuration (CMake's defaults) compiles CUDA only where a
# GPU can run it. Needs the build of h5tests/run.sh (BUILD, default build);
# configures, but does not build, a throwaway folder.
set -euo pipefail
cd "$(dirname "$0")/.."
B=${BUILD:-build}
t=$(mktemp -d)
trap 'rm -rf "$t"' EXIT
fail() { echo "cli: FAIL: $*"; exit 1; }
echo "== command line: usage of the programs, the demo's configure"

"$B/examples/glide_demo" --help >"$t/out" || fail "glide_demo --help exited $?"
grep -q '^usage: glide_demo' "$t/out" || fail "glide_demo --help printed no usage"
rc=0; "$B/examples/glide_demo" -x 2>"$t/err" || rc=$?
[ "$rc" = 2 ] && grep -q '^usage: glide_demo' "$t/err" || fail "glide_demo -x: exit $rc, want 2 and usage"
rc=0; "$B/bench/glide_bench" >/dev/null 2>"$t/err" || rc=$?
[ "$rc" = 2 ] && grep -q '^usage: glide_bench' "$t/err" || fail "glide_bench without arguments: exit $rc, want 2 and usage"
for p in bench/glide_bench bench/glide_gpu_bench; do
  "$B/$p" --help >"$t/out" && grep -q "^usage: ${p#bench/}" "$t/out" || fail "$p --help: no usage or not exit 0"
done

# The configure of examples/demo.sh: no GPU, no nvcc run; a GPU, its own architecture (CMake >= 3.24).
cmake -S . -B "$t/b" -DCMAKE_BUILD_TYPE=Release >"$t/conf" 2>&1 || { cat "$t/conf"; fail "demo configure"; }
if nvidia-smi -L >/dev/null 2>&1; then
  grep -q 'glide: GPU backend on' "$t/conf" || fail "GPU visible but the demo's configure left the GPU backend off"
  v=$(cmake --version | awk 'NR == 1 {print $3}')
  if printf '%s\n' 3.24 "$v" | sort -V -C; then
    grep -q 'CUDA architectures native' "$t/conf" || fail "the demo's configure should build for the local GPU only"
  fi
else
  grep -q 'glide: GPU backend off' "$t/conf" || fail "no GPU but the demo's configure turned the GPU backend on"
  ! grep -q '^CMAKE_CUDA_COMPILER:' "$t/b/CMakeCache.txt" || fail "no GPU but the demo's configure looked for nvcc"
fi
echo "cli: ok"
