#!/usr/bin/env bash
# Why interpolation still loses to the Lorenzo option on some real fields
# (issue 2's goal; docs/DESIGN.md "Is it the tuning or the format?"):
#   bash bench/interp_vs_lorenzo.sh [OUTFILE]   (default bench/results-interp-vs-lorenzo.md)
# The open-loop tuning against a closed-loop search of every level's
# configuration, at the default anchor stride and at 8 and 32 for the 3-D
# fields, then each method's bits per point by interpolation level. About ten
# minutes on one core.
set -euo pipefail
cd "$(dirname "$0")/.."
bash .ci/install-deps
cmake -S . -B build-cpu -DCMAKE_BUILD_TYPE=Release -DGLIDE_WITH_CUDA=OFF >/dev/null
cmake --build build-cpu -j"$(nproc)" --target glide_bench >/dev/null
out=${1:-bench/results-interp-vs-lorenzo.md}
data=${GLIDE_DATA_DIR:-$PWD/../shared/data}/real_fields_dev.h5
B=./build-cpu/bench/glide_bench
{
  echo "# Interpolation against Lorenzo: tuning, the format's best, and where the bits go"
  echo
  echo "- machine: $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2- | sed 's/^ *//'), one thread"
  echo "- commit: $(git rev-parse --short HEAD 2>/dev/null || echo unknown), $(date -u +%Y-%m-%d)"
  echo "- data: $data and generated Nyx-like 64³ fields (examples/nyx_field.h)"
  echo "- command: bash bench/interp_vs_lorenzo.sh"
  $B --data "$data" --nyx 64 oracle
  for b in 3 5; do
    echo
    echo "## Anchor stride 2^$b for the 3-D fields (--oracle-blog $b)"
    $B --data "$data" --nyx 64 --oracle-blog "$b" oracle
  done
  $B --data "$data" --nyx 64 levels
} | tee "$out"
