#!/usr/bin/env bash
# session 2026-11-26d run 5: the front's head (one memset node: the min's key stored as its complement; the header
# queued ahead of the values) on top of c55cfc1 (speculation for large chunks); against main 3496469 (base)
OUT=${OUT:-/tmp/r5}; mkdir -p $OUT
nvidia-smi -L
TESTS=0 ROUNDS=0 OUT=$OUT bash h5tests/gpu/prebuilt_probe.sh 2>&1 | grep -v "^   "
B=/tmp/glide_prebuilt
timeout 300 $B/test_gpu_huff > $OUT/huff.log 2>&1; echo "test_gpu_huff rc=$?: $(tail -1 $OUT/huff.log)"
timeout 300 $B/test_gpu_codec --fields /tmp/glide_fields --large > $OUT/codec_large.log 2>&1; echo "test_gpu_codec --fields --large rc=$?: $(grep -m1 'passed,' $OUT/codec_large.log)"; grep -m5 -i "fail" $OUT/codec_large.log | grep -v " 0 failed"
timeout 200 compute-sanitizer --tool memcheck --leak-check no --error-exitcode 9 $B/test_gpu_codec --quick > $OUT/san.log 2>&1; echo "memcheck test_gpu_codec --quick: rc=$? $(grep -m1 'ERROR SUMMARY' $OUT/san.log)"
for s in 64; do for p in gpu_probe probe_base probe_base gpu_probe gpu_probe probe_base probe_base gpu_probe; do echo "$p $s $($B/$p $s 500 | grep '^side' | tr '\n' ' ')"; done; done | tee $OUT/api.txt
run() { env $2 $B/$4 --kernels --out $OUT/k_$1_$3.md >/dev/null 2>&1; f=$OUT/k_$1_$3.md
  echo "$1 r$3: 64^3 $(grep -m1 '^| 64³ | 1.0 |' $f | cut -d'|' -f5,7) 256^3 $(grep -m1 '^| 256³ | 67.1 |' $f | cut -d'|' -f5,7) 512^3 $(grep -m1 '^| 512³ | 536.9 |' $f | cut -d'|' -f5,7)"; }
for r in 1 2 3; do run new "X=0" $r glide_gpu_bench; run base "X=0" $r bench_base; done | tee $OUT/ab.txt
ldd $B/gpu_trace | grep -q "cupti.*not found" && export LD_LIBRARY_PATH=$B
timeout 120 $B/gpu_trace 64 30 > $OUT/trace64.md 2>&1; grep "median wall" $OUT/trace64.md
timeout 120 $B/gpu_trace 256 5 > $OUT/trace256.md 2>&1; grep "median wall" $OUT/trace256.md
cd $OUT && tar czf reports.tgz k_*.md trace*.md *.log && rm -f k_*.md trace*.md
