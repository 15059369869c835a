#!/usr/bin/env bash
# session 2026-11-27 runs 9 and 10 (given inline on the device; written down here): PART=ab: run 8's
# glide_gpu_bench (2a1e8ac's code) against base (1b6a104), three alternated kernel-only rounds, both
# carried as .bin/ab.tgz (gzip tar of the stripped binaries, named glide_gpu_bench and
# glide_gpu_bench_base); PART=tests: run 8's test_gpu_codec (.bin/t.tgz) with the real fields.
OUT=${OUT:-/tmp/r9}; mkdir -p $OUT
nvidia-smi -L
if [ "${PART:-ab}" = tests ]; then
B=/tmp/tt; rm -rf $B; mkdir -p $B; tar xzf .bin/t.tgz -C $B
python3 h5tests/gpu/extract_fields.py .devdata/real_fields_dev.h5 /tmp/glide_fields >/dev/null
timeout 250 $B/test_gpu_codec --fields /tmp/glide_fields > $OUT/codec.log 2>&1; echo "test_gpu_codec --fields: rc $? $(grep -m1 'passed,' $OUT/codec.log)"; grep -m5 -i fail $OUT/codec.log | grep -v " 0 failed"
else
B=/tmp/abb; rm -rf $B; mkdir -p $B; tar xzf .bin/ab.tgz -C $B
run() { $B/$2 --kernels --out $OUT/k_$1_$3.md >/dev/null 2>&1; f=$OUT/k_$1_$3.md
  echo "$1 r$3: 64^3 $(grep -m1 '^| 64³ | 1.0 |' $f | cut -d'|' -f5,7) 256^3 $(grep -m1 '^| 256³ | 67.1 |' $f | cut -d'|' -f5,7) 512^3 $(grep -m1 '^| 512³ | 536.9 |' $f | cut -d'|' -f5,7)"; }
for r in 1 2 3; do run new glide_gpu_bench $r; run base glide_gpu_bench_base $r; done | tee $OUT/ab9.txt
cd $OUT && tar czf reports9.tgz k_*.md && rm -f k_*.md
fi
