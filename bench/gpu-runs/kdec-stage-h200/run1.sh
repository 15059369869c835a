#!/usr/bin/env bash
# session 2026-11-26b run 1: review-gather tests + A/B against 9020641, stall map of the 256^3 interpolation
OUT=${OUT:-/tmp/r1}; mkdir -p $OUT
mkdir -p /work 2>/dev/null; ln -sfn $PWD /work/main 2>/dev/null; ls /work/main/gpu/predict.cu >/dev/null || echo "no source link"
ROUNDS=${ROUNDS:-2} SAN=codec VARIANTS="new= base=bin:bench_base" OUT=$OUT bash h5tests/gpu/prebuilt_probe.sh
B=/tmp/glide_prebuilt
for k in interp_sh_kIfLi0ELi256ELb0ELb1E interp_sh_kIfLi1ELi256ELb0ELb1E; do
  echo "== $k"; BASE=mangled bash h5tests/gpu/ncu_stalls.sh $B/gpu_probe 256 "$k" 3 $k
done 2>&1 | cut -c1-160 | tee $OUT/stalls.txt
