#!/usr/bin/env bash
# Run 5, on an H200: the final code (ad96bcb) against main's behaviour in the same binary
# (GLIDE_GPU_HIST0_COMMIT=0 GLIDE_GPU_BLEND_FIRST=0), as run 2 on the H100. Carry
# [".bin/new.tar.xz"] (pack_min.sh build-g90 new). --quick at the defaults; gpu_probe's check;
# ROUNDS (5) kernel-only rounds main / new; gpu_probe 64 300 fresh (device- and host-planned)
# three rounds each.
OUT=${OUT:-/tmp/s1131r5}; mkdir -p $OUT
nvidia-smi -L
B=build-g90; mkdir -p $B; tar xf .bin/new.tar.xz -C $B
G=$B/h5tests/gpu/test_gpu_codec
timeout 100 $G --quick > $OUT/quick.log 2>&1; rc=$?
echo "quick: rc $rc $(grep -m1 'passed,' $OUT/quick.log)"; [ $rc = 0 ] || exit 1
for s in 64 256; do timeout 60 $B/bench/gpu_probe $s 12 fresh check 2>&1 | grep '^check' | sed "s/^/$s: /"; done | tee $OUT/check.txt
run() { env GLIDE_GPU_HIST0_COMMIT=$2 GLIDE_GPU_BLEND_FIRST=$3 timeout 60 $B/bench/glide_gpu_bench --kernels --out $OUT/k_$1_$4.md >/dev/null 2>&1; f=$OUT/k_$1_$4.md
  echo "$1 r$4: 64^3 $(grep -m1 '^| 64³ | 1.0 |' $f | cut -d'|' -f5,7) 256^3 $(grep -m1 '^| 256³ | 67.1 |' $f | cut -d'|' -f5,7) 512^3 $(grep -m1 '^| 512³ | 536.9 |' $f | cut -d'|' -f5,7)"; }
for r in $(seq 1 ${ROUNDS:-5}); do run main 0 0 $r; run new 1 -1 $r; done | tee $OUT/ab.txt
for r in 1 2 3; do for v in "main 0 0" "new 1 -1"; do set -- $v; for h in "" host; do echo "$1 ${h:-device} r$r: $(GLIDE_GPU_HIST0_COMMIT=$2 GLIDE_GPU_BLEND_FIRST=$3 timeout 60 $B/bench/gpu_probe 64 300 fresh $h 2>&1 | grep 'compress' | grep -v memcpy | cut -c1-90 | tr '\n' ' ')"; done; done; done | tee $OUT/probe.txt
cd $OUT && tar czf logs.tgz k_*.md *.log && rm -f k_*.md *.log
