#!/usr/bin/env bash
# session 2026-11-26k run 9: 361a1ea ("prio") against the working tree after it ("after": the block
# trial's interpolation of chunks over 2^19 points waits for the speculated chunk's coarse kernels):
# ROUNDS alternated kernel-only rounds, gpu_trace 256 of "after", test_gpu_codec (synthetic).
OUT=${OUT:-/tmp/r9}; mkdir -p $OUT
nvidia-smi -L
B=/tmp/glide_prebuilt; rm -rf $B; mkdir -p $B; tar xJf .bin/bins.tar.xz -C $B
run() { $B/$2 --kernels --out $OUT/k_$1_$3.md >/dev/null 2>&1; f=$OUT/k_$1_$3.md
  echo "$1 r$3: 64^3 $(grep -m1 '^| 64³ | 1.0 |' $f | cut -d'|' -f5,7) 256^3 $(grep -m1 '^| 256³ | 67.1 |' $f | cut -d'|' -f5,7) 512^3 $(grep -m1 '^| 512³ | 536.9 |' $f | cut -d'|' -f5,7)"; }
for r in $(seq 1 ${ROUNDS:-3}); do
  run after glide_gpu_bench $r
  run prio glide_gpu_bench_prio $r
done | tee -a $OUT/ab9.txt
$B/gpu_trace 256 20 > $OUT/trace256_after.txt 2>&1; tail -1 $OUT/trace256_after.txt
timeout 200 $B/test_gpu_codec > $OUT/codec.log 2>&1; echo "test_gpu_codec: rc $? $(grep -m1 'passed,' $OUT/codec.log)"; grep -m5 -i fail $OUT/codec.log | grep -v " 0 failed"
cd $OUT && tar czf reports9.tgz k_*.md && rm -f k_*.md
