#!/usr/bin/env bash
# session 2026-11-26d run 6: the state's reset and the header queued ahead of the values (outside the front graph),
# on top of run 5's build; tests, memcheck, 64^3 API calls against main 3496469 (base), traces
OUT=${OUT:-/tmp/r6}; mkdir -p $OUT
nvidia-smi -L
TESTS=0 ROUNDS=0 OUT=$OUT bash h5tests/gpu/prebuilt_probe.sh 2>&1 | grep -v "^   "
B=/tmp/glide_prebuilt
timeout 300 $B/test_gpu_huff > $OUT/huff.log 2>&1; echo "test_gpu_huff rc=$?: $(tail -1 $OUT/huff.log)"
timeout 300 $B/test_gpu_codec --fields /tmp/glide_fields --large > $OUT/codec_large.log 2>&1; echo "test_gpu_codec --fields --large rc=$?: $(grep -m1 'passed,' $OUT/codec_large.log)"; grep -m5 -i "fail" $OUT/codec_large.log | grep -v " 0 failed"
GLIDE_GPU_GRAPHS=0 timeout 300 $B/test_gpu_codec --quick > $OUT/codec_nographs.log 2>&1; echo "test_gpu_codec --quick GLIDE_GPU_GRAPHS=0 rc=$?: $(grep -m1 'passed,' $OUT/codec_nographs.log)"
timeout 200 compute-sanitizer --tool memcheck --leak-check no --error-exitcode 9 $B/test_gpu_codec --quick > $OUT/san.log 2>&1; echo "memcheck test_gpu_codec --quick: rc=$? $(grep -m1 'ERROR SUMMARY' $OUT/san.log)"
for p in gpu_probe probe_base probe_base gpu_probe gpu_probe probe_base probe_base gpu_probe gpu_probe probe_base; do echo "$p 64 $($B/$p 64 500 | grep '^side' | tr '\n' ' ')"; done | tee $OUT/api.txt
for p in gpu_probe probe_base; do echo "$p 64 fresh $($B/$p 64 300 fresh | grep '^side' | tr '\n' ' ')"; done | tee -a $OUT/api.txt
run() { env $2 $B/$4 --kernels --out $OUT/k_$1_$3.md >/dev/null 2>&1; f=$OUT/k_$1_$3.md
  echo "$1 r$3: 64^3 $(grep -m1 '^| 64³ | 1.0 |' $f | cut -d'|' -f5,7) 256^3 $(grep -m1 '^| 256³ | 67.1 |' $f | cut -d'|' -f5,7) 512^3 $(grep -m1 '^| 512³ | 536.9 |' $f | cut -d'|' -f5,7)"; }
for r in 1 2; do run new "X=0" $r glide_gpu_bench; run base "X=0" $r bench_base; done | tee $OUT/ab.txt
ldd $B/gpu_trace | grep -q "cupti.*not found" && export LD_LIBRARY_PATH=$B
timeout 120 $B/gpu_trace 64 30 > $OUT/trace64.md 2>&1; grep "median wall" $OUT/trace64.md
cd $OUT && tar czf reports.tgz k_*.md trace*.md *.log && rm -f k_*.md trace*.md
