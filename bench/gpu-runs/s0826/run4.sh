#!/usr/bin/env bash
# session 2026-11-26k run 4: tuning by odd set, third form (one prediction body for all sets and
# axes: 51 KB of code against the second form's 173 KB; only where tune_k gives whole boxes a block,
# 256^3 and up) against tune_k (GLIDE_X_TUNE_SETS=0): alternated kernel-only rounds (parts of a box
# per block: default 2 x SMs / boxes, and 1), ncu of the tuning kernels at 256^3 and 512^3.
OUT=${OUT:-/tmp/r4}; mkdir -p $OUT
nvidia-smi -L
B=/tmp/glide_prebuilt; rm -rf $B; mkdir -p $B; tar xJf .bin/bins.tar.xz -C $B
run() { env $2 $B/glide_gpu_bench --kernels --out $OUT/k_$1_$3.md >/dev/null 2>&1; f=$OUT/k_$1_$3.md
  echo "$1 r$3: 64^3 $(grep -m1 '^| 64³ | 1.0 |' $f | cut -d'|' -f5,7) 256^3 $(grep -m1 '^| 256³ | 67.1 |' $f | cut -d'|' -f5,7) 512^3 $(grep -m1 '^| 512³ | 536.9 |' $f | cut -d'|' -f5,7)"; }
for r in $(seq 1 ${ROUNDS:-3}); do
  run base GLIDE_X_TUNE_SETS=0 $r
  run sets X=1 $r
  run p1 GLIDE_X_TUNE_PARTS=1 $r
done | tee -a $OUT/ab4.txt
for c in "base GLIDE_X_TUNE_SETS=0 256" "sets X=1 256" "p1 GLIDE_X_TUNE_PARTS=1 256" "sets64 GLIDE_X_TUNE_SETS=2 64"; do
  set -- $c; echo "== ncu $1 $3"
  env $2 bash h5tests/gpu/ncu_kernels.sh $B/gpu_probe $3 'tune_k|tune_sets_k' 9 2>&1 | cut -c1-140; done | tee $OUT/ncu4.txt
cd $OUT && tar czf reports4.tgz k_*.md && rm -f k_*.md
