#!/usr/bin/env bash
# Run 7: k_crc_pieces counts its working blocks from the plan it computes once (crc_terms takes
# it) instead of an upper bound from the length (run7_crc_plan.diff; new) against main (old).
# Carry [".bin/new.tar.xz", ".bin/old.tar.xz"]: new from `pack_min.sh build-g90 new
# h5tests/gpu/test_gpu_codec bench/gpu_probe bench/glide_gpu_bench bench/crc_probe`, old from
# `s1127f/pack_bench.sh build-g90 old`. Tests of new (crc_probe checks every result against zlib),
# stopping on failure, then ROUNDS kernel-only rounds old / new.
OUT=${OUT:-/tmp/s1129r7}; mkdir -p $OUT
nvidia-smi -L
B=build-g90; mkdir -p $B old; tar xf .bin/new.tar.xz -C $B; tar xf .bin/old.tar.xz -C old
G=$B/h5tests/gpu/test_gpu_codec
t() { local n=$1; shift; timeout 200 "$@" > $OUT/$n.log 2>&1; local rc=$?; echo "$n: rc $rc $(grep -m1 'passed,' $OUT/$n.log) $(grep -m1 'ERROR SUMMARY' $OUT/$n.log)"; [ $rc = 0 ] || { grep -m5 FAIL $OUT/$n.log; tail -3 $OUT/$n.log; exit 1; }; }
t quick $G --quick
t crc_probe $B/bench/crc_probe
t memcheck compute-sanitizer --tool memcheck --leak-check no --error-exitcode 9 $G --quick
for s in 64 256; do timeout 60 $B/bench/gpu_probe $s 12 fresh check 2>&1 | grep '^check' | sed "s/^/$s: /"; done | tee $OUT/check.txt
if grep -q "check: [1-9]" $OUT/check.txt || [ $(grep -c "check:" $OUT/check.txt) -lt 2 ]; then echo "streams differ or check missing"; exit 1; fi
run() { timeout 60 $2/bench/glide_gpu_bench --kernels --out $OUT/k_$1_$3.md >/dev/null 2>&1; f=$OUT/k_$1_$3.md
  echo "$1 r$3: 64^3 $(grep -m1 '^| 64³ | 1.0 |' $f | cut -d'|' -f5,7) 256^3 $(grep -m1 '^| 256³ | 67.1 |' $f | cut -d'|' -f5,7) 512^3 $(grep -m1 '^| 512³ | 536.9 |' $f | cut -d'|' -f5,7)"; }
for r in $(seq 1 ${ROUNDS:-3}); do run old old $r; run new $B $r; done | tee $OUT/ab.txt
grep -v "^#" $OUT/crc_probe.log | tail -12
cd $OUT && tar czf logs.tgz k_*.md *.log && rm -f k_*.md *.log
