#!/usr/bin/env bash
# session 2026-11-26f run 7: the split's chunk strides held once (DecodeIn.fst, no GSplit.fst copy):
# test_gpu_codec by default and with the split from 20000 points (real fields too), memcheck of the
# quick set with the split from 20000 points, and one kernel-only round.
OUT=${OUT:-/tmp/r7}; mkdir -p $OUT
nvidia-smi -L
B=/tmp/glide_prebuilt; rm -rf $B; mkdir -p $B; tar xJf .bin/bins.tar.xz -C $B
python3 h5tests/gpu/extract_fields.py .devdata/real_fields_dev.h5 /tmp/glide_fields >/dev/null
timeout 200 $B/test_gpu_codec --fields /tmp/glide_fields > $OUT/codec.log 2>&1; echo "codec rc=$? $(grep -m1 'passed,' $OUT/codec.log)"
GLIDE_GPU_SPLIT_POINTS=20000 timeout 200 $B/test_gpu_codec --fields /tmp/glide_fields > $OUT/codec_split.log 2>&1; echo "codec split rc=$? $(grep -m1 'passed,' $OUT/codec_split.log)"
GLIDE_GPU_SPLIT_POINTS=20000 timeout 150 compute-sanitizer --tool memcheck --leak-check no --error-exitcode 9 $B/test_gpu_codec --quick > $OUT/memcheck.log 2>&1; echo "memcheck rc=$? $(grep -m1 'ERROR SUMMARY' $OUT/memcheck.log)"
$B/glide_gpu_bench --kernels --out $OUT/k.md >/dev/null 2>&1
echo "kernels: 256^3 $(grep -m1 '^| 256³ | 67.1 |' $OUT/k.md | cut -d'|' -f5,7) 512^3 $(grep -m1 '^| 512³ | 536.9 |' $OUT/k.md | cut -d'|' -f5,7)"
