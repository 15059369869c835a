#!/usr/bin/env bash
# A short GPU check for kernel work, on the device machine (about 50 s):
# build, GPU-vs-CPU byte equality on the synthetic and real fields
# (test_gpu_codec --fields), per-call latency of 32^3..256^3 cubes
# (bench/gpu_probe), and the quick benchmark report ($OUT/r.md, with the
# per-stage breakdown). h5tests/gpu/run.sh stays the full suite.
#   OUT=out/probe bash h5tests/gpu/quick_probe.sh
# Real fields: .devdata/real_fields_dev.h5 or GLIDE_DATA_DIR.
set -u
cd "$(dirname "$0")/../.."
OUT=${OUT:-$PWD/out/probe}
mkdir -p "$OUT"
cap=$(nvidia-smi --query-gpu=compute_cap --format=csv,noheader | head -1 | tr -d ' .')
cmake -S . -B build-gpu -DCMAKE_BUILD_TYPE=Release -DGLIDE_CUDA_ARCHITECTURES="${cap:-90}" >/dev/null &&
    cmake --build build-gpu -j"$(nproc)" >"$OUT/build.log" 2>&1 || { tail -30 "$OUT/build.log"; exit 1; }
data=${GLIDE_DATA_DIR:-.devdata}
farg=()
if [ -f "$data/real_fields_dev.h5" ]; then
    python3 h5tests/gpu/extract_fields.py "$data/real_fields_dev.h5" build-gpu/fields >/dev/null
    farg=(--fields build-gpu/fields)
fi
timeout 200 build-gpu/h5tests/gpu/test_gpu_codec "${farg[@]}" >"$OUT/codec.log" 2>&1
rc=$?
echo "test_gpu_codec rc=$rc"
grep -m8 -i "fail" "$OUT/codec.log"
grep "entropy plans" "$OUT/codec.log"
tail -3 "$OUT/codec.log"
for s in 32 64 128 256; do ./build-gpu/bench/gpu_probe $s 100 | head -1; done
HDF5_PLUGIN_PATH=$PWD/build-gpu/plugin timeout 300 ./build-gpu/bench/glide_gpu_bench --quick --out "$OUT/r.md" >"$OUT/bench.log" 2>&1
echo "bench rc=$?"
exit $rc
