#!/usr/bin/env bash
# session s1127d run 5: plane 0 counted by the unsplit interpolation kernel only (split chunks keep
# hist0_k; GLIDE_X_H0=0: hist0_k everywhere, as main); the speculated interpolation's side streams 0
# and 1 at the greatest priority (GLIDE_X_PRIO=1); the trial's Lorenzo and slices after tuning's costs
# (GLIDE_X_TRIAL=1). Tests, checks, ROUNDS alternated kernel-only rounds, 256^3 traces.
OUT=${OUT:-/tmp/r5}; mkdir -p $OUT
nvidia-smi -L
B=build-g90; mkdir -p $B; tar xf .bin/tree.tar.xz -C $B
G=$B/h5tests/gpu/test_gpu_codec
t() { env $2 timeout 150 stdbuf -oL $G --quick > $OUT/codec_$1.log 2>&1; echo "test_gpu_codec --quick $1 ($2): rc $? $(grep -m1 'passed,' $OUT/codec_$1.log)"; grep -m5 FAIL $OUT/codec_$1.log; }
t default X=0
t trial1prio "GLIDE_X_TRIAL=1 GLIDE_X_PRIO=1 GLIDE_GPU_SPLIT_POINTS=20000"
for v in "X=0" "GLIDE_X_TRIAL=1 GLIDE_X_PRIO=1"; do for s in 64 256; do env $v timeout 60 $B/bench/gpu_probe $s 20 fresh check 2>&1 | grep '^check' | sed "s/^/$s $v: /"; done; done | tee $OUT/check5.txt
run() { env $2 timeout 90 $B/bench/glide_gpu_bench --kernels --out $OUT/k_$1_$3.md >/dev/null 2>&1; f=$OUT/k_$1_$3.md
  echo "$1 r$3: 64^3 $(grep -m1 '^| 64³ | 1.0 |' $f | cut -d'|' -f5,7) 256^3 $(grep -m1 '^| 256³ | 67.1 |' $f | cut -d'|' -f5,7) 512^3 $(grep -m1 '^| 512³ | 536.9 |' $f | cut -d'|' -f5,7)"; }
for r in $(seq 1 ${ROUNDS:-3}); do
  run base GLIDE_X_H0=0 $r
  run h0 X=0 $r
  run prio GLIDE_X_PRIO=1 $r
  run trial1prio "GLIDE_X_TRIAL=1 GLIDE_X_PRIO=1" $r
  run trial1 GLIDE_X_TRIAL=1 $r
done | tee $OUT/ab5.txt
for v in "prio GLIDE_X_PRIO=1" "trial1prio GLIDE_X_TRIAL=1 GLIDE_X_PRIO=1"; do set -- $v; n=$1; shift; env "$@" timeout 60 $B/bench/gpu_trace 256 20 > $OUT/trace256_$n.txt 2>&1; echo "$n $(grep -m1 'compress (median' $OUT/trace256_$n.txt)"; done
cd $OUT && tar czf logs5.tgz *.log k_*.md && rm -f *.log k_*.md
