#!/usr/bin/env bash
# session 2026-11-26i run 2: 2b87c9b's code ("new": the merged coarse kernel and the empty variant's
# resident grid) against main at 66e354a ("base"): ROUNDS more alternated kernel-only rounds on the
# Nyx-like field, then ncu of the interpolation kernels on a chunk that blends no level
# (GLIDE_PROBE_FIELD=noise, bench/gpu_cube.h) at 256^3 and 512^3, where the working non-blended
# kernels now loop over boxes on the grid the device holds.
OUT=${OUT:-/tmp/r2}; mkdir -p $OUT
nvidia-smi -L
B=/tmp/glide_prebuilt; rm -rf $B; mkdir -p $B; tar xJf .bin/bins.tar.xz -C $B
run() { $B/$2 --kernels --out $OUT/k_$1_$3.md >/dev/null 2>&1; f=$OUT/k_$1_$3.md
  echo "$1 r$3: 64^3 $(grep -m1 '^| 64³ | 1.0 |' $f | cut -d'|' -f5,7) 256^3 $(grep -m1 '^| 256³ | 67.1 |' $f | cut -d'|' -f5,7) 512^3 $(grep -m1 '^| 512³ | 536.9 |' $f | cut -d'|' -f5,7)"; }
for r in $(seq 1 ${ROUNDS:-5}); do
  run new glide_gpu_bench $r
  run base glide_gpu_bench_base $r
done | tee -a $OUT/ab2.txt
export GLIDE_PROBE_FIELD=noise
for v in "" _base; do for n in 256 512; do echo "== gpu_probe$v $n noise"; bash h5tests/gpu/ncu_kernels.sh $B/gpu_probe$v $n 'interp_sh_k' 10; done; done 2>&1 | cut -c1-150 | tee $OUT/ncu2.txt
for v in "" _base; do echo "gpu_probe$v 256 noise (API, pageable): $($B/gpu_probe$v 256 20)"; done | tee -a $OUT/ncu2.txt
cd $OUT && tar czf reports2.tgz k_*.md && rm -f k_*.md
