#!/usr/bin/env bash
# session s1127g run 1: crc_probe and range_probe (built on the development machine into .bin),
# then ncu's view of the current CRC kernel and of range_k's loop.
OUT=${OUT:-/tmp/r1}; mkdir -p $OUT
nvidia-smi --query-gpu=name,clocks.max.sm,clocks.max.mem --format=csv,noheader | tee $OUT/gpu.txt
timeout 120 .bin/crc_probe | tee $OUT/crc_probe.txt
timeout 120 .bin/range_probe | tee $OUT/range_probe.txt
timeout 120 .bin/range_probe | tail -12 > $OUT/range_probe2.txt
timeout 200 ncu --clock-control none -k regex:k_crc --launch-skip 0 --launch-count 12 --section SpeedOfLight --section LaunchStats --section Occupancy --section WarpStateStats .bin/crc_probe > $OUT/ncu_crc.txt 2>&1
grep -E "k_crc|Duration|Waves|Achieved Occ|Stall|Warp Cycles Per Issued" $OUT/ncu_crc.txt | head -60
timeout 120 ncu --clock-control none -k regex:k_scan --launch-count 2 --section SpeedOfLight --section MemoryWorkloadAnalysis .bin/range_probe > $OUT/ncu_range.txt 2>&1
grep -E "k_scan|Duration|DRAM Throughput|Memory Throughput|L2 Hit" $OUT/ncu_range.txt | head -20
