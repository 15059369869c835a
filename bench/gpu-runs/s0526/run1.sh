#!/usr/bin/env bash
# session 2026-11-26h run 1 (PART=a tests, PART=b timings): the fine kernel of a split interpolation
# gathers its box and the coarse kernel's lattice in one pass, its first level's configuration loaded
# before the gather and no plan made for blend_level_full ("g"), then also the tuning costs' units by
# the reciprocal where exact ("gc"), against main at 258f2fd ("base"). Tests on gc: test_gpu_huff,
# test_gpu_codec with real fields, test_gpu_codec, memcheck and racecheck with the split from 20000
# points (every chunk's fine kernel has partial boxes). Then five alternated
# kernel-only rounds of the three builds, and ncu of the prediction and tuning kernels at 256^3.
OUT=${OUT:-/tmp/r1}; mkdir -p $OUT
nvidia-smi -L
B=/tmp/glide_prebuilt
if [ "${PART:-a}" = a ]; then
ROUNDS=0 bash h5tests/gpu/prebuilt_probe.sh
export GLIDE_GPU_SPLIT_POINTS=20000
timeout 200 $B/test_gpu_codec --fields /tmp/glide_fields > $OUT/codec_split.log 2>&1
echo "test_gpu_codec split 20000: $(grep -m1 'passed,' $OUT/codec_split.log)"
timeout 150 compute-sanitizer --tool memcheck --leak-check no --error-exitcode 9 $B/test_gpu_codec --quick > $OUT/memcheck.log 2>&1
echo "memcheck (split 20000): $(grep -m1 'ERROR SUMMARY' $OUT/memcheck.log)"
GLIDE_GPU_SPLIT_POINTS=40000 timeout 200 compute-sanitizer --tool racecheck --error-exitcode 9 $B/test_gpu_codec --race > $OUT/race.log 2>&1
echo "racecheck (split 40000): $(grep -m1 'RACECHECK SUMMARY\|ERROR SUMMARY' $OUT/race.log)"
exit 0
fi
rm -rf $B && mkdir -p $B && tar xJf .bin/bins.tar.xz -C $B
run() { $B/$2 --kernels --out $OUT/k_$1_$3.md >/dev/null 2>&1; f=$OUT/k_$1_$3.md
  echo "$1 r$3: 64^3 $(grep -m1 '^| 64³ | 1.0 |' $f | cut -d'|' -f5,7) 256^3 $(grep -m1 '^| 256³ | 67.1 |' $f | cut -d'|' -f5,7) 512^3 $(grep -m1 '^| 512³ | 536.9 |' $f | cut -d'|' -f5,7)"; }
for r in 1 2 3 4; do
  run gc glide_gpu_bench $r
  run g glide_gpu_bench_g $r
  run base glide_gpu_bench_base $r
done | tee $OUT/ab1.txt
for v in "" _g _base; do echo "== gpu_probe$v"; bash h5tests/gpu/ncu_kernels.sh $B/gpu_probe$v 256 'interp_sh_k|tune_k|blend_w_k' 6; done 2>&1 | cut -c1-130 | tee $OUT/ncu1.txt
cd $OUT && tar czf reports1.tgz k_*.md && rm -f k_*.md
