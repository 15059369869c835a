#!/usr/bin/env bash
# Run 3: blend-late with the coarse levels' grid launched first (GLIDE_GPU_BLEND_LATE=2) beside
# run 2's order (1) and off (0), in one binary. Carry [".bin/new.tar.xz"] (pack_min.sh build-g90
# new). Tests of order 2 first, stopping on failure; then ROUNDS kernel-only rounds 0/1/2 and a
# 256^3 trace of order 2.
OUT=${OUT:-/tmp/s1129r3}; mkdir -p $OUT
nvidia-smi -L
B=build-g90; mkdir -p $B; tar xf .bin/new.tar.xz -C $B
G=$B/h5tests/gpu/test_gpu_codec
t() { local n=$1; shift; timeout 200 "$@" > $OUT/$n.log 2>&1; local rc=$?; echo "$n: rc $rc $(grep -m1 'passed,' $OUT/$n.log)"; [ $rc = 0 ] || { grep -m5 FAIL $OUT/$n.log; tail -3 $OUT/$n.log; exit 1; }; }
export GLIDE_GPU_BLEND_LATE=2
t quick_late env GLIDE_GPU_BLEND_SMS=1 GLIDE_GPU_SPLIT_POINTS=20000 $G --quick
for s in 64 256; do timeout 60 $B/bench/gpu_probe $s 12 fresh check 2>&1 | grep '^check' | sed "s/^/$s: /"; done | tee $OUT/check.txt
if grep -q "check: [1-9]" $OUT/check.txt || [ $(grep -c "check:" $OUT/check.txt) -lt 2 ]; then echo "streams differ or check missing"; exit 1; fi
run() { env GLIDE_GPU_BLEND_LATE=$2 timeout 60 $B/bench/glide_gpu_bench --kernels --out $OUT/k_$1_$3.md >/dev/null 2>&1; f=$OUT/k_$1_$3.md
  echo "$1 r$3: 64^3 $(grep -m1 '^| 64³ | 1.0 |' $f | cut -d'|' -f5,7) 256^3 $(grep -m1 '^| 256³ | 67.1 |' $f | cut -d'|' -f5,7) 512^3 $(grep -m1 '^| 512³ | 536.9 |' $f | cut -d'|' -f5,7)"; }
for r in $(seq 1 ${ROUNDS:-3}); do run old 0 $r; run lo1st 1 $r; run hi1st 2 $r; done | tee $OUT/ab.txt
timeout 40 $B/bench/gpu_trace 256 5 > $OUT/trace256_late2.txt 2>&1
grep -E "tune_k|blend_w_k|interp_sh_k \(4096" $OUT/trace256_late2.txt | head -6
cd $OUT && tar czf logs.tgz k_*.md *.log && rm -f k_*.md *.log
