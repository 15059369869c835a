#!/usr/bin/env bash
# A/B of the GPU backend: a baseline revision against the working tree, on
# the device machine, in one call. The device gets no .git, so the baseline
# tree is prepared here first:
#   bash h5tests/gpu/ab_probe.sh prepare REV     # here: REV's tree into .ab/old (git-ignored)
#   OUT=out/ab bash h5tests/gpu/ab_probe.sh run   # device (carry .ab and .devdata)
# run: builds both, checks the working tree's GPU streams against the CPU on
# the real fields, then alternates glide_gpu_bench --quick between the two
# (ROUNDS, default 3) and prints the 64^3 call and 256^3 kernel-only rows and the main
# stages of 64^3 and 256^3 for each; the reports stay in $OUT.
set -u
cd "$(dirname "$0")/../.."
case "${1:-}" in
prepare)
    rev=${2:?revision}
    rm -rf .ab && mkdir -p .ab/old && git archive "$rev" | tar -x -C .ab/old
    grep -qx "/.ab/" .git/info/exclude 2>/dev/null || echo "/.ab/" >>.git/info/exclude
    echo "baseline $(git rev-parse --short "$rev") in .ab/old"
    ;;
run)
    OUT=${OUT:-$PWD/out/ab}
    mkdir -p "$OUT"
    [ -d .ab/old ] || { echo "no .ab/old: run 'prepare REV' here and carry .ab"; exit 2; }
    cap=$(nvidia-smi --query-gpu=compute_cap --format=csv,noheader | head -1 | tr -d ' .')
    for d in . .ab/old; do
        (cd $d && cmake -S . -B build-gpu -DCMAKE_BUILD_TYPE=Release -DGLIDE_CUDA_ARCHITECTURES="${cap:-90}" >/dev/null &&
            cmake --build build-gpu -j"$(nproc)" >"$OUT/build_$(basename "$d").log" 2>&1) || { echo "build failed in $d"; exit 1; }
    done
    data=${GLIDE_DATA_DIR:-.devdata}
    farg=()
    if [ -f "$data/real_fields_dev.h5" ]; then
        python3 h5tests/gpu/extract_fields.py "$data/real_fields_dev.h5" build-gpu/fields >/dev/null
        farg=(--fields build-gpu/fields)
    fi
    timeout 300 build-gpu/h5tests/gpu/test_gpu_codec "${farg[@]}" >"$OUT/codec.log" 2>&1
    rc=$?
    echo "test_gpu_codec (new) rc=$rc: $(tail -1 "$OUT/codec.log")"
    for r in $(seq 1 "${ROUNDS:-3}"); do
        for v in old new; do
            B=build-gpu
            [ $v = old ] && B=.ab/old/build-gpu
            HDF5_PLUGIN_PATH=$PWD/$B/plugin timeout 200 $B/bench/glide_gpu_bench --quick --out "$OUT/r_${v}_$r.md" >/dev/null 2>&1
            echo "$v $r: 256^3 kernel-only compress $(grep -m1 '^| 256³ | 67.1 |' "$OUT/r_${v}_$r.md" | cut -d'|' -f5,6) µs, GB/s; 64^3 call $(grep -m1 '^| 64³ | 1.05 |' "$OUT/r_${v}_$r.md" | cut -d'|' -f4,5) µs; 64^3 device (graphs) $(grep -m1 '^| 64³ | 1.0 |' "$OUT/r_${v}_$r.md" | cut -d'|' -f5) µs"
            for side in 64 256; do
                printf '%s: ' "$side^3"
                grep -A14 "### ${side}³ compress" "$OUT/r_${v}_$r.md" | grep "predict+quantize\|^| tune\|^| range\|^| choose\|^| book\|huffman\|^| crc" | cut -d'|' -f2,3 | tr '\n' ' '
                echo
            done
            grep -A8 "### 256³ decompress" "$OUT/r_${v}_$r.md" | grep "reconstruct\|huffman\|^| crc" | cut -d'|' -f2,3 | tr '\n' ' '
            echo
        done
    done
    exit $rc
    ;;
*)
    echo "usage: $0 prepare REV | run" >&2
    exit 2
    ;;
esac
