#!/usr/bin/env bash
# session 2026-11-27 run 4 (on run 2's in-place planes; run 3's wide look-back and smaller hist0
# grids dropped): k_enc_fused in tiles of two segments a warp, one look-back a tile
# (GLIDE_X_TILE=2), and hist0_k counting by __match_any_sync (GLIDE_X_H0M=1): test_gpu_huff and
# test_gpu_codec --quick with both, ncu medians at 256^3 each way, then ROUNDS alternated rounds.
OUT=${OUT:-/tmp/r4}; mkdir -p $OUT
nvidia-smi -L
B=/tmp/glide_prebuilt; rm -rf $B; mkdir -p $B; tar xJf .bin/bins.tar.xz -C $B
GLIDE_X_TILE=2 GLIDE_X_H0M=1 timeout 200 $B/test_gpu_huff > $OUT/huff.log 2>&1; echo "test_gpu_huff tile2 h0m: rc $? $(tail -1 $OUT/huff.log)"
GLIDE_X_TILE=2 GLIDE_X_H0M=1 timeout 200 $B/test_gpu_codec --quick > $OUT/codec.log 2>&1; echo "test_gpu_codec --quick tile2 h0m: rc $? $(grep -m1 'passed,' $OUT/codec.log)"
for v in "X=0" "GLIDE_X_TILE=2" "GLIDE_X_H0M=1"; do
  echo "== $v"; env $v bash h5tests/gpu/ncu_kernels.sh $B/gpu_probe 256 'k_enc_fused|hist0_k' 12
done 2>&1 | tee $OUT/ncu4.txt
run() { env $2 $B/glide_gpu_bench --kernels --out $OUT/k_$1_$3.md >/dev/null 2>&1; f=$OUT/k_$1_$3.md
  echo "$1 r$3: 64^3 $(grep -m1 '^| 64³ | 1.0 |' $f | cut -d'|' -f5,7) 256^3 $(grep -m1 '^| 256³ | 67.1 |' $f | cut -d'|' -f5,7) 512^3 $(grep -m1 '^| 512³ | 536.9 |' $f | cut -d'|' -f5,7)"; }
for r in $(seq 1 ${ROUNDS:-3}); do
  run tile2 "GLIDE_X_TILE=2 GLIDE_X_H0M=${H0M:-0}" $r
  run inplace X=0 $r
done | tee -a $OUT/ab4.txt
cd $OUT && tar czf reports4.tgz k_*.md && rm -f k_*.md
