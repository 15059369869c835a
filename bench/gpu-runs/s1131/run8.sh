#!/usr/bin/env bash
# Run 8, the final code after the re-read (launch_predict's two instance kinds in one generic lambda,
# comments): test_gpu_huff -q, --quick at the defaults, with each order forced, and with the split from
# 20000 points; gpu_probe's check at 64^3 and 256^3; memcheck of --quick. Carry [".bin/new.tar.xz"].
OUT=${OUT:-/tmp/s1131r8}; mkdir -p $OUT
nvidia-smi -L
B=build-g90; mkdir -p $B; tar xf .bin/new.tar.xz -C $B
G=$B/h5tests/gpu/test_gpu_codec
t() { local n=$1; shift; timeout 200 "$@" > $OUT/$n.log 2>&1; local rc=$?; echo "$n: rc $rc $(grep -m1 'passed,\|checks' $OUT/$n.log)"; [ $rc = 0 ] || { grep -m5 FAIL $OUT/$n.log; tail -3 $OUT/$n.log; exit 1; }; }
t huff $B/gpu/test_gpu_huff -q
t quick $G --quick
t quick_bf0 env GLIDE_GPU_BLEND_FIRST=0 $G --quick
t quick_bf1 env GLIDE_GPU_BLEND_FIRST=1 GLIDE_GPU_SPLIT_POINTS=20000 $G --quick
for s in 64 256; do timeout 60 $B/bench/gpu_probe $s 12 fresh check 2>&1 | grep '^check' | sed "s/^/$s: /"; done | tee $OUT/check.txt
if grep -q "check: [1-9]" $OUT/check.txt || [ $(grep -c "check:" $OUT/check.txt) -lt 2 ]; then echo "streams differ or check missing"; exit 1; fi
timeout 150 compute-sanitizer --tool memcheck --leak-check no --error-exitcode 9 $G --quick > $OUT/memcheck.log 2>&1
echo "memcheck --quick rc $? $(grep -m1 'ERROR SUMMARY' $OUT/memcheck.log)"
cd $OUT && tar czf logs.tgz *.log && rm -f *.log
