#!/usr/bin/env bash
# session s1127c run 1 (2026-11-27): branch exp-gate-groups (6e5c8e4 + knobs: the gated upload's
# helper pieces GLIDE_X_GATE_PIECE_KB and its DMA size GLIDE_X_GATE_DMA_KB, a DMA behind one wait
# per group of pieces; defaults as main). First the review commit's tests: test_gpu_codec --quick,
# its memcheck, gpu_probe check at 64^3 (default and grouped) and 256^3; then ROUNDS alternated
# rounds of gpu_probe SIDE 300 fresh over the configurations; traces of 64^3.
OUT=${OUT:-/tmp/r1}; mkdir -p $OUT
nvidia-smi -L
B=/tmp/glide_prebuilt; rm -rf $B; mkdir -p $B; tar xf .bin/bins.tar.xz -C $B
timeout 200 stdbuf -oL $B/test_gpu_codec --quick > $OUT/codec_quick.log 2>&1; echo "test_gpu_codec --quick: rc $? $(grep -m1 'passed,' $OUT/codec_quick.log)"; grep -m5 "FAIL" $OUT/codec_quick.log
GLIDE_X_GATE_PIECE_KB=64 GLIDE_X_GATE_DMA_KB=512 timeout 200 stdbuf -oL $B/test_gpu_codec --quick > $OUT/codec_quick_g.log 2>&1; echo "test_gpu_codec --quick grouped: rc $? $(grep -m1 'passed,' $OUT/codec_quick_g.log)"; grep -m5 "FAIL" $OUT/codec_quick_g.log
GLIDE_GPU_SPLIT_POINTS=20000 timeout 150 compute-sanitizer --tool memcheck --leak-check no --error-exitcode 9 $B/test_gpu_codec --quick > $OUT/memcheck.log 2>&1; echo "memcheck codec --quick: rc $? $(grep -m1 'ERROR SUMMARY' $OUT/memcheck.log)"
timeout 60 $B/gpu_probe 256 10 fresh check 2>&1 | grep '^side\|^check' | tee $OUT/check1.txt
timeout 30 $B/gpu_probe 64 50 fresh check 2>&1 | grep '^side\|^check' | tee -a $OUT/check1.txt
GLIDE_X_GATE_PIECE_KB=64 GLIDE_X_GATE_DMA_KB=1024 timeout 30 $B/gpu_probe 64 50 fresh check 2>&1 | grep '^side\|^check' | tee -a $OUT/check1.txt
GLIDE_X_GATE_DMA_KB=2048 timeout 30 $B/gpu_probe 128 20 fresh check 2>&1 | grep '^side\|^check' | tee -a $OUT/check1.txt
p() { echo "r$1 $2 $3: $(env $4 timeout 60 $B/gpu_probe $3 300 fresh 2>&1 | grep '^side' | sed 's/side [0-9]*, 300 runs//' | tr '\n' ' ')"; }
for r in $(seq 1 ${ROUNDS:-3}); do
  for s in 64 128; do
    p $r base $s X=0
    p $r p64d1024 $s "GLIDE_X_GATE_PIECE_KB=64 GLIDE_X_GATE_DMA_KB=1024"
    p $r p64d512 $s "GLIDE_X_GATE_PIECE_KB=64 GLIDE_X_GATE_DMA_KB=512"
    p $r p64d256 $s "GLIDE_X_GATE_PIECE_KB=64 GLIDE_X_GATE_DMA_KB=256"
    p $r p64 $s "GLIDE_X_GATE_PIECE_KB=64"
    p $r h8 $s "GLIDE_GPU_COPY_THREADS=8"
    p $r h8p64d512 $s "GLIDE_GPU_COPY_THREADS=8 GLIDE_X_GATE_PIECE_KB=64 GLIDE_X_GATE_DMA_KB=512"
    p $r pageable $s GLIDE_GPU_GATED_UPLOAD=0
  done
done | tee $OUT/ab1.txt
mkdir -p $OUT/tr
timeout 60 $B/gpu_trace 64 > $OUT/tr/trace64_base.txt 2>&1
GLIDE_X_GATE_PIECE_KB=64 GLIDE_X_GATE_DMA_KB=1024 timeout 60 $B/gpu_trace 64 > $OUT/tr/trace64_d1024.txt 2>&1
GLIDE_X_GATE_PIECE_KB=64 GLIDE_X_GATE_DMA_KB=512 timeout 60 $B/gpu_trace 64 > $OUT/tr/trace64_d512.txt 2>&1
cd $OUT && tar czf traces1.tgz tr && rm -rf tr && tar czf logs1.tgz *.log && rm -f *.log
