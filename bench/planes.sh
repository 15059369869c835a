#!/usr/bin/env bash
# Format 5's symbol planes against format 1-4's one book, and against the
# Lorenzo option: `glide_bench planes` on the real fields and the Nyx-like
# 64^3 fields (about 5 s). Writes bench/results-planes.md (or $1).
set -euo pipefail
cd "$(dirname "$0")/.."
bash .ci/install-deps
cmake -S . -B build-cpu -DCMAKE_BUILD_TYPE=Release -DGLIDE_WITH_CUDA=OFF >/dev/null
cmake --build build-cpu -j"$(nproc)" --target glide_bench >/dev/null
out=${1:-bench/results-planes.md}
data=${GLIDE_DATA_DIR:-$PWD/../shared/data}/real_fields_dev.h5
{
  echo "# Symbol planes (format 5) against one book"
  echo
  echo "- machine: $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2- | sed 's/^ *//'), one thread"
  echo "- commit: $(git rev-parse --short HEAD 2>/dev/null || echo unknown), $(date -u +%Y-%m-%d)"
  echo "- data: $data and generated Nyx-like 64³ fields (examples/nyx_field.h)"
  echo "- command: bash bench/planes.sh"
  ./build-cpu/bench/glide_bench --data "$data" --nyx 64 planes
} | tee "$out"
