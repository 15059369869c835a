#!/usr/bin/env bash
# session 2026-11-26i run 4 (branch exp-trial-late): the block trial's Lorenzo and slice encoders
# launched after tuning and the blends (queued after the chunk's speculative interpolation and the
# trial's) instead of beside tuning, on chunks over 2^19 points (GLIDE_GPU_TRIAL_LATE=1; 0: as main).
# test_gpu_codec with it from 20000 points on, then ROUNDS alternated kernel-only rounds, one binary.
OUT=${OUT:-/tmp/r4}; mkdir -p $OUT
nvidia-smi -L
B=/tmp/glide_prebuilt; rm -rf $B; mkdir -p $B; tar xJf .bin/bins.tar.xz -C $B
GLIDE_GPU_TRIAL_LATE=20000 timeout 150 $B/test_gpu_codec > $OUT/codec_late.log 2>&1; echo "test_gpu_codec late from 20000: $(grep -m1 'passed,' $OUT/codec_late.log)"
run() { env $4 $B/$2 --kernels --out $OUT/k_$1_$3.md >/dev/null 2>&1; f=$OUT/k_$1_$3.md
  echo "$1 r$3: 64^3 $(grep -m1 '^| 64³ | 1.0 |' $f | cut -d'|' -f5,7) 256^3 $(grep -m1 '^| 256³ | 67.1 |' $f | cut -d'|' -f5,7) 512^3 $(grep -m1 '^| 512³ | 536.9 |' $f | cut -d'|' -f5,7)"; }
for r in $(seq 1 ${ROUNDS:-4}); do
  run late glide_gpu_bench $r GLIDE_GPU_TRIAL_LATE=1
  run main glide_gpu_bench $r GLIDE_GPU_TRIAL_LATE=0
done | tee -a $OUT/ab4.txt
cd $OUT && tar czf reports4.tgz k_*.md && rm -f k_*.md
