#!/usr/bin/env bash
# session 2026-11-26i run 3: the final code ("new": the merged coarse kernel; the empty interpolation
# variant back to a block a box after run 2) against main at 66e354a ("base"). Tests: test_gpu_codec
# (synthetic) by default and with the split from 20000 points, memcheck --quick with the split; then
# ROUNDS alternated kernel-only rounds on the Nyx-like field; then ncu of the interpolation kernels on
# the chunk that blends no level (GLIDE_PROBE_FIELD=noise) at 256^3 and 512^3, both builds.
OUT=${OUT:-/tmp/r3}; mkdir -p $OUT
nvidia-smi -L
B=/tmp/glide_prebuilt; rm -rf $B; mkdir -p $B; tar xJf .bin/bins.tar.xz -C $B
timeout 150 $B/test_gpu_codec > $OUT/codec.log 2>&1; echo "test_gpu_codec: $(grep -m1 'passed,' $OUT/codec.log)"
GLIDE_GPU_SPLIT_POINTS=20000 timeout 150 $B/test_gpu_codec > $OUT/codec_split.log 2>&1; echo "test_gpu_codec split 20000: $(grep -m1 'passed,' $OUT/codec_split.log)"
GLIDE_GPU_SPLIT_POINTS=20000 timeout 100 compute-sanitizer --tool memcheck --leak-check no --error-exitcode 9 $B/test_gpu_codec --quick > $OUT/memcheck.log 2>&1
echo "memcheck --quick (split 20000): $(grep -m1 'ERROR SUMMARY' $OUT/memcheck.log)"
run() { $B/$2 --kernels --out $OUT/k_$1_$3.md >/dev/null 2>&1; f=$OUT/k_$1_$3.md
  echo "$1 r$3: 64^3 $(grep -m1 '^| 64³ | 1.0 |' $f | cut -d'|' -f5,7) 256^3 $(grep -m1 '^| 256³ | 67.1 |' $f | cut -d'|' -f5,7) 512^3 $(grep -m1 '^| 512³ | 536.9 |' $f | cut -d'|' -f5,7)"; }
for r in $(seq 1 ${ROUNDS:-4}); do
  run new glide_gpu_bench $r
  run base glide_gpu_bench_base $r
done | tee -a $OUT/ab3.txt
export GLIDE_PROBE_FIELD=noise
for v in "" _base; do for n in 256 512; do echo "== gpu_probe$v $n noise"; bash h5tests/gpu/ncu_kernels.sh $B/gpu_probe$v $n 'interp_sh_k' 9; done; done 2>&1 | cut -c1-150 | tee $OUT/ncu3.txt
cd $OUT && tar czf reports3.tgz k_*.md && rm -f k_*.md
