#!/usr/bin/env bash
# session 2026-11-26f run 2: stream priorities (GLIDE_GPU_PRIORITY) and the split interpolation writing
# format 5's planes (GLIDE_GPU_SPLIT_PLANES), each with and without, in one binary: tests first (the
# default, and the split from 20000 points so that small chunks and the real fields take the new path),
# then kernel-only A/B (glide_gpu_bench --kernels, three alternated rounds of four variants),
# the 64^3 API call with and without priorities, and the 256^3 trace with both on.
OUT=${OUT:-/tmp/r2}; mkdir -p $OUT
nvidia-smi -L
B=/tmp/glide_prebuilt; rm -rf $B; mkdir -p $B; tar xJf .bin/bins.tar.xz -C $B
python3 h5tests/gpu/extract_fields.py .devdata/real_fields_dev.h5 /tmp/glide_fields >/dev/null
timeout 200 $B/test_gpu_codec --fields /tmp/glide_fields > $OUT/codec.log 2>&1; echo "codec rc=$? $(grep -m1 'passed,' $OUT/codec.log)"
GLIDE_GPU_SPLIT_POINTS=20000 timeout 200 $B/test_gpu_codec --fields /tmp/glide_fields > $OUT/codec_split.log 2>&1; echo "codec split rc=$? $(grep -m1 'passed,' $OUT/codec_split.log)"
grep -i -m5 "fail" $OUT/codec*.log | grep -v " 0 failed"
run() { env $2 $B/glide_gpu_bench --kernels --out $OUT/k_$1_$3.md >/dev/null 2>&1; f=$OUT/k_$1_$3.md
  echo "$1 r$3: 64^3 $(grep -m1 '^| 64³ | 1.0 |' $f | cut -d'|' -f5,7) 256^3 $(grep -m1 '^| 256³ | 67.1 |' $f | cut -d'|' -f5,7) 512^3 $(grep -m1 '^| 512³ | 536.9 |' $f | cut -d'|' -f5,7)"; }
for r in 1 2 3; do
  run base "GLIDE_GPU_PRIORITY=0 GLIDE_GPU_SPLIT_PLANES=0" $r
  run prio "GLIDE_GPU_SPLIT_PLANES=0" $r
  run planes "GLIDE_GPU_PRIORITY=0" $r
  run both "X=1" $r
done | tee $OUT/ab.txt
for r in 1 2 3; do for v in "prio X=1" "noprio GLIDE_GPU_PRIORITY=0"; do set -- $v
  echo "$1 64 r$r: $(env $2 $B/gpu_probe 64 300 | grep '^side' | tr '\n' ' ')"; done; done | tee $OUT/api.txt
$B/gpu_trace 256 10 > $OUT/trace256_both.txt 2>&1
GLIDE_GPU_PRIORITY=0 GLIDE_GPU_SPLIT_PLANES=0 $B/gpu_trace 256 10 > $OUT/trace256_base.txt 2>&1
cd $OUT && tar czf reports.tgz k_*.md && rm -f k_*.md
