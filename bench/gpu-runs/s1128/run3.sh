#!/usr/bin/env bash
# Run 3: k_enc_fused's flush predicated (no mask, hi:lo funnel shifts) and its buffer zeroed only
# where the segment wrote. new = five blocks an SM (48 registers, 16 bytes spilled), varB = the same
# code without the blocks-an-SM bound (63 registers, four blocks), old = main 51b8b38.
# Carry [".bin/new.tar.xz", ".bin/old.tar.xz", ".bin/varB.tar.xz"] (pack_min.sh build-g90 new;
# s1127f/pack_bench.sh for old; varB: its glide_gpu_bench alone). Tests first, stopping on failure.
OUT=${OUT:-/tmp/s1128r3}; mkdir -p $OUT
nvidia-smi -L
B=build-g90; mkdir -p $B old varB; tar xf .bin/new.tar.xz -C $B; tar xf .bin/old.tar.xz -C old; tar xf .bin/varB.tar.xz -C varB
G=$B/h5tests/gpu/test_gpu_codec
timeout 100 $B/gpu/test_gpu_huff -q > $OUT/huff.log 2>&1; rc=$?; echo "test_gpu_huff -q: rc $rc $(tail -1 $OUT/huff.log)"; [ $rc = 0 ] || { grep -m5 FAIL $OUT/huff.log; exit 1; }
timeout 100 $G --quick > $OUT/codec.log 2>&1; rc=$?; echo "test_gpu_codec --quick: rc $rc $(grep -m1 'passed,' $OUT/codec.log)"; [ $rc = 0 ] || { grep -m5 FAIL $OUT/codec.log; exit 1; }
for s in 64 256; do timeout 60 $B/bench/gpu_probe $s 12 fresh check 2>&1 | grep '^check' | sed "s/^/$s: /"; done | tee $OUT/check.txt
timeout 60 $B/bench/gpu_probe 64 12 check host 2>&1 | grep '^check' | sed "s/^/64 host: /" | tee -a $OUT/check.txt
if grep -q "check: [1-9]" $OUT/check.txt || [ $(grep -c "check:" $OUT/check.txt) -lt 3 ]; then echo "streams differ or check missing"; exit 1; fi
GLIDE_GPU_SPLIT_POINTS=40000 timeout 150 compute-sanitizer --tool racecheck --error-exitcode 9 $G --race > $OUT/racecheck.log 2>&1; echo "racecheck --race: rc $? $(grep -m1 'RACECHECK SUMMARY' $OUT/racecheck.log)"
run() { timeout 90 $2/bench/glide_gpu_bench --kernels --out $OUT/k_$1_$3.md >/dev/null 2>&1; f=$OUT/k_$1_$3.md
  echo "$1 r$3: 64^3 $(grep -m1 '^| 64³ | 1.0 |' $f | cut -d'|' -f5,7) 256^3 $(grep -m1 '^| 256³ | 67.1 |' $f | cut -d'|' -f5,7) 512^3 $(grep -m1 '^| 512³ | 536.9 |' $f | cut -d'|' -f5,7)"; }
for r in $(seq 1 ${ROUNDS:-3}); do run old old $r; run new $B $r; run varB varB $r; done | tee $OUT/ab.txt
for b in old new; do d=$B; [ $b = old ] && d=old; timeout 60 $d/bench/gpu_trace 256 7 > $OUT/trace256_$b.txt 2>&1
  echo "$b: $(grep -m1 'compress (median' $OUT/trace256_$b.txt | cut -c1-60)"; grep -E "k_enc_fused|outlier_pack|k_crc" $OUT/trace256_$b.txt | head -3; done
cd $OUT && tar czf logs.tgz k_*.md *.log && rm -f k_*.md *.log
