#!/usr/bin/env bash
# prepared 2026-11-27 (session s1127), not run: branch exp-spec-fork2 (on 7a18a30). The speculated
# chunk's two interpolation instances forked together (GLIDE_X_SPEC_FORK=1) against the fork after
# the plain instance's launches (0), now that the block trial's interpolation runs in 256-thread
# blocks on large chunks: ROUNDS alternated kernel-only rounds in one binary, gpu_trace 256 both
# ways, test_gpu_codec --quick with the knob. Pack: build-g90 (this branch) glide_gpu_bench,
# gpu_trace, test_gpu_codec into .bin/bins.tar.xz; carry .bin.
OUT=${OUT:-/tmp/rx}; mkdir -p $OUT
nvidia-smi -L
B=/tmp/glide_prebuilt; rm -rf $B; mkdir -p $B; tar xJf .bin/bins.tar.xz -C $B
GLIDE_X_SPEC_FORK=1 timeout 200 $B/test_gpu_codec --quick > $OUT/codec.log 2>&1; echo "test_gpu_codec --quick fork: rc $? $(grep -m1 'passed,' $OUT/codec.log)"
run() { env $2 $B/glide_gpu_bench --kernels --out $OUT/k_$1_$3.md >/dev/null 2>&1; f=$OUT/k_$1_$3.md
  echo "$1 r$3: 64^3 $(grep -m1 '^| 64³ | 1.0 |' $f | cut -d'|' -f5,7) 256^3 $(grep -m1 '^| 256³ | 67.1 |' $f | cut -d'|' -f5,7) 512^3 $(grep -m1 '^| 512³ | 536.9 |' $f | cut -d'|' -f5,7)"; }
for r in $(seq 1 ${ROUNDS:-3}); do
  run fork GLIDE_X_SPEC_FORK=1 $r
  run main X=0 $r
done | tee -a $OUT/abx.txt
GLIDE_X_SPEC_FORK=1 $B/gpu_trace 256 20 > $OUT/trace256_fork.txt 2>&1; tail -1 $OUT/trace256_fork.txt
$B/gpu_trace 256 20 > $OUT/trace256_main.txt 2>&1; tail -1 $OUT/trace256_main.txt
cd $OUT && tar czf reportsx.tgz k_*.md && rm -f k_*.md
