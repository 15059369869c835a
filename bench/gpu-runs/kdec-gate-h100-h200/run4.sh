#!/usr/bin/env bash
# session 2026-11-26c run 4 (H100): bench/gpu_trace, one call's kernels, copies and runtime calls with graphs replayed
OUT=${OUT:-/tmp/r4}; mkdir -p $OUT
B=/tmp/glide_prebuilt; rm -rf $B; mkdir -p $B; tar xJf .bin/bins.tar.xz -C $B
nvidia-smi -L
ldd $B/gpu_trace | grep -q "cupti.*not found" && export LD_LIBRARY_PATH=$B
for s in 64 256 32; do timeout 120 $B/gpu_trace $s 30 > $OUT/trace$s.md 2>&1; echo "trace $s rc=$?"; grep -E "^gpu_trace|wall|busy" $OUT/trace$s.md; done
for i in 1 2 3; do $B/gpu_probe 64 1000 | grep '^side'; done
