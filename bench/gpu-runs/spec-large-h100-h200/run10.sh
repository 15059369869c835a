#!/usr/bin/env bash
# session 2026-11-26d run 10 (H200 or H100): branch exp-warp-coarse (warp 0 runs the coarse strides while the other
# warps load the rest of the box): byte equality, memcheck, racecheck, ncu A/B of the blended encoder against 3496469
OUT=${OUT:-/tmp/r10}; mkdir -p $OUT
nvidia-smi -L
TESTS=0 ROUNDS=0 OUT=$OUT bash h5tests/gpu/prebuilt_probe.sh 2>&1 | grep -v "^   "
B=/tmp/glide_prebuilt
timeout 300 $B/test_gpu_codec --fields /tmp/glide_fields --large > $OUT/codec_large.log 2>&1; echo "test_gpu_codec --fields --large rc=$?: $(grep -m1 'passed,' $OUT/codec_large.log)"; grep -m5 -i "fail" $OUT/codec_large.log | grep -v " 0 failed"
timeout 150 compute-sanitizer --tool memcheck --leak-check no --error-exitcode 9 $B/test_gpu_codec --quick > $OUT/san.log 2>&1; echo "memcheck test_gpu_codec --quick: rc=$? $(grep -m1 'ERROR SUMMARY' $OUT/san.log)"
timeout 200 compute-sanitizer --tool racecheck --error-exitcode 9 $B/test_gpu_codec --race > $OUT/race.log 2>&1; echo "racecheck test_gpu_codec --race: rc=$? $(grep -m1 'RACECHECK SUMMARY' $OUT/race.log)"
for round in 1 2; do for v in probe_base gpu_probe; do
  ncu --clock-control none --kernel-name-base mangled -k regex:"_Z11interp_sh_kIfLi0ELi256ELb0ELb1EE" --launch-skip 2 --launch-count 6 \
    --section SpeedOfLight $B/$v 256 8 > $OUT/ncu_${v}_$round.txt 2>&1
  echo "$v r$round: $(grep -E '^\s+Duration' $OUT/ncu_${v}_$round.txt | awk '{print $3}' | tr '\n' ' ')"
done; done | tee $OUT/durations.txt
run() { $B/$2 --kernels --out $OUT/k_$1_$3.md >/dev/null 2>&1; f=$OUT/k_$1_$3.md
  echo "$1 r$3: 64^3 $(grep -m1 '^| 64³ | 1.0 |' $f | cut -d'|' -f5,7) 256^3 $(grep -m1 '^| 256³ | 67.1 |' $f | cut -d'|' -f5,7) 512^3 $(grep -m1 '^| 512³ | 536.9 |' $f | cut -d'|' -f5,7)"; }
for r in 1 2; do run new glide_gpu_bench $r; run base bench_base $r; done | tee $OUT/ab.txt
cd $OUT && tar czf reports.tgz k_*.md *.log ncu_*.txt && rm -f k_*.md ncu_*.txt
