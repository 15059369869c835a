#!/usr/bin/env bash
# session s1127c run 2 (2026-11-27): the gated upload in 64 KiB pieces and 512 KiB DMAs (main's
# candidate) + knob GLIDE_X_EARLY_STATE=1: the state (histogram, plan) copied to the host on a side
# stream right after the plan kernel, the host's re-check planned while the tail runs, only the
# tail's fields copied at the end. test_gpu_codec --quick both ways (API paths at 1 MiB and 1.37 MB
# added), memcheck of --quick with it, gpu_probe check; ROUNDS alternated rounds of gpu_probe SIDE
# 300 fresh: gated, gated + early state, pageable; a trace of 64^3 each way.
OUT=${OUT:-/tmp/r2}; mkdir -p $OUT
nvidia-smi -L
B=/tmp/glide_prebuilt; rm -rf $B; mkdir -p $B; tar xf .bin/bins.tar.xz -C $B
timeout 200 stdbuf -oL $B/test_gpu_codec --quick > $OUT/codec_quick.log 2>&1; echo "test_gpu_codec --quick: rc $? $(grep -m1 'passed,' $OUT/codec_quick.log)"; grep -m5 "FAIL" $OUT/codec_quick.log
GLIDE_X_EARLY_STATE=1 timeout 200 stdbuf -oL $B/test_gpu_codec --quick > $OUT/codec_quick_e.log 2>&1; echo "test_gpu_codec --quick early state: rc $? $(grep -m1 'passed,' $OUT/codec_quick_e.log)"; grep -m5 "FAIL" $OUT/codec_quick_e.log
GLIDE_X_EARLY_STATE=1 GLIDE_GPU_SPLIT_POINTS=20000 timeout 150 compute-sanitizer --tool memcheck --leak-check no --error-exitcode 9 $B/test_gpu_codec --quick > $OUT/memcheck.log 2>&1; echo "memcheck codec --quick (early state): rc $? $(grep -m1 'ERROR SUMMARY' $OUT/memcheck.log)"
timeout 30 $B/gpu_probe 64 50 fresh check 2>&1 | grep '^side\|^check' | tee $OUT/check2.txt
GLIDE_X_EARLY_STATE=1 timeout 30 $B/gpu_probe 64 50 fresh check 2>&1 | grep '^side\|^check' | tee -a $OUT/check2.txt
GLIDE_X_EARLY_STATE=1 timeout 30 $B/gpu_probe 96 30 fresh check 2>&1 | grep '^side\|^check' | tee -a $OUT/check2.txt
p() { echo "r$1 $2 $3: $(env $4 timeout 60 $B/gpu_probe $3 300 fresh 2>&1 | grep '^side' | sed 's/side [0-9]*, 300 runs//' | tr '\n' ' ')"; }
for r in $(seq 1 ${ROUNDS:-3}); do
  for s in 64 96 128; do
    p $r gated $s X=0
    p $r early $s GLIDE_X_EARLY_STATE=1
    p $r pageable $s GLIDE_GPU_GATED_UPLOAD=0
  done
done | tee $OUT/ab2.txt
mkdir -p $OUT/tr
timeout 60 $B/gpu_trace 64 > $OUT/tr/trace64_gated.txt 2>&1
GLIDE_X_EARLY_STATE=1 timeout 60 $B/gpu_trace 64 > $OUT/tr/trace64_early.txt 2>&1
cd $OUT && tar czf traces2.tgz tr && rm -rf tr && tar czf logs2.tgz *.log && rm -f *.log
