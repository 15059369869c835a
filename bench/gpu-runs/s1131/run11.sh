#!/usr/bin/env bash
# Run 11, the final code (the host plan's gate as one kernel): memcheck of test_gpu_codec --quick,
# then --fields --large (the real fields; host-planned chunks among them). Carry
# [".bin/gate.tar.xz", ".bin/fields.tar.xz"].
OUT=${OUT:-/tmp/s1131r11}; mkdir -p $OUT
nvidia-smi -L
B=build-g90; mkdir -p $B; tar xf .bin/gate.tar.xz -C $B; tar xf .bin/fields.tar.xz -C $B
G=$B/h5tests/gpu/test_gpu_codec
timeout 150 compute-sanitizer --tool memcheck --leak-check no --error-exitcode 9 $G --quick > $OUT/memcheck.log 2>&1
echo "memcheck --quick rc $? $(grep -m1 'passed,' $OUT/memcheck.log) $(grep -m1 'ERROR SUMMARY' $OUT/memcheck.log)"
timeout 300 stdbuf -oL $G --fields $B/fields --large > $OUT/gpu_codec.log 2>&1
echo "test_gpu_codec --fields --large: rc $? $(grep -m1 'passed,' $OUT/gpu_codec.log)"
grep -m5 "FAIL" $OUT/gpu_codec.log; grep "plane 0 histogram by\|host plans with the tail\|entropy plans" $OUT/gpu_codec.log
cd $OUT && tar czf logs.tgz *.log && rm -f *.log
