#!/usr/bin/env bash
# session 2026-11-26k run 5 (branch exp-tune-par): the block trial's Lorenzo and slice encoders
# launched after tuning instead of beside it (GLIDE_X_TRIAL_DEFER=1, chunks over 2^19 points), the
# speculation's two instances forked together (GLIDE_X_SPEC_FORK=1), the range scan's loads in
# batches of 8 or 16 a thread (GLIDE_X_RANGE_U), all against main's launches (tune_k everywhere:
# GLIDE_X_TUNE_SETS=0): alternated kernel-only rounds, ncu of range_k, gpu_trace of "dfork".
OUT=${OUT:-/tmp/r5}; mkdir -p $OUT
nvidia-smi -L
B=/tmp/glide_prebuilt; rm -rf $B; mkdir -p $B; tar xJf .bin/bins.tar.xz -C $B
run() { env $2 $B/glide_gpu_bench --kernels --out $OUT/k_$1_$3.md >/dev/null 2>&1; f=$OUT/k_$1_$3.md
  echo "$1 r$3: 64^3 $(grep -m1 '^| 64³ | 1.0 |' $f | cut -d'|' -f5,7) 256^3 $(grep -m1 '^| 256³ | 67.1 |' $f | cut -d'|' -f5,7) 512^3 $(grep -m1 '^| 512³ | 536.9 |' $f | cut -d'|' -f5,7)"; }
export GLIDE_X_TUNE_SETS=0
for r in $(seq 1 ${ROUNDS:-2}); do
  run base X=0 $r
  run defer GLIDE_X_TRIAL_DEFER=1 $r
  run dfork "GLIDE_X_TRIAL_DEFER=1 GLIDE_X_SPEC_FORK=1" $r
  run r16 GLIDE_X_RANGE_U=16 $r
  run all "GLIDE_X_TRIAL_DEFER=1 GLIDE_X_SPEC_FORK=1 GLIDE_X_RANGE_U=16 GLIDE_X_TUNE_SETS=1" $r
done | tee -a $OUT/ab5.txt
for u in 0 8 16; do echo "== ncu range U=$u"; GLIDE_X_RANGE_U=$u bash h5tests/gpu/ncu_kernels.sh $B/gpu_probe 256 'range_k' 9 2>&1 | cut -c1-140; done | tee $OUT/ncu5.txt
GLIDE_X_TRIAL_DEFER=1 GLIDE_X_SPEC_FORK=1 $B/gpu_trace 256 20 > $OUT/trace256_dfork.txt 2>&1; tail -2 $OUT/trace256_dfork.txt
cd $OUT && tar czf reports5.tgz k_*.md && rm -f k_*.md
