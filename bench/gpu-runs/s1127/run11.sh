#!/usr/bin/env bash
# session 2026-11-27 run 11 (on 2a1e8ac): k_enc_fused taking its next ticket right after publishing
# a segment's byte count (GLIDE_X_ENC=1), at six blocks an SM (40 registers, 2), both (3), against
# the plain kernel (0): test_gpu_huff with 3, ncu medians of k_enc_fused at 256^3 for each, two
# alternated kernel-only rounds of 1 against 0.
OUT=${OUT:-/tmp/r11}; mkdir -p $OUT
nvidia-smi -L
B=/tmp/glide_prebuilt; rm -rf $B; mkdir -p $B; tar xJf .bin/bins.tar.xz -C $B
GLIDE_X_ENC=3 timeout 120 $B/test_gpu_huff > $OUT/huff.log 2>&1; echo "test_gpu_huff ENC=3: rc $? $(tail -1 $OUT/huff.log)"
for v in 0 1 2 3; do GLIDE_X_ENC=$v bash h5tests/gpu/ncu_kernels.sh $B/gpu_probe 256 'k_enc_fused' 12 | sed "s/^/enc $v: /"; done 2>&1 | tee $OUT/ncu11.txt
run() { env $2 $B/glide_gpu_bench --kernels --out $OUT/k_$1_$3.md >/dev/null 2>&1; f=$OUT/k_$1_$3.md
  echo "$1 r$3: 64^3 $(grep -m1 '^| 64³ | 1.0 |' $f | cut -d'|' -f5,7) 256^3 $(grep -m1 '^| 256³ | 67.1 |' $f | cut -d'|' -f5,7) 512^3 $(grep -m1 '^| 512³ | 536.9 |' $f | cut -d'|' -f5,7)"; }
for r in $(seq 1 ${ROUNDS:-2}); do
  run pref GLIDE_X_ENC=1 $r
  run plain GLIDE_X_ENC=0 $r
done | tee -a $OUT/ab11.txt
