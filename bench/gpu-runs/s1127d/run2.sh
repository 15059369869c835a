#!/usr/bin/env bash
# session s1127d run 2: experiment binary (knobs GLIDE_X_H0, GLIDE_X_LATE default on, GLIDE_X_HIST off):
# plane 0 counted by the interpolation kernels (hist0_k returns at once), the speculated fine kernel
# after the trial's pick, the histogram by a ballot on the zero symbol. Tests first (--quick with the
# defaults, with the split from 20000 points, with GLIDE_X_HIST=1; memcheck; check against the CPU at
# 64^3 and 256^3), then ROUNDS alternated kernel-only rounds of four settings, then a 256^3 trace.
OUT=${OUT:-/tmp/r2}; mkdir -p $OUT
nvidia-smi -L
B=build-g90; mkdir -p $B; tar xf .bin/tree.tar.xz -C $B
G=$B/h5tests/gpu/test_gpu_codec
t() { env $2 timeout 150 stdbuf -oL $G --quick > $OUT/codec_$1.log 2>&1; echo "test_gpu_codec --quick $1 ($2): rc $? $(grep -m1 'passed,' $OUT/codec_$1.log)"; grep -m5 FAIL $OUT/codec_$1.log; }
t default X=0
t split GLIDE_GPU_SPLIT_POINTS=20000
t hist GLIDE_X_HIST=1
t split_hist "GLIDE_GPU_SPLIT_POINTS=20000 GLIDE_X_HIST=1"
GLIDE_GPU_SPLIT_POINTS=20000 timeout 150 compute-sanitizer --tool memcheck --leak-check no --error-exitcode 9 $G --quick > $OUT/memcheck.log 2>&1; echo "memcheck codec --quick: rc $? $(grep -m1 'ERROR SUMMARY' $OUT/memcheck.log)"
for s in 64 256; do timeout 60 $B/bench/gpu_probe $s 20 fresh check 2>&1 | grep '^check' | sed "s/^/$s: /"; GLIDE_X_HIST=1 timeout 60 $B/bench/gpu_probe $s 20 fresh check 2>&1 | grep '^check' | sed "s/^/$s hist: /"; done | tee $OUT/check2.txt
run() { env $2 timeout 90 $B/bench/glide_gpu_bench --kernels --out $OUT/k_$1_$3.md >/dev/null 2>&1; f=$OUT/k_$1_$3.md
  echo "$1 r$3: 64^3 $(grep -m1 '^| 64³ | 1.0 |' $f | cut -d'|' -f5,7) 256^3 $(grep -m1 '^| 256³ | 67.1 |' $f | cut -d'|' -f5,7) 512^3 $(grep -m1 '^| 512³ | 536.9 |' $f | cut -d'|' -f5,7)"; }
for r in $(seq 1 ${ROUNDS:-3}); do
  run base "GLIDE_X_H0=0 GLIDE_X_LATE=0" $r
  run h0 "GLIDE_X_LATE=0" $r
  run both X=0 $r
  run hist GLIDE_X_HIST=1 $r
done | tee $OUT/ab2.txt
timeout 60 $B/bench/gpu_trace 256 20 > $OUT/trace256_both.txt 2>&1; grep -m1 "compress (median" $OUT/trace256_both.txt
cd $OUT && tar czf logs2.tgz *.log k_*.md && rm -f *.log k_*.md
