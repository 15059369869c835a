#!/usr/bin/env bash
# session 2026-11-26d run 9 (timing only, wrong streams): the blended encoder's time with its coarse levels
# skipped (skip1), its finest level skipped (skip2), neither (skip3: the same symbol initialisation), and
# unchanged (base, 3496469's interp_sh_k = HEAD's); ncu durations of interp_sh_k<float,0,256,0,1> at 256^3
OUT=${OUT:-/tmp/r9}; mkdir -p $OUT
nvidia-smi -L
B=/tmp/glide_prebuilt; rm -rf $B; mkdir -p $B; tar xJf .bin/bins.tar.xz -C $B
for round in 1 2; do for v in probe_base probe_skip3 probe_skip1 probe_skip2; do
  ncu --clock-control none --kernel-name-base mangled -k regex:"_Z11interp_sh_kIfLi0ELi256ELb0ELb1EE" --launch-skip 2 --launch-count 6 \
    --section SpeedOfLight $B/$v 256 8 > $OUT/ncu_${v}_$round.txt 2>&1
  echo "$v r$round: $(grep -E '^\s+Duration' $OUT/ncu_${v}_$round.txt | awk '{print $3}' | tr '\n' ' ')"
done; done | tee $OUT/durations.txt
