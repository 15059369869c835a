#!/usr/bin/env bash
# session 2026-11-26g run 5: Huffman encode in one pass for few segments too (k_enc_small: a block a
# segment from a ticket, with the look-back; k_enc_sizes and k_enc_write_block removed). test_gpu_huff,
# test_gpu_codec (synthetic), memcheck of test_gpu_huff -q, seven alternated kernel-only rounds against
# 12225e1, ncu of the encoders' kernels at 64^3 for both.
OUT=${OUT:-/tmp/r5}; mkdir -p $OUT
nvidia-smi -L
B=/tmp/glide_prebuilt; rm -rf $B; mkdir -p $B; tar xJf .bin/bins.tar.xz -C $B
timeout 300 $B/test_gpu_huff > $OUT/huff.log 2>&1; echo "test_gpu_huff: $(tail -1 $OUT/huff.log)"
timeout 300 $B/test_gpu_codec > $OUT/codec.log 2>&1; echo "test_gpu_codec: $(grep -m1 'passed,' $OUT/codec.log)"
timeout 200 compute-sanitizer --tool memcheck --error-exitcode 9 $B/test_gpu_huff -q > $OUT/san.log 2>&1
echo "memcheck test_gpu_huff -q: $(grep -m1 'ERROR SUMMARY' $OUT/san.log)"
run() { $B/$2 --kernels --out $OUT/k_$1_$3.md >/dev/null 2>&1; f=$OUT/k_$1_$3.md
  echo "$1 r$3: 64^3 $(grep -m1 '^| 64³ | 1.0 |' $f | cut -d'|' -f5,7) 256^3 $(grep -m1 '^| 256³ | 67.1 |' $f | cut -d'|' -f5,7) 512^3 $(grep -m1 '^| 512³ | 536.9 |' $f | cut -d'|' -f5,7) huff64 $(grep -A18 '### 64³ compress$' $f | grep '^| huffman encode' | cut -d'|' -f3) huff256 $(grep -A18 '### 256³ compress$' $f | grep '^| huffman encode' | cut -d'|' -f3)"; }
for r in 1 2 3 4 5 6 7; do
  run new glide_gpu_bench $r
  run warp glide_gpu_bench_warp $r
done | tee $OUT/ab5.txt
bash h5tests/gpu/ncu_kernels.sh $B/gpu_probe 64 'k_enc|memset' 12 2>&1 | cut -c1-120 | tee $OUT/ncu64.txt
bash h5tests/gpu/ncu_kernels.sh $B/gpu_probe_warp 64 'k_enc' 12 2>&1 | cut -c1-120 | tee -a $OUT/ncu64.txt
$B/gpu_probe 64 400 > $OUT/probe64_new.txt 2>&1; $B/gpu_probe_warp 64 400 > $OUT/probe64_warp.txt 2>&1
$B/gpu_probe 64 400 > $OUT/probe64_new2.txt 2>&1; $B/gpu_probe_warp 64 400 > $OUT/probe64_warp2.txt 2>&1
tail -3 $OUT/probe64_*.txt
cd $OUT && tar czf reports5.tgz k_*.md && rm -f k_*.md
