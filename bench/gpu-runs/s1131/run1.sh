#!/usr/bin/env bash
# Run 1: plane 0 counted by the chunk's Lorenzo and slice kernels too (box_hist0), so that the front
# leaves hist0_k out where every kernel that may store the symbols counts it (knob
# GLIDE_GPU_HIST0_COMMIT, default 1), and the blended interpolation instances launched before the
# plain ones (experiment knob GLIDE_X_BLEND_FIRST, s1130's next_blend_first.diff). Carry
# [".bin/new.tar.xz"] (bash bench/gpu-runs/s1128/pack_min.sh build-g90 new). Tests at the defaults
# (also with the split from 20000 points, and with BLEND_FIRST), stopping on failure; gpu_probe's
# check; ROUNDS (6) kernel-only rounds of the four combinations; traces of 256^3 (the Nyx-like field,
# which blends, and uniform noise, which does not) for base and both.
OUT=${OUT:-/tmp/s1131r1}; mkdir -p $OUT
nvidia-smi -L
B=build-g90; mkdir -p $B; tar xf .bin/new.tar.xz -C $B
G=$B/h5tests/gpu/test_gpu_codec
t() { local n=$1; shift; local t0=$SECONDS; timeout 200 "$@" > $OUT/$n.log 2>&1; local rc=$?; echo "$n: rc $rc $((SECONDS-t0)) s $(grep -m1 'passed,' $OUT/$n.log) | $(grep 'plane 0 histogram by' $OUT/$n.log | tr '\n' ' ')"; [ $rc = 0 ] || { grep -m5 FAIL $OUT/$n.log; tail -3 $OUT/$n.log; exit 1; }; }
t quick $G --quick
t quick_split env GLIDE_GPU_SPLIT_POINTS=20000 $G --quick
t quick_bf env GLIDE_X_BLEND_FIRST=1 GLIDE_GPU_SPLIT_POINTS=20000 $G --quick
for s in 64 256; do for bf in 0 1; do GLIDE_X_BLEND_FIRST=$bf timeout 60 $B/bench/gpu_probe $s 12 fresh check 2>&1 | grep '^check' | sed "s/^/$s bf$bf: /"; done; done | tee $OUT/check.txt
if grep -q "check: [1-9]" $OUT/check.txt || [ $(grep -c "check:" $OUT/check.txt) -lt 4 ]; then echo "streams differ or check missing"; exit 1; fi
run() { env GLIDE_GPU_HIST0_COMMIT=$2 GLIDE_X_BLEND_FIRST=$3 timeout 60 $B/bench/glide_gpu_bench --kernels --out $OUT/k_$1_$4.md >/dev/null 2>&1; f=$OUT/k_$1_$4.md
  echo "$1 r$4: 64^3 $(grep -m1 '^| 64³ | 1.0 |' $f | cut -d'|' -f5,7) 256^3 $(grep -m1 '^| 256³ | 67.1 |' $f | cut -d'|' -f5,7) 512^3 $(grep -m1 '^| 512³ | 536.9 |' $f | cut -d'|' -f5,7)"; }
t0=$SECONDS
for r in $(seq 1 ${ROUNDS:-6}); do run base 0 0 $r; run commit 1 0 $r; run bf 0 1 $r; run both 1 1 $r; done | tee $OUT/ab.txt
echo "rounds took $((SECONDS-t0)) s"
for f in nyx noise; do for v in "base 0 0" "both 1 1"; do set -- $v
  env GLIDE_PROBE_FIELD=$f GLIDE_GPU_HIST0_COMMIT=$2 GLIDE_X_BLEND_FIRST=$3 timeout 40 $B/bench/gpu_trace 256 7 > $OUT/trace256_${f}_$1.txt 2>&1
done; done
python3 bench/gpu-runs/s1131/front.py $OUT/trace256_*.txt
cd $OUT && tar czf logs.tgz k_*.md *.log && rm -f k_*.md *.log
