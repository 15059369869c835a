#!/usr/bin/env bash
# session s1127e run 3, the final code: run 2's plan gate with apply_plan_k loading its bytes of the
# mapped plan at fixed places in one round trip. test_gpu_codec --quick (stops at a failure); the
# suite from a tree built on the development machine (.bin/tree.tar.xz, unpacked to build-g90; the
# device's checkout is /work/main as there): test_gpu_codec --fields --large beside every other
# ctest with GLIDE_BACKEND=gpu (h5py through the plugin, real fields required); memcheck of --quick
# (split from 20000 points); the demo through the plugin; gpu_probe check at 64^3 and 256^3; ROUNDS
# alternated kernel-only rounds gate off / on; gpu_probe 64 300 fresh, 3 rounds; the 256^3 trace;
# racecheck of --race (split from 40000 points).
OUT=${OUT:-/tmp/r3}; mkdir -p $OUT
nvidia-smi -L
B=build-g90; mkdir -p $B; tar xf .bin/tree.tar.xz -C $B
G=$B/h5tests/gpu/test_gpu_codec
timeout 100 stdbuf -oL $G --quick > $OUT/codec_quick.log 2>&1; rc=$?; echo "test_gpu_codec --quick: rc $rc $(grep -m1 'passed,' $OUT/codec_quick.log)"; grep -m5 FAIL $OUT/codec_quick.log; [ $rc = 0 ] || { tail -5 $OUT/codec_quick.log; exit 1; }
python3 h5tests/gpu/extract_fields.py .devdata/real_fields_dev.h5 $B/fields > /dev/null
(timeout 420 stdbuf -oL $G --fields $B/fields --large > $OUT/gpu_codec.log 2>&1; echo "test_gpu_codec --fields --large: rc $? $(grep -m1 'passed,' $OUT/gpu_codec.log)" > $OUT/gpu_codec.rc) &
export GLIDE_PLUGIN_DIR=$PWD/$B/plugin GLIDE_DATA_DIR=$PWD/.devdata GLIDE_REQUIRE_DATA=1
(cd $B && GLIDE_BACKEND=gpu timeout 420 ctest --output-on-failure -j6 -E '^gpu_codec$' > $OUT/ctest_gpu.log 2>&1; echo "ctest (GLIDE_BACKEND=gpu, all but gpu_codec): rc $? $(grep -m1 'tests passed' $OUT/ctest_gpu.log)")
wait; cat $OUT/gpu_codec.rc; grep -m5 "FAIL" $OUT/gpu_codec.log; grep "behind the plan's gate:\|plane 0 histogram by\|entropy plans" $OUT/gpu_codec.log; grep -i "failed\|\*\*\*" $OUT/ctest_gpu.log | head -5
GLIDE_GPU_SPLIT_POINTS=20000 timeout 150 compute-sanitizer --tool memcheck --leak-check no --error-exitcode 9 $G --quick > $OUT/memcheck.log 2>&1; echo "memcheck codec --quick: rc $? $(grep -m1 'ERROR SUMMARY' $OUT/memcheck.log)"
HDF5_PLUGIN_PATH=$PWD/$B/plugin GLIDE_BACKEND=gpu timeout 60 $B/examples/glide_demo -o /tmp/glide_demo_gpu.h5 2>&1 | tee $OUT/demo_gpu.txt | tail -3
for s in 64 256; do timeout 60 $B/bench/gpu_probe $s 30 fresh check 2>&1 | grep '^check' | sed "s/^/$s: /"; done | tee $OUT/check3.txt
run() { env $2 timeout 90 $B/bench/glide_gpu_bench --kernels --out $OUT/k_$1_$3.md >/dev/null 2>&1; f=$OUT/k_$1_$3.md
  echo "$1 r$3: 64^3 $(grep -m1 '^| 64³ | 1.0 |' $f | cut -d'|' -f5,7) 256^3 $(grep -m1 '^| 256³ | 67.1 |' $f | cut -d'|' -f5,7) 512^3 $(grep -m1 '^| 512³ | 536.9 |' $f | cut -d'|' -f5,7)"; }
for r in $(seq 1 ${ROUNDS:-5}); do
  run off GLIDE_GPU_PLAN_GATE=0 $r
  run gate X=0 $r
done | tee $OUT/ab3.txt
p() { echo "r$1 $2: $(env $3 timeout 60 $B/bench/gpu_probe 64 300 fresh 2>&1 | grep '^side' | sed 's/side [0-9]*, 300 runs//' | tr '\n' ' ')"; }
for r in 1 2 3; do p $r gate X=0; p $r off GLIDE_GPU_PLAN_GATE=0; done | tee $OUT/probe3.txt
timeout 60 $B/bench/gpu_trace 256 20 > $OUT/trace256_gate.txt 2>&1; grep -m1 "compress (median" $OUT/trace256_gate.txt
GLIDE_GPU_SPLIT_POINTS=40000 timeout 150 compute-sanitizer --tool racecheck --error-exitcode 9 $G --race > $OUT/racecheck.log 2>&1; echo "racecheck codec --race: rc $? $(grep -m1 'RACECHECK SUMMARY' $OUT/racecheck.log) $(grep -m1 'passed,' $OUT/racecheck.log)"
cd $OUT && tar czf logs3.tgz *.log k_*.md && rm -f *.log k_*.md
