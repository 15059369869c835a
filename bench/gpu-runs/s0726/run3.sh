#!/usr/bin/env bash
# session 2026-11-26j run 3: interp_sh_k's gather and lattice merge by carried coordinates, and the
# store of 16^3 owned points a row of 16 a thread ("new"), against main at 4e5f6b5 ("base").
# PART=tests: test_gpu_codec by default, with the split from 20000 points, and memcheck --quick with
# the split. PART=ab: ROUNDS alternated kernel-only rounds (Nyx-like), then ncu of interp_sh_k at
# 256^3 (Nyx-like and noise), both builds.
OUT=${OUT:-/tmp/r3}; mkdir -p $OUT
nvidia-smi -L
B=/tmp/glide_prebuilt; rm -rf $B; mkdir -p $B; tar xJf .bin/bins.tar.xz -C $B
if [ "${PART:-tests}" = tests ]; then
timeout 200 $B/test_gpu_codec > $OUT/codec.log 2>&1; echo "test_gpu_codec: rc $? $(grep -m1 'passed,' $OUT/codec.log)"
GLIDE_GPU_SPLIT_POINTS=20000 timeout 200 $B/test_gpu_codec > $OUT/codec_split.log 2>&1; echo "test_gpu_codec split 20000: rc $? $(grep -m1 'passed,' $OUT/codec_split.log)"
GLIDE_GPU_SPLIT_POINTS=20000 timeout 150 compute-sanitizer --tool memcheck --leak-check no --error-exitcode 9 $B/test_gpu_codec --quick > $OUT/memcheck.log 2>&1
echo "memcheck --quick (split 20000): rc $? $(grep -m1 'ERROR SUMMARY' $OUT/memcheck.log)"
else
run() { $B/$2 --kernels --out $OUT/k_$1_$3.md >/dev/null 2>&1; f=$OUT/k_$1_$3.md
  echo "$1 r$3: 64^3 $(grep -m1 '^| 64³ | 1.0 |' $f | cut -d'|' -f5,7) 256^3 $(grep -m1 '^| 256³ | 67.1 |' $f | cut -d'|' -f5,7) 512^3 $(grep -m1 '^| 512³ | 536.9 |' $f | cut -d'|' -f5,7)"; }
for r in $(seq 1 ${ROUNDS:-4}); do
  run new glide_gpu_bench $r
  run base glide_gpu_bench_base $r
done | tee -a $OUT/ab3.txt
for f in nyx noise; do for v in "" _base; do echo "== gpu_probe$v 256 $f"
  GLIDE_PROBE_FIELD=$([ $f = noise ] && echo noise) bash h5tests/gpu/ncu_kernels.sh $B/gpu_probe$v 256 'interp_sh_k' 9; done; done 2>&1 | cut -c1-150 | tee $OUT/ncu3.txt
cd $OUT && tar czf reports3.tgz k_*.md && rm -f k_*.md
fi
