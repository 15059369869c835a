#!/usr/bin/env bash
# session 2026-11-27 run 6 (the final run, on an H200): main at fcfe307 (the trial's narrow
# interpolation and the planes read in place; an unmerged knob GLIDE_X_EGRID caps k_enc_fused's
# blocks per SM) against 1b6a104. PART=ab: ROUNDS alternated kernel-only rounds, gpu_trace 256 of
# the new build, ncu medians of k_enc_fused at 256^3 with 5 (the default), 4, 3 and 2 blocks an SM.
# PART=tests: test_gpu_huff, test_gpu_codec on the synthetic and real fields, memcheck of
# test_gpu_huff -q and test_gpu_codec --quick (split from 20000 points), racecheck of test_gpu_huff -q.
OUT=${OUT:-/tmp/r6}; mkdir -p $OUT
nvidia-smi -L
B=/tmp/glide_prebuilt; rm -rf $B; mkdir -p $B; tar xJf .bin/bins.tar.xz -C $B
if [ "${PART:-ab}" = tests ]; then
timeout 200 $B/test_gpu_huff > $OUT/huff.log 2>&1; echo "test_gpu_huff: rc $? $(tail -1 $OUT/huff.log)"
python3 h5tests/gpu/extract_fields.py .devdata/real_fields_dev.h5 /tmp/glide_fields >/dev/null
timeout 250 $B/test_gpu_codec --fields /tmp/glide_fields > $OUT/codec.log 2>&1; echo "test_gpu_codec --fields: rc $? $(grep -m1 'passed,' $OUT/codec.log)"; grep -m5 -i fail $OUT/codec.log | grep -v " 0 failed"
timeout 100 compute-sanitizer --tool memcheck --leak-check no --error-exitcode 9 $B/test_gpu_huff -q > $OUT/memcheck_huff.log 2>&1; echo "memcheck huff -q: rc $? $(grep -m1 'ERROR SUMMARY' $OUT/memcheck_huff.log)"
timeout 100 compute-sanitizer --tool racecheck --error-exitcode 9 $B/test_gpu_huff -q > $OUT/racecheck_huff.log 2>&1; echo "racecheck huff -q: rc $? $(grep -m1 'ERROR SUMMARY\|RACECHECK SUMMARY' $OUT/racecheck_huff.log)"
GLIDE_GPU_SPLIT_POINTS=20000 timeout 150 compute-sanitizer --tool memcheck --leak-check no --error-exitcode 9 $B/test_gpu_codec --quick > $OUT/memcheck.log 2>&1; echo "memcheck codec --quick: rc $? $(grep -m1 'ERROR SUMMARY' $OUT/memcheck.log)"
else
run() { $B/$2 --kernels --out $OUT/k_$1_$3.md >/dev/null 2>&1; f=$OUT/k_$1_$3.md
  echo "$1 r$3: 64^3 $(grep -m1 '^| 64³ | 1.0 |' $f | cut -d'|' -f5,7) 256^3 $(grep -m1 '^| 256³ | 67.1 |' $f | cut -d'|' -f5,7) 512^3 $(grep -m1 '^| 512³ | 536.9 |' $f | cut -d'|' -f5,7)"; }
for r in $(seq 1 ${ROUNDS:-3}); do
  run new glide_gpu_bench $r
  run base glide_gpu_bench_base $r
done | tee -a $OUT/ab6.txt
$B/gpu_trace 256 20 > $OUT/trace256_new.txt 2>&1; tail -1 $OUT/trace256_new.txt
for v in 5 4 3 2; do GLIDE_X_EGRID=$v bash h5tests/gpu/ncu_kernels.sh $B/gpu_probe 256 'k_enc_fused' 12 | sed "s/^/egrid $v: /"; done 2>&1 | tee $OUT/ncu6.txt
cd $OUT && tar czf reports6.tgz k_*.md && rm -f k_*.md
fi
