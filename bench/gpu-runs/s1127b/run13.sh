#!/usr/bin/env bash
# session s1127b run 13 (2026-11-27): the staged upload with non-temporal stores (main's candidate):
# gpu_probe with `check` (every timed stream against the CPU codec's, one reconstruction against
# the CPU's) at 256^3 (staged, 64 MiB) and 64^3 (gated).
OUT=${OUT:-/tmp/r13}; mkdir -p $OUT
nvidia-smi -L
B=/tmp/glide_prebuilt; rm -rf $B; mkdir -p $B; tar xf .bin/bins.tar.xz -C $B
timeout 60 $B/gpu_probe 256 10 fresh check 2>&1 | grep '^side\|^check' | tee $OUT/check13.txt
timeout 30 $B/gpu_probe 64 50 fresh check 2>&1 | grep '^side\|^check' | tee -a $OUT/check13.txt
