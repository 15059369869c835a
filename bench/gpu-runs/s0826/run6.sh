#!/usr/bin/env bash
# session 2026-11-26k run 6 (branch exp-tune-par): the main stream at the greatest priority, its
# graph nodes keeping their streams' priorities (GLIDE_X_PRIO=1: tuning, blends and the trial's
# interpolation before the speculation's and side trials' blocks), alone and with the side trials
# deferred (GLIDE_X_TRIAL_DEFER=1) and the speculation forked at once (GLIDE_X_SPEC_FORK=1), against
# main's launches (tune_k everywhere): alternated kernel-only rounds, then gpu_trace of "dfprio".
OUT=${OUT:-/tmp/r6}; mkdir -p $OUT
nvidia-smi -L
B=/tmp/glide_prebuilt; rm -rf $B; mkdir -p $B; tar xJf .bin/bins.tar.xz -C $B
run() { env $2 $B/glide_gpu_bench --kernels --out $OUT/k_$1_$3.md >/dev/null 2>&1; f=$OUT/k_$1_$3.md
  echo "$1 r$3: 64^3 $(grep -m1 '^| 64³ | 1.0 |' $f | cut -d'|' -f5,7) 256^3 $(grep -m1 '^| 256³ | 67.1 |' $f | cut -d'|' -f5,7) 512^3 $(grep -m1 '^| 512³ | 536.9 |' $f | cut -d'|' -f5,7)"; }
export GLIDE_X_TUNE_SETS=0
for r in $(seq 1 ${ROUNDS:-2}); do
  run base X=0 $r
  run prio GLIDE_X_PRIO=1 $r
  run dprio "GLIDE_X_TRIAL_DEFER=1 GLIDE_X_PRIO=1" $r
  run dfprio "GLIDE_X_TRIAL_DEFER=1 GLIDE_X_SPEC_FORK=1 GLIDE_X_PRIO=1" $r
done | tee -a $OUT/ab6.txt
GLIDE_X_TRIAL_DEFER=1 GLIDE_X_SPEC_FORK=1 GLIDE_X_PRIO=1 $B/gpu_trace 256 20 > $OUT/trace256_dfprio.txt 2>&1; tail -1 $OUT/trace256_dfprio.txt
cd $OUT && tar czf reports6.tgz k_*.md && rm -f k_*.md
