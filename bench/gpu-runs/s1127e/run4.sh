#!/usr/bin/env bash
# session s1127e run 4, the final code: run 3's with the host plan's tail as a graph of its own
# (tail_h: apply_plan_k at its head) and the encoder's look-back words zeroed while the host plans
# (gg_huff_encode_zero, stage "encoder words"). test_gpu_codec --quick, also split from 20000 points
# (stops at a failure); test_gpu_huff (every other placed encode zeroed ahead in a dirty scratch);
# memcheck of --quick; gpu_probe check at 64^3 and 256^3; ROUNDS alternated kernel-only rounds gate
# off / on; the 256^3 trace.
OUT=${OUT:-/tmp/r4}; mkdir -p $OUT
nvidia-smi -L
B=build-g90; mkdir -p $B; tar xf .bin/tree.tar.xz -C $B
G=$B/h5tests/gpu/test_gpu_codec
t() { env $2 timeout 100 stdbuf -oL $G --quick > $OUT/codec_$1.log 2>&1; rc=$?; echo "test_gpu_codec --quick $1 ($2): rc $rc $(grep -m1 'passed,' $OUT/codec_$1.log)"; grep -m5 FAIL $OUT/codec_$1.log; grep "behind the plan's gate:" $OUT/codec_$1.log; [ $rc = 0 ] || { tail -5 $OUT/codec_$1.log; exit 1; }; }
t default X=0
t split GLIDE_GPU_SPLIT_POINTS=20000
timeout 100 $B/gpu/test_gpu_huff > $OUT/gpu_huff.log 2>&1; echo "test_gpu_huff: rc $? $(tail -1 $OUT/gpu_huff.log)"
GLIDE_GPU_SPLIT_POINTS=20000 timeout 150 compute-sanitizer --tool memcheck --leak-check no --error-exitcode 9 $G --quick > $OUT/memcheck.log 2>&1; echo "memcheck codec --quick: rc $? $(grep -m1 'ERROR SUMMARY' $OUT/memcheck.log) $(grep -m1 'passed,' $OUT/memcheck.log)"
for s in 64 256; do timeout 60 $B/bench/gpu_probe $s 20 fresh check 2>&1 | grep '^check' | sed "s/^/$s: /"; done | tee $OUT/check4.txt
run() { env $2 timeout 90 $B/bench/glide_gpu_bench --kernels --out $OUT/k_$1_$3.md >/dev/null 2>&1; f=$OUT/k_$1_$3.md
  echo "$1 r$3: 64^3 $(grep -m1 '^| 64³ | 1.0 |' $f | cut -d'|' -f5,7) 256^3 $(grep -m1 '^| 256³ | 67.1 |' $f | cut -d'|' -f5,7) 512^3 $(grep -m1 '^| 512³ | 536.9 |' $f | cut -d'|' -f5,7)"; }
for r in $(seq 1 ${ROUNDS:-5}); do
  run off GLIDE_GPU_PLAN_GATE=0 $r
  run gate X=0 $r
done | tee $OUT/ab4.txt
timeout 60 $B/bench/gpu_trace 256 20 > $OUT/trace256_gate.txt 2>&1; grep -m1 "compress (median" $OUT/trace256_gate.txt
cd $OUT && tar czf logs4.tgz *.log k_*.md && rm -f *.log k_*.md
