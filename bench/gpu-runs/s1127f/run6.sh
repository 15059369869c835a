#!/usr/bin/env bash
# session s1127f run 6, experiments on afe23e5 (in 4 of run 1-5's 5 traces the tail's outlier
# kernels started only once the encoder's blocks, as many as the device holds, drained): "new" is
# afe23e5; "grid" (.bin/grid.tar.xz) its encoder grid one block an SM smaller (fused_grid), room for
# the outliers beside it; "swap" (.bin/swap.tar.xz) the encoder on the side stream and the outliers
# on the tail's own, both at the default priority. ROUNDS alternated kernel-only rounds new / grid /
# swap; the 256^3 trace of each.
OUT=${OUT:-/tmp/r6}; mkdir -p $OUT
nvidia-smi -L
B=build-g90; mkdir -p $B grid swap; tar xf .bin/tree.tar.xz -C $B; tar xf .bin/grid.tar.xz -C grid; tar xf .bin/swap.tar.xz -C swap
run() { timeout 90 $2/bench/glide_gpu_bench --kernels --out $OUT/k_$1_$3.md >/dev/null 2>&1; f=$OUT/k_$1_$3.md
  echo "$1 r$3: 64^3 $(grep -m1 '^| 64³ | 1.0 |' $f | cut -d'|' -f5,7) 256^3 $(grep -m1 '^| 256³ | 67.1 |' $f | cut -d'|' -f5,7) 512^3 $(grep -m1 '^| 512³ | 536.9 |' $f | cut -d'|' -f5,7)"; }
for r in $(seq 1 ${ROUNDS:-5}); do
  run new $B $r
  run grid grid $r
  run swap swap $r
done | tee $OUT/ab6.txt
for v in new:$B grid:grid swap:swap; do timeout 60 ${v#*:}/bench/gpu_trace 256 20 > $OUT/trace256_${v%%:*}.txt 2>&1; echo "${v%%:*}: $(grep -m1 'compress (median' $OUT/trace256_${v%%:*}.txt | cut -c1-80)"; grep "apply_plan_k\|k_enc_fused\|outlier_\|k_crc_pieces" $OUT/trace256_${v%%:*}.txt | head -5; done
cd $OUT && tar czf logs6.tgz k_*.md && rm -f k_*.md
