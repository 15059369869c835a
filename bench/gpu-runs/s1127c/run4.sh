#!/usr/bin/env bash
# session s1127c run 4 (2026-11-27): run 3's candidate + knob GLIDE_X_DELIVER_KB: the tail's last
# kernel (gg_deliver) writes the stream and the state's last fields into pinned host memory when the
# plan's bound is at most that many KiB, instead of two copies queued behind the tail's graph.
# test_gpu_codec --quick and its memcheck with it (1024), gpu_probe check; ROUNDS alternated rounds
# of gpu_probe SIDE 300 fresh at 64^3 and 128^3: off, 256, 1024, pageable; a trace of 64^3.
OUT=${OUT:-/tmp/r4}; mkdir -p $OUT
nvidia-smi -L
B=/tmp/glide_prebuilt; rm -rf $B; mkdir -p $B; tar xf .bin/bins.tar.xz -C $B
export GLIDE_X_DELIVER_KB=1024
timeout 200 stdbuf -oL $B/test_gpu_codec --quick > $OUT/codec_quick.log 2>&1; echo "test_gpu_codec --quick (deliver 1024): rc $? $(grep -m1 'passed,' $OUT/codec_quick.log)"; grep -m5 "FAIL" $OUT/codec_quick.log
GLIDE_GPU_SPLIT_POINTS=20000 timeout 150 compute-sanitizer --tool memcheck --leak-check no --error-exitcode 9 $B/test_gpu_codec --quick > $OUT/memcheck.log 2>&1; echo "memcheck codec --quick (deliver 1024): rc $? $(grep -m1 'ERROR SUMMARY' $OUT/memcheck.log)"
timeout 30 $B/gpu_probe 64 50 fresh check 2>&1 | grep '^side\|^check' | tee $OUT/check4.txt
timeout 30 $B/gpu_probe 128 20 fresh check 2>&1 | grep '^side\|^check' | tee -a $OUT/check4.txt
unset GLIDE_X_DELIVER_KB
p() { echo "r$1 $2 $3: $(env $4 timeout 60 $B/gpu_probe $3 300 fresh 2>&1 | grep '^side' | sed 's/side [0-9]*, 300 runs//' | tr '\n' ' ')"; }
for r in $(seq 1 ${ROUNDS:-3}); do
  for s in 64 128; do
    p $r early $s X=0
    p $r deliver256 $s GLIDE_X_DELIVER_KB=256
    p $r deliver1024 $s GLIDE_X_DELIVER_KB=1024
    p $r pageable $s GLIDE_GPU_GATED_UPLOAD=0
  done
done | tee $OUT/ab4.txt
mkdir -p $OUT/tr
GLIDE_X_DELIVER_KB=1024 timeout 60 $B/gpu_trace 64 > $OUT/tr/trace64_deliver.txt 2>&1
cd $OUT && tar czf traces4.tgz tr && rm -rf tr && tar czf logs4.tgz *.log && rm -f *.log
