#!/usr/bin/env bash
# Run 1 (ncu failed: "Failed to prepare kernel for profiling", then hung to the timeout): where k_enc_fused's instructions go (main 51b8b38). Carry [".bin/main.tar.xz"]
# (pack_min.sh build-g90 main). ncu's source counters of one 256^3 launch, then the 256^3 trace.
OUT=${OUT:-/tmp/s1128r1}; mkdir -p $OUT
nvidia-smi -L
B=build-g90; mkdir -p $B; tar xf .bin/main.tar.xz -C $B
timeout 240 ncu --clock-control none -k regex:k_enc_fused --launch-skip 3 --launch-count 1 --import-source yes \
  --section SpeedOfLight --section InstructionStats --section WarpStateStats --section SourceCounters --section Occupancy \
  -o $OUT/enc $B/bench/gpu_probe 256 3 > $OUT/ncu.log 2>&1; echo "ncu rc $?"; tail -2 $OUT/ncu.log
ncu --import $OUT/enc.ncu-rep --page details > $OUT/enc_details.txt 2>&1
ncu --import $OUT/enc.ncu-rep --page source --csv --print-source cuda > $OUT/enc_cuda.csv 2>&1
ncu --import $OUT/enc.ncu-rep --page source --csv --print-source sass > $OUT/enc_sass.csv 2>&1
grep -E "Duration|Issued Ipc|Issue Slots Busy|Executed Instructions  |Warp Cycles Per Issued|Achieved Occ|Stall (Long|Wait|Not Sel|Math|Short|Branch)" $OUT/enc_details.txt | head -20
wc -c $OUT/*.csv
timeout 60 $B/bench/gpu_trace 256 7 > $OUT/trace256.txt 2>&1; grep -E "k_enc_fused|outlier_pack|k_crc" $OUT/trace256.txt | head -4
cd $OUT && xz -T0 *.csv && rm -f enc.ncu-rep
