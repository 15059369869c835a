#!/usr/bin/env bash
# session s1127b run 12 (2026-11-27): branch exp-nt2. Non-temporal stores elsewhere: the staged
# upload's copy of chunks from 16 MiB (GLIDE_X_NT_STAGED=1) and the download's copy into the
# caller's buffer (GLIDE_X_NT_DOWN_KB=256: from 256 KiB). gpu_probe 64 300 fresh (base / down) and
# gpu_probe 256 60 fresh (base / staged / down / both), ROUNDS alternated.
OUT=${OUT:-/tmp/r12}; mkdir -p $OUT
nvidia-smi -L
B=/tmp/glide_prebuilt; rm -rf $B; mkdir -p $B; tar xf .bin/bins.tar.xz -C $B
p() { echo "r$1 $2 $3: $(env $4 timeout 60 $B/gpu_probe $3 $5 fresh 2>&1 | grep '^side' | sed 's/side [0-9]*, [0-9]* runs//' | tr '\n' ' ')"; }
for r in $(seq 1 ${ROUNDS:-3}); do
  p $r base 64 X=0 300
  p $r down 64 GLIDE_X_NT_DOWN_KB=256 300
  p $r base 256 X=0 60
  p $r staged 256 GLIDE_X_NT_STAGED=1 60
  p $r down 256 GLIDE_X_NT_DOWN_KB=256 60
  p $r both 256 "GLIDE_X_NT_STAGED=1 GLIDE_X_NT_DOWN_KB=256" 60
done | tee $OUT/ab_nt12.txt
