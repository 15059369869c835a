#!/usr/bin/env bash
# Issue 2's open question, one candidate measured: plane 0 (anchors and the
# coarse levels) by a closed-loop Lorenzo on the stride-2 grid, the finest
# level as interpolation codes it, against interpolation and the Lorenzo
# option: `glide_bench coarse`, ideal codes of each plane's frequencies, on
# the real 3-D fields without fill values and the Nyx-like 64^3 fields (a
# second or so). An estimate, not a format. Writes bench/results-coarse.md (or $1).
set -euo pipefail
cd "$(dirname "$0")/.."
bash .ci/install-deps
cmake -S . -B build-cpu -DCMAKE_BUILD_TYPE=Release -DGLIDE_WITH_CUDA=OFF >/dev/null
cmake --build build-cpu -j"$(nproc)" --target glide_bench >/dev/null
out=${1:-bench/results-coarse.md}
data=${GLIDE_DATA_DIR:-$PWD/../shared/data}/real_fields_dev.h5
{
  echo "# Plane 0 by a stride-2 Lorenzo: an estimate"
  echo
  echo "- machine: $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2- | sed 's/^ *//'), one thread"
  echo "- commit: $(git rev-parse --short HEAD 2>/dev/null || echo unknown), $(date -u +%Y-%m-%d)"
  echo "- data: $data and generated Nyx-like 64³ fields (examples/nyx_field.h)"
  echo "- command: bash bench/coarse.sh"
  ./build-cpu/bench/glide_bench --data "$data" --nyx 64 coarse
} | tee "$out"
