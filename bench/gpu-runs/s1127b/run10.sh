#!/usr/bin/env bash
# session s1127b run 10 (2026-11-27): the gated upload with non-temporal stores from 1 MiB (main's
# candidate): test_gpu_codec --quick and its memcheck; gated against GLIDE_GPU_GATED_UPLOAD=0 at
# 64^3, 96^3, 128^3 (gpu_probe SIDE 300 fresh), ROUNDS alternated.
OUT=${OUT:-/tmp/r10}; mkdir -p $OUT
nvidia-smi -L
B=/tmp/glide_prebuilt; rm -rf $B; mkdir -p $B; tar xf .bin/bins.tar.xz -C $B
timeout 200 stdbuf -oL $B/test_gpu_codec --quick > $OUT/codec_quick.log 2>&1; echo "test_gpu_codec --quick: rc $? $(grep -m1 'passed,' $OUT/codec_quick.log)"; grep -m5 "FAIL" $OUT/codec_quick.log
GLIDE_GPU_SPLIT_POINTS=20000 timeout 150 compute-sanitizer --tool memcheck --leak-check no --error-exitcode 9 $B/test_gpu_codec --quick > $OUT/memcheck.log 2>&1; echo "memcheck codec --quick: rc $? $(grep -m1 'ERROR SUMMARY' $OUT/memcheck.log)"
p() { echo "r$1 $2 $3: $(env $4 timeout 60 $B/gpu_probe $3 300 fresh 2>&1 | grep '^side' | sed 's/side [0-9]*, 300 runs//' | tr '\n' ' ')"; }
for r in $(seq 1 ${ROUNDS:-3}); do
  for s in 64 96 128; do
    p $r gated $s X=0
    p $r pageable $s GLIDE_GPU_GATED_UPLOAD=0
  done
done | tee $OUT/ab_gate10.txt
cd $OUT && tar czf logs10.tgz *.log && rm -f *.log
