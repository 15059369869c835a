#!/usr/bin/env bash
# Run 4: the look-back words ld/st.relaxed.gpu instead of volatile, alone (run4_relaxed.diff on
# main; new), against main (old). Carry [".bin/new.tar.xz", ".bin/old.tar.xz"]: new packed with
# `pack_min.sh build-g90 new` on the branch, old with `s1127f/pack_bench.sh build-g90 old` on main.
# Tests of new first, stopping on failure; then ROUNDS kernel-only rounds old / new.
OUT=${OUT:-/tmp/s1129r4}; mkdir -p $OUT
nvidia-smi -L
B=build-g90; mkdir -p $B old; tar xf .bin/new.tar.xz -C $B; tar xf .bin/old.tar.xz -C old
G=$B/h5tests/gpu/test_gpu_codec
t() { local n=$1; shift; timeout 200 "$@" > $OUT/$n.log 2>&1; local rc=$?; echo "$n: rc $rc $(tail -1 $OUT/$n.log | cut -c1-80) $(grep -m1 'passed,' $OUT/$n.log)"; [ $rc = 0 ] || { grep -m5 FAIL $OUT/$n.log; exit 1; }; }
t huff $B/gpu/test_gpu_huff -q
t quick $G --quick
for s in 64 256; do timeout 60 $B/bench/gpu_probe $s 12 fresh check 2>&1 | grep '^check' | sed "s/^/$s: /"; done | tee $OUT/check.txt
if grep -q "check: [1-9]" $OUT/check.txt || [ $(grep -c "check:" $OUT/check.txt) -lt 2 ]; then echo "streams differ or check missing"; exit 1; fi
run() { timeout 60 $2/bench/glide_gpu_bench --kernels --out $OUT/k_$1_$3.md >/dev/null 2>&1; f=$OUT/k_$1_$3.md
  echo "$1 r$3: 64^3 $(grep -m1 '^| 64³ | 1.0 |' $f | cut -d'|' -f5,7) 256^3 $(grep -m1 '^| 256³ | 67.1 |' $f | cut -d'|' -f5,7) 512^3 $(grep -m1 '^| 512³ | 536.9 |' $f | cut -d'|' -f5,7)"; }
for r in $(seq 1 ${ROUNDS:-5}); do run old old $r; run new $B $r; done | tee $OUT/ab.txt
timeout 40 $B/bench/gpu_trace 256 5 > $OUT/trace256_new.txt 2>&1; grep -E "k_enc_fused" $OUT/trace256_new.txt | head -2
cd $OUT && tar czf logs.tgz k_*.md *.log && rm -f k_*.md *.log
