#!/usr/bin/env bash
# session 2026-11-27 run 5 (on fcfe307): k_enc_fused packs a segment's codes in one 64-bit chunk a
# lane where every lane's codes fit 64 bits (GLIDE_X_FAST=0: the word-by-word loop only): tests,
# ncu medians at 256^3 and 512^3 both ways, ROUNDS alternated kernel-only rounds.
OUT=${OUT:-/tmp/r5}; mkdir -p $OUT
nvidia-smi -L
B=/tmp/glide_prebuilt; rm -rf $B; mkdir -p $B; tar xJf .bin/bins.tar.xz -C $B
timeout 200 $B/test_gpu_huff > $OUT/huff.log 2>&1; echo "test_gpu_huff: rc $? $(tail -1 $OUT/huff.log)"
timeout 200 $B/test_gpu_codec --quick > $OUT/codec.log 2>&1; echo "test_gpu_codec --quick: rc $? $(grep -m1 'passed,' $OUT/codec.log)"
for v in "X=0" "GLIDE_X_FAST=0"; do
  echo "== $v"; env $v bash h5tests/gpu/ncu_kernels.sh $B/gpu_probe 256 'k_enc_fused' 12; env $v bash h5tests/gpu/ncu_kernels.sh $B/gpu_probe 512 'k_enc_fused' 6
done 2>&1 | tee $OUT/ncu5.txt
run() { env $2 $B/glide_gpu_bench --kernels --out $OUT/k_$1_$3.md >/dev/null 2>&1; f=$OUT/k_$1_$3.md
  echo "$1 r$3: 64^3 $(grep -m1 '^| 64³ | 1.0 |' $f | cut -d'|' -f5,7) 256^3 $(grep -m1 '^| 256³ | 67.1 |' $f | cut -d'|' -f5,7) 512^3 $(grep -m1 '^| 512³ | 536.9 |' $f | cut -d'|' -f5,7)"; }
for r in $(seq 1 ${ROUNDS:-3}); do
  run fast X=0 $r
  run slow GLIDE_X_FAST=0 $r
done | tee -a $OUT/ab5.txt
cd $OUT && tar czf reports5.tgz k_*.md && rm -f k_*.md
