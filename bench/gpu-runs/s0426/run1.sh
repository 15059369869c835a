#!/usr/bin/env bash
# session 2026-11-26g run 1 (13a35fe): the front of a 256^3 compression, kernel by kernel. ncu's solo
# duration of every kernel of gpu_probe 256 calls (one row per kernel and grid), ncu's stall profile of
# tune_k, blend_w_k, the wavefront slice kernel and range_k at 256^3 and of tune_k at 64^3, and a
# CUPTI trace of the median 256^3 call (gpu_trace).
OUT=${OUT:-/tmp/r1}; mkdir -p $OUT
nvidia-smi -L
B=/tmp/glide_prebuilt; rm -rf $B; mkdir -p $B; tar xJf .bin/bins.tar.xz -C $B
# ncu reads the sources at the build's paths
mkdir -p /work 2>/dev/null && ln -sfn "$PWD" /work/main 2>/dev/null || sudo sh -c "mkdir -p /work && ln -sfn $PWD /work/main" 2>/dev/null
SKIP=16 bash h5tests/gpu/ncu_kernels.sh $B/gpu_probe 256 '.' 5 > $OUT/ncu_all256.txt 2>&1; echo "ncu_all256 rc=$?"
for k in tune_k blend_w_k range_k; do
  bash h5tests/gpu/ncu_stalls.sh $B/gpu_probe 256 $k 3 $k > $OUT/stalls256_$k.txt 2>&1; echo "stalls $k rc=$?"
done
bash h5tests/gpu/ncu_stalls.sh $B/gpu_probe 256 slice_wf_k 3 slw > $OUT/stalls256_slice.txt 2>&1
bash h5tests/gpu/ncu_stalls.sh $B/gpu_probe 64 tune_k 3 t64 > $OUT/stalls64_tune_k.txt 2>&1
$B/gpu_trace 256 10 > $OUT/trace256.txt 2>&1; echo "trace256 rc=$?"
cat $OUT/ncu_all256.txt
for f in $OUT/stalls*.txt; do echo "== $f"; head -24 $f; done
