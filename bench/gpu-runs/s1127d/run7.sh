#!/usr/bin/env bash
# session s1127d run 7: the final code, the whole suite from a tree built on the development machine
# (.bin/tree.tar.xz: the stripped test programs, plugin and CTestTestfiles of build-g90, unpacked to
# build-g90 here; the device's checkout is /work/main as there): test_gpu_codec --fields --large beside
# every other ctest with GLIDE_BACKEND=gpu (h5py through the plugin, real fields required), memcheck of
# --quick (split from 20000 points), the demo through the plugin, gpu_probe check at 64^3 and 256^3.
OUT=${OUT:-/tmp/r7}; mkdir -p $OUT
nvidia-smi -L
B=build-g90; mkdir -p $B; tar xf .bin/tree.tar.xz -C $B
python3 h5tests/gpu/extract_fields.py .devdata/real_fields_dev.h5 $B/fields > /dev/null
(timeout 420 stdbuf -oL $B/h5tests/gpu/test_gpu_codec --fields $B/fields --large > $OUT/gpu_codec.log 2>&1; echo "test_gpu_codec --fields --large: rc $? $(grep -m1 'passed,' $OUT/gpu_codec.log)" > $OUT/gpu_codec.rc) &
export GLIDE_PLUGIN_DIR=$PWD/$B/plugin GLIDE_DATA_DIR=$PWD/.devdata GLIDE_REQUIRE_DATA=1
(cd $B && GLIDE_BACKEND=gpu timeout 420 ctest --output-on-failure -j6 -E '^gpu_codec$' > $OUT/ctest_gpu.log 2>&1; echo "ctest (GLIDE_BACKEND=gpu, all but gpu_codec): rc $? $(grep -m1 'tests passed' $OUT/ctest_gpu.log)")
wait; cat $OUT/gpu_codec.rc; grep -m5 "FAIL" $OUT/gpu_codec.log; grep "plane 0 histogram by\|blended levels" $OUT/gpu_codec.log; grep -i "failed\|\*\*\*" $OUT/ctest_gpu.log | head -5
G=$B/h5tests/gpu/test_gpu_codec
GLIDE_GPU_SPLIT_POINTS=20000 timeout 150 compute-sanitizer --tool memcheck --leak-check no --error-exitcode 9 $G --quick > $OUT/memcheck.log 2>&1; echo "memcheck codec --quick: rc $? $(grep -m1 'ERROR SUMMARY' $OUT/memcheck.log)"
HDF5_PLUGIN_PATH=$PWD/$B/plugin GLIDE_BACKEND=gpu timeout 60 $B/examples/glide_demo -o /tmp/glide_demo_gpu.h5 2>&1 | tee $OUT/demo_gpu.txt
for s in 64 256; do timeout 60 $B/bench/gpu_probe $s 30 fresh check 2>&1 | grep '^check' | sed "s/^/$s: /"; done | tee $OUT/check7.txt
cd $OUT && tar czf logs7.tgz *.log && rm -f *.log
