#!/usr/bin/env bash
# session 2026-11-26f run 1 (f0568d6): where the 256^3 and 64^3 compress calls' device time goes now
# (gpu_trace: CUPTI records of the median call, graphs replayed as in use), and the 64^3 API call.
OUT=${OUT:-/tmp/r1}; mkdir -p $OUT
nvidia-smi -L
B=/tmp/glide_prebuilt; rm -rf $B; mkdir -p $B; tar xJf .bin/bins.tar.xz -C $B
$B/gpu_trace 256 20 > $OUT/trace256.txt 2>&1; echo "trace256 rc=$?"
$B/gpu_trace 64 30 > $OUT/trace64.txt 2>&1; echo "trace64 rc=$?"
$B/gpu_probe 64 500 > $OUT/probe64.txt 2>&1; echo "probe64 rc=$?"
grep -i "wall\|busy\|span" $OUT/trace*.txt | head -20
tail -5 $OUT/probe64.txt
