#!/usr/bin/env bash
# Run 6: a speculating chunk's books beside its commits (front_body: a gated launch on s_book after
# the pick works where the trial kept the interpolation, a second one after the commits where it
# chose another method; GLIDE_GPU_BOOKS_BESIDE, default 1), against c3c7189's behaviour (0) and
# main's before this session (GLIDE_GPU_HIST0_COMMIT=0 GLIDE_GPU_BLEND_FIRST=0
# GLIDE_GPU_BOOKS_BESIDE=0) in the same binary. Carry [".bin/new.tar.xz"]. test_gpu_huff -q (the
# gated book selection), --quick four ways, stopping on failure; check; ROUNDS (7) kernel-only
# rounds; traces; gpu_probe 64 300 three rounds; memcheck of --quick and of test_gpu_huff -q.
OUT=${OUT:-/tmp/s1131r6}; mkdir -p $OUT
nvidia-smi -L
B=build-g90; mkdir -p $B; tar xf .bin/new.tar.xz -C $B
G=$B/h5tests/gpu/test_gpu_codec
t() { local n=$1; shift; local t0=$SECONDS; timeout 200 "$@" > $OUT/$n.log 2>&1; local rc=$?; echo "$n: rc $rc $((SECONDS-t0)) s $(grep -m1 'passed,\|checks' $OUT/$n.log) | $(grep 'plane 0 histogram by\|gated' $OUT/$n.log | tr '\n' ' ' | cut -c1-300)"; [ $rc = 0 ] || { grep -m5 FAIL $OUT/$n.log; tail -3 $OUT/$n.log; exit 1; }; }
t huff $B/gpu/test_gpu_huff -q
t quick $G --quick
t quick_split env GLIDE_GPU_SPLIT_POINTS=20000 $G --quick
t quick_grid env GLIDE_GPU_COMMIT_GRID=3 GLIDE_GPU_SPLIT_POINTS=20000 $G --quick
t quick_prev env GLIDE_GPU_BOOKS_BESIDE=0 $G --quick
for s in 64 256; do timeout 60 $B/bench/gpu_probe $s 12 fresh check 2>&1 | grep '^check' | sed "s/^/$s: /"; done | tee $OUT/check.txt
if grep -q "check: [1-9]" $OUT/check.txt || [ $(grep -c "check:" $OUT/check.txt) -lt 2 ]; then echo "streams differ or check missing"; exit 1; fi
run() { env GLIDE_GPU_HIST0_COMMIT=$2 GLIDE_GPU_BLEND_FIRST=$3 GLIDE_GPU_BOOKS_BESIDE=$4 timeout 60 $B/bench/glide_gpu_bench --kernels --out $OUT/k_$1_$5.md >/dev/null 2>&1; f=$OUT/k_$1_$5.md
  echo "$1 r$5: 64^3 $(grep -m1 '^| 64³ | 1.0 |' $f | cut -d'|' -f5,7) 256^3 $(grep -m1 '^| 256³ | 67.1 |' $f | cut -d'|' -f5,7) 512^3 $(grep -m1 '^| 512³ | 536.9 |' $f | cut -d'|' -f5,7)"; }
t0=$SECONDS
for r in $(seq 1 ${ROUNDS:-7}); do run main 0 0 0 $r; run prev 1 -1 0 $r; run new 1 -1 1 $r; done | tee $OUT/ab.txt
echo "rounds took $((SECONDS-t0)) s"
for f in nyx noise; do GLIDE_PROBE_FIELD=$f timeout 40 $B/bench/gpu_trace 256 7 > $OUT/trace256_${f}_beside.txt 2>&1; done
python3 bench/gpu-runs/s1131/front.py $OUT/trace256_*.txt
for r in 1 2 3; do for v in "prev 0" "new 1"; do set -- $v; echo "$1 r$r: $(GLIDE_GPU_BOOKS_BESIDE=$2 timeout 60 $B/bench/gpu_probe 64 300 2>&1 | grep -m1 'runs: compress')"; done; done | tee $OUT/probe.txt
t0=$SECONDS
timeout 150 compute-sanitizer --tool memcheck --leak-check no --error-exitcode 9 $G --quick > $OUT/memcheck.log 2>&1
echo "memcheck --quick rc $? $((SECONDS-t0)) s $(grep -m1 'ERROR SUMMARY' $OUT/memcheck.log)"
timeout 120 compute-sanitizer --tool memcheck --leak-check no --error-exitcode 9 $B/gpu/test_gpu_huff -q > $OUT/memcheck_huff.log 2>&1
echo "memcheck test_gpu_huff -q rc $? $(grep -m1 'ERROR SUMMARY' $OUT/memcheck_huff.log)"
cd $OUT && tar czf logs.tgz k_*.md *.log && rm -f k_*.md *.log
