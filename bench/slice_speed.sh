#!/usr/bin/env bash
# What the block trial (format 6's choice on 3-D chunks) costs the CPU
# codec: `glide_bench speed` with the default options against
# `glide_bench --slice 0 speed` (format 5's methods and estimate), ROUNDS
# (default 2) alternated rounds of each, medians of 5 runs inside each.
# Writes bench/results-slice-speed.md (or $1).
set -euo pipefail
cd "$(dirname "$0")/.."
bash .ci/install-deps
cmake -S . -B build-cpu -DCMAKE_BUILD_TYPE=Release -DGLIDE_WITH_CUDA=OFF >/dev/null
cmake --build build-cpu -j"$(nproc)" --target glide_bench >/dev/null
out=${1:-bench/results-slice-speed.md}
data=${GLIDE_DATA_DIR:-$PWD/../shared/data}/real_fields_dev.h5
t=$(mktemp -d)
for r in $(seq 1 "${ROUNDS:-2}"); do
  ./build-cpu/bench/glide_bench --data "$data" --reps 5 --slice 0 speed >"$t/off_$r.md"
  ./build-cpu/bench/glide_bench --data "$data" --reps 5 speed >"$t/on_$r.md"
done
{
  echo "# The block trial's cost to CPU compression"
  echo
  echo "- machine: $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2- | sed 's/^ *//'), one thread"
  echo "- commit: $(git rev-parse --short HEAD 2>/dev/null || echo unknown), $(date -u +%Y-%m-%d)"
  echo "- data: $data; command: bash bench/slice_speed.sh"
  echo
  echo "Compression MB/s (median of 5 runs) per round: format 5's methods (\`--slice 0\`) / the default (block trial on 3-D chunks), and the change."
  echo
  echo "| field | chunk | round | --slice 0 | default | change |"
  echo "|---|---|---|---|---|---|"
  for r in $(seq 1 "${ROUNDS:-2}"); do
    paste -d'|' <(grep '^| .*\^' "$t/off_$r.md" | cut -d'|' -f2,3,5) <(grep '^| .*\^' "$t/on_$r.md" | cut -d'|' -f5) |
      awk -F'|' -v r="$r" '{printf "| %s | %s | %s | %.1f | %.1f | %+.0f%% |\n", $1, $2, r, $3, $4, 100 * ($4 / $3 - 1)}'
  done
} | tee "$out"
rm -rf "$t"
