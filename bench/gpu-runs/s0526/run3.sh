#!/usr/bin/env bash
# session 2026-11-26h run 3 (547ea21's code): ncu's solo durations at 512^3 of the prediction
# kernels, among them the launches that return at once (the interpolation variant the chunk does not
# use, one block a box; the gated Lorenzo and slice commits, now on the device's resident grid), one row
# per kernel and grid (h5tests/gpu/ncu_kernels.sh over gpu_probe 512 calls).
OUT=${OUT:-/tmp/r3}; mkdir -p $OUT
nvidia-smi -L
B=/tmp/glide_prebuilt; rm -rf $B; mkdir -p $B; tar xJf .bin/bins.tar.xz -C $B
SKIP=4 timeout 250 bash h5tests/gpu/ncu_kernels.sh $B/gpu_probe 512 'interp_sh_k|lorenzo_k|slice_wf_k' 5 2>&1 | cut -c1-150 | tee $OUT/ncu512_run3.txt
