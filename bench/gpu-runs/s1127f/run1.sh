#!/usr/bin/env bash
# session s1127f run 1: the encoder's look-back words zeroed by the plan's kernel (gg_plan,
# gg_apply_plan: spare blocks) instead of a memset at the tail graph's head. test_gpu_huff -q and
# test_gpu_codec --quick (also split from 20000 points), each stopping the run at a failure;
# gpu_probe check at 64^3 and 256^3; ROUNDS alternated kernel-only rounds, the previous main's
# benchmark (.bin/old.tar.xz, pack_bench.sh /work/oldwt/build-g90 old) against this build's; gpu_probe 64 300 fresh, 3 rounds
# each; the 256^3 trace.
OUT=${OUT:-/tmp/r1}; mkdir -p $OUT
nvidia-smi -L
B=build-g90; mkdir -p $B old; tar xf .bin/tree.tar.xz -C $B; tar xf .bin/old.tar.xz -C old
G=$B/h5tests/gpu/test_gpu_codec
timeout 120 $B/gpu/test_gpu_huff -q > $OUT/huff.log 2>&1; rc=$?; echo "test_gpu_huff -q: rc $rc $(grep -m1 'passed' $OUT/huff.log)"; grep -m5 FAIL $OUT/huff.log; [ $rc = 0 ] || { tail -5 $OUT/huff.log; exit 1; }
t() { env $2 timeout 100 stdbuf -oL $G --quick > $OUT/codec_$1.log 2>&1; rc=$?; echo "test_gpu_codec --quick $1 ($2): rc $rc $(grep -m1 'passed,' $OUT/codec_$1.log)"; grep -m5 FAIL $OUT/codec_$1.log; [ $rc = 0 ] || { tail -5 $OUT/codec_$1.log; exit 1; }; }
t default X=0
t split GLIDE_GPU_SPLIT_POINTS=20000
for s in 64 256; do timeout 60 $B/bench/gpu_probe $s 20 fresh check 2>&1 | grep '^check' | sed "s/^/$s: /"; done | tee $OUT/check1.txt
run() { timeout 90 $2/bench/glide_gpu_bench --kernels --out $OUT/k_$1_$3.md >/dev/null 2>&1; f=$OUT/k_$1_$3.md
  echo "$1 r$3: 64^3 $(grep -m1 '^| 64³ | 1.0 |' $f | cut -d'|' -f5,7) 256^3 $(grep -m1 '^| 256³ | 67.1 |' $f | cut -d'|' -f5,7) 512^3 $(grep -m1 '^| 512³ | 536.9 |' $f | cut -d'|' -f5,7)"; }
for r in $(seq 1 ${ROUNDS:-5}); do
  run old old $r
  run new $B $r
done | tee $OUT/ab1.txt
p() { echo "r$1 $2: $(timeout 60 $3/bench/gpu_probe 64 300 fresh 2>&1 | grep '^side' | sed 's/side [0-9]*, 300 runs//' | tr '\n' ' ')"; }
for r in 1 2 3; do p $r new $B; p $r old old; done | tee $OUT/probe1.txt
timeout 60 $B/bench/gpu_trace 256 20 > $OUT/trace256_new.txt 2>&1; grep -m1 "compress (median" $OUT/trace256_new.txt
cd $OUT && tar czf logs1.tgz *.log k_*.md && rm -f *.log k_*.md
