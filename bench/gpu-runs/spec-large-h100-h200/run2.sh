#!/usr/bin/env bash
# session 2026-11-26d run 2: speculation for large chunks (GLIDE_GPU_SPEC_POINTS) and the main stream's priority
# (GLIDE_GPU_MAIN_PRIO), experiment knobs on main 3496469: byte equality with every chunk speculating, kernel-only A/B
OUT=${OUT:-/tmp/r2}; mkdir -p $OUT
nvidia-smi -L
B=/tmp/glide_prebuilt; rm -rf $B; mkdir -p $B; tar xJf .bin/bins.tar.xz -C $B
python3 h5tests/gpu/extract_fields.py .devdata/real_fields_dev.h5 /tmp/glide_fields >/dev/null
ALL=4294967295
GLIDE_GPU_SPEC_POINTS=$ALL timeout 300 $B/test_gpu_codec --fields /tmp/glide_fields --large > $OUT/codec_spec.log 2>&1; echo "test_gpu_codec (all speculate) --large rc=$?: $(grep -m1 'passed,' $OUT/codec_spec.log)"; grep -m5 -i "fail" $OUT/codec_spec.log | grep -v " 0 failed"
GLIDE_GPU_SPEC_POINTS=$ALL GLIDE_GPU_MAIN_PRIO=1 timeout 300 $B/test_gpu_codec --quick > $OUT/codec_spec_prio.log 2>&1; echo "test_gpu_codec --quick (all speculate, prio) rc=$?: $(grep -m1 'passed,' $OUT/codec_spec_prio.log)"
run() { env $2 $B/glide_gpu_bench --kernels --out $OUT/k_$1_$3.md >/dev/null 2>&1; f=$OUT/k_$1_$3.md
  echo "$1 r$3: 64^3 $(grep -m1 '^| 64³ | 1.0 |' $f | cut -d'|' -f5,7) 256^3 $(grep -m1 '^| 256³ | 67.1 |' $f | cut -d'|' -f5,7) 512^3 $(grep -m1 '^| 512³ | 536.9 |' $f | cut -d'|' -f5,7)"; }
for r in 1 2; do
  run base "X=0" $r; run spec "GLIDE_GPU_SPEC_POINTS=$ALL" $r; run prio "GLIDE_GPU_MAIN_PRIO=1" $r; run specprio "GLIDE_GPU_SPEC_POINTS=$ALL GLIDE_GPU_MAIN_PRIO=1" $r
done | tee $OUT/ab.txt
for v in base spec specprio; do echo "$v 256 stages: $(grep -A18 '### 256³ compress$' $OUT/k_${v}_1.md | grep '^| [a-z]' | cut -d'|' -f2,3 | tr '\n' ' ')"; done
cd $OUT && tar czf reports.tgz k_*.md && rm -f k_*.md
