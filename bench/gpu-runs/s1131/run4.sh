#!/usr/bin/env bash
# Run 4, after run 3's failures (27 plane 0 checks of RAW chunks: the host-planned path had not
# kept the chunk's plane 0 histogram, so the test read the call before's): the final code's
# test_gpu_codec --quick, then --fields --large (the real fields, large chunks). Carry
# [".bin/codec.tar.xz", ".bin/fields.tar.xz"] as run 3.
OUT=${OUT:-/tmp/s1131r4}; mkdir -p $OUT
nvidia-smi -L
B=build-g90; mkdir -p $B; tar xf .bin/codec.tar.xz -C $B
G=$B/h5tests/gpu/test_gpu_codec
timeout 100 $G --quick > $OUT/quick.log 2>&1
echo "test_gpu_codec --quick: rc $? $(grep -m1 'passed,' $OUT/quick.log)"; grep "plane 0 histogram by" $OUT/quick.log
tar xf .bin/fields.tar.xz -C $B
timeout 400 stdbuf -oL $G --fields $B/fields --large > $OUT/gpu_codec.log 2>&1
echo "test_gpu_codec --fields --large: rc $? $(grep -m1 'passed,' $OUT/gpu_codec.log)"
grep -m5 "FAIL" $OUT/gpu_codec.log; grep "plane 0 histogram by\|blended levels\|predictor choice" $OUT/gpu_codec.log
cd $OUT && tar czf logs.tgz *.log && rm -f *.log
