#!/usr/bin/env bash
# Run 7: the candidate (GLIDE_GPU_PDL default 7: the fine kernel, the front's tail and the coarse
# kernel by PDL; plane 0 from the coarse kernel) against main's behaviour in the same binary
# (GLIDE_GPU_PDL=0 GLIDE_GPU_HIST0_KERNEL=0: no PDL, plane 0 by hist0_k at 256^3 and 512^3; at
# 64^3 this also drops the unsplit kernel's count, so 64^3 is compared on the API call instead)
# and 3 (without the coarse kernel's PDL). Carry [".bin/new.tar.xz"] (pack_min.sh build-g90
# new). Tests at the defaults (also with the split from 20000 points), stopping on failure;
# gpu_probe's check; ROUNDS (7) kernel-only rounds base / 3 / 7; gpu_probe 64 and 256 (API
# calls) three rounds of PDL 0 and 7; memcheck of --quick.
OUT=${OUT:-/tmp/s1130r7}; mkdir -p $OUT
nvidia-smi -L
B=build-g90; mkdir -p $B; tar xf .bin/new.tar.xz -C $B
G=$B/h5tests/gpu/test_gpu_codec
t() { local n=$1; shift; timeout 200 "$@" > $OUT/$n.log 2>&1; local rc=$?; echo "$n: rc $rc $(grep -m1 'passed,' $OUT/$n.log) $(grep -m1 'plane 0 histogram by' $OUT/$n.log)"; [ $rc = 0 ] || { grep -m5 FAIL $OUT/$n.log; tail -3 $OUT/$n.log; exit 1; }; }
t quick $G --quick
t quick_split env GLIDE_GPU_SPLIT_POINTS=20000 $G --quick
for s in 64 256; do timeout 60 $B/bench/gpu_probe $s 12 fresh check 2>&1 | grep '^check' | sed "s/^/$s: /"; done | tee $OUT/check.txt
if grep -q "check: [1-9]" $OUT/check.txt || [ $(grep -c "check:" $OUT/check.txt) -lt 2 ]; then echo "streams differ or check missing"; exit 1; fi
run() { env GLIDE_GPU_PDL=$2 GLIDE_GPU_HIST0_KERNEL=$3 timeout 60 $B/bench/glide_gpu_bench --kernels --out $OUT/k_$1_$4.md >/dev/null 2>&1; f=$OUT/k_$1_$4.md
  echo "$1 r$4: 64^3 $(grep -m1 '^| 64³ | 1.0 |' $f | cut -d'|' -f5,7) 256^3 $(grep -m1 '^| 256³ | 67.1 |' $f | cut -d'|' -f5,7) 512^3 $(grep -m1 '^| 512³ | 536.9 |' $f | cut -d'|' -f5,7)"; }
for r in $(seq 1 ${ROUNDS:-7}); do run base 0 0 $r; run tail3 3 1 $r; run all7 7 1 $r; done | tee $OUT/ab.txt
for r in 1 2 3; do for v in 0 7; do for s in 64 256; do echo "pdl $v side $s r$r: $(GLIDE_GPU_PDL=$v timeout 60 $B/bench/gpu_probe $s $([ $s = 64 ] && echo 300 || echo 40) 2>&1 | grep -m1 'runs: compress')"; done; done; done | tee $OUT/probe.txt
timeout 200 compute-sanitizer --tool memcheck --leak-check no --error-exitcode 9 $G --quick > $OUT/memcheck.log 2>&1
echo "memcheck rc $? $(grep -m1 'ERROR SUMMARY' $OUT/memcheck.log)"
cd $OUT && tar czf logs.tgz k_*.md *.log && rm -f k_*.md *.log
