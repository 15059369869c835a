#!/usr/bin/env bash
# session s1127e run 1 (first try: hung at the first gated apply_plan_k, lazy module loading; this is
# the second): the host plan's tail queued before the plan, behind a device wait on a mapped word
# (plan_gate_queue; GLIDE_GPU_PLAN_GATE=0 queues it after the plan, as before). Tests (--quick, also
# split from 20000 points; stops at a failure), checks; ROUNDS alternated kernel-only rounds gate off /
# on; gpu_probe 64 300 fresh off / on, 3 rounds; 256^3 traces both ways.
OUT=${OUT:-/tmp/r1}; mkdir -p $OUT
nvidia-smi -L
B=build-g90; mkdir -p $B; tar xf .bin/tree.tar.xz -C $B
G=$B/h5tests/gpu/test_gpu_codec
t() { env $2 timeout 100 stdbuf -oL $G --quick > $OUT/codec_$1.log 2>&1; rc=$?; echo "test_gpu_codec --quick $1 ($2): rc $rc $(grep -m1 'passed,' $OUT/codec_$1.log)"; grep -m5 FAIL $OUT/codec_$1.log; grep "behind the plan's gate:" $OUT/codec_$1.log; [ $rc = 0 ] || { tail -5 $OUT/codec_$1.log; exit 1; }; }
t default X=0
t split GLIDE_GPU_SPLIT_POINTS=20000
for s in 64 256; do timeout 60 $B/bench/gpu_probe $s 20 fresh check 2>&1 | grep '^check' | sed "s/^/$s: /"; done | tee $OUT/check1.txt
run() { env $2 timeout 90 $B/bench/glide_gpu_bench --kernels --out $OUT/k_$1_$3.md >/dev/null 2>&1; f=$OUT/k_$1_$3.md
  echo "$1 r$3: 64^3 $(grep -m1 '^| 64³ | 1.0 |' $f | cut -d'|' -f5,7) 256^3 $(grep -m1 '^| 256³ | 67.1 |' $f | cut -d'|' -f5,7) 512^3 $(grep -m1 '^| 512³ | 536.9 |' $f | cut -d'|' -f5,7)"; }
for r in $(seq 1 ${ROUNDS:-5}); do
  run off GLIDE_GPU_PLAN_GATE=0 $r
  run gate X=0 $r
done | tee $OUT/ab1.txt
p() { echo "r$1 $2: $(env $3 timeout 60 $B/bench/gpu_probe 64 300 fresh 2>&1 | grep '^side' | sed 's/side [0-9]*, 300 runs//' | tr '\n' ' ')"; }
for r in 1 2 3; do p $r gate X=0; p $r off GLIDE_GPU_PLAN_GATE=0; done | tee $OUT/probe1.txt
timeout 60 $B/bench/gpu_trace 256 20 > $OUT/trace256_gate.txt 2>&1; grep -m1 "compress (median" $OUT/trace256_gate.txt
GLIDE_GPU_PLAN_GATE=0 timeout 60 $B/bench/gpu_trace 256 20 > $OUT/trace256_off.txt 2>&1; grep -m1 "compress (median" $OUT/trace256_off.txt
cd $OUT && tar czf logs1.tgz *.log k_*.md && rm -f *.log k_*.md
