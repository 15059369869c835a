#!/usr/bin/env bash
# session s1127g run 7, the suite on the CRC rework: test_gpu_codec --quick
# (stops at a failure); test_gpu_huff -q and its memcheck; test_gpu_codec --fields --large beside
# every other ctest with GLIDE_BACKEND=gpu (h5py through the plugin, real fields required); memcheck
# of --quick (split from 20000 points); the demo through the plugin; gpu_probe check at 64^3 and
# 256^3; racecheck of --race (split from 40000 points). Run 7b, on the same machine, times it.
OUT=${OUT:-/tmp/r4}; mkdir -p $OUT
nvidia-smi -L
B=build-g90; mkdir -p $B; tar xf .bin/tree.tar.xz -C $B
G=$B/h5tests/gpu/test_gpu_codec
timeout 100 stdbuf -oL $G --quick > $OUT/codec_quick.log 2>&1; rc=$?; echo "test_gpu_codec --quick: rc $rc $(grep -m1 'passed,' $OUT/codec_quick.log)"; grep -m5 FAIL $OUT/codec_quick.log; [ $rc = 0 ] || { tail -5 $OUT/codec_quick.log; exit 1; }
python3 h5tests/gpu/extract_fields.py .devdata/real_fields_dev.h5 $B/fields > /dev/null
(timeout 400 stdbuf -oL $G --fields $B/fields --large > $OUT/gpu_codec.log 2>&1; echo "test_gpu_codec --fields --large: rc $? $(grep -m1 'passed,' $OUT/gpu_codec.log)" > $OUT/gpu_codec.rc) &
export GLIDE_PLUGIN_DIR=$PWD/$B/plugin GLIDE_DATA_DIR=$PWD/.devdata GLIDE_REQUIRE_DATA=1
(cd $B && GLIDE_BACKEND=gpu timeout 400 ctest --output-on-failure -j6 -E '^gpu_codec$' > $OUT/ctest_gpu.log 2>&1; echo "ctest (GLIDE_BACKEND=gpu, all but gpu_codec, incl. gpu_huff): rc $? $(grep -m1 'tests passed' $OUT/ctest_gpu.log)")
wait; cat $OUT/gpu_codec.rc; grep -m5 "FAIL" $OUT/gpu_codec.log; grep "behind the plan's gate:\|plane 0 histogram by\|entropy plans" $OUT/gpu_codec.log; grep -i "failed\|\*\*\*" $OUT/ctest_gpu.log | head -5
timeout 100 compute-sanitizer --tool memcheck --error-exitcode 9 $B/gpu/test_gpu_huff -q > $OUT/memcheck_huff.log 2>&1; echo "memcheck test_gpu_huff -q: rc $? $(grep -m1 'ERROR SUMMARY' $OUT/memcheck_huff.log)"
GLIDE_GPU_SPLIT_POINTS=20000 timeout 150 compute-sanitizer --tool memcheck --leak-check no --error-exitcode 9 $G --quick > $OUT/memcheck.log 2>&1; echo "memcheck codec --quick: rc $? $(grep -m1 'ERROR SUMMARY' $OUT/memcheck.log)"
HDF5_PLUGIN_PATH=$PWD/$B/plugin GLIDE_BACKEND=gpu timeout 60 $B/examples/glide_demo -o /tmp/glide_demo_gpu.h5 2>&1 | tee $OUT/demo_gpu.txt | tail -3
for s in 64 256; do timeout 60 $B/bench/gpu_probe $s 30 fresh check 2>&1 | grep '^check' | sed "s/^/$s: /"; done | tee $OUT/check7.txt
timeout 60 $B/bench/gpu_probe 64 30 check host 2>&1 | grep '^check\|^host' | sed "s/^/64 host: /" | tee -a $OUT/check7.txt
GLIDE_GPU_SPLIT_POINTS=40000 timeout 150 compute-sanitizer --tool racecheck --error-exitcode 9 $G --race > $OUT/racecheck.log 2>&1; echo "racecheck codec --race: rc $? $(grep -m1 'RACECHECK SUMMARY' $OUT/racecheck.log) $(grep -m1 'passed,' $OUT/racecheck.log)"
cd $OUT && tar czf logs7.tgz *.log && rm -f *.log
