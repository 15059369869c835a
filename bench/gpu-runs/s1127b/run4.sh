#!/usr/bin/env bash
# session s1127b run 4 (2026-11-27): exp-gate2 plus GLIDE_X_STAGE_HUGE=1 (the staging buffer in
# transparent huge pages, cudaHostRegister'd): run 3's traces showed the gated pieces' DMA at about
# 18 GB/s from cudaMallocHost's buffer against 49 GB/s for the driver's pageable staging. Variants
# (all with GLIDE_X_COPY_SPIN_US=300): gated, +huge, +huge+early, +huge with 512 KiB pieces, and the
# pageable copy; gpu_probe SIDE 300 fresh, ROUNDS alternated; traces of 64^3.
OUT=${OUT:-/tmp/r4}; mkdir -p $OUT
nvidia-smi -L; cat /sys/kernel/mm/transparent_hugepage/enabled
B=/tmp/glide_prebuilt; rm -rf $B; mkdir -p $B; tar xf .bin/bins.tar.xz -C $B
export GLIDE_X_COPY_SPIN_US=300
p() { echo "r$1 $2 $3: $(env $4 timeout 60 $B/gpu_probe $3 300 fresh 2>&1 | grep '^side\|^host' | sed 's/side [0-9]*, 300 runs//' | tr '\n' ' ')"; }
for r in $(seq 1 ${ROUNDS:-3}); do
  for s in 64 128; do
    p $r gated $s X=0
    p $r huge $s GLIDE_X_STAGE_HUGE=1
    p $r huge_early $s "GLIDE_X_STAGE_HUGE=1 GLIDE_X_GATE_EARLY=1"
    p $r huge_p512 $s "GLIDE_X_STAGE_HUGE=1 GLIDE_X_GATE_PIECE_KB=512"
    p $r pageable $s GLIDE_GPU_GATED_UPLOAD=0
  done
done | tee $OUT/ab_gate4.txt
mkdir -p $OUT/tr
GLIDE_X_STAGE_HUGE=1 timeout 60 $B/gpu_trace 64 7 > $OUT/tr/trace64_huge.txt 2>&1; grep -m1 "compress (median" $OUT/tr/trace64_huge.txt
GLIDE_X_STAGE_HUGE=1 timeout 60 $B/gpu_trace 128 7 > $OUT/tr/trace128_huge.txt 2>&1; grep -m1 "compress (median" $OUT/tr/trace128_huge.txt
timeout 60 $B/gpu_trace 64 7 > $OUT/tr/trace64_gated.txt 2>&1; grep -m1 "compress (median" $OUT/tr/trace64_gated.txt
cd $OUT && tar czf traces4.tgz tr && rm -rf tr
