#!/usr/bin/env bash
# session s1127d run 3: plane 0's histogram by the interpolation kernels (PART_ALL) or, for a split
# interpolation, from its lattice symbols beside the fine kernel (hist0_lattice_k); hist0_k returns at
# once (GLIDE_X_H0=0: hist0_k counts, as before). Tests (--quick default and split from 20000 points,
# memcheck, check against the CPU at 64^3 and 256^3), ROUNDS alternated kernel-only rounds, 256^3
# traces both ways, then gpu_probe 64 300 fresh both ways.
OUT=${OUT:-/tmp/r3}; mkdir -p $OUT
nvidia-smi -L
B=build-g90; mkdir -p $B; tar xf .bin/tree.tar.xz -C $B
G=$B/h5tests/gpu/test_gpu_codec
t() { env $2 timeout 150 stdbuf -oL $G --quick > $OUT/codec_$1.log 2>&1; echo "test_gpu_codec --quick $1 ($2): rc $? $(grep -m1 'passed,' $OUT/codec_$1.log)"; grep -m5 FAIL $OUT/codec_$1.log; }
t default X=0
t split GLIDE_GPU_SPLIT_POINTS=20000
GLIDE_GPU_SPLIT_POINTS=20000 timeout 150 compute-sanitizer --tool memcheck --leak-check no --error-exitcode 9 $G --quick > $OUT/memcheck.log 2>&1; echo "memcheck codec --quick: rc $? $(grep -m1 'ERROR SUMMARY' $OUT/memcheck.log)"
for s in 64 256; do timeout 60 $B/bench/gpu_probe $s 20 fresh check 2>&1 | grep '^check' | sed "s/^/$s: /"; done | tee $OUT/check3.txt
run() { env $2 timeout 90 $B/bench/glide_gpu_bench --kernels --out $OUT/k_$1_$3.md >/dev/null 2>&1; f=$OUT/k_$1_$3.md
  echo "$1 r$3: 64^3 $(grep -m1 '^| 64³ | 1.0 |' $f | cut -d'|' -f5,7) 256^3 $(grep -m1 '^| 256³ | 67.1 |' $f | cut -d'|' -f5,7) 512^3 $(grep -m1 '^| 512³ | 536.9 |' $f | cut -d'|' -f5,7)"; }
for r in $(seq 1 ${ROUNDS:-3}); do
  run base GLIDE_X_H0=0 $r
  run h0 X=0 $r
done | tee $OUT/ab3.txt
timeout 60 $B/bench/gpu_trace 256 20 > $OUT/trace256_h0.txt 2>&1; grep -m1 "compress (median" $OUT/trace256_h0.txt
GLIDE_X_H0=0 timeout 60 $B/bench/gpu_trace 256 20 > $OUT/trace256_base.txt 2>&1; grep -m1 "compress (median" $OUT/trace256_base.txt
p() { echo "r$1 $2: $(env $3 timeout 60 $B/bench/gpu_probe 64 300 fresh 2>&1 | grep '^side' | sed 's/side [0-9]*, 300 runs//' | tr '\n' ' ')"; }
for r in $(seq 1 ${ROUNDS:-3}); do p $r h0 X=0; p $r base GLIDE_X_H0=0; done | tee $OUT/probe3.txt
cd $OUT && tar czf logs3.tgz *.log k_*.md && rm -f *.log k_*.md
