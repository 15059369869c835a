#!/usr/bin/env bash
# session s1127f run 2: run 1's change (the encoder's words zeroed by the plan's kernel: "words",
# .bin/words.tar.xz) and this build, where the tail's anchors and outliers of chunks over 2^19
# points run on a side stream at the greatest priority ("new"), against the previous main ("old",
# .bin/old.tar.xz). test_gpu_codec --quick (stops at a failure); ROUNDS alternated kernel-only
# rounds old / words / new; the 256^3 trace of this build.
OUT=${OUT:-/tmp/r2}; mkdir -p $OUT
nvidia-smi -L
B=build-g90; mkdir -p $B old words; tar xf .bin/tree.tar.xz -C $B; tar xf .bin/old.tar.xz -C old; tar xf .bin/words.tar.xz -C words
G=$B/h5tests/gpu/test_gpu_codec
timeout 100 stdbuf -oL $G --quick > $OUT/codec_quick.log 2>&1; rc=$?; echo "test_gpu_codec --quick: rc $rc $(grep -m1 'passed,' $OUT/codec_quick.log)"; grep -m5 FAIL $OUT/codec_quick.log; [ $rc = 0 ] || { tail -5 $OUT/codec_quick.log; exit 1; }
run() { timeout 90 $2/bench/glide_gpu_bench --kernels --out $OUT/k_$1_$3.md >/dev/null 2>&1; f=$OUT/k_$1_$3.md
  echo "$1 r$3: 64^3 $(grep -m1 '^| 64³ | 1.0 |' $f | cut -d'|' -f5,7) 256^3 $(grep -m1 '^| 256³ | 67.1 |' $f | cut -d'|' -f5,7) 512^3 $(grep -m1 '^| 512³ | 536.9 |' $f | cut -d'|' -f5,7)"; }
for r in $(seq 1 ${ROUNDS:-5}); do
  run old old $r
  run words words $r
  run new $B $r
done | tee $OUT/ab2.txt
timeout 60 $B/bench/gpu_trace 256 20 > $OUT/trace256_new.txt 2>&1; grep -m1 "compress (median" $OUT/trace256_new.txt
cd $OUT && tar czf logs2.tgz *.log k_*.md && rm -f *.log k_*.md
