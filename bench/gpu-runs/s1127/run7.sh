#!/usr/bin/env bash
# session 2026-11-27 run 7: the sanitizer steps of h5tests/gpu/run.sh on test_gpu_codec at fcfe307
# with 64x64 added to its --quick and --race sets (format 5's planes read in place there):
# memcheck --quick (split from 20000 points), racecheck --race (split from 40000 points).
OUT=${OUT:-/tmp/r7}; mkdir -p $OUT
nvidia-smi -L
B=/tmp/glide_prebuilt; rm -rf $B; mkdir -p $B; tar xJf .bin/bins.tar.xz -C $B
GLIDE_GPU_SPLIT_POINTS=20000 timeout 150 compute-sanitizer --tool memcheck --leak-check no --error-exitcode 9 $B/test_gpu_codec --quick > $OUT/memcheck.log 2>&1; echo "memcheck codec --quick: rc $? $(grep -m1 'ERROR SUMMARY' $OUT/memcheck.log) $(grep -m1 'passed,' $OUT/memcheck.log)"
GLIDE_GPU_SPLIT_POINTS=40000 timeout 280 compute-sanitizer --tool racecheck --error-exitcode 9 $B/test_gpu_codec --race > $OUT/racecheck.log 2>&1; echo "racecheck codec --race: rc $? $(grep -m1 'RACECHECK SUMMARY\|ERROR SUMMARY' $OUT/racecheck.log) $(grep -m1 'passed,' $OUT/racecheck.log)"
