#!/usr/bin/env bash
# session 2026-11-26i run 1: the split's coarse kernel as a block of 256 threads for 2 x 2 x 2 lattice
# boxes (PART_COARSE_M, a 17^3 box whose stencils stop at the sub-boxes' faces), and the encoder's
# non-blended interpolation variant on the grid the device holds (from branch exp-variant-grid).
# "new" = this build, "nomerge" = this build with GLIDE_GPU_COARSE_MERGE=0 (a warp a 9^3 box, as
# before), "base" = main at 66e354a. First test_gpu_codec with the split from 20000 points and the
# commits' and empty variants' grid at 3 blocks (every coarse box merged, partial ones included, and
# the loops over boxes), then ROUNDS alternated kernel-only rounds, then ncu of the coarse and fine
# kernels at 256^3 both ways.
OUT=${OUT:-/tmp/r1}; mkdir -p $OUT
nvidia-smi -L
B=/tmp/glide_prebuilt; rm -rf $B; mkdir -p $B; tar xJf .bin/bins.tar.xz -C $B
if [ "${TESTS:-1}" = 1 ]; then
GLIDE_GPU_SPLIT_POINTS=20000 GLIDE_GPU_COMMIT_GRID=3 timeout 200 $B/test_gpu_codec > $OUT/codec_split_cg3.log 2>&1
echo "test_gpu_codec split 20000, grid 3: $(grep -m1 'passed,' $OUT/codec_split_cg3.log)"
fi
run() { env $4 $B/$2 --kernels --out $OUT/k_$1_$3.md >/dev/null 2>&1; f=$OUT/k_$1_$3.md
  echo "$1 r$3: 64^3 $(grep -m1 '^| 64³ | 1.0 |' $f | cut -d'|' -f5,7) 256^3 $(grep -m1 '^| 256³ | 67.1 |' $f | cut -d'|' -f5,7) 512^3 $(grep -m1 '^| 512³ | 536.9 |' $f | cut -d'|' -f5,7)"; }
for r in $(seq 1 ${ROUNDS:-4}); do
  run new glide_gpu_bench $r GLIDE_GPU_COARSE_MERGE=1
  run nomerge glide_gpu_bench $r GLIDE_GPU_COARSE_MERGE=0
  run base glide_gpu_bench_base $r GLIDE_GPU_COARSE_MERGE=1
done | tee -a $OUT/ab1.txt
if [ "${NCU:-1}" = 1 ]; then
for m in 1 0; do echo "== GLIDE_GPU_COARSE_MERGE=$m"; GLIDE_GPU_COARSE_MERGE=$m bash h5tests/gpu/ncu_kernels.sh $B/gpu_probe 256 'interp_sh_k' 6; done 2>&1 | cut -c1-150 | tee $OUT/ncu1.txt
fi
cd $OUT && tar czf reports1.tgz k_*.md && rm -f k_*.md
