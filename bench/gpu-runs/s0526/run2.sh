#!/usr/bin/env bash
# session 2026-11-26h run 2: the chunk's gated commits after the block trial's pick (lorenzo_k, and
# slice_wf_k with order -1) on a grid of the blocks the device holds at once, each block taking every
# grid-th box, instead of a block a box that returns at once when the trial picked another method.
# Tests: test_gpu_codec (synthetic), then with GLIDE_GPU_COMMIT_GRID=3 (every commit loops over boxes)
# under memcheck (--quick) and racecheck (--race), then ROUNDS alternated kernel-only rounds against
# main at 258f2fd ("base").
OUT=${OUT:-/tmp/r2}; mkdir -p $OUT
nvidia-smi -L
B=/tmp/glide_prebuilt; rm -rf $B; mkdir -p $B; tar xJf .bin/bins.tar.xz -C $B
if [ "${TESTS:-1}" = 1 ]; then
timeout 150 $B/test_gpu_codec > $OUT/codec.log 2>&1; echo "test_gpu_codec: $(grep -m1 'passed,' $OUT/codec.log)"
GLIDE_GPU_COMMIT_GRID=3 timeout 150 $B/test_gpu_codec > $OUT/codec_cg3.log 2>&1; echo "test_gpu_codec commit grid 3: $(grep -m1 'passed,' $OUT/codec_cg3.log)"
GLIDE_GPU_COMMIT_GRID=3 timeout 140 compute-sanitizer --tool memcheck --leak-check no --error-exitcode 9 $B/test_gpu_codec --quick > $OUT/memcheck.log 2>&1
echo "memcheck (commit grid 3): $(grep -m1 'ERROR SUMMARY' $OUT/memcheck.log)"
GLIDE_GPU_COMMIT_GRID=3 timeout 140 compute-sanitizer --tool racecheck --error-exitcode 9 $B/test_gpu_codec --race > $OUT/race.log 2>&1
echo "racecheck (commit grid 3): $(grep -m1 'RACECHECK SUMMARY\|ERROR SUMMARY' $OUT/race.log)"
fi
run() { $B/$2 --kernels --out $OUT/k_$1_$3.md >/dev/null 2>&1; f=$OUT/k_$1_$3.md
  echo "$1 r$3: 64^3 $(grep -m1 '^| 64³ | 1.0 |' $f | cut -d'|' -f5,7) 256^3 $(grep -m1 '^| 256³ | 67.1 |' $f | cut -d'|' -f5,7) 512^3 $(grep -m1 '^| 512³ | 536.9 |' $f | cut -d'|' -f5,7)"; }
for r in $(seq 1 ${ROUNDS:-3}); do
  run new glide_gpu_bench $r
  run base glide_gpu_bench_base $r
done | tee -a $OUT/ab2.txt
cd $OUT && tar czf reports2.tgz k_*.md && rm -f k_*.md
