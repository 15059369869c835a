#!/usr/bin/env bash
# session s1127b run 6 (2026-11-27): the gated upload from 6 MiB (run 5: 96^3 lost with freshly
# written buffers, 128^3 won); test_gpu_codec --quick (API paths at 480 KB and 6.3 MB, gated, with
# failures mid-call) and its memcheck; gpu_probe 128 both ways once.
OUT=${OUT:-/tmp/r6}; mkdir -p $OUT
nvidia-smi -L
B=/tmp/glide_prebuilt; rm -rf $B; mkdir -p $B; tar xf .bin/bins.tar.xz -C $B
timeout 200 stdbuf -oL $B/test_gpu_codec --quick > $OUT/codec_quick.log 2>&1; echo "test_gpu_codec --quick: rc $? $(grep -m1 'passed,' $OUT/codec_quick.log)"; grep -m5 "FAIL" $OUT/codec_quick.log
GLIDE_GPU_SPLIT_POINTS=20000 timeout 150 compute-sanitizer --tool memcheck --leak-check no --error-exitcode 9 $B/test_gpu_codec --quick > $OUT/memcheck.log 2>&1; echo "memcheck codec --quick: rc $? $(grep -m1 'ERROR SUMMARY' $OUT/memcheck.log)"
for v in 1 0; do echo "gated=$v $(GLIDE_GPU_GATED_UPLOAD=$v timeout 60 $B/gpu_probe 128 300 fresh 2>&1 | grep '^side' | tr '\n' ' ')"; done
cd $OUT && tar czf logs6.tgz *.log && rm -f *.log
