#!/usr/bin/env bash
# Run 3: the split's fine kernel by PDL (GLIDE_GPU_PDL, now on by default) and a split chunk's
# plane 0 counted by its coarse kernel as it stores the lattice's symbols (s1127d's
# run9_coarse_h0.diff again; GLIDE_GPU_HIST0_KERNEL=0 turns every in-kernel count off, so hist0_k
# counts it, as main does at 256^3 and 512^3), one binary. Carry [".bin/new.tar.xz"] (pack_min.sh
# build-g90 new). Tests at the defaults, with the split from 20000 points too (its hist0 check on
# split streams), stopping on failure; gpu_probe's check; ROUNDS (5) kernel-only rounds of
# base (0/0), pdl (1/0), h0 (0/1), both (1/1) as PDL/HIST0_KERNEL; a 256^3 trace of both;
# memcheck of --quick with the split from 20000 points.
OUT=${OUT:-/tmp/s1130r3}; mkdir -p $OUT
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
for r in $(seq 1 ${ROUNDS:-5}); do run base 0 0 $r; run pdl 1 0 $r; run h0 0 1 $r; run both 1 1 $r; done | tee $OUT/ab.txt
timeout 40 $B/bench/gpu_trace 256 5 > $OUT/trace256_both.txt 2>&1
grep -E "interp_sh_k \(4096|interp_sh_k \(512|hist0_k|trial_pick" $OUT/trace256_both.txt | head -8
timeout 200 env GLIDE_GPU_SPLIT_POINTS=20000 compute-sanitizer --tool memcheck --leak-check no --error-exitcode 9 $G --quick > $OUT/memcheck.log 2>&1
echo "memcheck rc $? $(grep -m1 'ERROR SUMMARY' $OUT/memcheck.log)"
cd $OUT && tar czf logs.tgz k_*.md *.log && rm -f k_*.md *.log
