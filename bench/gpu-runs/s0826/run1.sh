#!/usr/bin/env bash
# session 2026-11-26k run 1: main (669e34e) plus experiment knobs (branch exp-tune-par) at 256^3:
# gpu_trace's median 256^3 call (base), then alternated kernel-only rounds of the knob settings,
# then ncu medians of tune_k and blend_w_k with and without the wider blocks.
OUT=${OUT:-/tmp/r1}; mkdir -p $OUT
nvidia-smi -L
B=/tmp/glide_prebuilt; rm -rf $B; mkdir -p $B; tar xJf .bin/bins.tar.xz -C $B
$B/gpu_trace 256 20 > $OUT/trace256.txt 2>&1; tail -3 $OUT/trace256.txt
run() { env $2 $B/glide_gpu_bench --kernels --out $OUT/k_$1_$3.md >/dev/null 2>&1; f=$OUT/k_$1_$3.md
  echo "$1 r$3: 64^3 $(grep -m1 '^| 64³ | 1.0 |' $f | cut -d'|' -f5,7) 256^3 $(grep -m1 '^| 256³ | 67.1 |' $f | cut -d'|' -f5,7) 512^3 $(grep -m1 '^| 512³ | 536.9 |' $f | cut -d'|' -f5,7)"; }
for r in $(seq 1 ${ROUNDS:-2}); do
  run base X=0 $r
  run spec GLIDE_X_BLEND_SPEC=1 $r
  run fork GLIDE_X_SPEC_FORK=1 $r
  run tnt GLIDE_X_TUNE_NT=512 $r
  run bnt GLIDE_X_BLEND_NT=1024 $r
  run all "GLIDE_X_SPEC_FORK=1 GLIDE_X_TUNE_NT=512 GLIDE_X_BLEND_NT=1024" $r
done | tee -a $OUT/ab1.txt
echo "== ncu base"; bash h5tests/gpu/ncu_kernels.sh $B/gpu_probe 256 'tune_k|blend_w_k' 9 2>&1 | cut -c1-140 | tee $OUT/ncu1.txt
echo "== ncu wide"; GLIDE_X_TUNE_NT=512 GLIDE_X_BLEND_NT=1024 bash h5tests/gpu/ncu_kernels.sh $B/gpu_probe 256 'tune_k|blend_w_k' 9 2>&1 | cut -c1-140 | tee -a $OUT/ncu1.txt
echo "== ncu spec"; GLIDE_X_BLEND_SPEC=1 bash h5tests/gpu/ncu_kernels.sh $B/gpu_probe 256 'tune_k|blend_w_k' 9 2>&1 | cut -c1-140 | tee -a $OUT/ncu1.txt
cd $OUT && tar czf reports1.tgz k_*.md && rm -f k_*.md
