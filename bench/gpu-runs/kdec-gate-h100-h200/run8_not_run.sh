#!/usr/bin/env bash
# session 2026-11-26c run 8 (H100): the state's reset as one host copy ahead of the values (compress) and the
# decoder's reset and levels as one copy: tests, memcheck, API calls and kernel-only alternated with 8b4a4b6 (prev)
OUT=${OUT:-/tmp/r8}; mkdir -p $OUT
ROUNDS=2 VARIANTS="new= prev=bin:bench_prev" OUT=$OUT bash h5tests/gpu/prebuilt_probe.sh 2>&1 | grep -v "^   "
B=/tmp/glide_prebuilt
timeout 60 compute-sanitizer --tool memcheck --leak-check no --error-exitcode 9 $B/test_gpu_codec --quick > $OUT/san.log 2>&1; echo "memcheck test_gpu_codec --quick: rc=$? $(grep -m1 'ERROR SUMMARY' $OUT/san.log)"
for s in 64 256; do r=500; [ $s = 256 ] && r=20; for p in gpu_probe probe_prev probe_prev gpu_probe gpu_probe probe_prev probe_prev gpu_probe; do echo "$p $($B/$p $s $r | grep '^side')"; done; done | tee $OUT/api.txt
ldd $B/gpu_trace | grep -q "cupti.*not found" && export LD_LIBRARY_PATH=$B
timeout 60 $B/gpu_trace 64 30 > $OUT/trace64.md 2>&1; grep "median wall" $OUT/trace64.md
