#!/usr/bin/env bash
# session 2026-11-26b run 2: SymStore (5 blocks for blended float boxes) tests + A/B against 9020641, ncu of interp/huffman kernels
OUT=${OUT:-/tmp/r2}; mkdir -p $OUT
ROUNDS=${ROUNDS:-3} SAN=codec VARIANTS="new= base=bin:bench_base" OUT=$OUT bash h5tests/gpu/prebuilt_probe.sh
B=/tmp/glide_prebuilt
RE='interp_sh_k|k_dec|k_enc'
for p in gpu_probe probe_base; do for s in 64 256; do echo "== $p"; bash h5tests/gpu/ncu_kernels.sh $B/$p $s "$RE" 6; done; done 2>&1 | cut -c1-200 | tee $OUT/ncu.txt
