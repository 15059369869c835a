#!/usr/bin/env bash
# session s1127f run 5, on an H100 (kind nvidia-h100-x1): test_gpu_codec --quick (stops at a
# failure) and gpu_probe check at 64^3, then run 4b's timing (old / new kernel-only rounds, the
# 64^3 API call new / old and host-planned, the traces).
OUT=${OUT:-/tmp/r5}; mkdir -p $OUT
B=build-g90; mkdir -p $B; tar xf .bin/tree.tar.xz -C $B
G=$B/h5tests/gpu/test_gpu_codec
timeout 100 stdbuf -oL $G --quick > $OUT/codec_quick.log 2>&1; rc=$?; echo "test_gpu_codec --quick: rc $rc $(grep -m1 'passed,' $OUT/codec_quick.log)"; grep -m5 FAIL $OUT/codec_quick.log; [ $rc = 0 ] || { tail -5 $OUT/codec_quick.log; exit 1; }
timeout 60 $B/bench/gpu_probe 64 30 fresh check 2>&1 | grep '^check' | sed "s/^/64: /" | tee $OUT/check5.txt
ROUNDS=${ROUNDS:-3} OUT=$OUT bash "$(dirname "$0")/run4b.sh"
cd $OUT && gzip -f codec_quick.log
