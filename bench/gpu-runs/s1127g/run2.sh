#!/usr/bin/env bash
# session s1127g run 2: ncu (full set, source counters) of the 256^3 compression tail's kernels
# in gpu_probe's calls: the Huffman encoder k_enc_fused, the CRC, apply_plan_k and hist0_k.
OUT=${OUT:-/tmp/r2}; mkdir -p $OUT
B=build-g90; mkdir -p $B; tar xf .bin/tree.tar.xz -C $B
nvidia-smi --query-gpu=name --format=csv,noheader | tee $OUT/gpu.txt
timeout 300 ncu --set full --import-source yes -k regex:'k_enc_fused|k_crc_pieces|apply_plan_k|hist0_k' --launch-skip 4 --launch-count 8 \
  -o $OUT/tail $B/bench/gpu_probe 256 3 > $OUT/ncu_tail.log 2>&1; echo "ncu rc=$?"; tail -3 $OUT/ncu_tail.log
ncu --import $OUT/tail.ncu-rep --page details --print-details all > $OUT/tail_details.txt 2>&1
ncu --import $OUT/tail.ncu-rep --page source --csv --print-source cuda -k regex:k_enc_fused > $OUT/enc_cuda.csv 2>&1
grep -E "^  [a-z_<]|Duration|Warp Cycles Per Issued|Achieved Occupancy|Registers Per|Theoretical Occ|Block Limit|Stall|Memory Throughput|Compute \(SM\)" $OUT/tail_details.txt | head -80
cd $OUT && xz -T0 enc_cuda.csv && rm -f tail.ncu-rep
