#!/usr/bin/env bash
# session 2026-11-26c run 3 (H100, after run 2 on the same machine): the suite's sanitizer steps, then
# glide_gpu_bench --kernels alternated with main (e39fbfc's k_dec) and the 64^3 API call alternated
OUT=${OUT:-/tmp/r3}; mkdir -p $OUT
STEPS="build extract_fields memcheck racecheck memcheck_huff" GLIDE_GPU_BENCH=0 OUT=$OUT/suite bash h5tests/gpu/run.sh 2>&1 | tail -12
TESTS=0 ROUNDS=${ROUNDS:-3} VARIANTS="new= main=bin:bench_main" OUT=$OUT bash h5tests/gpu/prebuilt_probe.sh | grep "^=="
B=/tmp/glide_prebuilt
for p in gpu_probe probe_main probe_main gpu_probe gpu_probe probe_main; do echo "$p $($B/$p 64 1000 | tail -1)"; done | tee $OUT/api.txt
