#!/usr/bin/env bash
# Median ncu durations of chosen kernels over gpu_probe calls of one cube
# size (clocks and caches left alone), one row per kernel and grid, for A/B
# work on single kernels:
#   bash h5tests/gpu/ncu_kernels.sh GPU_PROBE SIZE REGEX [CALLS]
# e.g. bash h5tests/gpu/ncu_kernels.sh build-g90/bench/gpu_probe 64 'tune_k|blend_w_k'
# The first SKIP (default 8) matching launches are warm-up and left out: a
# REGEX matching one launch per call needs CALLS well above SKIP (the count
# column says how many launches each median has; below 3 it is flagged).
set -u
probe=$1 size=$2 re=$3 calls=${4:-12}
log=$(mktemp)
ncu --clock-control none --cache-control none -k regex:"$re" --launch-skip "${SKIP:-8}" --launch-count 200 \
    --section SpeedOfLight --section LaunchStats --section Occupancy "$probe" "$size" "$calls" >"$log" 2>&1
python3 - "$log" "$size" <<'PY'
import re, sys, statistics, collections
d = collections.defaultdict(list); info = {}; name = None
for line in open(sys.argv[1]):
    m = re.match(r"\s+(?:void )?(.+?)\(.*\(([\d, ]+)\)x\(([\d, ]+)\), Context", line)
    if m:
        # one row per kernel and grid: a kernel's launches for the block
        # trial and for the chunk differ in grid and time
        name = re.sub(r"\(anonymous namespace\)::|\w+::", "", m.group(1))[:60] + f" ({m.group(2)})x({m.group(3)})"
        info.setdefault(name, ""); continue
    m = re.match(r"\s+Duration\s+(\S+)\s+([\d.,]+)", line)
    if m and name:
        v = float(m.group(2).replace(",", "")); d[name].append(v * (1000 if m.group(1) == "ms" else 1))
    m = re.match(r"\s+(Registers Per Thread|Achieved Occupancy|Block Limit Registers)\s+\S*\s+([\d.,]+)", line)
    if m and name and m.group(1) not in info[name]: info[name] += f"{m.group(1)} {m.group(2)}, "
for k, v in sorted(d.items()):
    few = " (fewer than 3 launches: raise CALLS or lower SKIP)" if len(v) < 3 else ""
    print(f"{sys.argv[2]}^3 | {k} | {len(v)} | median {statistics.median(v):.1f} us{few} | {info.get(k, '')[:160]}")
PY
rm -f "$log"
