#!/usr/bin/env bash
# session 2026-11-26c run 7 (H100): the full GPU benchmark at f50a089, twice (plugin packed beside it)
OUT=${OUT:-/tmp/r7}; mkdir -p $OUT
B=/tmp/glide_prebuilt; rm -rf $B; mkdir -p $B; tar xJf .bin/bins.tar.xz -C $B
nvidia-smi -L
for r in 1 2; do timeout 200 $B/glide_gpu_bench --out $OUT/results-gpu_run$r.md --plugin $B --tmp /tmp >/dev/null 2>$OUT/bench_err$r.log; echo "run $r rc=$?"; grep -E "^\*\*256|^\| 64³ \||H5D|^\| 512" $OUT/results-gpu_run$r.md | head -20; done
