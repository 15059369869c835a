#!/usr/bin/env bash
# session 2026-11-26k run 8: run 7's change plus the speculation's two instances forked together
# ("new2", the working tree after 361a1ea), against 361a1ea ("prio") and 669e34e ("base"): ROUNDS
# alternated kernel-only rounds, gpu_trace 256 of new2, test_gpu_codec (synthetic) of new2.
OUT=${OUT:-/tmp/r8}; mkdir -p $OUT
nvidia-smi -L
B=/tmp/glide_prebuilt; rm -rf $B; mkdir -p $B; tar xJf .bin/bins.tar.xz -C $B
run() { $B/$2 --kernels --out $OUT/k_$1_$3.md >/dev/null 2>&1; f=$OUT/k_$1_$3.md
  echo "$1 r$3: 64^3 $(grep -m1 '^| 64³ | 1.0 |' $f | cut -d'|' -f5,7) 256^3 $(grep -m1 '^| 256³ | 67.1 |' $f | cut -d'|' -f5,7) 512^3 $(grep -m1 '^| 512³ | 536.9 |' $f | cut -d'|' -f5,7)"; }
for r in $(seq 1 ${ROUNDS:-3}); do
  run new2 glide_gpu_bench $r
  run prio glide_gpu_bench_prio $r
  run base glide_gpu_bench_base $r
done | tee -a $OUT/ab8.txt
$B/gpu_trace 256 20 > $OUT/trace256_new2.txt 2>&1; tail -1 $OUT/trace256_new2.txt
timeout 200 $B/test_gpu_codec > $OUT/codec.log 2>&1; echo "test_gpu_codec: rc $? $(grep -m1 'passed,' $OUT/codec.log)"; grep -m5 -i fail $OUT/codec.log | grep -v " 0 failed"
cd $OUT && tar czf reports8.tgz k_*.md && rm -f k_*.md
