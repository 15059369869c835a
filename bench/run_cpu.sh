#!/usr/bin/env bash
# Reruns every CPU table in docs/PERFORMANCE.md (and the CPU numbers in docs/DESIGN.md):
#   bash bench/run_cpu.sh [OUTFILE]   (Markdown on stdout, and into OUTFILE if given)
# Single-threaded; medians of 5 runs for timings.
set -euo pipefail
cd "$(dirname "$0")/.."
bash .ci/install-deps
# CPU only: its own build folder, no CUDA compile
cmake -S . -B build-cpu -DCMAKE_BUILD_TYPE=Release -DGLIDE_WITH_CUDA=OFF >/dev/null
cmake --build build-cpu -j"$(nproc)" >/dev/null
out=${1:-/dev/null}
data=${GLIDE_DATA_DIR:-$PWD/../shared/data}/real_fields_dev.h5
{
  echo "# GLIDE CPU benchmark run"
  echo
  echo "- machine: $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2- | sed 's/^ *//'), $(nproc) cores (one used)"
  echo "- commit: $(git rev-parse --short HEAD 2>/dev/null || echo unknown), $(date -u +%Y-%m-%d)"
  echo "- data: $data and generated Nyx-like fields (examples/nyx_field.h)"
  ./build-cpu/bench/glide_bench --data "$data" --nyx 128 --reps 5 rd blend speed runs
  ./build-cpu/bench/glide_bench --data "$data" --nyx 64 blocks alpha dict stack fill
  echo
  echo "### How dictionary v2 was chosen (codebooks/explore_dict.py)"
  echo
  hdir=$(mktemp -d)
  ./build-cpu/bench/glide_bench --data "$data" --nyx 64 --hist-dir "$hdir" hist >/dev/null
  python3 codebooks/explore_dict.py "$hdir"
  rm -rf "$hdir"
  echo
  echo "### End to end through HDF5 (examples/glide_demo, 256^3, 64^3 chunks, REL 1e-3), 3 runs"
  echo '```'
  for i in 1 2 3; do HDF5_PLUGIN_PATH=$PWD/build-cpu/plugin ./build-cpu/examples/glide_demo -o /tmp/glide_bench_demo.h5 | grep -E "CR|H5Dwrite"; done
  echo '```'
} | tee "$out"
