#!/usr/bin/env bash
# session s1127g run 3: the encoder's look-back reading 8 words a lane (256 segments a window).
# test_gpu_huff -q and test_gpu_codec --quick (stop at a failure), check at 64^3 and 256^3; then
# ROUNDS kernel-only rounds alternating the previous main ("old", .bin/old.tar.xz) and this build,
# and a 256^3 trace of each (the encoder's line).
OUT=${OUT:-/tmp/r3}; mkdir -p $OUT
nvidia-smi -L
B=build-g90; mkdir -p $B old; tar xf .bin/tree.tar.xz -C $B; tar xf .bin/old.tar.xz -C old
timeout 100 $B/gpu/test_gpu_huff -q > $OUT/huff.log 2>&1; rc=$?; echo "test_gpu_huff -q: rc $rc $(tail -1 $OUT/huff.log)"; [ $rc = 0 ] || { grep -m5 FAIL $OUT/huff.log; exit 1; }
timeout 100 $B/h5tests/gpu/test_gpu_codec --quick > $OUT/codec.log 2>&1; rc=$?; echo "test_gpu_codec --quick: rc $rc $(grep -m1 'passed,' $OUT/codec.log)"; [ $rc = 0 ] || { grep -m5 FAIL $OUT/codec.log; exit 1; }
for s in 64 256; do timeout 60 $B/bench/gpu_probe $s 12 fresh check 2>&1 | grep '^check' | sed "s/^/$s: /"; done | tee $OUT/check3.txt
run() { timeout 90 $2/bench/glide_gpu_bench --kernels --out $OUT/k_$1_$3.md >/dev/null 2>&1; f=$OUT/k_$1_$3.md
  echo "$1 r$3: 64^3 $(grep -m1 '^| 64³ | 1.0 |' $f | cut -d'|' -f5,7) 256^3 $(grep -m1 '^| 256³ | 67.1 |' $f | cut -d'|' -f5,7) 512^3 $(grep -m1 '^| 512³ | 536.9 |' $f | cut -d'|' -f5,7)"; }
for r in $(seq 1 ${ROUNDS:-3}); do run old old $r; run new $B $r; done | tee $OUT/ab3.txt
for b in old new; do d=$B; [ $b = old ] && d=old; timeout 60 $d/bench/gpu_trace 256 7 > $OUT/trace256_$b.txt 2>&1
  echo "$b: $(grep -m1 'compress (median' $OUT/trace256_$b.txt | cut -c1-60) | $(grep -m1 k_enc_fused $OUT/trace256_$b.txt)"; done
timeout 60 $B/bench/gpu_trace 64 20 > $OUT/trace64_new.txt 2>&1; grep -m1 "k_enc_small" $OUT/trace64_new.txt
cd $OUT && tar czf logs3.tgz k_*.md huff.log codec.log && rm -f k_*.md huff.log codec.log
