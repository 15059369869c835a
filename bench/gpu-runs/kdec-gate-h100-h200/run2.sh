#!/usr/bin/env bash
# session 2026-11-26c run 2 (H100): the GPU suite at the final code, first half (build kept on the machine for run 3)
OUT=${OUT:-/tmp/r2}; mkdir -p $OUT
STEPS="build extract_fields gpu_huff gpu_codec ctest_gpu demo_gpu" GLIDE_GPU_BENCH=0 OUT=$OUT bash h5tests/gpu/run.sh 2>&1 | tail -25
