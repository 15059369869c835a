#!/usr/bin/env bash
# session 2026-11-27 run 2: format 5's planes read in place by the encoder (plane 0's histogram
# alone, no split; GLIDE_GPU_PLANES_IN_PLACE=1, the default) against the split (=0), same binary,
# with the trial's narrow interpolation in both. PART=ab: test_gpu_huff, ROUNDS alternated
# kernel-only rounds, gpu_trace 256 both ways. PART=tests: test_gpu_codec on the synthetic and real
# fields, memcheck of test_gpu_huff -q and of test_gpu_codec --quick (split from 20000 points).
OUT=${OUT:-/tmp/r2}; mkdir -p $OUT
nvidia-smi -L
B=/tmp/glide_prebuilt; rm -rf $B; mkdir -p $B; tar xJf .bin/bins.tar.xz -C $B
if [ "${PART:-ab}" = tests ]; then
python3 h5tests/gpu/extract_fields.py .devdata/real_fields_dev.h5 /tmp/glide_fields >/dev/null
timeout 250 $B/test_gpu_codec --fields /tmp/glide_fields > $OUT/codec.log 2>&1; echo "test_gpu_codec --fields: rc $? $(grep -m1 'passed,' $OUT/codec.log)"; grep -m5 -i fail $OUT/codec.log | grep -v " 0 failed"
timeout 120 compute-sanitizer --tool memcheck --leak-check no --error-exitcode 9 $B/test_gpu_huff -q > $OUT/memcheck_huff.log 2>&1; echo "memcheck huff -q: rc $? $(grep -m1 'ERROR SUMMARY' $OUT/memcheck_huff.log)"
GLIDE_GPU_SPLIT_POINTS=20000 timeout 150 compute-sanitizer --tool memcheck --leak-check no --error-exitcode 9 $B/test_gpu_codec --quick > $OUT/memcheck.log 2>&1; echo "memcheck codec --quick: rc $? $(grep -m1 'ERROR SUMMARY' $OUT/memcheck.log)"
else
timeout 200 $B/test_gpu_huff > $OUT/huff.log 2>&1; echo "test_gpu_huff: rc $? $(tail -1 $OUT/huff.log)"; grep -m5 "FAIL\|WRONG" $OUT/huff.log
run() { env $2 $B/glide_gpu_bench --kernels --out $OUT/k_$1_$3.md >/dev/null 2>&1; f=$OUT/k_$1_$3.md
  echo "$1 r$3: 64^3 $(grep -m1 '^| 64³ | 1.0 |' $f | cut -d'|' -f5,7) 256^3 $(grep -m1 '^| 256³ | 67.1 |' $f | cut -d'|' -f5,7) 512^3 $(grep -m1 '^| 512³ | 536.9 |' $f | cut -d'|' -f5,7)"; }
for r in $(seq 1 ${ROUNDS:-3}); do
  run inplace GLIDE_GPU_PLANES_IN_PLACE=1 $r
  run split GLIDE_GPU_PLANES_IN_PLACE=0 $r
done | tee -a $OUT/ab2.txt
$B/gpu_trace 256 20 > $OUT/trace256_inplace.txt 2>&1; tail -1 $OUT/trace256_inplace.txt
GLIDE_GPU_PLANES_IN_PLACE=0 $B/gpu_trace 256 20 > $OUT/trace256_split.txt 2>&1; tail -1 $OUT/trace256_split.txt
cd $OUT && tar czf reports2.tgz k_*.md && rm -f k_*.md
fi
