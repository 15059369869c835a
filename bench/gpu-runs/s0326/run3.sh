#!/usr/bin/env bash
# session 2026-11-26f run 3: run 2's two changes reworked (priorities: the main stream as high as side
# streams 0 and 1; plane slots in 32 bits, the plane 0 count on few blocks) and the prediction
# instances' side streams forked before the first instance (temporary knob GLIDE_GPU_LANES_OLD=1: after,
# as before). Tests with the split from 20000 points, then kernel-only A/B, five variants, three rounds.
OUT=${OUT:-/tmp/r3}; mkdir -p $OUT
nvidia-smi -L
B=/tmp/glide_prebuilt; rm -rf $B; mkdir -p $B; tar xJf .bin/bins.tar.xz -C $B
python3 h5tests/gpu/extract_fields.py .devdata/real_fields_dev.h5 /tmp/glide_fields >/dev/null
GLIDE_GPU_SPLIT_POINTS=20000 timeout 200 $B/test_gpu_codec --fields /tmp/glide_fields > $OUT/codec_split.log 2>&1; echo "codec split rc=$? $(grep -m1 'passed,' $OUT/codec_split.log)"
grep -i -m5 "fail" $OUT/codec*.log | grep -v " 0 failed\|this and any further"
run() { env $2 $B/glide_gpu_bench --kernels --out $OUT/k_$1_$3.md >/dev/null 2>&1; f=$OUT/k_$1_$3.md
  echo "$1 r$3: 64^3 $(grep -m1 '^| 64³ | 1.0 |' $f | cut -d'|' -f5,7) 256^3 $(grep -m1 '^| 256³ | 67.1 |' $f | cut -d'|' -f5,7) 512^3 $(grep -m1 '^| 512³ | 536.9 |' $f | cut -d'|' -f5,7)"; }
for r in 1 2 3; do
  run base "GLIDE_GPU_PRIORITY=0 GLIDE_GPU_SPLIT_PLANES=0 GLIDE_GPU_LANES_OLD=1" $r
  run lanes "GLIDE_GPU_PRIORITY=0 GLIDE_GPU_SPLIT_PLANES=0" $r
  run lanes_prio "GLIDE_GPU_SPLIT_PLANES=0" $r
  run lanes_planes "GLIDE_GPU_PRIORITY=0" $r
  run all "X=1" $r
done | tee $OUT/ab.txt
$B/gpu_trace 256 10 > $OUT/trace256_all.txt 2>&1
GLIDE_GPU_PRIORITY=0 GLIDE_GPU_SPLIT_PLANES=0 $B/gpu_trace 256 10 > $OUT/trace256_lanes.txt 2>&1
cd $OUT && tar czf reports.tgz k_*.md && rm -f k_*.md
