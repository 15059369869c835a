#!/usr/bin/env bash
# session 2026-11-26g run 4: the block-tile one-pass Huffman encoder with two buffers a warp (warp 0's
# look-back of a tile beside the other warps' copy-out of the block's previous tile); the fine kernel's
# resident grid of run 3 reverted. test_gpu_huff, test_gpu_codec (synthetic), memcheck of test_gpu_huff -q,
# five alternated kernel-only rounds against 12225e1 (a warp a segment) and 13a35fe (three passes), ncu.
OUT=${OUT:-/tmp/r4}; mkdir -p $OUT
nvidia-smi -L
B=/tmp/glide_prebuilt; rm -rf $B; mkdir -p $B; tar xJf .bin/bins.tar.xz -C $B
timeout 300 $B/test_gpu_huff > $OUT/huff.log 2>&1; echo "test_gpu_huff: $(tail -1 $OUT/huff.log)"
timeout 300 $B/test_gpu_codec > $OUT/codec.log 2>&1; echo "test_gpu_codec: $(grep -m1 'passed,' $OUT/codec.log)"
timeout 200 compute-sanitizer --tool memcheck --error-exitcode 9 $B/test_gpu_huff -q > $OUT/san.log 2>&1
echo "memcheck test_gpu_huff -q: $(grep -m1 'ERROR SUMMARY' $OUT/san.log)"
run() { $B/$2 --kernels --out $OUT/k_$1_$3.md >/dev/null 2>&1; f=$OUT/k_$1_$3.md
  echo "$1 r$3: 64^3 $(grep -m1 '^| 64³ | 1.0 |' $f | cut -d'|' -f5,7) 256^3 $(grep -m1 '^| 256³ | 67.1 |' $f | cut -d'|' -f5,7) 512^3 $(grep -m1 '^| 512³ | 536.9 |' $f | cut -d'|' -f5,7) huff256 $(grep -A18 '### 256³ compress$' $f | grep '^| huffman encode' | cut -d'|' -f3)"; }
for r in 1 2 3 4 5; do
  run new glide_gpu_bench $r
  run warp glide_gpu_bench_warp $r
  run old glide_gpu_bench_old $r
done | tee $OUT/ab4.txt
for s in 256 512; do bash h5tests/gpu/ncu_kernels.sh $B/gpu_probe $s 'k_enc' 6; done 2>&1 | cut -c1-120 | tee $OUT/ncu_enc.txt
mkdir -p /work 2>/dev/null && ln -sfn "$PWD" /work/main 2>/dev/null
bash h5tests/gpu/ncu_stalls.sh $B/gpu_probe 256 'k_enc_fused' 3 enc > $OUT/stalls_enc.txt 2>&1
head -12 $OUT/stalls_enc.txt
cd $OUT && tar czf reports4.tgz k_*.md && rm -f k_*.md
