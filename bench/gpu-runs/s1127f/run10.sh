#!/usr/bin/env bash
# session s1127f run 10, a measurement, not kept: where the host's time goes in a host-planned 64^3
# call behind the plan's gate. "hosttime" (run10_hosttime.diff, .bin/hosttime.tar.xz; 6222e73 plus
# clock_gettime stamps) prints at exit the medians of: the pipeline queued -> the state's word seen
# (state_wait), host_plan, the plan written into h_apply -> the gate opened, the gate opened -> the
# stream back, and the whole call. gpu_probe 64 300 host, three times.
OUT=${OUT:-/tmp/r10}; mkdir -p $OUT
nvidia-smi -L
mkdir -p hosttime; tar xf .bin/hosttime.tar.xz -C hosttime
for r in 1 2 3; do echo "r$r: $(timeout 60 hosttime/bench/gpu_probe 64 300 host 2>&1 | grep '^side\|^hosttime' | sed 's/side [0-9]*, 300 runs//' | tr '\n' ' ')"; done | tee $OUT/hosttime10.txt
