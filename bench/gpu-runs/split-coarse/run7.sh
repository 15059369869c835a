#!/usr/bin/env bash
# session 2026-11-26e run 7 (b69271d, the final code): byte equality with the CPU on the synthetic and real
# fields, with and without the split from 20000 points, and one kernel-only round each way
OUT=${OUT:-/tmp/r7}; mkdir -p $OUT
nvidia-smi -L
TESTS=0 ROUNDS=0 OUT=$OUT bash h5tests/gpu/prebuilt_probe.sh 2>&1 | grep -v "^   "
B=/tmp/glide_prebuilt
timeout 300 $B/test_gpu_codec --fields /tmp/glide_fields --large > $OUT/codec_large.log 2>&1; echo "test_gpu_codec --fields --large rc=$?: $(grep -m1 'passed,' $OUT/codec_large.log)"; grep -m5 -i "fail" $OUT/codec_large.log | grep -v " 0 failed"
GLIDE_GPU_SPLIT_POINTS=20000 timeout 300 $B/test_gpu_codec --fields /tmp/glide_fields > $OUT/codec_split20k.log 2>&1; echo "test_gpu_codec --fields, SPLIT_POINTS=20000 rc=$?: $(grep -m1 'passed,' $OUT/codec_split20k.log)"; grep -m5 -i "fail" $OUT/codec_split20k.log | grep -v " 0 failed"
run() { env $2 $B/glide_gpu_bench --kernels --out $OUT/k_$1_$3.md >/dev/null 2>&1; f=$OUT/k_$1_$3.md
  echo "$1 r$3: 64^3 $(grep -m1 '^| 64³ | 1.0 |' $f | cut -d'|' -f5,7) 256^3 $(grep -m1 '^| 256³ | 67.1 |' $f | cut -d'|' -f5,7) 512^3 $(grep -m1 '^| 512³ | 536.9 |' $f | cut -d'|' -f5,7)"; }
for r in 1; do run split X=1 $r; run one GLIDE_GPU_SPLIT=0 $r; done | tee $OUT/ab.txt
cd $OUT && tar czf reports.tgz k_*.md *.log && rm -f k_*.md
