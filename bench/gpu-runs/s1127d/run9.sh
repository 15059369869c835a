#!/usr/bin/env bash
# session s1127d run 9: branch exp-coarse-h0 (a split chunk's plane 0 counted by its coarse kernel as
# it stores the lattice's symbols; hist0_k then returns at once) against the main build (4bebaa2's
# code). The branch's test_gpu_codec --quick (its hist0 check now also on split chunks: split from
# 20000 points), memcheck, gpu_probe check at 64^3 and 256^3; then ROUNDS alternated kernel-only
# rounds main / exp.
OUT=${OUT:-/tmp/r9}; mkdir -p $OUT
nvidia-smi -L
M=/tmp/main; X=/tmp/exp; mkdir -p $M $X; tar xf .bin/tree.tar.xz -C $M; tar xf .bin/exp.tar.xz -C $X
t() { env $2 timeout 150 stdbuf -oL $X/test_gpu_codec --quick > $OUT/codec_$1.log 2>&1; echo "exp test_gpu_codec --quick $1 ($2): rc $? $(grep -m1 'passed,' $OUT/codec_$1.log) $(grep -m1 'plane 0 histogram by' $OUT/codec_$1.log)"; grep -m5 FAIL $OUT/codec_$1.log; }
t split GLIDE_GPU_SPLIT_POINTS=20000

GLIDE_GPU_SPLIT_POINTS=20000 timeout 150 compute-sanitizer --tool memcheck --leak-check no --error-exitcode 9 $X/test_gpu_codec --quick > $OUT/memcheck.log 2>&1; echo "exp memcheck --quick: rc $? $(grep -m1 'ERROR SUMMARY' $OUT/memcheck.log)"
for s in 64 256; do timeout 60 $X/gpu_probe $s 20 fresh check 2>&1 | grep '^check' | sed "s/^/exp $s: /"; done | tee $OUT/check9.txt
run() { timeout 90 $2 --kernels --out $OUT/k_$1_$3.md >/dev/null 2>&1; f=$OUT/k_$1_$3.md
  echo "$1 r$3: 64^3 $(grep -m1 '^| 64³ | 1.0 |' $f | cut -d'|' -f5,7) 256^3 $(grep -m1 '^| 256³ | 67.1 |' $f | cut -d'|' -f5,7) 512^3 $(grep -m1 '^| 512³ | 536.9 |' $f | cut -d'|' -f5,7)"; }
for r in $(seq 1 ${ROUNDS:-3}); do
  run main $M/bench/glide_gpu_bench $r
  run exp $X/glide_gpu_bench $r
done | tee $OUT/ab9.txt
cd $OUT && tar czf logs9.tgz *.log k_*.md && rm -f *.log k_*.md
