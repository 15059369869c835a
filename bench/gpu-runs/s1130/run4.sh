#!/usr/bin/env bash
# Run 4: the front's kernels after the interpolation by PDL too (GLIDE_GPU_PDL=3: GG_PDL_FINE |
# GG_PDL_TAIL: the trial's pick, the gated commits, plane 0's histogram and the planes' books,
# each waiting at its start and letting the next one's blocks in from there) against run 3's
# default (1: the fine kernel alone), one binary. Carry [".bin/new.tar.xz"] (pack_min.sh
# build-g90 new). Tests with 3 (also with the split from 20000 points), stopping on failure;
# gpu_probe's check; ROUNDS (5) kernel-only rounds 1 / 3; a 256^3 trace with 3; gpu_probe 64
# (the API call) three rounds each; memcheck of --quick with 3.
OUT=${OUT:-/tmp/s1130r4}; mkdir -p $OUT
nvidia-smi -L
B=build-g90; mkdir -p $B; tar xf .bin/new.tar.xz -C $B
G=$B/h5tests/gpu/test_gpu_codec
t() { local n=$1; shift; timeout 200 "$@" > $OUT/$n.log 2>&1; local rc=$?; echo "$n: rc $rc $(grep -m1 'passed,' $OUT/$n.log) $(grep -m1 'plane 0 histogram by' $OUT/$n.log)"; [ $rc = 0 ] || { grep -m5 FAIL $OUT/$n.log; tail -3 $OUT/$n.log; exit 1; }; }
export GLIDE_GPU_PDL=3
t quick $G --quick
t quick_split env GLIDE_GPU_SPLIT_POINTS=20000 $G --quick
for s in 64 256; do timeout 60 $B/bench/gpu_probe $s 12 fresh check 2>&1 | grep '^check' | sed "s/^/$s: /"; done | tee $OUT/check.txt
if grep -q "check: [1-9]" $OUT/check.txt || [ $(grep -c "check:" $OUT/check.txt) -lt 2 ]; then echo "streams differ or check missing"; exit 1; fi
run() { env GLIDE_GPU_PDL=$2 timeout 60 $B/bench/glide_gpu_bench --kernels --out $OUT/k_$1_$3.md >/dev/null 2>&1; f=$OUT/k_$1_$3.md
  echo "$1 r$3: 64^3 $(grep -m1 '^| 64³ | 1.0 |' $f | cut -d'|' -f5,7) 256^3 $(grep -m1 '^| 256³ | 67.1 |' $f | cut -d'|' -f5,7) 512^3 $(grep -m1 '^| 512³ | 536.9 |' $f | cut -d'|' -f5,7)"; }
for r in $(seq 1 ${ROUNDS:-5}); do run fine 1 $r; run tail 3 $r; done | tee $OUT/ab.txt
timeout 40 $B/bench/gpu_trace 256 5 > $OUT/trace256_tail.txt 2>&1
grep -E "interp_sh_k \(4096|trial_pick|hist0_k|k_book_size \(54,2|lorenzo_k \(1056|slice_wf_k \(396" $OUT/trace256_tail.txt | head -8
for r in 1 2 3; do for v in 1 3; do echo "pdl $v r$r: $(GLIDE_GPU_PDL=$v timeout 60 $B/bench/gpu_probe 64 300 2>&1 | grep -m1 -i 'compress')"; done; done | tee $OUT/probe64.txt
timeout 200 compute-sanitizer --tool memcheck --leak-check no --error-exitcode 9 $G --quick > $OUT/memcheck.log 2>&1
echo "memcheck rc $? $(grep -m1 'ERROR SUMMARY' $OUT/memcheck.log)"
cd $OUT && tar czf logs.tgz k_*.md *.log && rm -f k_*.md *.log
