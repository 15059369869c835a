#!/usr/bin/env bash
# session s1127c run 7 (2026-11-27): the final code (fa51645) on an H100 host: test_gpu_codec --quick,
# gpu_probe check at 64^3; ROUNDS alternated rounds of gpu_probe 64 300 fresh: default,
# GLIDE_GPU_DELIVER_KB=0, pageable upload (GLIDE_GPU_GATED_UPLOAD=0).
OUT=${OUT:-/tmp/r7}; mkdir -p $OUT
nvidia-smi -L
B=build-g90; mkdir -p $B; tar xf .bin/tree.tar.xz -C $B
G=$B/h5tests/gpu/test_gpu_codec
timeout 100 stdbuf -oL $G --quick > $OUT/codec_quick.log 2>&1; echo "test_gpu_codec --quick: rc $? $(grep -m1 'passed,' $OUT/codec_quick.log)"; grep -m5 "FAIL" $OUT/codec_quick.log
timeout 30 $B/bench/gpu_probe 64 50 fresh check 2>&1 | grep '^side\|^check' | tee $OUT/check7.txt
p() { echo "r$1 $2 $3: $(env $4 timeout 60 $B/bench/gpu_probe $3 300 fresh 2>&1 | grep '^side' | sed 's/side [0-9]*, 300 runs//' | tr '\n' ' ')"; }
for r in $(seq 1 ${ROUNDS:-3}); do
  p $r deliver 64 X=0
  p $r nodeliver 64 GLIDE_GPU_DELIVER_KB=0
  p $r pageable 64 GLIDE_GPU_GATED_UPLOAD=0
done | tee $OUT/ab7.txt
cd $OUT && tar czf logs7.tgz *.log && rm -f *.log
