#!/usr/bin/env bash
# Run 7, the final code (07dd261), on an H200: racecheck of --race (split from 40000 points),
# --fields --large (the real fields: plane 0 by Lorenzo and the slices, the books on both sides of
# the pick), then ROUNDS (5) kernel-only rounds of main before this session / c3c7189's behaviour /
# the final code, and gpu_probe 64 300 fresh (device- and host-planned) three rounds each of main
# and final. Carry [".bin/new.tar.xz", ".bin/fields.tar.xz"].
OUT=${OUT:-/tmp/s1131r7}; mkdir -p $OUT
nvidia-smi -L
B=build-g90; mkdir -p $B; tar xf .bin/new.tar.xz -C $B; tar xf .bin/fields.tar.xz -C $B
G=$B/h5tests/gpu/test_gpu_codec
GLIDE_GPU_SPLIT_POINTS=40000 timeout 150 compute-sanitizer --tool racecheck --error-exitcode 9 $G --race > $OUT/racecheck.log 2>&1
echo "racecheck --race: rc $? $(grep -m1 'passed,' $OUT/racecheck.log) $(grep -m1 'RACECHECK SUMMARY\|ERROR SUMMARY' $OUT/racecheck.log)"
timeout 300 stdbuf -oL $G --fields $B/fields --large > $OUT/gpu_codec.log 2>&1
echo "test_gpu_codec --fields --large: rc $? $(grep -m1 'passed,' $OUT/gpu_codec.log)"
grep -m5 "FAIL" $OUT/gpu_codec.log; grep "plane 0 histogram by\|blended levels\|predictor choice" $OUT/gpu_codec.log
run() { env GLIDE_GPU_HIST0_COMMIT=$2 GLIDE_GPU_BLEND_FIRST=$3 GLIDE_GPU_BOOKS_BESIDE=$4 timeout 60 $B/bench/glide_gpu_bench --kernels --out $OUT/k_$1_$5.md >/dev/null 2>&1; f=$OUT/k_$1_$5.md
  echo "$1 r$5: 64^3 $(grep -m1 '^| 64³ | 1.0 |' $f | cut -d'|' -f5,7) 256^3 $(grep -m1 '^| 256³ | 67.1 |' $f | cut -d'|' -f5,7) 512^3 $(grep -m1 '^| 512³ | 536.9 |' $f | cut -d'|' -f5,7)"; }
for r in $(seq 1 ${ROUNDS:-5}); do run main 0 0 0 $r; run prev 1 -1 0 $r; run new 1 -1 1 $r; done | tee $OUT/ab.txt
for r in 1 2 3; do for v in "main 0 0 0" "new 1 -1 1"; do set -- $v; for h in "" host; do echo "$1 ${h:-device} r$r: $(GLIDE_GPU_HIST0_COMMIT=$2 GLIDE_GPU_BLEND_FIRST=$3 GLIDE_GPU_BOOKS_BESIDE=$4 timeout 60 $B/bench/gpu_probe 64 300 fresh $h 2>&1 | grep 'compress' | grep -v memcpy | cut -c1-90 | tr '\n' ' ')"; done; done; done | tee $OUT/probe.txt
cd $OUT && tar czf logs.tgz k_*.md *.log && rm -f k_*.md *.log
