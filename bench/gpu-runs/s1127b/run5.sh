#!/usr/bin/env bash
# session s1127b run 5 (2026-11-27): main's candidate 74b476e (gated upload from 2 MiB, helpers
# spinning 300 us, the spec fork always on). test_gpu_codec --quick (API paths at 480 KB and 2.3 MB,
# failures mid-call), --fields on the real fields, memcheck of --quick; the upload A/B (gated vs
# GLIDE_GPU_GATED_UPLOAD=0) at 64^3 (not gated: a control), 96^3 and 128^3, ROUNDS alternated.
# Pack gpu_probe and test_gpu_codec; carry .bin and .devdata/real_fields_dev.h5.
OUT=${OUT:-/tmp/r5}; mkdir -p $OUT
nvidia-smi -L
B=/tmp/glide_prebuilt; rm -rf $B; mkdir -p $B; tar xf .bin/bins.tar.xz -C $B
timeout 200 stdbuf -oL $B/test_gpu_codec --quick > $OUT/codec_quick.log 2>&1; echo "test_gpu_codec --quick: rc $? $(grep -m1 'passed,' $OUT/codec_quick.log)"; grep -m5 "FAIL" $OUT/codec_quick.log
python3 h5tests/gpu/extract_fields.py .devdata/real_fields_dev.h5 /tmp/glide_fields >/dev/null
timeout 250 stdbuf -oL $B/test_gpu_codec --fields /tmp/glide_fields > $OUT/codec_fields.log 2>&1; echo "test_gpu_codec --fields: rc $? $(grep -m1 'passed,' $OUT/codec_fields.log)"; grep -m5 "FAIL" $OUT/codec_fields.log
p() { echo "r$1 $2 $3: $(env $4 timeout 60 $B/gpu_probe $3 300 fresh 2>&1 | grep '^side\|^host' | sed 's/side [0-9]*, 300 runs//' | tr '\n' ' ')"; }
for r in $(seq 1 ${ROUNDS:-3}); do
  for s in 64 96 128; do
    p $r gated $s X=0
    p $r pageable $s GLIDE_GPU_GATED_UPLOAD=0
  done
done | tee $OUT/ab_gate5.txt
GLIDE_GPU_SPLIT_POINTS=20000 timeout 150 compute-sanitizer --tool memcheck --leak-check no --error-exitcode 9 $B/test_gpu_codec --quick > $OUT/memcheck.log 2>&1; echo "memcheck codec --quick: rc $? $(grep -m1 'ERROR SUMMARY' $OUT/memcheck.log)"
cd $OUT && tar czf logs5.tgz *.log && rm -f *.log
