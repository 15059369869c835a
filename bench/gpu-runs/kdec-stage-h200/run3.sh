#!/usr/bin/env bash
# session 2026-11-26b run 3: k_dec with the segment staged in shared memory: tests + A/B against 9020641, ncu, stall map
OUT=${OUT:-/tmp/r3}; mkdir -p $OUT
mkdir -p /work 2>/dev/null; ln -sfn $PWD /work/main 2>/dev/null
ROUNDS=${ROUNDS:-3} SAN=codec VARIANTS="new= base=bin:bench_base" OUT=$OUT bash h5tests/gpu/prebuilt_probe.sh
B=/tmp/glide_prebuilt
timeout 200 compute-sanitizer --tool memcheck --error-exitcode 9 $B/test_gpu_huff -q > $OUT/san_huff.log 2>&1; echo "memcheck test_gpu_huff -q: rc=$? $(grep -m1 'ERROR SUMMARY' $OUT/san_huff.log)"
for p in gpu_probe probe_base; do for s in 64 256; do echo "== $p"; bash h5tests/gpu/ncu_kernels.sh $B/$p $s 'k_dec' 6; done; done 2>&1 | cut -c1-200 | tee $OUT/ncu.txt
for s in 64 256; do echo "== k_dec $s"; bash h5tests/gpu/ncu_stalls.sh $B/gpu_probe $s k_dec 3 kdec$s; done 2>&1 | cut -c1-170 | tee $OUT/stalls.txt
