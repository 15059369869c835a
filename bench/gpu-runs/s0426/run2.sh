#!/usr/bin/env bash
# session 2026-11-26g run 2: the one-pass Huffman encoder (k_enc_fused: a warp per segment, decoupled
# look-back) against 13a35fe (k_enc_sizes + CUB scan + k_enc_write_warp). test_gpu_huff and
# test_gpu_codec (real fields too), memcheck of test_gpu_huff -q, five alternated kernel-only rounds of
# the two binaries, ncu durations of the encoders' kernels at 64^3 and 256^3 for both.
OUT=${OUT:-/tmp/r2}; mkdir -p $OUT
nvidia-smi -L
VARIANTS="new=bin:glide_gpu_bench old=bin:glide_gpu_bench_old" ROUNDS=5 SAN=huff NCU='k_enc|DeviceScan|memset' \
  bash h5tests/gpu/prebuilt_probe.sh
B=/tmp/glide_prebuilt
for s in 256 512; do bash h5tests/gpu/ncu_kernels.sh $B/gpu_probe_old $s 'k_enc|DeviceScan' 6; done 2>&1 | cut -c1-120 | tee $OUT/ncu_old.txt
grep -h "^== " $OUT/ab.txt
