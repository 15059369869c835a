#!/usr/bin/env bash
# session 2026-11-26d run 1: reset-copy2 (the state's reset as one host copy) against main 3496469 (base):
# tests, memcheck, kernel-only A/B, API A/B, trace; and ncu source counters of the blended encode kernel (base)
OUT=${OUT:-/tmp/r1}; mkdir -p $OUT
nvidia-smi -L
ROUNDS=2 VARIANTS="new= base=bin:bench_base" OUT=$OUT bash h5tests/gpu/prebuilt_probe.sh 2>&1 | grep -v "^   "
B=/tmp/glide_prebuilt
timeout 90 compute-sanitizer --tool memcheck --leak-check no --error-exitcode 9 $B/test_gpu_codec --quick > $OUT/san.log 2>&1; echo "memcheck test_gpu_codec --quick: rc=$? $(grep -m1 'ERROR SUMMARY' $OUT/san.log)"
for s in 64 256; do r=500; [ $s = 256 ] && r=20; for p in gpu_probe probe_base probe_base gpu_probe gpu_probe probe_base probe_base gpu_probe; do echo "$p $s $($B/$p $s $r | grep '^side' | tr '\n' ' ')"; done; done | tee $OUT/api.txt
ldd $B/gpu_trace | grep -q "cupti.*not found" && export LD_LIBRARY_PATH=$B
timeout 60 $B/gpu_trace 64 30 > $OUT/trace64.md 2>&1; grep "median wall" $OUT/trace64.md
timeout 60 $B/trace_base 64 30 > $OUT/trace64_base.md 2>&1; grep "median wall" $OUT/trace64_base.md
# source counters of the blended float encode kernel (256 threads, not fill-aware), 256^3
mkdir -p /work 2>/dev/null; [ -e /work/main ] || ln -s "$PWD" /work/main 2>/dev/null
timeout 200 ncu --clock-control none --kernel-name-base mangled -k regex:"_Z11interp_sh_kIfLi0ELi256ELb0ELb1EE" \
  --launch-skip 1 --launch-count 1 --section SourceCounters --section WarpStateStats --section SpeedOfLight --section Occupancy --import-source yes -o $OUT/prof0 $B/probe_base 256 3 > $OUT/ncu_prof.log 2>&1; echo "ncu rc=$?"
ncu --import $OUT/prof0.ncu-rep --page source --print-source cuda,sass --csv 2>/dev/null | xz -T0 > $OUT/mix0.csv.xz
ncu --import $OUT/prof0.ncu-rep --page details > $OUT/details0.txt 2>&1
rm -f $OUT/prof0.ncu-rep
ls -la $OUT
