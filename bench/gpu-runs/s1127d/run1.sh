#!/usr/bin/env bash
# session s1127d run 1 (2026-11-27, fourth session): 9f830cc (last session's review commit, never on a
# device): test_gpu_codec --quick, its memcheck, gpu_probe 64 50 fresh check; then the 256^3 trace
# (gpu_trace 256) and one kernel-only round of glide_gpu_bench --kernels (the stage table of 256^3),
# to see the compress chain after the fork of 1276b68.
OUT=${OUT:-/tmp/r1}; mkdir -p $OUT
nvidia-smi -L
B=build-g90; mkdir -p $B; tar xf .bin/tree.tar.xz -C $B
G=$B/h5tests/gpu/test_gpu_codec
timeout 150 stdbuf -oL $G --quick > $OUT/codec_quick.log 2>&1; echo "test_gpu_codec --quick: rc $? $(grep -m1 'passed,' $OUT/codec_quick.log)"; grep -m5 FAIL $OUT/codec_quick.log
GLIDE_GPU_SPLIT_POINTS=20000 timeout 150 compute-sanitizer --tool memcheck --leak-check no --error-exitcode 9 $G --quick > $OUT/memcheck.log 2>&1; echo "memcheck codec --quick: rc $? $(grep -m1 'ERROR SUMMARY' $OUT/memcheck.log)"
timeout 30 $B/bench/gpu_probe 64 50 fresh check 2>&1 | grep '^side\|^check' | tee $OUT/check1.txt
timeout 60 $B/bench/gpu_trace 256 20 > $OUT/trace256.txt 2>&1; grep -m1 "compress (median" $OUT/trace256.txt
timeout 90 $B/bench/glide_gpu_bench --kernels --out $OUT/k1.md > /dev/null 2>&1; echo "kernels rc $?"; grep -m4 '^| 64³ \|^| 256³ \|^| 512³ ' $OUT/k1.md | cut -d'|' -f1-8
cd $OUT && tar czf logs1.tgz *.log && rm -f *.log
