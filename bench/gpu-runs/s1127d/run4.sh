#!/usr/bin/env bash
# session s1127d run 4: plane 0's histogram beside the fine kernel, now launched after it
# (GLIDE_X_H0=0: hist0_k after the fine kernel, as main); the block trial's Lorenzo and slices
# after tuning's costs (GLIDE_X_TRIAL=1) or after its blends (2) instead of beside tuning (0). Tests,
# checks against the CPU, ROUNDS alternated kernel-only rounds, 256^3 traces.
OUT=${OUT:-/tmp/r4}; mkdir -p $OUT
nvidia-smi -L
B=build-g90; mkdir -p $B; tar xf .bin/tree.tar.xz -C $B
G=$B/h5tests/gpu/test_gpu_codec
t() { env $2 timeout 150 stdbuf -oL $G --quick > $OUT/codec_$1.log 2>&1; echo "test_gpu_codec --quick $1 ($2): rc $? $(grep -m1 'passed,' $OUT/codec_$1.log)"; grep -m5 FAIL $OUT/codec_$1.log; }
t default X=0
t trial1 GLIDE_X_TRIAL=1
t trial2_split "GLIDE_X_TRIAL=2 GLIDE_GPU_SPLIT_POINTS=20000"
GLIDE_GPU_SPLIT_POINTS=20000 timeout 150 compute-sanitizer --tool memcheck --leak-check no --error-exitcode 9 $G --quick > $OUT/memcheck.log 2>&1; echo "memcheck codec --quick: rc $? $(grep -m1 'ERROR SUMMARY' $OUT/memcheck.log)"
for x in 0 1 2; do for s in 64 256; do GLIDE_X_TRIAL=$x timeout 60 $B/bench/gpu_probe $s 20 fresh check 2>&1 | grep '^check' | sed "s/^/$s trial$x: /"; done; done | tee $OUT/check4.txt
run() { env $2 timeout 90 $B/bench/glide_gpu_bench --kernels --out $OUT/k_$1_$3.md >/dev/null 2>&1; f=$OUT/k_$1_$3.md
  echo "$1 r$3: 64^3 $(grep -m1 '^| 64³ | 1.0 |' $f | cut -d'|' -f5,7) 256^3 $(grep -m1 '^| 256³ | 67.1 |' $f | cut -d'|' -f5,7) 512^3 $(grep -m1 '^| 512³ | 536.9 |' $f | cut -d'|' -f5,7)"; }
for r in $(seq 1 ${ROUNDS:-3}); do
  run base GLIDE_X_H0=0 $r
  run h0 X=0 $r
  run trial1 GLIDE_X_TRIAL=1 $r
  run trial2 GLIDE_X_TRIAL=2 $r
done | tee $OUT/ab4.txt
for v in "h0 X=0" "trial1 GLIDE_X_TRIAL=1" "trial2 GLIDE_X_TRIAL=2"; do set -- $v; env $2 timeout 60 $B/bench/gpu_trace 256 20 > $OUT/trace256_$1.txt 2>&1; echo "$1 $(grep -m1 'compress (median' $OUT/trace256_$1.txt)"; done
cd $OUT && tar czf logs4.tgz *.log k_*.md && rm -f *.log k_*.md
