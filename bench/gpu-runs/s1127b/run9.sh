#!/usr/bin/env bash
# session s1127b run 9 (2026-11-27): branch exp-nt. The gated copy with non-temporal stores
# (GLIDE_X_NT=1), so the pinned pieces are in memory, not dirty in the helpers' caches, when the
# DMA engine reads them (run 3: 256 KiB pieces moved at ~18 GB/s behind the waits against 49 for
# the driver's own staging). GLIDE_X_GATE_MIN_KB=512 gates 64^3 too. gated / NT / pageable at
# 64^3 and 128^3, ROUNDS alternated (gpu_probe SIDE 300 fresh); traces of 64^3 NT and gated.
OUT=${OUT:-/tmp/r9}; mkdir -p $OUT
nvidia-smi -L
B=/tmp/glide_prebuilt; rm -rf $B; mkdir -p $B; tar xf .bin/bins.tar.xz -C $B
export GLIDE_X_GATE_MIN_KB=512
p() { echo "r$1 $2 $3: $(env $4 timeout 60 $B/gpu_probe $3 300 fresh 2>&1 | grep '^side' | sed 's/side [0-9]*, 300 runs//' | tr '\n' ' ')"; }
for r in $(seq 1 ${ROUNDS:-3}); do
  for s in 64 128; do
    p $r gated $s X=0
    p $r nt $s GLIDE_X_NT=1
    p $r pageable $s GLIDE_GPU_GATED_UPLOAD=0
  done
done | tee $OUT/ab_nt9.txt
mkdir -p $OUT/tr
GLIDE_X_NT=1 timeout 60 $B/gpu_trace 64 7 > $OUT/tr/trace64_nt.txt 2>&1; grep -m1 "compress (median" $OUT/tr/trace64_nt.txt
timeout 60 $B/gpu_trace 64 7 > $OUT/tr/trace64_gated.txt 2>&1; grep -m1 "compress (median" $OUT/tr/trace64_gated.txt
grep "copy H2D 262144\|range_k" $OUT/tr/trace64_nt.txt | head -6
cd $OUT && tar czf traces9.tgz tr && rm -rf tr
