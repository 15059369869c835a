#!/usr/bin/env bash
# session 2026-11-27 run 8 (on fcfe307): the encoder tail's anchors and outliers on a side stream
# beside the Huffman encoder, joined before the CRC (default in this build; GLIDE_X_TAIL=0: one
# stream): test_gpu_codec --quick and memcheck --quick (split from 20000 points), ROUNDS alternated
# kernel-only rounds, gpu_trace 256 and 64 of the default.
OUT=${OUT:-/tmp/r8}; mkdir -p $OUT
nvidia-smi -L
B=/tmp/glide_prebuilt; rm -rf $B; mkdir -p $B; tar xJf .bin/bins.tar.xz -C $B
timeout 200 $B/test_gpu_codec --quick > $OUT/codec.log 2>&1; echo "test_gpu_codec --quick: rc $? $(grep -m1 'passed,' $OUT/codec.log)"
GLIDE_GPU_SPLIT_POINTS=20000 timeout 150 compute-sanitizer --tool memcheck --leak-check no --error-exitcode 9 $B/test_gpu_codec --quick > $OUT/memcheck.log 2>&1; echo "memcheck codec --quick: rc $? $(grep -m1 'ERROR SUMMARY' $OUT/memcheck.log)"
run() { env $2 $B/glide_gpu_bench --kernels --out $OUT/k_$1_$3.md >/dev/null 2>&1; f=$OUT/k_$1_$3.md
  echo "$1 r$3: 64^3 $(grep -m1 '^| 64³ | 1.0 |' $f | cut -d'|' -f5,7) 256^3 $(grep -m1 '^| 256³ | 67.1 |' $f | cut -d'|' -f5,7) 512^3 $(grep -m1 '^| 512³ | 536.9 |' $f | cut -d'|' -f5,7)"; }
for r in $(seq 1 ${ROUNDS:-3}); do
  run beside X=0 $r
  run serial GLIDE_X_TAIL=0 $r
done | tee -a $OUT/ab8.txt
$B/gpu_trace 256 20 > $OUT/trace256_beside.txt 2>&1; tail -1 $OUT/trace256_beside.txt
$B/gpu_trace 64 20 > $OUT/trace64_beside.txt 2>&1; tail -1 $OUT/trace64_beside.txt
cd $OUT && tar czf reports8.tgz k_*.md && rm -f k_*.md
