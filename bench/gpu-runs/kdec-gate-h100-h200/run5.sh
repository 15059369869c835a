#!/usr/bin/env bash
# session 2026-11-26c run 5 (H100): launch_predict's lanes forked before the first instance; tests, memcheck and racecheck,
# A/B against b6f5688 (bench_gate), traces of both
OUT=${OUT:-/tmp/r5}; mkdir -p $OUT
ROUNDS=${ROUNDS:-3} SAN=codec VARIANTS="new= gate=bin:bench_gate" OUT=$OUT bash h5tests/gpu/prebuilt_probe.sh
B=/tmp/glide_prebuilt
ldd $B/gpu_trace | grep -q "cupti.*not found" && export LD_LIBRARY_PATH=$B
for s in 64 256; do for t in gpu_trace trace_gate gpu_trace trace_gate; do timeout 100 $B/$t $s 30 > $OUT/${t}_$s.md 2>&1; echo "$t $s: $(grep -E 'compress \(median' $OUT/${t}_$s.md | head -1 | cut -c1-110)"; done; done
