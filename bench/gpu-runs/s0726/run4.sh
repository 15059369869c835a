#!/usr/bin/env bash
# session 2026-11-26j run 4: the encoder's gather, lattice merge and row store of 16^3 owned points
# (run 3's change with adjacent threads on a row's adjacent 16-byte pieces, and the decoder back to
# main's code) in two builds: "new" (the split's coarse kernel too) and "nc" (coarse kernel as main,
# GLIDE_GPU_ROWS_COARSE=0), against main at 4e5f6b5 ("base").
# PART=ab: ROUNDS alternated kernel-only rounds (Nyx-like), then ncu of interp_sh_k at 256^3, each
# build. PART=tests: test_gpu_codec ("new") by default and with the split from 20000 points.
OUT=${OUT:-/tmp/r4}; mkdir -p $OUT
nvidia-smi -L
B=/tmp/glide_prebuilt; rm -rf $B; mkdir -p $B; tar xJf .bin/bins.tar.xz -C $B
if [ "${PART:-ab}" = tests ]; then
timeout 200 $B/test_gpu_codec > $OUT/codec.log 2>&1; echo "test_gpu_codec: rc $? $(grep -m1 'passed,' $OUT/codec.log)"
GLIDE_GPU_SPLIT_POINTS=20000 timeout 200 $B/test_gpu_codec > $OUT/codec_split.log 2>&1; echo "test_gpu_codec split 20000: rc $? $(grep -m1 'passed,' $OUT/codec_split.log)"
else
run() { $B/$2 --kernels --out $OUT/k_$1_$3.md >/dev/null 2>&1; f=$OUT/k_$1_$3.md
  echo "$1 r$3: 64^3 $(grep -m1 '^| 64³ | 1.0 |' $f | cut -d'|' -f5,7) 256^3 $(grep -m1 '^| 256³ | 67.1 |' $f | cut -d'|' -f5,7) 512^3 $(grep -m1 '^| 512³ | 536.9 |' $f | cut -d'|' -f5,7)"; }
for r in $(seq 1 ${ROUNDS:-3}); do
  run new glide_gpu_bench $r
  run nc glide_gpu_bench_nc $r
  run base glide_gpu_bench_base $r
done | tee -a $OUT/ab4.txt
for v in "" _nc _base; do echo "== gpu_probe$v 256 nyx"
  bash h5tests/gpu/ncu_kernels.sh $B/gpu_probe$v 256 'interp_sh_k' 9; done 2>&1 | cut -c1-130 | tee $OUT/ncu4.txt
cd $OUT && tar czf reports4.tgz k_*.md && rm -f k_*.md
fi
