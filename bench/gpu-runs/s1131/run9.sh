#!/usr/bin/env bash
# Run 9: where a 64^3 API call's time goes now, device- and host-planned (gpu_trace 64 30 [host]),
# the final code at its defaults. Carry [".bin/new.tar.xz"].
OUT=${OUT:-/tmp/s1131r9}; mkdir -p $OUT
nvidia-smi -L
B=build-g90; mkdir -p $B; tar xf .bin/new.tar.xz -C $B
timeout 60 $B/bench/gpu_trace 64 30 > $OUT/trace64_device.txt 2>&1; echo "device rc $?"
timeout 60 $B/bench/gpu_trace 64 30 host > $OUT/trace64_host.txt 2>&1; echo "host rc $?"
for f in $OUT/trace64_*.txt; do echo "== $f"; grep -E "median wall|device busy" $f | head -4; done
