#!/usr/bin/env bash
# session s1127f run 9, an experiment on range_k (256^3: 22.8 us on an H200 for 67 MB, 2.9 TB/s;
# 29.4 on the H100): "batch" (run9_batch.diff, .bin/batch.tar.xz) issues eight 16-byte loads a
# thread before comparing any (float; the double instance four) against 6222e73 ("new").
# gpu_probe check of batch at 64^3 and 256^3; ROUNDS alternated kernel-only rounds new / batch; the
# 256^3 trace of each.
OUT=${OUT:-/tmp/r9}; mkdir -p $OUT
nvidia-smi -L
B=build-g90; mkdir -p $B batch; tar xf .bin/tree.tar.xz -C $B; tar xf .bin/batch.tar.xz -C batch
for s in 64 256; do timeout 60 batch/bench/gpu_probe $s 20 check 2>&1 | grep '^check' | sed "s/^/batch $s: /"; done | tee $OUT/check9.txt
run() { timeout 90 $2/bench/glide_gpu_bench --kernels --out $OUT/k_$1_$3.md >/dev/null 2>&1; f=$OUT/k_$1_$3.md
  echo "$1 r$3: 64^3 $(grep -m1 '^| 64³ | 1.0 |' $f | cut -d'|' -f5,7) 256^3 $(grep -m1 '^| 256³ | 67.1 |' $f | cut -d'|' -f5,7) 512^3 $(grep -m1 '^| 512³ | 536.9 |' $f | cut -d'|' -f5,7)"; }
for r in $(seq 1 ${ROUNDS:-5}); do
  run new $B $r
  run batch batch $r
done | tee $OUT/ab9.txt
for v in new:$B batch:batch; do timeout 60 ${v#*:}/bench/gpu_trace 256 20 > $OUT/trace256_${v%%:*}.txt 2>&1; echo "${v%%:*}: $(grep 'range_k' $OUT/trace256_${v%%:*}.txt | head -1)"; done
cd $OUT && tar czf logs9.tgz k_*.md && rm -f k_*.md
