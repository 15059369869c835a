#!/usr/bin/env bash
# session s1127b run 11 (2026-11-27): H5Dwrite / H5Dread through the plugin with the gated upload
# (ec98440: non-temporal stores, from 1 MiB) against GLIDE_GPU_GATED_UPLOAD=0: a 512^3 float32 field (generated here: a smooth
# product of sines plus 1 % Gaussian noise) in 64^3 and 128^3 chunks (1 and 8 MiB, gated), REL 1e-3, via
# `glide_gpu_bench --h5 gpu 128 512 RAW H5 RUNS` (one child per row, write and read medians of
# RUNS), ROUNDS alternated; no filter once as a reference. Pack glide_gpu_bench and the plugin.
OUT=${OUT:-/tmp/r7}; mkdir -p $OUT
nvidia-smi -L
B=/tmp/glide_prebuilt; rm -rf $B; mkdir -p $B/plugin; tar xf .bin/bins.tar.xz -C $B
python3 - <<'PY'
import numpy as np
n = 512
x = np.linspace(0, 6.283, n, dtype=np.float32)
f = np.sin(x)[:, None, None] * np.cos(2 * x)[None, :, None] + np.sin(3 * x)[None, None, :]
f = f.astype(np.float32) + np.random.default_rng(1).standard_normal((n, n, n), dtype=np.float32) * 0.01
f.tofile('/tmp/f512.raw')
PY
export HDF5_PLUGIN_PATH=$B/plugin
h() { echo "r$1 $2: $(env GLIDE_BACKEND=$3 $4 timeout 120 $B/glide_gpu_bench --h5 $3 $5 512 /tmp/f512.raw /tmp/g7.h5 ${RUNS:-3} | grep H5RES)"; }
for c in 64 128; do h 0 none-$c none X=0 $c; done | tee $OUT/h5_run11.txt
for r in $(seq 1 ${ROUNDS:-3}); do
  for c in 64 128; do
    h $r gated-$c gpu X=0 $c
    h $r pageable-$c gpu GLIDE_GPU_GATED_UPLOAD=0 $c
  done
done | tee -a $OUT/h5_run11.txt
