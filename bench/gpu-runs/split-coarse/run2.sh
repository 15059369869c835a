#!/usr/bin/env bash
# session 2026-11-26e run 2 (experiment build, env GLIDE_GPU_SPLIT_NT): the coarse kernel's block size,
# 32, 64 (27737d6) or 128 threads a 9^3 box -- ncu durations of the blended float encoder's coarse kernel
# at 256^3, ncu details of the 64-thread one, and kernel-only 256^3 / 512^3 for each, two rounds
OUT=${OUT:-/tmp/r2}; mkdir -p $OUT
nvidia-smi -L
B=/tmp/glide_prebuilt; rm -rf $B; mkdir -p $B; tar xJf .bin/bins.tar.xz -C $B
for nt in 32 64 128; do
  GLIDE_GPU_SPLIT_NT=$nt ncu --clock-control none --kernel-name-base mangled -k regex:"_Z11interp_sh_kIfLi[01]ELi(32|64|128)ELb0ELb1ELi1E" --launch-skip 4 --launch-count 6 \
    --section SpeedOfLight $B/gpu_probe 256 8 > $OUT/ncu_nt$nt.txt 2>&1
  echo "nt$nt: $(grep -E '^  _Z11interp|^\s+Duration' $OUT/ncu_nt$nt.txt | awk '/_Z11/{k=$1} /Duration/{print substr(k,1,45), $3}' | tr '\n' ';')"
done | tee $OUT/ncu.txt
ncu --clock-control none --kernel-name-base mangled -k regex:"_Z11interp_sh_kIfLi0ELi64ELb0ELb1ELi1E" --launch-skip 2 --launch-count 1 \
    --set detailed --section WarpStateStats --section SchedulerStats --section Occupancy --section LaunchStats $B/gpu_probe 256 4 > $OUT/ncu_detail64.txt 2>&1
grep -E "Duration|Registers Per|Achieved Occupancy|Theoretical Occupancy|Block Limit|Stall|Warp Cycles Per Issued|Issue Slot|Memory Throughput|Compute \(SM\)|Shared Memory Configuration Size|Dynamic Shared|Static Shared|Waves" $OUT/ncu_detail64.txt | head -40
run() { env $2 $B/glide_gpu_bench --kernels --out $OUT/k_$1_$3.md >/dev/null 2>&1; f=$OUT/k_$1_$3.md
  echo "$1 r$3: 256^3 $(grep -m1 '^| 256³ | 67.1 |' $f | cut -d'|' -f5,7) 512^3 $(grep -m1 '^| 512³ | 536.9 |' $f | cut -d'|' -f5,7)"; }
for r in 1 2; do for nt in 64 32 128; do run nt$nt "GLIDE_GPU_SPLIT_NT=$nt" $r; done; done | tee $OUT/ab.txt
cd $OUT && tar czf reports.tgz k_*.md ncu_*.txt && rm -f k_*.md
