#!/usr/bin/env bash
# session s1127b run 8 (2026-11-27): the final code (stream waits refused -> pageable, on the GPU;
# GLIDE_GPU_COPY_SPIN_US): test_gpu_codec --quick and its memcheck, gpu_probe 128 once each way.
OUT=${OUT:-/tmp/r8}; mkdir -p $OUT
nvidia-smi -L
B=/tmp/glide_prebuilt; rm -rf $B; mkdir -p $B; tar xf .bin/bins.tar.xz -C $B
timeout 200 stdbuf -oL $B/test_gpu_codec --quick > $OUT/codec_quick.log 2>&1; echo "test_gpu_codec --quick: rc $? $(grep -m1 'passed,' $OUT/codec_quick.log)"; grep -m5 "FAIL" $OUT/codec_quick.log
GLIDE_GPU_SPLIT_POINTS=20000 timeout 150 compute-sanitizer --tool memcheck --leak-check no --error-exitcode 9 $B/test_gpu_codec --quick > $OUT/memcheck.log 2>&1; echo "memcheck codec --quick: rc $? $(grep -m1 'ERROR SUMMARY' $OUT/memcheck.log)"
for v in 1 0; do echo "gated=$v $(GLIDE_GPU_GATED_UPLOAD=$v timeout 60 $B/gpu_probe 128 300 fresh 2>&1 | grep '^side' | tr '\n' ' ')"; done
cd $OUT && tar czf logs8.tgz *.log && rm -f *.log
