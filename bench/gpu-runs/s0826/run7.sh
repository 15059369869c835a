#!/usr/bin/env bash
# session 2026-11-26k run 7: main with the encoder front of chunks over 2^19 points on a stream of
# the greatest priority ("new"), against main at 669e34e ("base"): PART=ab: ROUNDS alternated
# kernel-only rounds, then gpu_trace 256 of new. PART=tests: test_gpu_codec on the synthetic and
# real fields, and memcheck --quick with the split from 20000 points, as h5tests/gpu/run.sh runs it.
OUT=${OUT:-/tmp/r7}; mkdir -p $OUT
nvidia-smi -L
B=/tmp/glide_prebuilt; rm -rf $B; mkdir -p $B; tar xJf .bin/bins.tar.xz -C $B
if [ "${PART:-ab}" = tests ]; then
python3 h5tests/gpu/extract_fields.py .devdata/real_fields_dev.h5 /tmp/glide_fields >/dev/null
timeout 250 $B/test_gpu_codec --fields /tmp/glide_fields > $OUT/codec.log 2>&1; echo "test_gpu_codec --fields: rc $? $(grep -m1 'passed,' $OUT/codec.log)"; grep -m5 -i fail $OUT/codec.log | grep -v " 0 failed"
GLIDE_GPU_SPLIT_POINTS=20000 timeout 150 compute-sanitizer --tool memcheck --leak-check no --error-exitcode 9 $B/test_gpu_codec --quick > $OUT/memcheck.log 2>&1; echo "memcheck --quick: rc $? $(grep -m1 'ERROR SUMMARY' $OUT/memcheck.log)"
else
run() { $B/$2 --kernels --out $OUT/k_$1_$3.md >/dev/null 2>&1; f=$OUT/k_$1_$3.md
  echo "$1 r$3: 64^3 $(grep -m1 '^| 64³ | 1.0 |' $f | cut -d'|' -f5,7) 256^3 $(grep -m1 '^| 256³ | 67.1 |' $f | cut -d'|' -f5,7) 512^3 $(grep -m1 '^| 512³ | 536.9 |' $f | cut -d'|' -f5,7)"; }
for r in $(seq 1 ${ROUNDS:-3}); do
  run new glide_gpu_bench $r
  run base glide_gpu_bench_base $r
done | tee -a $OUT/ab7.txt
$B/gpu_trace 256 20 > $OUT/trace256_new.txt 2>&1; tail -1 $OUT/trace256_new.txt
cd $OUT && tar czf reports7.tgz k_*.md && rm -f k_*.md
fi
