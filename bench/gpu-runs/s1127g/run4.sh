#!/usr/bin/env bash
# session s1127g run 4: crc_probe with the "W" variants (loads issued together, idle blocks leave
# before any table load, one working block finishes without the ticket) and piece sizes from
# 16 and 32 bytes (run 5: the same script, the probe rebuilt with those variants), three times.
OUT=${OUT:-/tmp/r4}; mkdir -p $OUT
nvidia-smi -L
for i in 1 2 3; do timeout 120 .bin/crc_probe > $OUT/crc_probe_$i.txt; done
paste -d'|' $OUT/crc_probe_1.txt <(cut -d'|' -f4 $OUT/crc_probe_2.txt) <(cut -d'|' -f4 $OUT/crc_probe_3.txt) | tee $OUT/crc_probe.txt
