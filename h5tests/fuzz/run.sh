#!/usr/bin/env bash
# Coverage-guided fuzzing of the codec with libFuzzer (clang):
#   bash h5tests/fuzz/run.sh [SECONDS_PER_TARGET]   (default 60)
# fuzz_decompress: hostile streams (CRC resealed) must give an error or the
#   declared size, never a crash, an overrun or a write past the buffer;
# fuzz_roundtrip: any values and parameters must compress deterministically
#   and decode within the bound, with NaN, ±Inf and fill values exact;
# fuzz_cd_values (filter/): any cd_values array is parsed or refused with a
#   message, and what parses round-trips through the form set_local writes.
# All run with ASan + UBSan from the committed seeds (corpus/) and the golden
# streams; findings land in out/fuzz/ (crash-*, leak-*, timeout-*), which
# fails the run. h5tests/run.sh calls this with a short time when clang is
# there; ctest replays the seeds and generated mutations with any compiler.
set -euo pipefail
cd "$(dirname "$0")/../.."
secs=${1:-60}
if ! command -v clang >/dev/null 2>&1; then
  echo "fuzz: skipped (no clang)"
  exit 0
fi
CC=clang cmake -S . -B build-fuzz -DCMAKE_BUILD_TYPE=RelWithDebInfo -DGLIDE_WITH_CUDA=OFF -DGLIDE_FUZZ=ON >/dev/null
cmake --build build-fuzz -j"$(nproc)" --target fuzz_decompress fuzz_roundtrip fuzz_cd_values >/dev/null
out=out/fuzz
mkdir -p "$out"
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
mkdir -p "$work/decompress" "$work/roundtrip" "$work/cd_values"
cp h5tests/fuzz/corpus/decompress/* h5tests/golden/*.glide h5tests/golden/gpu/*.glide "$work/decompress/"
cp h5tests/fuzz/corpus/roundtrip/* "$work/roundtrip/"
cp h5tests/fuzz/corpus/cd_values/* "$work/cd_values/"
rc=0
for t in decompress roundtrip cd_values; do
  len=4096; [ $t = decompress ] && len=32768
  exe=build-fuzz/h5tests/fuzz_$t; [ $t = cd_values ] && exe=build-fuzz/filter/fuzz_cd_values
  if ./$exe -max_total_time="$secs" -max_len=$len -timeout=30 -rss_limit_mb=4096 \
       -artifact_prefix="$out/$t-" -print_final_stats=1 "$work/$t" >"$out/$t.log" 2>&1; then
    echo "fuzz_$t: $(grep -m1 '^stat::number_of_executed_units' "$out/$t.log" | awk '{print $2}') inputs in ${secs} s, no failure"
  else
    rc=1
    echo "fuzz_$t: FAILED (log: $out/$t.log)"
    grep -m5 -E "ERROR|SUMMARY|deadly|abort" "$out/$t.log" || tail -20 "$out/$t.log"
  fi
done
exit $rc
