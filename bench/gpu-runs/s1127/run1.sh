#!/usr/bin/env bash
# session 2026-11-27 run 1 (s0826 run10.sh as prepared) (branch exp-trial-narrow, on 5381f5a): the block trial's interpolation of
# chunks over 2^19 points in 256-thread blocks instead of 1024 (GLIDE_X_NARROW=1), against the same
# binary without: ROUNDS alternated kernel-only rounds, gpu_trace 256 narrow, test_gpu_codec narrow.
OUT=${OUT:-/tmp/r1}; mkdir -p $OUT
nvidia-smi -L
B=/tmp/glide_prebuilt; rm -rf $B; mkdir -p $B; tar xJf .bin/bins.tar.xz -C $B
run() { env $2 $B/glide_gpu_bench --kernels --out $OUT/k_$1_$3.md >/dev/null 2>&1; f=$OUT/k_$1_$3.md
  echo "$1 r$3: 64^3 $(grep -m1 '^| 64³ | 1.0 |' $f | cut -d'|' -f5,7) 256^3 $(grep -m1 '^| 256³ | 67.1 |' $f | cut -d'|' -f5,7) 512^3 $(grep -m1 '^| 512³ | 536.9 |' $f | cut -d'|' -f5,7)"; }
for r in $(seq 1 ${ROUNDS:-3}); do
  run narrow GLIDE_X_NARROW=1 $r
  run main X=0 $r
done | tee -a $OUT/ab10.txt
GLIDE_X_NARROW=1 $B/gpu_trace 256 20 > $OUT/trace256_narrow.txt 2>&1; tail -1 $OUT/trace256_narrow.txt
GLIDE_X_NARROW=1 timeout 200 $B/test_gpu_codec > $OUT/codec.log 2>&1; echo "test_gpu_codec narrow: rc $? $(grep -m1 'passed,' $OUT/codec.log)"; grep -m5 -i fail $OUT/codec.log | grep -v " 0 failed"
cd $OUT && tar czf reports10.tgz k_*.md && rm -f k_*.md
