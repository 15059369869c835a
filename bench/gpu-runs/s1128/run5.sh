#!/usr/bin/env bash
# Run 5: ncu's source counters of k_enc_fused on 2^24 Laplace symbols from `test_gpu_huff -T` (no
# graphs, unlike gpu_probe, where ncu failed in run 1). Carry [".bin/main.tar.xz"].
OUT=${OUT:-/tmp/s1128r5}; mkdir -p $OUT
nvidia-smi -L
B=build-g90; mkdir -p $B; tar xf .bin/main.tar.xz -C $B
timeout 150 ncu --clock-control none -k regex:k_enc_fused --launch-skip 13 --launch-count 1 --import-source yes \
  --section SpeedOfLight --section InstructionStats --section WarpStateStats --section SourceCounters --section Occupancy \
  -o $OUT/enc $B/gpu/test_gpu_huff -T > $OUT/ncu.log 2>&1; echo "ncu rc $?"; grep -E "time encode|time decode" $OUT/ncu.log; tail -2 $OUT/ncu.log
ncu --import $OUT/enc.ncu-rep --page details > $OUT/enc_details.txt 2>&1
ncu --import $OUT/enc.ncu-rep --page source --csv --print-source cuda > $OUT/enc_cuda.csv 2>&1
ncu --import $OUT/enc.ncu-rep --page source --csv --print-source sass > $OUT/enc_sass.csv 2>&1
grep -E "Grid Size|Duration|Issued Ipc|Issue Slots Busy|Executed Instructions  |Warp Cycles Per Issued|Achieved Occ|Stall (Long|Wait|Not Sel|Math|Short|Branch|Barrier|LG|Membar|Drain)" $OUT/enc_details.txt | head -24
wc -c $OUT/*.csv
cd $OUT && xz -T0 *.csv && rm -f enc.ncu-rep
