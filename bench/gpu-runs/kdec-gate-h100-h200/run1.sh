#!/usr/bin/env bash
# session 2026-11-26c run 1: kdec-gate (k_dec staged only up to 2048 segments): tests, memcheck, A/B against main (e39fbfc code), ncu k_dec, 256^3 kernel map
OUT=${OUT:-/tmp/r1}; mkdir -p $OUT
ROUNDS=${ROUNDS:-2} SAN=huff VARIANTS="new= main=bin:bench_main" OUT=$OUT bash h5tests/gpu/prebuilt_probe.sh
B=/tmp/glide_prebuilt
for p in gpu_probe probe_main; do for s in 64 256; do echo "== $p"; SKIP=4 bash h5tests/gpu/ncu_kernels.sh $B/$p $s 'k_dec' 14; done; done 2>&1 | cut -c1-200 | tee $OUT/ncu.txt
SKIP=60 bash h5tests/gpu/ncu_kernels.sh $B/gpu_probe 256 '.' 5 2>&1 | cut -c1-220 > $OUT/map256.txt
SKIP=60 bash h5tests/gpu/ncu_kernels.sh $B/gpu_probe 64 '.' 5 2>&1 | cut -c1-220 > $OUT/map64.txt
tail -n 80 $OUT/map256.txt
