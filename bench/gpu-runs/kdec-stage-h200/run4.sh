#!/usr/bin/env bash
# session 2026-11-26b run 4: k_dec staging (copy bounded by the segment): tests + A/B against 9020641, ncu k_dec
OUT=${OUT:-/tmp/r4}; mkdir -p $OUT
ROUNDS=${ROUNDS:-2} VARIANTS="new= base=bin:bench_base" OUT=$OUT bash h5tests/gpu/prebuilt_probe.sh
B=/tmp/glide_prebuilt
timeout 200 compute-sanitizer --tool memcheck --error-exitcode 9 $B/test_gpu_huff -q > $OUT/san_huff.log 2>&1; echo "memcheck test_gpu_huff -q: rc=$? $(grep -m1 'ERROR SUMMARY' $OUT/san_huff.log)"
for p in gpu_probe probe_base; do for s in 64 256; do echo "== $p"; bash h5tests/gpu/ncu_kernels.sh $B/$p $s 'k_dec' 6; done; done 2>&1 | cut -c1-200 | tee $OUT/ncu.txt
