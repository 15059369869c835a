#!/usr/bin/env bash
# session s1127b run 3 (2026-11-27): binary of branch exp-gate2 (main's gated upload at a0a26cd
# plus two knobs): GLIDE_X_GATE_EARLY=1 posts the helpers' copy at the call's start (before the
# buffers' checks and the header) instead of at the upload; GLIDE_X_COPY_SPIN_US=300 keeps idle
# helpers spinning 300 us (50 by default) so a 64^3 call finds them awake. API calls with
# transfers, gpu_probe SIDE 300 fresh, ROUNDS alternated; gpu_trace 64 of three variants.
OUT=${OUT:-/tmp/r3}; mkdir -p $OUT
nvidia-smi -L
B=/tmp/glide_prebuilt; rm -rf $B; mkdir -p $B; tar xf .bin/bins.tar.xz -C $B
p() { echo "r$1 $2 $3: $(env $4 timeout 60 $B/gpu_probe $3 300 fresh 2>&1 | grep '^side' | sed 's/side [0-9]*, 300 runs//' | tr '\n' ' ')"; }
for r in $(seq 1 ${ROUNDS:-3}); do
  for s in 64 128; do
    p $r gated $s X=0
    p $r early $s GLIDE_X_GATE_EARLY=1
    p $r spin $s GLIDE_X_COPY_SPIN_US=300
    p $r both $s "GLIDE_X_GATE_EARLY=1 GLIDE_X_COPY_SPIN_US=300"
    p $r pageable $s GLIDE_GPU_GATED_UPLOAD=0
  done
done | tee $OUT/ab_gate2.txt
mkdir -p $OUT/tr
timeout 60 $B/gpu_trace 64 7 > $OUT/tr/trace64_gated.txt 2>&1; grep -m1 "compress (median" $OUT/tr/trace64_gated.txt
GLIDE_X_GATE_EARLY=1 GLIDE_X_COPY_SPIN_US=300 timeout 60 $B/gpu_trace 64 7 > $OUT/tr/trace64_both.txt 2>&1; grep -m1 "compress (median" $OUT/tr/trace64_both.txt
GLIDE_GPU_GATED_UPLOAD=0 timeout 60 $B/gpu_trace 64 7 > $OUT/tr/trace64_pageable.txt 2>&1; grep -m1 "compress (median" $OUT/tr/trace64_pageable.txt
cd $OUT && tar czf traces3.tgz tr && rm -rf tr
