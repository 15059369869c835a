#!/usr/bin/env bash
# The GPU rows of the peer benchmark, on a GPU machine without internet. Needs
# only python3 with h5py and numpy, cmake, nvcc and cc (no hdf5plugin, H5Z-ZFP
# or matplotlib). Builds GLIDE with CUDA into build-peers-gpu/, makes the same
# Nyx-like fields as run.sh, and measures through HDF5 with the same bounds,
# chunks and repeats:
#   GPU:            GLIDE GPU (defaults), with the custom book, with Lorenzo
#   the same host:  no compression and GLIDE CPU, so GPU and CPU compare on one machine
#   bash bench/peers/run_device.sh [--quick] [--no-cpu | --cpu-only]
# (estimated, not yet measured: 6-8 min on a 16-core GPU host; under a 10-minute command limit run
# --no-cpu, then --cpu-only: the build and the fields are reused)
# Writes $OUT/peers_device_gpu.json and $OUT/peers_device_cpu.json (OUT
# default out/peers). Then, on the CPU machine that made results.json:
#   build-peers/venv/bin/python bench/peers/report.py --merge peers_device_gpu.json peers_device_cpu.json
# Env: GLIDE_DATA_DIR (default ../shared/data, or .devdata/), GLIDE_CUDA_ARCHITECTURES
# (default: the local GPU's), PYTHON (default python3), NYX_N, NYX_REPS, REAL_REPS as in run.sh.
set -euo pipefail
cd "$(dirname "$0")/../.."
t0=$SECONDS
quick=0; cpu=1; gpu=1
for a in "$@"; do
  case "$a" in
    --quick) quick=1 ;; --no-cpu) cpu=0 ;; --cpu-only) gpu=0 ;;
    *) echo "usage: $0 [--quick] [--no-cpu | --cpu-only]" >&2; exit 2 ;;
  esac
done
OUT=${OUT:-$PWD/out/peers}
B=$PWD/build-peers-gpu
PY=${PYTHON:-python3}
mkdir -p "$OUT" "$B/data" "$B/tmp"

"$PY" -c 'import h5py, numpy' || { echo "python3 with h5py and numpy is needed" >&2; exit 1; }
nvidia-smi -L || { echo "no GPU visible (nvidia-smi): GPU rows cannot be measured here" >&2; exit 1; }
cap=$(nvidia-smi --query-gpu=compute_cap --format=csv,noheader | head -1 | tr -d ' .')
arch=${GLIDE_CUDA_ARCHITECTURES:-${cap:-90}}
cmake -S . -B "$B" -DCMAKE_BUILD_TYPE=Release -DGLIDE_CUDA_ARCHITECTURES="$arch" -DBUILD_TESTING=OFF >/dev/null
cmake --build "$B" -j"$(nproc)" --target h5z_glide >/dev/null
cc -O2 -std=gnu11 -ffp-contract=off -Iexamples bench/peers/nyx_gen.c examples/nyx_field.c -lm -o "$B/nyx_gen"

data=${GLIDE_DATA_DIR:-}
[ -z "$data" ] && for d in ../shared/data .devdata; do [ -f "$d/real_fields_dev.h5" ] && data=$d && break; done
fields=nyx; [ -n "$data" ] && fields=real,nyx
[ -z "$data" ] && echo "no real_fields_dev.h5 found (GLIDE_DATA_DIR): generated fields only"

if [ $quick = 1 ]; then
  n=128; bounds=1e-2,1e-3; real_reps=1; nyx_reps='*:1'
else
  n=${NYX_N:-512}; bounds=1e-2,1e-3,1e-4,1e-5; real_reps=${REAL_REPS:-5}; nyx_reps=${NYX_REPS:-*:3}
fi
. bench/peers/nyx_data.sh
make_nyx "$B/nyx_gen" "$B/data" "$n"

common=(--fields "$fields" --nyx-dir "$B/data" --nyx-n "$n" --bounds "$bounds" --reps "$real_reps"
        --nyx-bounds "$bounds" --nyx-reps "$nyx_reps" --tmp "$B/tmp")
[ -n "$data" ] && common+=(--data "$data/real_fields_dev.h5")
export HDF5_PLUGIN_PATH=$B/plugin
files=()
if [ $gpu = 1 ]; then
  echo "== GPU rows"
  "$PY" bench/peers/measure.py --peers glide-gpu,glide-gpu-custom,glide-gpu-lorenzo "${common[@]}" \
    --out "$OUT/peers_device_gpu.json"
  files+=("$OUT/peers_device_gpu.json")
fi
if [ $cpu = 1 ]; then
  echo "== CPU rows on the same host"
  "$PY" bench/peers/measure.py --peers none,glide "${common[@]}" --out "$OUT/peers_device_cpu.json"
  files+=("$OUT/peers_device_cpu.json")
fi
echo "done in $((SECONDS - t0)) s; merge on the CPU machine (both files, from one or two calls) with:"
echo "  build-peers/venv/bin/python bench/peers/report.py --merge peers_device_gpu.json peers_device_cpu.json"
