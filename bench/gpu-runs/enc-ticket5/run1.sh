#!/usr/bin/env bash
# Branches enc-ticket5 (new) and enc-ticket5-relaxed (varB) against main (old); not yet run. Build
# build-g90 on each (`make -j2`), `bash bench/gpu-runs/s1128/pack_min.sh build-g90 new` on enc-ticket5, varB
# as its glide_gpu_bench + gpu/test_gpu_huff (README here), old with s1127f/pack_bench.sh on main. Carry
# [".bin/new.tar.xz", ".bin/old.tar.xz", ".bin/varB.tar.xz"]. Tests of new (and
# varB's test_gpu_huff) first, stopping on failure; then ROUNDS kernel-only rounds and a trace.
OUT=${OUT:-/tmp/et5}; mkdir -p $OUT
nvidia-smi -L
B=build-g90; mkdir -p $B old varB; tar xf .bin/new.tar.xz -C $B; tar xf .bin/old.tar.xz -C old; tar xf .bin/varB.tar.xz -C varB
G=$B/h5tests/gpu/test_gpu_codec
for d in varB $B; do timeout 60 $d/gpu/test_gpu_huff -q > $OUT/huff.log 2>&1; rc=$?; echo "$d test_gpu_huff -q: rc $rc $(tail -1 $OUT/huff.log)"; [ $rc = 0 ] || exit 1; done
timeout 100 $G --quick > $OUT/codec.log 2>&1; rc=$?; echo "test_gpu_codec --quick: rc $rc $(grep -m1 'passed,' $OUT/codec.log)"; [ $rc = 0 ] || { grep -m5 FAIL $OUT/codec.log; exit 1; }
for s in 64 256; do timeout 60 $B/bench/gpu_probe $s 12 fresh check 2>&1 | grep '^check' | sed "s/^/$s: /"; done | tee $OUT/check.txt
if grep -q "check: [1-9]" $OUT/check.txt || [ $(grep -c "check:" $OUT/check.txt) -lt 2 ]; then echo "streams differ or check missing"; exit 1; fi
run() { timeout 60 $2/bench/glide_gpu_bench --kernels --out $OUT/k_$1_$3.md >/dev/null 2>&1; f=$OUT/k_$1_$3.md
  echo "$1 r$3: 64^3 $(grep -m1 '^| 64³ | 1.0 |' $f | cut -d'|' -f5,7) 256^3 $(grep -m1 '^| 256³ | 67.1 |' $f | cut -d'|' -f5,7) 512^3 $(grep -m1 '^| 512³ | 536.9 |' $f | cut -d'|' -f5,7)"; }
for r in $(seq 1 ${ROUNDS:-3}); do run old old $r; run new $B $r; run varB varB $r; done | tee $OUT/ab.txt
timeout 40 $B/bench/gpu_trace 256 5 > $OUT/trace256_new.txt 2>&1; grep -E "k_enc_fused|outlier_pack|k_crc" $OUT/trace256_new.txt | head -3
cd $OUT && tar czf logs.tgz k_*.md *.log && rm -f k_*.md *.log
