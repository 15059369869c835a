#!/usr/bin/env bash
# session s1127c run 3 (2026-11-27): main's candidate: the gated upload in 64 KiB pieces and 512 KiB
# DMAs, and the state's early copy (the host's re-check planned while the tail runs, the downloads
# queued before it; GLIDE_X_EARLY_STATE=0 turns it off). test_gpu_codec --quick, its memcheck,
# gpu_probe check; ROUNDS alternated rounds of gpu_probe SIDE 300 fresh at 64^3 and 128^3: early,
# early with 8 copy helpers, not early, pageable; a trace of 64^3.
OUT=${OUT:-/tmp/r3}; mkdir -p $OUT
nvidia-smi -L; pwd; ls -d /work 2>&1; grep PRETTY /etc/os-release
B=/tmp/glide_prebuilt; rm -rf $B; mkdir -p $B; tar xf .bin/bins.tar.xz -C $B
timeout 200 stdbuf -oL $B/test_gpu_codec --quick > $OUT/codec_quick.log 2>&1; echo "test_gpu_codec --quick: rc $? $(grep -m1 'passed,' $OUT/codec_quick.log)"; grep -m5 "FAIL" $OUT/codec_quick.log
GLIDE_GPU_SPLIT_POINTS=20000 timeout 150 compute-sanitizer --tool memcheck --leak-check no --error-exitcode 9 $B/test_gpu_codec --quick > $OUT/memcheck.log 2>&1; echo "memcheck codec --quick: rc $? $(grep -m1 'ERROR SUMMARY' $OUT/memcheck.log)"
timeout 30 $B/gpu_probe 64 50 fresh check 2>&1 | grep '^side\|^check' | tee $OUT/check3.txt
timeout 30 $B/gpu_probe 128 20 fresh check 2>&1 | grep '^side\|^check' | tee -a $OUT/check3.txt
p() { echo "r$1 $2 $3: $(env $4 timeout 60 $B/gpu_probe $3 300 fresh 2>&1 | grep '^side' | sed 's/side [0-9]*, 300 runs//' | tr '\n' ' ')"; }
for r in $(seq 1 ${ROUNDS:-3}); do
  for s in 64 128; do
    p $r early $s X=0
    p $r early_h8 $s GLIDE_GPU_COPY_THREADS=8
    p $r gated $s GLIDE_X_EARLY_STATE=0
    p $r pageable $s GLIDE_GPU_GATED_UPLOAD=0
  done
done | tee $OUT/ab3.txt
mkdir -p $OUT/tr
timeout 60 $B/gpu_trace 64 > $OUT/tr/trace64_early.txt 2>&1
GLIDE_GPU_COPY_THREADS=8 timeout 60 $B/gpu_trace 64 > $OUT/tr/trace64_early_h8.txt 2>&1
cd $OUT && tar czf traces3.tgz tr && rm -rf tr && tar czf logs3.tgz *.log && rm -f *.log
