#!/usr/bin/env bash
# Run 6: the 256^3 blend layouts that launch_tune gives smaller samples, forced by the SM count it
# assumes (GLIDE_GPU_BLEND_SMS, run 5's binary with GLIDE_GPU_BLEND_BOX=0, i.e. main's kernels):
# 1000 gives 256^3's 64 boxes GG_BLEND_SPLIT (a block a box, level and blend: 512 blocks), 2000
# GG_BLEND_SPEC (every spline's blends beside tune_k: 1536 blocks); 512^3 and 64^3 keep their own.
# Carry [".bin/new.tar.xz"]. gpu_probe's check under each, then ROUNDS rounds and a trace of each.
OUT=${OUT:-/tmp/s1129r6}; mkdir -p $OUT
nvidia-smi -L
B=build-g90; mkdir -p $B; tar xf .bin/new.tar.xz -C $B
export GLIDE_GPU_BLEND_BOX=0
for m in 1000 2000; do GLIDE_GPU_BLEND_SMS=$m timeout 60 $B/bench/gpu_probe 256 12 fresh check 2>&1 | grep '^check' | sed "s/^/sms $m 256: /"; done | tee $OUT/check.txt
if grep -q "check: [1-9]" $OUT/check.txt || [ $(grep -c "check:" $OUT/check.txt) -lt 2 ]; then echo "streams differ or check missing"; exit 1; fi
run() { env GLIDE_GPU_BLEND_SMS=$2 timeout 60 $B/bench/glide_gpu_bench --kernels --out $OUT/k_$1_$3.md >/dev/null 2>&1; f=$OUT/k_$1_$3.md
  echo "$1 r$3: 64^3 $(grep -m1 '^| 64³ | 1.0 |' $f | cut -d'|' -f5,7) 256^3 $(grep -m1 '^| 256³ | 67.1 |' $f | cut -d'|' -f5,7) 512^3 $(grep -m1 '^| 512³ | 536.9 |' $f | cut -d'|' -f5,7)"; }
for r in $(seq 1 ${ROUNDS:-3}); do run old 0 $r; run split 1000 $r; run spec 2000 $r; done | tee $OUT/ab.txt
for m in 1000 2000; do GLIDE_GPU_BLEND_SMS=$m timeout 40 $B/bench/gpu_trace 256 5 > $OUT/trace256_sms$m.txt 2>&1; grep -E "tune_k|blend_w_k" $OUT/trace256_sms$m.txt | head -3; done
cd $OUT && tar czf logs.tgz k_*.md && rm -f k_*.md
