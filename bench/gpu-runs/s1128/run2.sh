#!/usr/bin/env bash
# Run 2: bench/range_probe (with its L2::256B variants) at 256^3 and 512^3. Carry [".bin/range_probe"]
# (build-g90/bench/range_probe, stripped). Made as a one-line device command:
nvidia-smi -L; .bin/range_probe 256 | tee $OUT/range_probe_256.txt; .bin/range_probe 512 | tail -20 > $OUT/range_probe_512.txt
