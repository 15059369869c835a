#!/usr/bin/env bash
# session 2026-11-26e run 6 (branch exp-split-pdl): the fine kernel launched early by programmatic dependent
# launch (griddepcontrol: it loads its boxes' values while the coarse kernel finishes, then waits) --
# byte equality with the CPU, then kernel-only A/B, three alternated rounds: pdl, GLIDE_GPU_SPLIT_PDL=0
# (the split as on main), GLIDE_GPU_SPLIT=0 (the one kernel)
OUT=${OUT:-/tmp/r6}; mkdir -p $OUT
nvidia-smi -L
TESTS=0 ROUNDS=0 OUT=$OUT bash h5tests/gpu/prebuilt_probe.sh 2>&1 | grep -v "^   "
B=/tmp/glide_prebuilt
timeout 300 $B/test_gpu_codec --fields /tmp/glide_fields --large > $OUT/codec_large.log 2>&1; echo "test_gpu_codec --fields --large rc=$?: $(grep -m1 'passed,' $OUT/codec_large.log)"; grep -m5 -i "fail" $OUT/codec_large.log | grep -v " 0 failed"
run() { env $2 $B/glide_gpu_bench --kernels --out $OUT/k_$1_$3.md >/dev/null 2>&1; f=$OUT/k_$1_$3.md
  echo "$1 r$3: 64^3 $(grep -m1 '^| 64³ | 1.0 |' $f | cut -d'|' -f5,7) 256^3 $(grep -m1 '^| 256³ | 67.1 |' $f | cut -d'|' -f5,7) 512^3 $(grep -m1 '^| 512³ | 536.9 |' $f | cut -d'|' -f5,7)"; }
for r in 1 2 3; do run pdl X=1 $r; run nopdl GLIDE_GPU_SPLIT_PDL=0 $r; run one GLIDE_GPU_SPLIT=0 $r; done | tee $OUT/ab.txt
cd $OUT && tar czf reports.tgz k_*.md *.log && rm -f k_*.md
