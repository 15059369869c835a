#!/usr/bin/env bash
# session 2026-11-26d run 3: where 256^3 and 512^3 compression's time goes, graphs replayed (bench/gpu_trace), main 3496469 + knobs
OUT=${OUT:-/tmp/r3}; mkdir -p $OUT
nvidia-smi -L
B=/tmp/glide_prebuilt; rm -rf $B; mkdir -p $B; tar xJf .bin/bins.tar.xz -C $B
ldd $B/gpu_trace | grep -q "cupti.*not found" && export LD_LIBRARY_PATH=$B
timeout 120 $B/gpu_trace 256 5 > $OUT/trace256.md 2>&1; grep "median wall" $OUT/trace256.md
timeout 200 $B/gpu_trace 512 2 > $OUT/trace512.md 2>&1; grep "median wall" $OUT/trace512.md
ncu --clock-control none --cache-control none -k regex:"range_k|split|k_enc|k_len|k_book|crc|outl|anch|finish|scan|Scan|assemble" --launch-skip 30 --launch-count 60 \
  --section SpeedOfLight $B/gpu_probe 256 5 > $OUT/ncu256.txt 2>&1
python3 - $OUT/ncu256.txt <<'PY' | tee $OUT/ncu256_sum.txt
import re, sys, collections, statistics
d = collections.defaultdict(lambda: collections.defaultdict(list)); name=None
for line in open(sys.argv[1]):
    m = re.match(r"\s+(?:void )?(.+?)\(.*\(([\d, ]+)\)x\(([\d, ]+)\), Context", line)
    if m: name = re.sub(r"\(anonymous namespace\)::|\w+::", "", m.group(1))[:50] + f" ({m.group(2)})x({m.group(3)})"; continue
    m = re.match(r"\s+(Duration|DRAM Throughput|Memory Throughput|Compute \(SM\) Throughput)\s+(\S+)\s+([\d.,]+)", line)
    if m and name:
        v = float(m.group(3).replace(",", "")); v *= 1000 if m.group(2) == "ms" else 1
        d[name][m.group(1)].append(v)
for k, v in sorted(d.items(), key=lambda kv: -statistics.median(kv[1]["Duration"] or [0])):
    print(f"{k} | n {len(v['Duration'])} | {statistics.median(v['Duration']):.1f} us | DRAM {statistics.median(v['DRAM Throughput'] or [0]):.0f}% | mem {statistics.median(v['Memory Throughput'] or [0]):.0f}% | SM {statistics.median(v['Compute (SM) Throughput'] or [0]):.0f}%")
PY
cd $OUT && tar czf traces.tgz trace*.md ncu256.txt && rm -f trace*.md ncu256.txt
