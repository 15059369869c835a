#!/usr/bin/env bash
# session 2026-11-26e run 1: the split interpolation (coarse levels on the even lattice in their own kernel,
# then the finest level) -- byte equality with the CPU (default threshold, and 20000 points for every
# 3-D shape of the synthetic set), then kernel-only A/B against GLIDE_GPU_SPLIT=0 (the one kernel), three
# alternated rounds, and ncu durations of the blended float encoder's kernels at 256^3.
OUT=${OUT:-/tmp/r1}; mkdir -p $OUT
nvidia-smi -L
TESTS=0 ROUNDS=0 OUT=$OUT bash h5tests/gpu/prebuilt_probe.sh 2>&1 | grep -v "^   "
B=/tmp/glide_prebuilt
timeout 300 $B/test_gpu_codec --fields /tmp/glide_fields --large > $OUT/codec_large.log 2>&1; echo "test_gpu_codec --fields --large rc=$?: $(grep -m1 'passed,' $OUT/codec_large.log)"; grep -m5 -i "fail" $OUT/codec_large.log | grep -v " 0 failed"
GLIDE_GPU_SPLIT_POINTS=20000 timeout 300 $B/test_gpu_codec > $OUT/codec_split20k.log 2>&1; echo "test_gpu_codec SPLIT_POINTS=20000 rc=$?: $(grep -m1 'passed,' $OUT/codec_split20k.log)"; grep -m5 -i "fail" $OUT/codec_split20k.log | grep -v " 0 failed"
run() { env $2 $B/glide_gpu_bench --kernels --out $OUT/k_$1_$3.md >/dev/null 2>&1; f=$OUT/k_$1_$3.md
  echo "$1 r$3: 64^3 $(grep -m1 '^| 64³ | 1.0 |' $f | cut -d'|' -f5,7) 256^3 $(grep -m1 '^| 256³ | 67.1 |' $f | cut -d'|' -f5,7) 512^3 $(grep -m1 '^| 512³ | 536.9 |' $f | cut -d'|' -f5,7)"; }
for r in 1 2 3; do run split "X=1" $r; run one "GLIDE_GPU_SPLIT=0" $r; done | tee $OUT/ab.txt
for v in "split X=1" "one GLIDE_GPU_SPLIT=0"; do set -- $v
  env $2 ncu --clock-control none --kernel-name-base mangled -k regex:"_Z11interp_sh_kIfLi[01]ELi(64|256)ELb0ELb1E" --launch-skip 4 --launch-count 8 \
    --section SpeedOfLight $B/gpu_probe 256 8 > $OUT/ncu_$1.txt 2>&1
  echo "$1: $(grep -E '^  _Z11interp|^\s+Duration' $OUT/ncu_$1.txt | awk '/_Z11/{k=$1} /Duration/{print substr(k,1,45), $3}' | tr '\n' ';')"
done | tee $OUT/ncu.txt
cd $OUT && tar czf reports.tgz k_*.md ncu_*.txt *.log && rm -f k_*.md ncu_*.txt
