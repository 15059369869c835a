#!/usr/bin/env bash
# session 2026-11-26f run 4: ncu durations of the split's fine kernel and the planes' split kernel with
# and without GLIDE_GPU_SPLIT_PLANES (256^3 and 512^3, gpu_probe), then kernel-only A/B in five rounds:
# the block trial's interpolation on side stream 3 (temporary knob GLIDE_GPU_TRIAL_AUX=1, low priority)
# against the main stream, with and without the planes.
OUT=${OUT:-/tmp/r4}; mkdir -p $OUT
nvidia-smi -L
B=/tmp/glide_prebuilt; rm -rf $B; mkdir -p $B; tar xJf .bin/bins.tar.xz -C $B
K='regex:_Z11interp_sh_kIfLi0ELi256ELb0ELb1ELi2E|split_vec_k'
for side in 256 512; do for pl in 0 1; do
  GLIDE_GPU_SPLIT_PLANES=$pl ncu --kernel-name-base mangled -k "$K" --metrics gpu__time_duration.sum -c 8 $B/gpu_probe $side 3 > $OUT/ncu_${side}_pl$pl.txt 2>&1
  echo "ncu $side planes=$pl: $(grep -E 'interp_sh_k|split_vec_k|gpu__time_duration' $OUT/ncu_${side}_pl$pl.txt | sed -E 's/.*(interp_sh_k|split_vec_k).*/\1/; s/.*gpu__time_duration.sum +[a-z]+ +([0-9.,]+).*/\1/' | paste -sd' ')"
done; done
run() { env $2 $B/glide_gpu_bench --kernels --out $OUT/k_$1_$3.md >/dev/null 2>&1; f=$OUT/k_$1_$3.md
  echo "$1 r$3: 64^3 $(grep -m1 '^| 64³ | 1.0 |' $f | cut -d'|' -f5,7) 256^3 $(grep -m1 '^| 256³ | 67.1 |' $f | cut -d'|' -f5,7) 512^3 $(grep -m1 '^| 512³ | 536.9 |' $f | cut -d'|' -f5,7)"; }
for r in 1 2 3 4 5; do
  run lanes "GLIDE_GPU_PRIORITY=0 GLIDE_GPU_SPLIT_PLANES=0" $r
  run lanes_planes "GLIDE_GPU_PRIORITY=0" $r
  run trialaux "GLIDE_GPU_SPLIT_PLANES=0 GLIDE_GPU_TRIAL_AUX=1" $r
  run trialaux_planes "GLIDE_GPU_TRIAL_AUX=1" $r
done | tee $OUT/ab.txt
GLIDE_GPU_TRIAL_AUX=1 $B/gpu_trace 256 10 > $OUT/trace256_trialaux.txt 2>&1
cd $OUT && tar czf reports.tgz k_*.md && rm -f k_*.md
