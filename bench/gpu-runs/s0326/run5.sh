#!/usr/bin/env bash
# session 2026-11-26f run 5: the split interpolation writes the planes only (no raster symbols; the
# raster order is merged back beside the book choice only where the interpolation has outliers),
# the prediction instances' side streams forked before the first one, priorities and the trial on
# a side stream dropped. Tests (default; the split from 20000 points), ncu of the fine kernel, the
# split and the merge at 256^3 with and without GLIDE_GPU_SPLIT_PLANES, kernel-only A/B in five rounds.
OUT=${OUT:-/tmp/r5}; mkdir -p $OUT
nvidia-smi -L
B=/tmp/glide_prebuilt; rm -rf $B; mkdir -p $B; tar xJf .bin/bins.tar.xz -C $B
python3 h5tests/gpu/extract_fields.py .devdata/real_fields_dev.h5 /tmp/glide_fields >/dev/null
timeout 200 $B/test_gpu_codec --fields /tmp/glide_fields > $OUT/codec.log 2>&1; echo "codec rc=$? $(grep -m1 'passed,' $OUT/codec.log)"
GLIDE_GPU_SPLIT_POINTS=20000 timeout 200 $B/test_gpu_codec --fields /tmp/glide_fields > $OUT/codec_split.log 2>&1; echo "codec split rc=$? $(grep -m1 'passed,' $OUT/codec_split.log)"
grep -i -m5 "fail" $OUT/codec*.log | grep -v " 0 failed\|this and any further"
K='regex:_Z11interp_sh_kIfLi0ELi256ELb0ELb1ELi2E|split_vec_k|merge_vec_k'
for pl in 0 1; do
  GLIDE_GPU_SPLIT_PLANES=$pl ncu --kernel-name-base mangled -k "$K" --metrics gpu__time_duration.sum -c 12 $B/gpu_probe 256 3 > $OUT/ncu_256_pl$pl.txt 2>&1
  echo "ncu 256 planes=$pl: $(grep -E 'interp_sh_k|split_vec_k|merge_vec_k|gpu__time_duration' $OUT/ncu_256_pl$pl.txt | sed -E 's/.*(interp_sh_k|split_vec_k|merge_vec_k).*/\1/; s/.*gpu__time_duration.sum +[a-z]+ +([0-9.,]+).*/\1/' | paste -sd' ')"
done
run() { env $2 $B/glide_gpu_bench --kernels --out $OUT/k_$1_$3.md >/dev/null 2>&1; f=$OUT/k_$1_$3.md
  echo "$1 r$3: 64^3 $(grep -m1 '^| 64³ | 1.0 |' $f | cut -d'|' -f5,7) 256^3 $(grep -m1 '^| 256³ | 67.1 |' $f | cut -d'|' -f5,7) 512^3 $(grep -m1 '^| 512³ | 536.9 |' $f | cut -d'|' -f5,7)"; }
for r in 1 2 3 4 5; do
  run noplanes "GLIDE_GPU_SPLIT_PLANES=0" $r
  run planes "X=1" $r
done | tee $OUT/ab.txt
$B/gpu_trace 256 10 > $OUT/trace256_planes.txt 2>&1
cd $OUT && tar czf reports.tgz k_*.md && rm -f k_*.md
