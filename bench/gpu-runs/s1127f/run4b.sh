#!/usr/bin/env bash
# session s1127f run 4b, after 4a on the same machine: ROUNDS alternated kernel-only rounds, the
# previous main's benchmark ("old", .bin/old.tar.xz) against this build's ("new"); gpu_probe 64 300
# fresh, 5 rounds new / old, and 3 rounds of this build with the host planning every chunk
# ("host": the tail behind the plan's gate); the 256^3 trace.
OUT=${OUT:-/tmp/r4}; mkdir -p $OUT
nvidia-smi -L
B=build-g90; mkdir -p $B old; [ -x $B/bench/glide_gpu_bench ] || tar xf .bin/tree.tar.xz -C $B; tar xf .bin/old.tar.xz -C old
run() { timeout 90 $2/bench/glide_gpu_bench --kernels --out $OUT/k_$1_$3.md >/dev/null 2>&1; f=$OUT/k_$1_$3.md
  echo "$1 r$3: 64^3 $(grep -m1 '^| 64³ | 1.0 |' $f | cut -d'|' -f5,7) 256^3 $(grep -m1 '^| 256³ | 67.1 |' $f | cut -d'|' -f5,7) 512^3 $(grep -m1 '^| 512³ | 536.9 |' $f | cut -d'|' -f5,7)"; }
for r in $(seq 1 ${ROUNDS:-5}); do
  run old old $r
  run new $B $r
done | tee $OUT/ab4.txt
p() { echo "r$1 $2: $(timeout 60 $3/bench/gpu_probe 64 300 fresh $4 2>&1 | grep '^side\|^host' | sed 's/side [0-9]*, 300 runs//' | tr '\n' ' ')"; }
for r in 1 2 3 4 5; do p $r new $B; p $r old old; [ $r -le 3 ] && p $r host $B host; done | tee $OUT/probe4.txt
timeout 60 $B/bench/gpu_trace 256 20 > $OUT/trace256_new.txt 2>&1; grep -m1 "compress (median" $OUT/trace256_new.txt
timeout 60 $B/bench/gpu_trace 64 50 > $OUT/trace64_new.txt 2>&1; grep -m1 "compress (median" $OUT/trace64_new.txt
cd $OUT && tar czf logs4b.tgz k_*.md && rm -f k_*.md
