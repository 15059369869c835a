#!/usr/bin/env bash
# session 2026-11-26k run 2: tuning by odd set (tune_sets_k, branch exp-tune-par) against tune_k
# (GLIDE_X_TUNE_SETS=0): test_gpu_codec with tune_sets_k, alternated kernel-only rounds, ncu of the
# tuning kernels at 256^3 and 64^3.
OUT=${OUT:-/tmp/r2}; mkdir -p $OUT
nvidia-smi -L
B=/tmp/glide_prebuilt; rm -rf $B; mkdir -p $B; tar xJf .bin/bins.tar.xz -C $B
timeout 200 $B/test_gpu_codec > $OUT/codec.log 2>&1; echo "test_gpu_codec: rc $? $(grep -m1 'passed,' $OUT/codec.log)"; grep -m5 -i fail $OUT/codec.log | grep -v " 0 failed"
run() { env $2 $B/glide_gpu_bench --kernels --out $OUT/k_$1_$3.md >/dev/null 2>&1; f=$OUT/k_$1_$3.md
  echo "$1 r$3: 64^3 $(grep -m1 '^| 64³ | 1.0 |' $f | cut -d'|' -f5,7) 256^3 $(grep -m1 '^| 256³ | 67.1 |' $f | cut -d'|' -f5,7) 512^3 $(grep -m1 '^| 512³ | 536.9 |' $f | cut -d'|' -f5,7)"; }
for r in $(seq 1 ${ROUNDS:-3}); do
  run base GLIDE_X_TUNE_SETS=0 $r
  run sets X=1 $r
done | tee -a $OUT/ab2.txt
for v in 0 1; do for n in 256 64; do echo "== ncu sets=$v $n"
  GLIDE_X_TUNE_SETS=$v bash h5tests/gpu/ncu_kernels.sh $B/gpu_probe $n 'tune_k|tune_sets_k|blend_w_k' 9 2>&1 | cut -c1-140; done; done | tee $OUT/ncu2.txt
cd $OUT && tar czf reports2.tgz k_*.md && rm -f k_*.md
