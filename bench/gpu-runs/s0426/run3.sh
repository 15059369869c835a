#!/usr/bin/env bash
# session 2026-11-26g run 3 (PART=a tests, PART=b timings): the block-tile one-pass Huffman encoder (a tile of eight segments a ticket,
# one look-back a block) and the fine kernel's resident grid (encoding: as many blocks as the device
# holds, each taking every grid-th box; GLIDE_GPU_RESIDENT=0 turns it off). Tests (test_gpu_huff,
# test_gpu_codec with real fields; test_gpu_codec, memcheck and racecheck with the split from 20000 points
# and at most 3 blocks, so that every fine kernel loops over boxes), then five alternated kernel-only
# rounds: new, new with GLIDE_GPU_RESIDENT=0, 12225e1 (the warp-a-segment encoder), 13a35fe; ncu.
OUT=${OUT:-/tmp/r3}; mkdir -p $OUT
nvidia-smi -L
B=/tmp/glide_prebuilt
if [ "${PART:-a}" = a ]; then # the tests (one device call)
ROUNDS=0 bash h5tests/gpu/prebuilt_probe.sh
python3 h5tests/gpu/extract_fields.py .devdata/real_fields_dev.h5 /tmp/glide_fields >/dev/null 2>&1
export GLIDE_GPU_SPLIT_POINTS=20000
GLIDE_GPU_RESIDENT=3 timeout 300 $B/test_gpu_codec --fields /tmp/glide_fields > $OUT/codec_res3.log 2>&1
echo "test_gpu_codec split 20000, resident 3: $(grep -m1 'passed,' $OUT/codec_res3.log)"
GLIDE_GPU_RESIDENT=3 timeout 250 compute-sanitizer --tool memcheck --leak-check no --error-exitcode 9 $B/test_gpu_codec --quick > $OUT/memcheck_res3.log 2>&1
echo "memcheck (split 20000, resident 3): $(grep -m1 'ERROR SUMMARY' $OUT/memcheck_res3.log)"
GLIDE_GPU_RESIDENT=3 timeout 250 compute-sanitizer --tool racecheck --error-exitcode 9 $B/test_gpu_codec --race > $OUT/race_res3.log 2>&1
echo "racecheck (split 20000, resident 3): $(grep -m1 'RACECHECK SUMMARY\|ERROR SUMMARY' $OUT/race_res3.log)"
unset GLIDE_GPU_SPLIT_POINTS
exit 0
fi
# PART=b: the timings (a second call)
rm -rf $B && mkdir -p $B && tar xJf .bin/bins.tar.xz -C $B
run() { env $3 $B/$2 --kernels --out $OUT/k_$1_$4.md >/dev/null 2>&1; f=$OUT/k_$1_$4.md
  echo "$1 r$4: 64^3 $(grep -m1 '^| 64³ | 1.0 |' $f | cut -d'|' -f5,7) 256^3 $(grep -m1 '^| 256³ | 67.1 |' $f | cut -d'|' -f5,7) 512^3 $(grep -m1 '^| 512³ | 536.9 |' $f | cut -d'|' -f5,7) huff256 $(grep -A18 '### 256³ compress$' $f | grep '^| huffman encode' | cut -d'|' -f3)"; }
for r in 1 2 3 4 5; do
  run new glide_gpu_bench "X=1" $r
  run res0 glide_gpu_bench "GLIDE_GPU_RESIDENT=0" $r
  run warp glide_gpu_bench_warp "X=1" $r
  run old glide_gpu_bench_old "X=1" $r
done | tee $OUT/ab3.txt
for s in 256 512; do bash h5tests/gpu/ncu_kernels.sh $B/gpu_probe $s 'k_enc' 6; done 2>&1 | cut -c1-120 | tee $OUT/ncu_enc.txt
for v in 1 0; do GLIDE_GPU_RESIDENT=$v bash h5tests/gpu/ncu_kernels.sh $B/gpu_probe 256 'interp_sh_k' 6; done 2>&1 | cut -c1-120 | tee $OUT/ncu_fine.txt
mkdir -p /work 2>/dev/null && ln -sfn "$PWD" /work/main 2>/dev/null
BASE=mangled bash h5tests/gpu/ncu_stalls.sh $B/gpu_probe 256 '_Z11interp_sh_kIfLi0ELi256ELb0ELb1ELi2E' 3 fine > $OUT/stalls_fine.txt 2>&1
bash h5tests/gpu/ncu_stalls.sh $B/gpu_probe 256 'k_enc_fused' 3 enc > $OUT/stalls_enc.txt 2>&1
cd $OUT && tar czf reports3.tgz k_*.md && rm -f k_*.md
