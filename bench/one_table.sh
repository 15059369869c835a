#!/usr/bin/env bash
# One `glide_bench` table as a results file with its provenance (machine,
# commit, data, command), on the real fields and the Nyx-like 64^3 fields,
# one thread; the scripts that name a table call it:
#   bash bench/one_table.sh TABLE TITLE OUTFILE COMMAND
set -euo pipefail
table=$1 title=$2 out=$3 cmd=$4
cd "$(dirname "$0")/.."
bash .ci/install-deps
cmake -S . -B build-cpu -DCMAKE_BUILD_TYPE=Release -DGLIDE_WITH_CUDA=OFF >/dev/null
cmake --build build-cpu -j"$(nproc)" --target glide_bench >/dev/null
data=${GLIDE_DATA_DIR:-$PWD/../shared/data}/real_fields_dev.h5
{
  echo "# $title"
  echo
  echo "- machine: $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2- | sed 's/^ *//'), one thread"
  echo "- commit: $(git rev-parse --short HEAD 2>/dev/null || echo unknown), $(date -u +%Y-%m-%d)"
  echo "- data: $data and generated Nyx-like 64³ fields (examples/nyx_field.h)"
  echo "- command: $cmd"
  ./build-cpu/bench/glide_bench --data "$data" --nyx 64 "$table"
} | tee "$out"
