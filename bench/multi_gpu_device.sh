#!/usr/bin/env bash
# One GPU per process on a multi-GPU machine (no internet needed): builds
# with CUDA, makes the Nyx-like density (bench/peers/nyx_gen), and runs
# bench/multi_gpu.py for 1, 2, 4 ... processes up to the GPUs present, GLIDE
# on the GPU, on the CPU, and no filter. Markdown and JSON to $OUT.
#   bash bench/multi_gpu_device.sh [N]      (N: field side, default 512)
set -euo pipefail
cd "$(dirname "$0")/.."
n=${1:-512}
OUT=${OUT:-$PWD/out/multi_gpu}
mkdir -p "$OUT"
gpus=$(nvidia-smi -L | wc -l)
cap=$(nvidia-smi --query-gpu=compute_cap --format=csv,noheader | head -1 | tr -d ' .')
cmake -S . -B build-gpu -DCMAKE_BUILD_TYPE=Release -DGLIDE_CUDA_ARCHITECTURES="$cap" >/dev/null
cmake --build build-gpu -j"$(nproc)" --target h5z_glide >/dev/null
cc -O2 -Iexamples -o build-gpu/nyx_gen bench/peers/nyx_gen.c examples/nyx_field.c -lm
build-gpu/nyx_gen "$n" 1 build-gpu density
procs=1
p=2
while [ "$p" -le "$gpus" ]; do procs="$procs,$p"; p=$((p * 2)); done
nvidia-smi -L | tee "$OUT/device.txt"
python3 bench/multi_gpu.py --plugin build-gpu/plugin --field "build-gpu/nyx_density_$n.f32" --procs "$procs" \
    --backends gpu,none --out "$OUT/multi_gpu.md"
# the CPU backend at one process per GPU as well: what the same ranks get without GPUs
python3 bench/multi_gpu.py --plugin build-gpu/plugin --field "build-gpu/nyx_density_$n.f32" --procs "$procs" \
    --backends cpu --reps 1 --out "$OUT/multi_gpu_cpu.md"
