#!/usr/bin/env python3
"""Medians over the rounds of each ab_*.txt here (or the files named): compress / decompress us,
then the same with freshly written buffers, per configuration and chunk side."""
import glob, re, statistics, sys, os
files = sys.argv[1:] or sorted(glob.glob(os.path.join(os.path.dirname(__file__) or ".", "ab_*.txt")))
pat = re.compile(r"r(\d+) (\S+) (\d+): : compress ([\d.]+) us, decompress ([\d.]+) us.*"
                 r"fresh buffers: compress ([\d.]+) us, decompress ([\d.]+)")
for f in files:
    rows = {}
    for line in open(f):
        m = pat.match(line)
        if m:
            rows.setdefault((m.group(2), m.group(3)), []).append([float(m.group(i)) for i in range(4, 8)])
    print(os.path.basename(f))
    for (cfg, side), v in rows.items():
        med = [statistics.median(x[i] for x in v) for i in range(4)]
        print("  %-12s %4s^3 rounds %d: compress %.1f decompress %.1f | fresh: compress %.1f decompress %.1f"
              % (cfg, side, len(v), *med))
