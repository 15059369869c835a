#!/usr/bin/env bash
# session 2026-11-27 run 3 (on run 2's in-place planes): k_enc_fused's look-back reading 256 words
# a step after its first 32 (GLIDE_X_LB=1) and plane 0's histogram on fewer blocks (GLIDE_X_H0G=N):
# ncu medians of both kernels at 256^3 each way, ncu stall sections of k_enc_fused, then ROUNDS
# alternated kernel-only rounds of the default against both knobs.
OUT=${OUT:-/tmp/r3}; mkdir -p $OUT
nvidia-smi -L
B=/tmp/glide_prebuilt; rm -rf $B; mkdir -p $B; tar xJf .bin/bins.tar.xz -C $B
for v in "X=0" "GLIDE_X_LB=1" "GLIDE_X_H0G=264" "GLIDE_X_H0G=132"; do
  echo "== $v"; env $v bash h5tests/gpu/ncu_kernels.sh $B/gpu_probe 256 'k_enc_fused|hist0_k' 12
done 2>&1 | tee $OUT/ncu3.txt
for v in "X=0" "GLIDE_X_LB=1"; do
  env $v ncu --clock-control none -k regex:k_enc_fused --launch-skip 6 --launch-count 1 --section SpeedOfLight \
    --section WarpStateStats --section MemoryWorkloadAnalysis --section SchedulerStats $B/gpu_probe 256 8 > $OUT/ncu3_stall_$v.txt 2>&1
done
grep -h -E "Duration|Stall|Warp Cycles|Issued|Eligible|Memory Throughput|L2 Hit" $OUT/ncu3_stall_*.txt | head -40
run() { env $2 $B/glide_gpu_bench --kernels --out $OUT/k_$1_$3.md >/dev/null 2>&1; f=$OUT/k_$1_$3.md
  echo "$1 r$3: 64^3 $(grep -m1 '^| 64³ | 1.0 |' $f | cut -d'|' -f5,7) 256^3 $(grep -m1 '^| 256³ | 67.1 |' $f | cut -d'|' -f5,7) 512^3 $(grep -m1 '^| 512³ | 536.9 |' $f | cut -d'|' -f5,7)"; }
for r in $(seq 1 ${ROUNDS:-3}); do
  run both "GLIDE_X_LB=1 GLIDE_X_H0G=${H0G:-264}" $r
  run inplace X=0 $r
done | tee -a $OUT/ab3.txt
cd $OUT && tar czf reports3.tgz k_*.md && rm -f k_*.md
