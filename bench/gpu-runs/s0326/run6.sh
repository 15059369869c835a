#!/usr/bin/env bash
# session 2026-11-26f run 6: kernel-only A/B of the final code (93b8c7e: the prediction instances' side
# streams forked before the first instance) against f0568d6 (the previous session's end), two binaries
# alternated on one machine, five rounds (glide_gpu_bench --kernels; the old binary packed as
# glide_gpu_bench_old with EXTRA=path:glide_gpu_bench_old).
OUT=${OUT:-/tmp/r6}; mkdir -p $OUT
nvidia-smi -L
B=/tmp/glide_prebuilt; rm -rf $B; mkdir -p $B; tar xJf .bin/bins.tar.xz -C $B
run() { $B/$2 --kernels --out $OUT/k_$1_$3.md >/dev/null 2>&1; f=$OUT/k_$1_$3.md
  echo "$1 r$3: 64^3 $(grep -m1 '^| 64³ | 1.0 |' $f | cut -d'|' -f5,7) 256^3 $(grep -m1 '^| 256³ | 67.1 |' $f | cut -d'|' -f5,7) 512^3 $(grep -m1 '^| 512³ | 536.9 |' $f | cut -d'|' -f5,7)"; }
for r in 1 2 3 4 5; do
  run new glide_gpu_bench $r
  run old glide_gpu_bench_old $r
done | tee $OUT/ab.txt
cd $OUT && tar czf reports.tgz k_*.md && rm -f k_*.md
