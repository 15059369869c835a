#!/usr/bin/env bash
# session 2026-11-26j run 1: where main's (4e5f6b5) 256^3 and 64^3 compression spend their time now
# (H200): gpu_trace's median call at 256^3 and 64^3 (Nyx-like, REL 1e-3, graphs as in use), then ncu
# medians of the 256^3 chain's kernels one by one.
OUT=${OUT:-/tmp/r1}; mkdir -p $OUT
nvidia-smi -L
B=/tmp/glide_prebuilt; rm -rf $B; mkdir -p $B; tar xJf .bin/bins.tar.xz -C $B
$B/gpu_trace 256 20 > $OUT/trace256.txt 2>&1; tail -4 $OUT/trace256.txt
$B/gpu_trace 64 30 > $OUT/trace64.txt 2>&1; tail -4 $OUT/trace64.txt
bash h5tests/gpu/ncu_kernels.sh $B/gpu_probe 256 'range_k|split_vec_k|k_crc|k_enc|tune_k|blend_w_k|interp_sh_k|outlier|k_book|plan_k|apply_plan' 12 2>&1 | cut -c1-150 | tee $OUT/ncu1.txt
