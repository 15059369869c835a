#!/usr/bin/env bash
# session 2026-11-26c run 6 (H100): the decoder's state copied behind the values' pieces (download_values' tail):
# tests, 64^3 and 128^3 API calls alternated with b6f5688 (probe_gate), traces, then ctest with GLIDE_BACKEND=gpu
OUT=${OUT:-/tmp/r6}; mkdir -p $OUT
ROUNDS=0 OUT=$OUT bash h5tests/gpu/prebuilt_probe.sh
B=/tmp/glide_prebuilt
ldd $B/gpu_trace | grep -q "cupti.*not found" && export LD_LIBRARY_PATH=$B
for s in 64 128; do for p in gpu_probe probe_gate probe_gate gpu_probe gpu_probe probe_gate probe_gate gpu_probe; do echo "$p $($B/$p $s 500 | grep '^side')"; done; done | tee $OUT/api.txt
for t in gpu_trace trace_gate; do timeout 100 $B/$t 64 30 > $OUT/${t}_64.md 2>&1; echo "$t 64: $(grep -E 'decompress \(median' $OUT/${t}_64.md | cut -c1-120)"; done
STEPS="build extract_fields ctest_gpu" GLIDE_GPU_BENCH=0 OUT=$OUT/suite bash h5tests/gpu/run.sh 2>&1 | tail -8
