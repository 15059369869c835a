#!/usr/bin/env bash
# Run 5: blend_w_k a block a sample box for all its levels (run5_blend_box.diff; one binary:
# GLIDE_GPU_BLEND_BOX=0 old, 1 new). Carry [".bin/new.tar.xz"] (pack_min.sh build-g90 new). Tests
# first, stopping on failure: --quick, and with every sample in the many-box layout
# (GLIDE_GPU_BLEND_SMS=1) with and without the split on small chunks, racecheck and memcheck of
# that layout, gpu_probe's check; then ROUNDS kernel-only rounds old / new and a 256^3 trace.
OUT=${OUT:-/tmp/s1129r5}; mkdir -p $OUT
nvidia-smi -L
B=build-g90; mkdir -p $B; tar xf .bin/new.tar.xz -C $B
G=$B/h5tests/gpu/test_gpu_codec
t() { local n=$1; shift; timeout 250 "$@" > $OUT/$n.log 2>&1; local rc=$?; echo "$n: rc $rc $(grep -m1 'passed,' $OUT/$n.log) $(grep -m1 'ERROR SUMMARY\|RACECHECK SUMMARY' $OUT/$n.log)"; [ $rc = 0 ] || { grep -m5 FAIL $OUT/$n.log; tail -3 $OUT/$n.log; exit 1; }; }
t quick $G --quick
t quick_box env GLIDE_GPU_BLEND_SMS=1 $G --quick
t quick_box_split env GLIDE_GPU_BLEND_SMS=1 GLIDE_GPU_SPLIT_POINTS=20000 $G --quick
for s in 64 256; do timeout 60 $B/bench/gpu_probe $s 12 fresh check 2>&1 | grep '^check' | sed "s/^/$s: /"; done | tee $OUT/check.txt
if grep -q "check: [1-9]" $OUT/check.txt || [ $(grep -c "check:" $OUT/check.txt) -lt 2 ]; then echo "streams differ or check missing"; exit 1; fi
run() { env GLIDE_GPU_BLEND_BOX=$2 timeout 60 $B/bench/glide_gpu_bench --kernels --out $OUT/k_$1_$3.md >/dev/null 2>&1; f=$OUT/k_$1_$3.md
  echo "$1 r$3: 64^3 $(grep -m1 '^| 64³ | 1.0 |' $f | cut -d'|' -f5,7) 256^3 $(grep -m1 '^| 256³ | 67.1 |' $f | cut -d'|' -f5,7) 512^3 $(grep -m1 '^| 512³ | 536.9 |' $f | cut -d'|' -f5,7)"; }
for r in $(seq 1 ${ROUNDS:-3}); do run old 0 $r; run new 1 $r; done | tee $OUT/ab.txt
for v in 0 1; do GLIDE_GPU_BLEND_BOX=$v timeout 40 $B/bench/gpu_trace 256 5 > $OUT/trace256_box$v.txt 2>&1; done
grep -E "tune_k|blend_w_k|interp_sh_k \(4096" $OUT/trace256_box1.txt | head -5
t racecheck_box env GLIDE_GPU_BLEND_SMS=1 compute-sanitizer --tool racecheck --error-exitcode 9 $G --race
t memcheck_box env GLIDE_GPU_BLEND_SMS=1 compute-sanitizer --tool memcheck --leak-check no --error-exitcode 9 $G --quick
cd $OUT && tar czf logs.tgz k_*.md *.log && rm -f k_*.md *.log
