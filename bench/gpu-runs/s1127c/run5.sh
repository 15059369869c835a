#!/usr/bin/env bash
# session s1127c run 5 (2026-11-27): main's candidate (the gated upload in 64 KiB pieces and 512 KiB
# DMAs, the state's early copy, gg_deliver up to 256 KiB), the suite from a tree built on the
# development machine (.bin/tree.tar.xz: the stripped test programs, plugin and CTestTestfiles of
# build-g90, unpacked to build-g90 here: the device's checkout is /work/main as there):
# test_gpu_codec --fields --large beside every other ctest with GLIDE_BACKEND=gpu (h5py through the
# plugin, real fields required), memcheck of --quick, --quick with gg_deliver off, the demo through
# the plugin; then ROUNDS alternated rounds of gpu_probe SIDE 300 fresh: default, GLIDE_GPU_DELIVER_KB=0,
# pageable.
OUT=${OUT:-/tmp/r5}; mkdir -p $OUT
nvidia-smi -L
B=build-g90; mkdir -p $B; tar xf .bin/tree.tar.xz -C $B
python3 h5tests/gpu/extract_fields.py .devdata/real_fields_dev.h5 $B/fields > /dev/null
(timeout 400 stdbuf -oL $B/h5tests/gpu/test_gpu_codec --fields $B/fields --large > $OUT/gpu_codec.log 2>&1; echo "test_gpu_codec --fields --large: rc $? $(grep -m1 'passed,' $OUT/gpu_codec.log)" > $OUT/gpu_codec.rc) &
export GLIDE_PLUGIN_DIR=$PWD/$B/plugin GLIDE_DATA_DIR=$PWD/.devdata GLIDE_REQUIRE_DATA=1
(cd $B && GLIDE_BACKEND=gpu timeout 400 ctest --output-on-failure -j6 -E '^gpu_codec$' > $OUT/ctest_gpu.log 2>&1; echo "ctest (GLIDE_BACKEND=gpu, all but gpu_codec): rc $? $(grep -m1 'tests passed' $OUT/ctest_gpu.log)")
wait; cat $OUT/gpu_codec.rc; grep -m5 "FAIL" $OUT/gpu_codec.log; grep -i "failed\|\*\*\*" $OUT/ctest_gpu.log | head -5
G=$B/h5tests/gpu/test_gpu_codec
GLIDE_GPU_SPLIT_POINTS=20000 timeout 150 compute-sanitizer --tool memcheck --leak-check no --error-exitcode 9 $G --quick > $OUT/memcheck.log 2>&1; echo "memcheck codec --quick: rc $? $(grep -m1 'ERROR SUMMARY' $OUT/memcheck.log)"
GLIDE_GPU_DELIVER_KB=0 timeout 100 stdbuf -oL $G --quick > $OUT/codec_quick_nodeliver.log 2>&1; echo "test_gpu_codec --quick, deliver off: rc $? $(grep -m1 'passed,' $OUT/codec_quick_nodeliver.log)"
HDF5_PLUGIN_PATH=$PWD/$B/plugin GLIDE_BACKEND=gpu timeout 60 $B/examples/glide_demo -o /tmp/glide_demo_gpu.h5 2>&1 | tee $OUT/demo_gpu.txt
timeout 30 $B/bench/gpu_probe 64 50 fresh check 2>&1 | grep '^side\|^check' | tee $OUT/check5.txt
p() { echo "r$1 $2 $3: $(env $4 timeout 60 $B/bench/gpu_probe $3 300 fresh 2>&1 | grep '^side' | sed 's/side [0-9]*, 300 runs//' | tr '\n' ' ')"; }
for r in $(seq 1 ${ROUNDS:-5}); do
  for s in 64 128; do
    p $r deliver $s X=0
    p $r nodeliver $s GLIDE_GPU_DELIVER_KB=0
    p $r pageable $s GLIDE_GPU_GATED_UPLOAD=0
  done
done | tee $OUT/ab5.txt
cd $OUT && tar czf logs5.tgz *.log && rm -f *.log
