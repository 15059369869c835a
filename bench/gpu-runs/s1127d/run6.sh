#!/usr/bin/env bash
# session s1127d run 6: the candidate: plane 0 counted by the unsplit interpolation kernel (64^3;
# GLIDE_X_H0=0 off), and the large chunks' front with its own side streams 0 and 1 at the greatest
# priority (par_hi: the speculated interpolation; GLIDE_GPU_HI_SPEC=0 off). Tests, checks, then
# ROUNDS alternated kernel-only rounds of main's behaviour (both off) and the candidate; then
# gpu_probe 64 300 fresh, main's behaviour against the candidate, 3 rounds; a 256^3 trace.
OUT=${OUT:-/tmp/r6}; mkdir -p $OUT
nvidia-smi -L
B=build-g90; mkdir -p $B; tar xf .bin/tree.tar.xz -C $B
G=$B/h5tests/gpu/test_gpu_codec
t() { env $2 timeout 150 stdbuf -oL $G --quick > $OUT/codec_$1.log 2>&1; echo "test_gpu_codec --quick $1 ($2): rc $? $(grep -m1 'passed,' $OUT/codec_$1.log)"; grep -m5 FAIL $OUT/codec_$1.log; }
t default X=0
t split GLIDE_GPU_SPLIT_POINTS=20000
for s in 64 256; do timeout 60 $B/bench/gpu_probe $s 20 fresh check 2>&1 | grep '^check' | sed "s/^/$s: /"; done | tee $OUT/check6.txt
run() { env $2 timeout 90 $B/bench/glide_gpu_bench --kernels --out $OUT/k_$1_$3.md >/dev/null 2>&1; f=$OUT/k_$1_$3.md
  echo "$1 r$3: 64^3 $(grep -m1 '^| 64³ | 1.0 |' $f | cut -d'|' -f5,7) 256^3 $(grep -m1 '^| 256³ | 67.1 |' $f | cut -d'|' -f5,7) 512^3 $(grep -m1 '^| 512³ | 536.9 |' $f | cut -d'|' -f5,7)"; }
for r in $(seq 1 ${ROUNDS:-5}); do
  run main "GLIDE_X_H0=0 GLIDE_GPU_HI_SPEC=0" $r
  run new X=0 $r


done | tee $OUT/ab6.txt
p() { echo "r$1 $2: $(env $3 timeout 60 $B/bench/gpu_probe 64 300 fresh 2>&1 | grep '^side' | sed 's/side [0-9]*, 300 runs//' | tr '\n' ' ')"; }
for r in 1 2 3; do p $r new X=0; p $r main "GLIDE_X_H0=0 GLIDE_GPU_HI_SPEC=0"; done | tee $OUT/probe6.txt
timeout 60 $B/bench/gpu_trace 256 20 > $OUT/trace256_new.txt 2>&1; grep -m1 "compress (median" $OUT/trace256_new.txt
cd $OUT && tar czf logs6.tgz *.log k_*.md && rm -f *.log k_*.md
