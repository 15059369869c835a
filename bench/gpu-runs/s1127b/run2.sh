#!/usr/bin/env bash
# session s1127b run 2 (2026-11-27): run 1 hung in the first gated upload (the host copied after
# queuing the pipeline; queuing can synchronise the context). Binary of exp-s1127b at 35ec59a: the
# gated upload copies on the helper threads while the caller queues. A guarded first call, then
# the tests, the upload A/B (gpu_probe SIDE 300 fresh, gated vs GLIDE_GPU_GATED_UPLOAD=0, ROUNDS
# alternated), traces of 64^3 both ways, the spec-fork kernel-only A/B, memcheck last.
OUT=${OUT:-/tmp/r2}; mkdir -p $OUT
nvidia-smi -L; nproc; grep -m1 "model name" /proc/cpuinfo
B=/tmp/glide_prebuilt; rm -rf $B; mkdir -p $B; tar xJf .bin/bins.tar.xz -C $B
timeout 30 $B/gpu_probe 64 20 > $OUT/guard.txt 2>&1; rc=$?; echo "guard gated gpu_probe 64 20: rc $rc $(grep '^side' $OUT/guard.txt)"
G=1; if [ $rc != 0 ]; then G=0; CUDA_MODULE_LOADING=EAGER timeout 30 $B/gpu_probe 64 20 > $OUT/guard_eager.txt 2>&1; echo "eager: rc $? $(grep '^side' $OUT/guard_eager.txt)"; fi
export GLIDE_GPU_GATED_UPLOAD=$G
timeout 120 $B/test_gpu_huff > $OUT/huff.log 2>&1; echo "test_gpu_huff: rc $? $(tail -1 $OUT/huff.log)"; grep -m5 "FAIL\|WRONG" $OUT/huff.log
timeout 200 stdbuf -oL $B/test_gpu_codec --quick > $OUT/codec.log 2>&1; echo "test_gpu_codec --quick (gated=$G): rc $? $(grep -m1 'passed,' $OUT/codec.log)"; grep -m5 "FAIL" $OUT/codec.log
if [ $G = 1 ]; then
for r in $(seq 1 ${ROUNDS:-3}); do
  for s in 64 32 128; do
    echo "r$r gated    $(GLIDE_GPU_GATED_UPLOAD=1 timeout 60 $B/gpu_probe $s 300 fresh 2>&1 | grep '^side' | tr '\n' ' ')"
    echo "r$r pageable $(GLIDE_GPU_GATED_UPLOAD=0 timeout 60 $B/gpu_probe $s 300 fresh 2>&1 | grep '^side' | tr '\n' ' ')"
  done
done | tee $OUT/ab_gate.txt
timeout 60 $B/gpu_probe 64 300 fresh > $OUT/probe64_host.txt 2>&1; tail -1 $OUT/probe64_host.txt
timeout 60 $B/gpu_trace 64 7 > $OUT/trace64_gated.txt 2>&1; grep -m1 "compress (median" $OUT/trace64_gated.txt
GLIDE_GPU_GATED_UPLOAD=0 timeout 60 $B/gpu_trace 64 7 > $OUT/trace64_pageable.txt 2>&1; grep -m1 "compress (median" $OUT/trace64_pageable.txt
fi
run() { env $2 timeout 90 $B/glide_gpu_bench --kernels --out $OUT/k_$1_$3.md >/dev/null 2>&1; f=$OUT/k_$1_$3.md
  echo "$1 r$3: 64^3 $(grep -m1 '^| 64³ | 1.0 |' $f | cut -d'|' -f5,7) 256^3 $(grep -m1 '^| 256³ | 67.1 |' $f | cut -d'|' -f5,7) 512^3 $(grep -m1 '^| 512³ | 536.9 |' $f | cut -d'|' -f5,7)"; }
for r in $(seq 1 ${ROUNDS:-3}); do
  run fork GLIDE_X_SPEC_FORK=1 $r
  run main X=0 $r
done | tee $OUT/ab_fork.txt
cd $OUT && tar czf reports2.tgz k_*.md && rm -f k_*.md; cd - >/dev/null
GLIDE_GPU_SPLIT_POINTS=20000 timeout 120 compute-sanitizer --tool memcheck --leak-check no --error-exitcode 9 $B/test_gpu_codec --quick > $OUT/memcheck.log 2>&1; echo "memcheck codec --quick: rc $? $(grep -m1 'ERROR SUMMARY' $OUT/memcheck.log)"
