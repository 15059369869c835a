#!/usr/bin/env bash
# session 2026-11-26e run 3: the coarse kernel with blend_level_full on its 9^3 boxes (the even lattice's
# strides 2 and 4 at constant geometry) and 32 threads a box -- byte equality with the CPU, then
# kernel-only A/B (three alternated rounds): new (32 threads), new with GLIDE_GPU_SPLIT_NT=64, run 2's
# build (bench_prev, generic sets) at 32 threads, and the one kernel (GLIDE_GPU_SPLIT=0); ncu durations
OUT=${OUT:-/tmp/r3}; mkdir -p $OUT
nvidia-smi -L
TESTS=0 ROUNDS=0 OUT=$OUT bash h5tests/gpu/prebuilt_probe.sh 2>&1 | grep -v "^   "
B=/tmp/glide_prebuilt
timeout 300 $B/test_gpu_codec --large > $OUT/codec_large.log 2>&1; echo "test_gpu_codec --large (no fields carried: the binaries of two builds fill the 64 MiB) rc=$?: $(grep -m1 'passed,' $OUT/codec_large.log)"; grep -m5 -i "fail" $OUT/codec_large.log | grep -v " 0 failed"
GLIDE_GPU_SPLIT_POINTS=20000 timeout 300 $B/test_gpu_codec > $OUT/codec_split20k.log 2>&1; echo "test_gpu_codec SPLIT_POINTS=20000 rc=$?: $(grep -m1 'passed,' $OUT/codec_split20k.log)"; grep -m5 -i "fail" $OUT/codec_split20k.log | grep -v " 0 failed"
run() { env $2 $B/$4 --kernels --out $OUT/k_$1_$3.md >/dev/null 2>&1; f=$OUT/k_$1_$3.md
  echo "$1 r$3: 64^3 $(grep -m1 '^| 64³ | 1.0 |' $f | cut -d'|' -f5,7) 256^3 $(grep -m1 '^| 256³ | 67.1 |' $f | cut -d'|' -f5,7) 512^3 $(grep -m1 '^| 512³ | 536.9 |' $f | cut -d'|' -f5,7)"; }
for r in 1 2 3; do run new X=1 $r glide_gpu_bench; run new64 GLIDE_GPU_SPLIT_NT=64 $r glide_gpu_bench; run prev32 GLIDE_GPU_SPLIT_NT=32 $r bench_prev; run one GLIDE_GPU_SPLIT=0 $r glide_gpu_bench; done | tee $OUT/ab.txt
for v in "new X=1 gpu_probe" "new64 GLIDE_GPU_SPLIT_NT=64 gpu_probe"; do set -- $v
  env $2 ncu --clock-control none --kernel-name-base mangled -k regex:"_Z11interp_sh_kIfLi[01]ELi(32|64|256)ELb0ELb1E" --launch-skip 4 --launch-count 8 \
    --section SpeedOfLight $B/$3 256 8 > $OUT/ncu_$1.txt 2>&1
  echo "$1: $(grep -E '^  _Z11interp|^\s+Duration' $OUT/ncu_$1.txt | awk '/_Z11/{k=$1} /Duration/{print substr(k,1,45), $3}' | tr '\n' ';')"
done | tee $OUT/ncu.txt
cd $OUT && tar czf reports.tgz k_*.md ncu_*.txt *.log && rm -f k_*.md ncu_*.txt
