#!/usr/bin/env bash
# session s1127c run 6 (2026-11-27): the final candidate (gg_deliver only in chunks of at most 16
# times its limit, never under stage timing): test_gpu_codec --quick, its memcheck, racecheck of
# --race (split from 40000 points, as h5tests/gpu/run.sh), gpu_probe check at 64^3 and 96^3;
# ROUNDS alternated rounds of gpu_probe SIDE 300 fresh at 64^3 and 96^3: default, deliver off.
OUT=${OUT:-/tmp/r6}; mkdir -p $OUT
nvidia-smi -L
B=build-g90; mkdir -p $B; tar xf .bin/tree.tar.xz -C $B
G=$B/h5tests/gpu/test_gpu_codec
timeout 100 stdbuf -oL $G --quick > $OUT/codec_quick.log 2>&1; echo "test_gpu_codec --quick: rc $? $(grep -m1 'passed,' $OUT/codec_quick.log)"; grep -m5 "FAIL" $OUT/codec_quick.log
GLIDE_GPU_SPLIT_POINTS=20000 timeout 150 compute-sanitizer --tool memcheck --leak-check no --error-exitcode 9 $G --quick > $OUT/memcheck.log 2>&1; echo "memcheck codec --quick: rc $? $(grep -m1 'ERROR SUMMARY' $OUT/memcheck.log)"
timeout 30 $B/bench/gpu_probe 64 50 fresh check 2>&1 | grep '^side\|^check' | tee $OUT/check6.txt
timeout 30 $B/bench/gpu_probe 96 30 fresh check 2>&1 | grep '^side\|^check' | tee -a $OUT/check6.txt
p() { echo "r$1 $2 $3: $(env $4 timeout 60 $B/bench/gpu_probe $3 300 fresh 2>&1 | grep '^side' | sed 's/side [0-9]*, 300 runs//' | tr '\n' ' ')"; }
for r in $(seq 1 ${ROUNDS:-3}); do
  for s in 64 96; do
    p $r deliver $s X=0
    p $r nodeliver $s GLIDE_GPU_DELIVER_KB=0
  done
done | tee $OUT/ab6.txt
GLIDE_GPU_SPLIT_POINTS=40000 timeout 200 compute-sanitizer --tool racecheck --error-exitcode 9 $G --race > $OUT/racecheck.log 2>&1; echo "racecheck codec --race: rc $? $(grep -m1 'RACECHECK SUMMARY' $OUT/racecheck.log) $(grep -m1 'passed,' $OUT/racecheck.log)"
cd $OUT && tar czf logs6.tgz *.log && rm -f *.log
