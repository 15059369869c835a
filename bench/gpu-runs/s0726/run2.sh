#!/usr/bin/env bash
# session 2026-11-26j run 2: ncu's full sections and SASS source counters of the split's fine
# encoder (interp_sh_k<float, encode, 256, !FA, BL, PART_FINE>) at 256^3 (Nyx-like, main 4e5f6b5,
# H200): one launch after two warm-up calls.
OUT=${OUT:-/tmp/r2}; mkdir -p $OUT
B=/tmp/glide_prebuilt; [ -x $B/gpu_probe ] || { rm -rf $B; mkdir -p $B; tar xJf .bin/bins.tar.xz -C $B; }
ncu --set full --import-source yes --kernel-name-base demangled -k regex:'interp_sh_k<float, .int.0, .int.256, .bool.0, .bool.1, .int.2>' \
    --launch-skip 2 --launch-count 1 -o $OUT/fine -f $B/gpu_probe 256 4 > $OUT/ncu_fine.log 2>&1
tail -3 $OUT/ncu_fine.log
ncu --import $OUT/fine.ncu-rep --page details --print-details all > $OUT/fine_details.txt 2>&1
ncu --import $OUT/fine.ncu-rep --page source --csv --print-source sass > $OUT/fine_sass.csv 2>&1
ncu --import $OUT/fine.ncu-rep --page source --csv --print-source cuda > $OUT/fine_cuda.csv 2>&1
ls -la $OUT; grep -E "Duration|Executed Ipc|Issue Slots Busy|Achieved Occupancy|Warp Cycles Per Issued|No Eligible" $OUT/fine_details.txt | head -20
xz -T0 $OUT/fine_sass.csv $OUT/fine_cuda.csv; rm -f $OUT/fine.ncu-rep
