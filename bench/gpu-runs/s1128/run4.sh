#!/usr/bin/env bash
# Run 4: main's GPU code (af81ccf) checked once more: test_gpu_huff -q, test_gpu_codec --quick,
# racecheck of --race and memcheck of --quick (not rerun on af81ccf's CRC kernel in s1127g), the
# gpu_probe checks, then --fields --large on the real fields for as long as the budget allows.
# Carry [".bin/main.tar.xz", ".devdata"] (pack_min.sh build-g90 main).
OUT=${OUT:-/tmp/s1128r4}; mkdir -p $OUT
nvidia-smi -L
B=build-g90; mkdir -p $B; tar xf .bin/main.tar.xz -C $B
G=$B/h5tests/gpu/test_gpu_codec
timeout 60 $B/gpu/test_gpu_huff -q > $OUT/huff.log 2>&1; echo "test_gpu_huff -q: rc $? $(tail -1 $OUT/huff.log)"
timeout 100 $G --quick > $OUT/codec_quick.log 2>&1; echo "test_gpu_codec --quick: rc $? $(grep -m1 'passed,' $OUT/codec_quick.log)"
GLIDE_GPU_SPLIT_POINTS=40000 timeout 150 compute-sanitizer --tool racecheck --error-exitcode 9 $G --race > $OUT/racecheck.log 2>&1; echo "racecheck --race: rc $? $(grep -m1 'RACECHECK SUMMARY' $OUT/racecheck.log) $(grep -m1 'passed,' $OUT/racecheck.log)"
GLIDE_GPU_SPLIT_POINTS=20000 timeout 150 compute-sanitizer --tool memcheck --leak-check no --error-exitcode 9 $G --quick > $OUT/memcheck.log 2>&1; echo "memcheck --quick: rc $? $(grep -m1 'ERROR SUMMARY' $OUT/memcheck.log)"
for s in 64 256; do timeout 60 $B/bench/gpu_probe $s 12 fresh check 2>&1 | grep '^check' | sed "s/^/$s: /"; done | tee $OUT/check.txt
timeout 60 $B/bench/gpu_probe 64 12 check host 2>&1 | grep '^check' | sed "s/^/64 host: /" | tee -a $OUT/check.txt
python3 h5tests/gpu/extract_fields.py .devdata/real_fields_dev.h5 $B/fields > /dev/null
timeout ${FIELDS_S:-200} stdbuf -oL $G --fields $B/fields --large > $OUT/fields.log 2>&1; echo "test_gpu_codec --fields --large: rc $? $(grep -m1 'passed,' $OUT/fields.log) $(grep -c PASS $OUT/fields.log) PASS lines, $(grep -c FAIL $OUT/fields.log) FAIL"
cd $OUT && tar czf logs4.tgz *.log && rm -f *.log
