#!/usr/bin/env bash
# session 2026-11-26e run 5 (2f0ad45): the split interpolation against the one kernel (GLIDE_GPU_SPLIT=0) in
# one binary -- kernel-only (glide_gpu_bench --kernels, three alternated rounds) and API calls through
# pageable buffers (gpu_probe 128 and 256, three alternated rounds each)
OUT=${OUT:-/tmp/r5}; mkdir -p $OUT
nvidia-smi -L
B=/tmp/glide_prebuilt; rm -rf $B; mkdir -p $B; tar xJf .bin/bins.tar.xz -C $B
run() { env $2 $B/glide_gpu_bench --kernels --out $OUT/k_$1_$3.md >/dev/null 2>&1; f=$OUT/k_$1_$3.md
  echo "$1 r$3: 64^3 $(grep -m1 '^| 64³ | 1.0 |' $f | cut -d'|' -f5,7) 256^3 $(grep -m1 '^| 256³ | 67.1 |' $f | cut -d'|' -f5,7) 512^3 $(grep -m1 '^| 512³ | 536.9 |' $f | cut -d'|' -f5,7)"; }
for r in 1 2 3; do run split X=1 $r; run one GLIDE_GPU_SPLIT=0 $r; done | tee $OUT/ab.txt
for s in "128 200" "256 20"; do for r in 1 2 3; do for v in "split X=1" "one GLIDE_GPU_SPLIT=0"; do set -- $v
  echo "$1 $s r$r: $(env $2 $B/gpu_probe $s | grep '^side' | tr '\n' ' ')"; done; done; done | tee $OUT/api.txt
cd $OUT && tar czf reports.tgz k_*.md && rm -f k_*.md
