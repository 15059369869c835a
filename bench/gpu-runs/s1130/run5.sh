#!/usr/bin/env bash
# Run 5: the split's coarse kernel (encoding) by PDL too (GG_PDL_COARSE = 4: its blocks wait at
# their start, its launch after blend_w_k's and the fork no longer waited for), one binary:
# GLIDE_GPU_PDL 1 (fine), 3 (fine, tail), 7 (all). Carry [".bin/new.tar.xz"] (pack_min.sh
# build-g90 new). Tests with 7 (also with the split from 20000 points), stopping on failure;
# gpu_probe's check; ROUNDS (5) kernel-only rounds 1 / 3 / 7; a 256^3 trace with 7; memcheck of
# --quick with 7.
OUT=${OUT:-/tmp/s1130r5}; mkdir -p $OUT
nvidia-smi -L
B=build-g90; mkdir -p $B; tar xf .bin/new.tar.xz -C $B
G=$B/h5tests/gpu/test_gpu_codec
t() { local n=$1; shift; timeout 200 "$@" > $OUT/$n.log 2>&1; local rc=$?; echo "$n: rc $rc $(grep -m1 'passed,' $OUT/$n.log) $(grep -m1 'plane 0 histogram by' $OUT/$n.log)"; [ $rc = 0 ] || { grep -m5 FAIL $OUT/$n.log; tail -3 $OUT/$n.log; exit 1; }; }
export GLIDE_GPU_PDL=7
t quick $G --quick
t quick_split env GLIDE_GPU_SPLIT_POINTS=20000 $G --quick
for s in 64 256; do timeout 60 $B/bench/gpu_probe $s 12 fresh check 2>&1 | grep '^check' | sed "s/^/$s: /"; done | tee $OUT/check.txt
if grep -q "check: [1-9]" $OUT/check.txt || [ $(grep -c "check:" $OUT/check.txt) -lt 2 ]; then echo "streams differ or check missing"; exit 1; fi
run() { env GLIDE_GPU_PDL=$2 timeout 60 $B/bench/glide_gpu_bench --kernels --out $OUT/k_$1_$3.md >/dev/null 2>&1; f=$OUT/k_$1_$3.md
  echo "$1 r$3: 64^3 $(grep -m1 '^| 64³ | 1.0 |' $f | cut -d'|' -f5,7) 256^3 $(grep -m1 '^| 256³ | 67.1 |' $f | cut -d'|' -f5,7) 512^3 $(grep -m1 '^| 512³ | 536.9 |' $f | cut -d'|' -f5,7)"; }
for r in $(seq 1 ${ROUNDS:-5}); do run fine 1 $r; run tail 3 $r; run all 7 $r; done | tee $OUT/ab.txt
timeout 40 $B/bench/gpu_trace 256 5 > $OUT/trace256_all.txt 2>&1
grep -E "blend_w_k|interp_sh_k \(4096|interp_sh_k \(512|trial_pick" $OUT/trace256_all.txt | head -8
timeout 200 compute-sanitizer --tool memcheck --leak-check no --error-exitcode 9 $G --quick > $OUT/memcheck.log 2>&1
echo "memcheck rc $? $(grep -m1 'ERROR SUMMARY' $OUT/memcheck.log)"
cd $OUT && tar czf logs.tgz k_*.md *.log && rm -f k_*.md *.log
