#!/usr/bin/env bash
# The whole GPU suite in one command, on a bare GPU machine (no internet):
# build for the local GPU, compare the GPU backend with the CPU reference on
# synthetic and real fields, run every ctest (h5py tests included) with
# GLIDE_BACKEND=gpu, compute-sanitizer memcheck and racecheck, then the GPU
# benchmark unless GLIDE_GPU_BENCH=0. Logs and GPU-made golden streams go to
# $OUT (default out/gpu); a short table is printed last.
#   bash h5tests/gpu/run.sh
# STEPS="build gpu_codec ..." runs only the steps named (the names of the
# table), e.g. to split the suite over two calls on a machine that keeps
# build-gpu between them.
# Real fields: GLIDE_DATA_DIR (default ../shared/data, or .devdata/ in the
# checkout) with real_fields_dev.h5.
set -uo pipefail
cd "$(dirname "$0")/../.."
OUT=${OUT:-$PWD/out/gpu}
mkdir -p "$OUT/logs"
LOG=$OUT/logs
jobs=$(nproc)
declare -a rows

step() { # [limit_s] name, command...: runs, logs, records pass/fail and seconds
    local lim=400
    [[ $1 =~ ^[0-9]+$ ]] && { lim=$1; shift; }
    local name=$1; shift
    if [ -n "${STEPS:-}" ] && [[ " $STEPS " != *" $name "* ]]; then return 0; fi
    local t0=$SECONDS
    echo "== $name"
    if timeout "$lim" "$@" >"$LOG/$name.log" 2>&1; then rows+=("$name|pass|$((SECONDS - t0))"); else rows+=("$name|FAIL ($?)|$((SECONDS - t0))"); fi
    tail -n 5 "$LOG/$name.log"
}

nvidia-smi -L | tee "$LOG/device.txt"
cap=$(nvidia-smi --query-gpu=compute_cap --format=csv,noheader | head -1 | tr -d ' .')
arch=${GLIDE_CUDA_ARCHITECTURES:-${cap:-90}}
step build bash -c "cmake -S . -B build-gpu -DCMAKE_BUILD_TYPE=Release -DGLIDE_CUDA_ARCHITECTURES=$arch \
  && cmake --build build-gpu -j$jobs"

data=${GLIDE_DATA_DIR:-}
[ -z "$data" ] && for d in ../shared/data .devdata; do [ -f "$d/real_fields_dev.h5" ] && data=$d && break; done
fields=build-gpu/fields
if [ -n "$data" ]; then
    step extract_fields python3 h5tests/gpu/extract_fields.py "$data/real_fields_dev.h5" "$fields"
    farg=(--fields "$fields")
else
    echo "no real fields found (GLIDE_DATA_DIR); synthetic only"
    farg=()
fi

B=build-gpu
rm -rf "$OUT/golden" && mkdir -p "$OUT/golden"
step gpu_huff $B/gpu/test_gpu_huff
step gpu_codec $B/h5tests/gpu/test_gpu_codec "${farg[@]}" --large --write-golden "$OUT/golden"
export GLIDE_PLUGIN_DIR=$PWD/$B/plugin
[ -n "$data" ] && export GLIDE_DATA_DIR=$PWD/$data GLIDE_REQUIRE_DATA=1
step ctest_gpu env GLIDE_BACKEND=gpu bash -c "cd $B && ctest --output-on-failure -j4"
# --split-points: the split interpolation (large chunks' two kernels) on
# small chunks too, 33x20x47 (memcheck) and 40^3 (racecheck), beside
# one-kernel chunks (17^3; 33x20x47 under racecheck)
step 150 memcheck compute-sanitizer --tool memcheck --leak-check no --error-exitcode 9 \
    $B/h5tests/gpu/test_gpu_codec --quick --split-points 20000
step 200 racecheck compute-sanitizer --tool racecheck --error-exitcode 9 \
    $B/h5tests/gpu/test_gpu_codec --race --split-points 40000
# --commit-grid 3: the chunk's gated Lorenzo and slice kernels on three
# blocks, each walking many boxes, beside the split interpolation on small
# chunks (its merged coarse kernel, partial boxes included)
step 150 memcheck_commit compute-sanitizer --tool memcheck --leak-check no --error-exitcode 9 \
    $B/h5tests/gpu/test_gpu_codec --quick --commit-grid 3 --split-points 20000
step 150 racecheck_commit compute-sanitizer --tool racecheck --error-exitcode 9 \
    $B/h5tests/gpu/test_gpu_codec --race --commit-grid 3 --split-points 40000
# --no-coarse-merge: the split's coarse kernel a warp a lattice box, as
# chunks whose merged box would not fit shared memory still run it
step 200 gpu_codec_nomerge $B/h5tests/gpu/test_gpu_codec --no-coarse-merge --split-points 20000
step 90 memcheck_huff compute-sanitizer --tool memcheck --error-exitcode 9 $B/gpu/test_gpu_huff -q
step demo_gpu env HDF5_PLUGIN_PATH=$PWD/$B/plugin GLIDE_BACKEND=gpu $B/examples/glide_demo -o /tmp/glide_demo_gpu.h5
if [ "${GLIDE_GPU_BENCH:-1}" != 0 ] && [ -x $B/bench/glide_gpu_bench ]; then
    step bench env HDF5_PLUGIN_PATH=$PWD/$B/plugin $B/bench/glide_gpu_bench --out "$OUT/results-gpu.md" ${GLIDE_GPU_BENCH_ARGS:-}
fi
(cd "$OUT" && tar czf golden.tgz golden && rm -rf golden)
(cd "$OUT" && tar czf logs.tgz logs)
{
    echo "| step | result | s |"
    echo "|---|---|---|"
    for r in "${rows[@]}"; do echo "| ${r//|/ | } |"; done
} | tee "$OUT/summary.md"
grep -h "passed,\|failed\|ERROR SUMMARY\|RACECHECK SUMMARY\|checks," "$LOG"/*.log | head -20
if [ -f "$LOG/demo_gpu.log" ]; then cat "$LOG/demo_gpu.log"; fi
