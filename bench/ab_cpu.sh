#!/usr/bin/env bash
# CPU speed A/B on this noisy shared machine: a baseline revision against the
# working tree, both built CPU-only, alternated ROUNDS times (default 3) on a
# Nyx-like 64^3 density chunk (examples/nyx_field.h, seed 1) and, when the
# data is there, on a 64x64 corner of tos with its fill 1e20 for 24 months
# and on a 14x32x32 chunk of WRF QCLOUD.
#   [ROUNDS=3] [PREDICTORS="0 1"] bash bench/ab_cpu.sh REV
set -euo pipefail
cd "$(dirname "$0")/.."
rev=${1:?revision}
w=$(mktemp -d)
trap 'rm -rf "$w"' EXIT
git archive "$rev" | tar -x -C "$w" --one-top-level=old
for v in old new; do
    src=$PWD
    [ $v = old ] && src=$w/old
    cmake -S "$src" -B "$w/b_$v" -DCMAKE_BUILD_TYPE=Release -DGLIDE_WITH_CUDA=OFF >/dev/null
    cmake --build "$w/b_$v" -j"$(nproc)" --target glide >/dev/null
    cc -O2 -Iinclude bench/ab_cpu.c "$w/b_$v/libglide.a" -lm -lz -o "$w/ab_$v"
done
cat >"$w/gen.c" <<'C'
#include "nyx_field.h"
#include <stdio.h>
#include <stdlib.h>
int main(void) { float *x = malloc(64 * 64 * 64 * 4); nyx_field(x, 64, NYX_DENSITY, 1);
  FILE *f = fopen("nyx64.raw", "wb"); fwrite(x, 4, 64 * 64 * 64, f); return fclose(f); }
C
cc -O2 -Iexamples "$w/gen.c" examples/nyx_field.c -lm -o "$w/gen"
(cd "$w" && ./gen)
inputs=("$w/nyx64.raw 3 64 64 64")
data=${GLIDE_DATA_DIR:-$PWD/../shared/data}/real_fields_dev.h5
if [ -f "$data" ] && python3 -c "import h5py" 2>/dev/null; then
    python3 -c "import h5py,sys; f=h5py.File(sys.argv[1],'r'); f['vtk_data/tos_O1_2001_2002/tos'][:, :64, :64].astype('<f4').tofile(sys.argv[2])" \
        "$data" "$w/tos64.raw"
    inputs+=("$w/tos64.raw 3 24 64 64 fill 60ad78ec")
    # a small chunk: WRF QCLOUD's first 14x32x32 (two blocks a row)
    python3 -c "import h5py,sys; f=h5py.File(sys.argv[1],'r'); f['wrf_python/ci_test_file/QCLOUD'][0, :, :32, :32].astype('<f4').tofile(sys.argv[2])" \
        "$data" "$w/qc32.raw"
    inputs+=("$w/qc32.raw 3 14 32 32")
fi
# PREDICTORS: glide_predictor values to time (default 0 = auto; "0 1" adds Lorenzo)
for r in $(seq 1 "${ROUNDS:-3}"); do
    for v in old new; do
        for in in "${inputs[@]}"; do
            set -- $in
            reps=7
            [ $(($3 * $4 * $5)) -lt 200000 ] && reps=100 # small chunks: more calls for a stable best
            if [ "${6:-}" = fill ]; then a=("$1" 3 "$3" "$4" "$5" $reps "$7"); else a=("$1" 3 "$3" "$4" "$5" $reps); fi
            for pr in ${PREDICTORS:-0}; do
                echo "round $r $v $(basename "$1") predictor $pr: $(GLIDE_AB_PREDICTOR=$pr "$w/ab_$v" "${a[@]}")"
            done
        done
    done
done
