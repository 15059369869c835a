#!/usr/bin/env bash
# session s1127d run 8: racecheck of test_gpu_codec --race (split from 40000 points, as
# h5tests/gpu/run.sh) on the final code; then the final code ("new", build-g90) against main at
# 9f830cc ("main", .bin/main: glide_gpu_bench and gpu_probe built the same way), alternated:
# ROUNDS kernel-only rounds, then gpu_probe 64 300 fresh three rounds.
OUT=${OUT:-/tmp/r8}; mkdir -p $OUT
nvidia-smi -L
B=build-g90; mkdir -p $B /tmp/main; tar xf .bin/tree.tar.xz -C $B; tar xf .bin/main.tar.xz -C /tmp/main
G=$B/h5tests/gpu/test_gpu_codec
GLIDE_GPU_SPLIT_POINTS=40000 timeout 200 compute-sanitizer --tool racecheck --error-exitcode 9 $G --race > $OUT/racecheck.log 2>&1; echo "racecheck codec --race: rc $? $(grep -m1 'RACECHECK SUMMARY' $OUT/racecheck.log) $(grep -m1 'passed,' $OUT/racecheck.log)"
run() { timeout 90 $2 --kernels --out $OUT/k_$1_$3.md >/dev/null 2>&1; f=$OUT/k_$1_$3.md
  echo "$1 r$3: 64^3 $(grep -m1 '^| 64³ | 1.0 |' $f | cut -d'|' -f5,7) 256^3 $(grep -m1 '^| 256³ | 67.1 |' $f | cut -d'|' -f5,7) 512^3 $(grep -m1 '^| 512³ | 536.9 |' $f | cut -d'|' -f5,7)"; }
for r in $(seq 1 ${ROUNDS:-5}); do
  run main /tmp/main/glide_gpu_bench $r
  run new $B/bench/glide_gpu_bench $r
done | tee $OUT/ab8.txt
p() { echo "r$1 $2: $(timeout 60 $3 64 300 fresh 2>&1 | grep '^side' | sed 's/side [0-9]*, 300 runs//' | tr '\n' ' ')"; }
for r in 1 2 3; do p $r new $B/bench/gpu_probe; p $r main /tmp/main/gpu_probe; done | tee $OUT/probe8.txt
cd $OUT && tar czf logs8.tgz *.log k_*.md && rm -f *.log k_*.md
