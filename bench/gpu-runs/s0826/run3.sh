#!/usr/bin/env bash
# session 2026-11-26k run 3: tuning by odd set, second form (tune_sets_k for 3-D: the sets' masks
# compile-time, a set's first point carried, the orders' sums folded once a level) against tune_k
# (GLIDE_X_TUNE_SETS=0): test_gpu_codec, alternated kernel-only rounds (parts of a box per block:
# default 2 x SMs / boxes, and 1, 2), ncu of the tuning kernels.
OUT=${OUT:-/tmp/r3}; mkdir -p $OUT
nvidia-smi -L
B=/tmp/glide_prebuilt; rm -rf $B; mkdir -p $B; tar xJf .bin/bins.tar.xz -C $B
timeout 200 $B/test_gpu_codec > $OUT/codec.log 2>&1; echo "test_gpu_codec: rc $? $(grep -m1 'passed,' $OUT/codec.log)"; grep -m5 -i fail $OUT/codec.log | grep -v " 0 failed"
run() { env $2 $B/glide_gpu_bench --kernels --out $OUT/k_$1_$3.md >/dev/null 2>&1; f=$OUT/k_$1_$3.md
  echo "$1 r$3: 64^3 $(grep -m1 '^| 64³ | 1.0 |' $f | cut -d'|' -f5,7) 256^3 $(grep -m1 '^| 256³ | 67.1 |' $f | cut -d'|' -f5,7) 512^3 $(grep -m1 '^| 512³ | 536.9 |' $f | cut -d'|' -f5,7)"; }
for r in $(seq 1 ${ROUNDS:-2}); do
  run base GLIDE_X_TUNE_SETS=0 $r
  run sets X=1 $r
  run p1 GLIDE_X_TUNE_PARTS=1 $r
  run p2 GLIDE_X_TUNE_PARTS=2 $r
done | tee -a $OUT/ab3.txt
for c in "base GLIDE_X_TUNE_SETS=0 256" "sets X=1 256" "p1 GLIDE_X_TUNE_PARTS=1 256" "p2 GLIDE_X_TUNE_PARTS=2 256" "base GLIDE_X_TUNE_SETS=0 64" "sets X=1 64"; do
  set -- $c; echo "== ncu $1 $3"
  env $2 bash h5tests/gpu/ncu_kernels.sh $B/gpu_probe $3 'tune_k|tune_sets_k' 9 2>&1 | cut -c1-140; done | tee $OUT/ncu3.txt
cd $OUT && tar czf reports3.tgz k_*.md && rm -f k_*.md
