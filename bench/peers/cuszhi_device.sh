#!/usr/bin/env bash
# GLIDE and cuSZ-Hi side by side on a GPU machine (no internet): the steps named, in order.
#   bash bench/peers/cuszhi_device.sh build real nyx table
#   build  GLIDE with CUDA into build-gpu/ (plugin + glide_gpu_bench) and cuSZ-Hi's CLI into
#          build-cuszhi/ (cuszhi_build.sh), in parallel; logs in $OUT
#   real   the exported real fields (.devdata/cuszhi-fields), both cuSZ-Hi schemes and GLIDE (whole,
#          chunks64) through h5py with GLIDE_BACKEND=gpu, plus glide_gpu_bench --kernels once
#          -> $OUT/side_real.json and .md
#   nyx    the Nyx-like fields of NYX_N^3 (default 512, made here with nyx_gen)  -> $OUT/side_nyx.json, .md
#   table  both JSON files in one table -> $OUT/side.md
# Needs .devdata/cuszhi-src and .devdata/cuszhi-fields carried (git-ignored; see README.md), python3
# with h5py and numpy, nvcc, cmake, HDF5's C headers. Under a 10-minute command limit: build in one
# call, then real, then nyx table (build-gpu/, build-cuszhi/ and build-cuszhi-work/ stay on a warm
# machine). Env: OUT (default out/cuszhi), NYX_N, REAL_REPS (default 1: CR needs one; the small
# fields' GB/s say little), NYX_REPS (default 3), DEADLINE (s, default 480: rows not started by
# then are written as "not run"), PYTHON (default python3), GLIDE_BUILD (default build-gpu),
# CUSZHI_BUILD (default build-cuszhi), GLIDE_BACKEND (default gpu).
set -euo pipefail
cd "$(dirname "$0")/../.."
OUT=${OUT:-$PWD/out/cuszhi}
PY=${PYTHON:-python3}
mkdir -p "$OUT"
export PYTHONUNBUFFERED=1
[ $# -gt 0 ] || { echo "usage: $0 build|real|nyx|table ..." >&2; exit 2; }
GB=${GLIDE_BUILD:-build-gpu}
CB=${CUSZHI_BUILD:-build-cuszhi}
run=(bench/peers/cuszhi_run.py --bin "$CB/cuszhi" --glide-plugin "$GB/plugin" --glide-backend "${GLIDE_BACKEND:-gpu}"
     --work build-cuszhi-work --deadline "${DEADLINE:-480}")
for step in "$@"; do
  t0=$SECONDS
  echo "== $step"
  case $step in
    build)
      nvidia-smi -L
      cap=$(nvidia-smi --query-gpu=compute_cap --format=csv,noheader | head -1 | tr -d ' .')
      arch=${GLIDE_CUDA_ARCHITECTURES:-${cap:-90}}
      (cmake -S . -B "$GB" -DCMAKE_BUILD_TYPE=Release -DGLIDE_CUDA_ARCHITECTURES="$arch" -DBUILD_TESTING=OFF &&
        cmake --build "$GB" -j"$(nproc)" --target h5z_glide glide_gpu_bench) >"$OUT/build_glide.log" 2>&1 &
      pg=$!
      CUSZHI_CUDA_ARCH=$arch JOBS=$(nproc) bash bench/peers/cuszhi_build.sh .devdata/cuszhi-src "$CB" \
        >"$OUT/build_cuszhi.log" 2>&1 &
      pc=$!
      ok=1
      wait $pg || { ok=0; tail -30 "$OUT/build_glide.log"; echo "GLIDE build failed" >&2; }
      wait $pc || { ok=0; tail -30 "$OUT/build_cuszhi.log"; echo "cuSZ-Hi build failed" >&2; }
      [ $ok = 1 ] || exit 1
      grep -i "GPU backend" "$OUT/build_glide.log" || true
      tail -2 "$OUT/build_cuszhi.log"
      ;;
    real)
      "$PY" "${run[@]}" --fields .devdata/cuszhi-fields --reps "${REAL_REPS:-1}" \
        --glide-bench "$GB/bench/glide_gpu_bench" --out "$OUT/side_real.json"
      ;;
    nyx)
      "$PY" "${run[@]}" --nyx-n "${NYX_N:-512}" --reps "${NYX_REPS:-3}" --out "$OUT/side_nyx.json"
      ;;
    table)
      files=()
      for f in "$OUT"/side_real.json "$OUT"/side_nyx.json; do [ -f "$f" ] && files+=("$f"); done
      [ ${#files[@]} -gt 0 ] || { echo "no $OUT/side_*.json yet" >&2; exit 1; }
      "$PY" bench/peers/cuszhi_glide.py --table "${files[@]}" --md "$OUT/side.md"
      ;;
    *) echo "unknown step $step (build, real, nyx, table)" >&2; exit 2 ;;
  esac
  echo "== $step: $((SECONDS - t0)) s"
done
