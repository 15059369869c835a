#!/usr/bin/env bash
# NOT RUN (session 2026-11-26h ran out of device time): branch exp-variant-grid, the encoder's
# interpolation variant without blended levels (launched beside the blended one, returning at once
# where the chunk blends) on the grid the device holds, looping over the boxes. To run: pack the
# branch's test_gpu_codec and glide_gpu_bench with main's glide_gpu_bench as glide_gpu_bench_base.
# Tests: test_gpu_codec with the default grid and with GLIDE_GPU_COMMIT_GRID=3 (the variant then loops
# wherever a chunk does not blend: the synthetic noise fields), memcheck and racecheck at 3 blocks;
# then alternated kernel-only rounds. Expect (run 3's ncu) up to about 40 us at 512^3 and 6 at 256^3;
# a chunk that does not blend now runs its working kernel on the capped grid: time one (none of the
# benchmark's fields is such a chunk).
OUT=${OUT:-/tmp/r4}; mkdir -p $OUT
nvidia-smi -L
B=/tmp/glide_prebuilt; rm -rf $B; mkdir -p $B; tar xJf .bin/bins.tar.xz -C $B
if [ "${TESTS:-1}" = 1 ]; then
timeout 150 $B/test_gpu_codec > $OUT/codec.log 2>&1; echo "test_gpu_codec: $(grep -m1 'passed,' $OUT/codec.log)"
GLIDE_GPU_COMMIT_GRID=3 timeout 200 $B/test_gpu_codec > $OUT/codec_cg3.log 2>&1; echo "test_gpu_codec grid 3: $(grep -m1 'passed,' $OUT/codec_cg3.log)"
GLIDE_GPU_COMMIT_GRID=3 timeout 150 compute-sanitizer --tool memcheck --leak-check no --error-exitcode 9 $B/test_gpu_codec --quick > $OUT/memcheck.log 2>&1
echo "memcheck (grid 3): $(grep -m1 'ERROR SUMMARY' $OUT/memcheck.log)"
GLIDE_GPU_COMMIT_GRID=3 timeout 150 compute-sanitizer --tool racecheck --error-exitcode 9 $B/test_gpu_codec --race > $OUT/race.log 2>&1
echo "racecheck (grid 3): $(grep -m1 'RACECHECK SUMMARY\|ERROR SUMMARY' $OUT/race.log)"
fi
run() { $B/$2 --kernels --out $OUT/k_$1_$3.md >/dev/null 2>&1; f=$OUT/k_$1_$3.md
  echo "$1 r$3: 64^3 $(grep -m1 '^| 64³ | 1.0 |' $f | cut -d'|' -f5,7) 256^3 $(grep -m1 '^| 256³ | 67.1 |' $f | cut -d'|' -f5,7) 512^3 $(grep -m1 '^| 512³ | 536.9 |' $f | cut -d'|' -f5,7)"; }
for r in $(seq 1 ${ROUNDS:-5}); do
  run new glide_gpu_bench $r
  run base glide_gpu_bench_base $r
done | tee -a $OUT/ab4.txt
