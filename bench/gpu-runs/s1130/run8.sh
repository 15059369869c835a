#!/usr/bin/env bash
# Run 8: range_k reading the chunk from its end (GLIDE_X_RANGE_REV=1, an experiment's knob): the
# upload's last bytes may still be in L2 when the scan starts, and the scan then leaves the
# chunk's start in L2 for the interpolation kernels, which begin there. One binary (run 7's
# candidate, defaults), rev 0 / 1. Carry [".bin/new.tar.xz"] (pack_min.sh build-g90 new).
# --quick and gpu_probe's check with rev 1; ROUNDS (7) kernel-only rounds 0 / 1; a 256^3 trace
# of each.
OUT=${OUT:-/tmp/s1130r8}; mkdir -p $OUT
nvidia-smi -L
B=build-g90; mkdir -p $B; tar xf .bin/new.tar.xz -C $B
G=$B/h5tests/gpu/test_gpu_codec
t() { local n=$1; shift; timeout 200 "$@" > $OUT/$n.log 2>&1; local rc=$?; echo "$n: rc $rc $(grep -m1 'passed,' $OUT/$n.log)"; [ $rc = 0 ] || { grep -m5 FAIL $OUT/$n.log; tail -3 $OUT/$n.log; exit 1; }; }
t quick_rev env GLIDE_X_RANGE_REV=1 $G --quick
for s in 64 256; do GLIDE_X_RANGE_REV=1 timeout 60 $B/bench/gpu_probe $s 12 fresh check 2>&1 | grep '^check' | sed "s/^/$s: /"; done | tee $OUT/check.txt
if grep -q "check: [1-9]" $OUT/check.txt || [ $(grep -c "check:" $OUT/check.txt) -lt 2 ]; then echo "streams differ or check missing"; exit 1; fi
run() { env GLIDE_X_RANGE_REV=$2 timeout 60 $B/bench/glide_gpu_bench --kernels --out $OUT/k_$1_$3.md >/dev/null 2>&1; f=$OUT/k_$1_$3.md
  echo "$1 r$3: 64^3 $(grep -m1 '^| 64³ | 1.0 |' $f | cut -d'|' -f5,7) 256^3 $(grep -m1 '^| 256³ | 67.1 |' $f | cut -d'|' -f5,7) 512^3 $(grep -m1 '^| 512³ | 536.9 |' $f | cut -d'|' -f5,7)"; }
for r in $(seq 1 ${ROUNDS:-7}); do run fwd 0 $r; run rev 1 $r; done | tee $OUT/ab.txt
for v in 0 1; do GLIDE_X_RANGE_REV=$v timeout 40 $B/bench/gpu_trace 256 5 > $OUT/trace256_rev$v.txt 2>&1
  echo "rev $v: $(grep -E 'range_k|interp_sh_k \(4096|interp_sh_k \(512,1,1\)x256' $OUT/trace256_rev$v.txt | head -5 | awk -F'|' '{printf "%s %s; ", $7, $4}')"; done
cd $OUT && tar czf logs.tgz k_*.md *.log && rm -f k_*.md *.log
