#!/usr/bin/env bash
# session s1127c run 8 (2026-11-27): branch exp-reset-ahead: the state's reset queued ahead of a
# gated upload's waits (so it runs while the helpers copy) instead of at the head of the front
# graph (GLIDE_X_RESET_AHEAD=0: as main). test_gpu_codec --quick and its memcheck, gpu_probe
# check; ROUNDS alternated rounds of gpu_probe 64 300 fresh: ahead, main, pageable.
OUT=${OUT:-/tmp/r8}; mkdir -p $OUT
nvidia-smi -L
B=build-g90; mkdir -p $B; tar xf .bin/tree.tar.xz -C $B
G=$B/h5tests/gpu/test_gpu_codec
timeout 100 stdbuf -oL $G --quick > $OUT/codec_quick.log 2>&1; echo "test_gpu_codec --quick: rc $? $(grep -m1 'passed,' $OUT/codec_quick.log)"; grep -m5 "FAIL" $OUT/codec_quick.log
GLIDE_GPU_SPLIT_POINTS=20000 timeout 150 compute-sanitizer --tool memcheck --leak-check no --error-exitcode 9 $G --quick > $OUT/memcheck.log 2>&1; echo "memcheck codec --quick: rc $? $(grep -m1 'ERROR SUMMARY' $OUT/memcheck.log)"
timeout 30 $B/bench/gpu_probe 64 50 fresh check 2>&1 | grep '^side\|^check' | tee $OUT/check8.txt
p() { echo "r$1 $2 $3: $(env $4 timeout 60 $B/bench/gpu_probe $3 300 fresh 2>&1 | grep '^side' | sed 's/side [0-9]*, 300 runs//' | tr '\n' ' ')"; }
for r in $(seq 1 ${ROUNDS:-5}); do
  p $r ahead 64 X=0
  p $r main 64 GLIDE_X_RESET_AHEAD=0
  p $r pageable 64 GLIDE_GPU_GATED_UPLOAD=0
done | tee $OUT/ab8.txt
cd $OUT && tar czf logs8.tgz *.log && rm -f *.log
