#!/usr/bin/env bash
# session s1127g run 7b, on run 7's machine: ROUNDS kernel-only rounds alternating the previous main
# ("old", .bin/old.tar.xz: 83935a5) and the CRC rework (6f4cb34); gpu_probe 64 300 fresh, new / old;
# the 256^3 trace of each (the CRC kernel's line); crc_probe and range_probe (.bin, built with 6f4cb34).
OUT=${OUT:-/tmp/r7b}; mkdir -p $OUT
nvidia-smi -L
B=build-g90; mkdir -p $B old; [ -x $B/bench/glide_gpu_bench ] || tar xf .bin/tree.tar.xz -C $B; tar xf .bin/old.tar.xz -C old
run() { timeout 90 $2/bench/glide_gpu_bench --kernels --out $OUT/k_$1_$3.md >/dev/null 2>&1; f=$OUT/k_$1_$3.md
  echo "$1 r$3: 64^3 $(grep -m1 '^| 64³ | 1.0 |' $f | cut -d'|' -f5,7) 256^3 $(grep -m1 '^| 256³ | 67.1 |' $f | cut -d'|' -f5,7) 512^3 $(grep -m1 '^| 512³ | 536.9 |' $f | cut -d'|' -f5,7)"; }
for r in $(seq 1 ${ROUNDS:-3}); do run old old $r; run new $B $r; done | tee $OUT/ab7.txt
p() { echo "r$1 $2: $(timeout 60 $3/bench/gpu_probe 64 300 fresh $4 2>&1 | grep '^side\|^host' | sed 's/side [0-9]*, 300 runs//' | tr '\n' ' ')"; }
for r in 1 2 3; do p $r new $B; p $r old old; done | tee $OUT/probe7.txt
for b in old new; do d=$B; [ $b = old ] && d=old; timeout 60 $d/bench/gpu_trace 256 7 > $OUT/trace256_$b.txt 2>&1
  echo "$b: $(grep -m1 'compress (median' $OUT/trace256_$b.txt | cut -c1-60) | $(grep -m1 k_crc $OUT/trace256_$b.txt)"; done
timeout 120 .bin/crc_probe > $OUT/crc_probe.txt; grep "now\|previous\|wrong" $OUT/crc_probe.txt
timeout 60 .bin/range_probe > $OUT/range_probe.txt; tail -14 $OUT/range_probe.txt
cd $OUT && tar czf logs7b.tgz k_*.md && rm -f k_*.md
