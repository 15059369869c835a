#!/usr/bin/env bash
# session s1127g run 8: the CRC kernel with the code kept small (idle blocks leave first, one working
# block without the ticket; no first loads issued with the tables'). test_gpu_huff -q and its
# memcheck, test_gpu_codec --quick, check at 64^3 and 256^3; ROUNDS kernel-only rounds old / new;
# crc_probe.
OUT=${OUT:-/tmp/r8}; mkdir -p $OUT
nvidia-smi -L
B=build-g90; mkdir -p $B old; tar xf .bin/tree.tar.xz -C $B; tar xf .bin/old.tar.xz -C old
timeout 100 $B/gpu/test_gpu_huff -q > $OUT/huff.log 2>&1; rc=$?; echo "test_gpu_huff -q: rc $rc $(tail -1 $OUT/huff.log)"; [ $rc = 0 ] || { grep -m5 FAIL $OUT/huff.log; exit 1; }
timeout 100 compute-sanitizer --tool memcheck --error-exitcode 9 $B/gpu/test_gpu_huff -q > $OUT/memcheck_huff.log 2>&1; echo "memcheck test_gpu_huff -q: rc $? $(grep -m1 'ERROR SUMMARY' $OUT/memcheck_huff.log)"
timeout 100 $B/h5tests/gpu/test_gpu_codec --quick > $OUT/codec.log 2>&1; rc=$?; echo "test_gpu_codec --quick: rc $rc $(grep -m1 'passed,' $OUT/codec.log)"; [ $rc = 0 ] || { grep -m5 FAIL $OUT/codec.log; exit 1; }
for s in 64 256; do timeout 60 $B/bench/gpu_probe $s 12 fresh check 2>&1 | grep '^check' | sed "s/^/$s: /"; done | tee $OUT/check8.txt
run() { timeout 90 $2/bench/glide_gpu_bench --kernels --out $OUT/k_$1_$3.md >/dev/null 2>&1; f=$OUT/k_$1_$3.md
  echo "$1 r$3: 64^3 $(grep -m1 '^| 64³ | 1.0 |' $f | cut -d'|' -f5,7) 256^3 $(grep -m1 '^| 256³ | 67.1 |' $f | cut -d'|' -f5,7) 512^3 $(grep -m1 '^| 512³ | 536.9 |' $f | cut -d'|' -f5,7)"; }
for r in $(seq 1 ${ROUNDS:-3}); do run old old $r; run new $B $r; done | tee $OUT/ab8.txt
timeout 120 .bin/crc_probe > $OUT/crc_probe.txt; grep "now\|previous\|wrong" $OUT/crc_probe.txt
cd $OUT && tar czf logs8.tgz k_*.md *.log && rm -f k_*.md *.log
