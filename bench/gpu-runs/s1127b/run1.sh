#!/usr/bin/env bash
# session s1127b run 1 (2026-11-27): binary of branch exp-s1127b = main 9374fcc + the gated upload
# (5df6773, on by default; GLIDE_GPU_GATED_UPLOAD=0 the pageable copy) + the spec fork knob
# (GLIDE_X_SPEC_FORK=1, off by default). Tests: test_gpu_huff (9374fcc never ran on a device),
# test_gpu_codec --quick (gated uploads, the late-failure hook), memcheck of codec --quick.
# A/B 1: API calls with transfers, gpu_probe SIDE 300 fresh, gated vs pageable, alternated ROUNDS.
# A/B 2: kernel-only, spec fork vs main, alternated rounds; gpu_trace 64 both upload ways.
OUT=${OUT:-/tmp/r1}; mkdir -p $OUT
nvidia-smi -L; nproc; grep -m1 "model name" /proc/cpuinfo
B=/tmp/glide_prebuilt; rm -rf $B; mkdir -p $B; tar xJf .bin/bins.tar.xz -C $B
timeout 200 $B/test_gpu_huff > $OUT/huff.log 2>&1; echo "test_gpu_huff: rc $? $(tail -1 $OUT/huff.log)"; grep -m5 "FAIL\|WRONG" $OUT/huff.log
timeout 200 $B/test_gpu_codec --quick > $OUT/codec.log 2>&1; echo "test_gpu_codec --quick: rc $? $(grep -m1 'passed,' $OUT/codec.log)"; grep -m5 "FAIL" $OUT/codec.log
for r in $(seq 1 ${ROUNDS:-3}); do
  for s in 64 32 128; do
    echo "r$r gated   $(GLIDE_GPU_GATED_UPLOAD=1 $B/gpu_probe $s 300 fresh 2>&1 | grep '^side' | tr '\n' ' ')"
    echo "r$r pageable $(GLIDE_GPU_GATED_UPLOAD=0 $B/gpu_probe $s 300 fresh 2>&1 | grep '^side' | tr '\n' ' ')"
  done
done | tee $OUT/ab_gate.txt
$B/gpu_probe 64 300 fresh > $OUT/probe64_host.txt 2>&1; tail -3 $OUT/probe64_host.txt
$B/gpu_trace 64 7 > $OUT/trace64_gated.txt 2>&1; grep -m1 "compress (median" $OUT/trace64_gated.txt
GLIDE_GPU_GATED_UPLOAD=0 $B/gpu_trace 64 7 > $OUT/trace64_pageable.txt 2>&1; grep -m1 "compress (median" $OUT/trace64_pageable.txt
GLIDE_GPU_SPLIT_POINTS=20000 timeout 150 compute-sanitizer --tool memcheck --leak-check no --error-exitcode 9 $B/test_gpu_codec --quick > $OUT/memcheck.log 2>&1; echo "memcheck codec --quick: rc $? $(grep -m1 'ERROR SUMMARY' $OUT/memcheck.log)"
run() { env $2 $B/glide_gpu_bench --kernels --out $OUT/k_$1_$3.md >/dev/null 2>&1; f=$OUT/k_$1_$3.md
  echo "$1 r$3: 64^3 $(grep -m1 '^| 64³ | 1.0 |' $f | cut -d'|' -f5,7) 256^3 $(grep -m1 '^| 256³ | 67.1 |' $f | cut -d'|' -f5,7) 512^3 $(grep -m1 '^| 512³ | 536.9 |' $f | cut -d'|' -f5,7)"; }
for r in $(seq 1 ${ROUNDS:-3}); do
  run fork GLIDE_X_SPEC_FORK=1 $r
  run main X=0 $r
done | tee $OUT/ab_fork.txt
cd $OUT && tar czf reports1.tgz k_*.md && rm -f k_*.md
