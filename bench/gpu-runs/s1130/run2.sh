#!/usr/bin/env bash
# Run 2: programmatic dependent launch on three edges of the encoder's chain (GLIDE_GPU_PDL, a
# bit set: 1 the split's fine kernel after the coarse one, 2 blend_w_k after tune_k, 4 tune_k
# after range_k), one binary, the encoder's primaries now triggering their dependents after their
# main work (run 1's triggers at the start made 256^3 compression slower). Carry [".bin/new.tar.xz"] (pack_min.sh build-g90 new with
# bench/pdl_edges added). The tests
# with every edge on, stopping on failure; then ROUNDS (5) kernel-only rounds of 0 / 1 / 7 / 6 and a
# 256^3 trace with 7.
OUT=${OUT:-/tmp/s1130r2}; mkdir -p $OUT
nvidia-smi -L
B=build-g90; mkdir -p $B; tar xf .bin/new.tar.xz -C $B
G=$B/h5tests/gpu/test_gpu_codec
t() { local n=$1; shift; timeout 200 "$@" > $OUT/$n.log 2>&1; local rc=$?; echo "$n: rc $rc $(grep -m1 'passed,' $OUT/$n.log)"; [ $rc = 0 ] || { grep -m5 FAIL $OUT/$n.log; tail -3 $OUT/$n.log; exit 1; }; }
export GLIDE_GPU_PDL=7
t quick_pdl $G --quick
t quick_pdl_split env GLIDE_GPU_SPLIT_POINTS=20000 $G --quick
for s in 64 256; do timeout 60 $B/bench/gpu_probe $s 12 fresh check 2>&1 | grep '^check' | sed "s/^/$s: /"; done | tee $OUT/check.txt
if grep -q "check: [1-9]" $OUT/check.txt || [ $(grep -c "check:" $OUT/check.txt) -lt 2 ]; then echo "streams differ or check missing"; exit 1; fi
run() { env GLIDE_GPU_PDL=$2 timeout 60 $B/bench/glide_gpu_bench --kernels --out $OUT/k_$1_$3.md >/dev/null 2>&1; f=$OUT/k_$1_$3.md
  echo "$1 r$3: 64^3 $(grep -m1 '^| 64³ | 1.0 |' $f | cut -d'|' -f5,7) 256^3 $(grep -m1 '^| 256³ | 67.1 |' $f | cut -d'|' -f5,7) 512^3 $(grep -m1 '^| 512³ | 536.9 |' $f | cut -d'|' -f5,7)"; }
for r in $(seq 1 ${ROUNDS:-5}); do run old 0 $r; run fine 1 $r; run all 7 $r; run front 6 $r; done | tee $OUT/ab.txt
timeout 40 $B/bench/gpu_trace 256 5 > $OUT/trace256_pdl7.txt 2>&1
grep -E "range_k|tune_k|blend_w_k|interp_sh_k \(4096|interp_sh_k \(512" $OUT/trace256_pdl7.txt | head -8
cd $OUT && tar czf logs.tgz k_*.md *.log && rm -f k_*.md *.log
