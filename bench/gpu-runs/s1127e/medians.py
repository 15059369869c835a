#!/usr/bin/env python3
"""Medians over the rounds of this record's A/B files (or the files named): kernel-only device us
(ab_run*.txt: compress | decompress at 64^3, 256^3, 512^3 per setting) and API calls with transfers
(probe_run*.txt: compress / decompress us, then with freshly written buffers)."""
import glob, re, statistics, sys, os
here = os.path.dirname(__file__) or "."
files = sys.argv[1:] or sorted(glob.glob(os.path.join(here, "ab_run*.txt")) + glob.glob(os.path.join(here, "probe_run*.txt")))
kern = re.compile(r"(\S+) r(\d+): 64\^3\s+([\d.]+) \|\s+([\d.]+)\s+256\^3\s+([\d.]+) \|\s+([\d.]+)\s+512\^3\s+([\d.]+) \|\s+([\d.]+)")
api = re.compile(r"r(\d+) (\S+): : compress ([\d.]+) us, decompress ([\d.]+) us.*fresh buffers: compress ([\d.]+) us, decompress ([\d.]+)")
for f in files:
    rows = {}
    for line in open(f):
        m = kern.match(line)
        if m:
            rows.setdefault(("kernel", m.group(1)), []).append([float(m.group(i)) for i in range(3, 9)])
            continue
        m = api.match(line)
        if m:
            rows.setdefault(("api", m.group(2)), []).append([float(m.group(i)) for i in range(3, 7)])
    print(os.path.basename(f))
    for (kind, cfg), v in rows.items():
        med = [statistics.median(x[i] for x in v) for i in range(len(v[0]))]
        if kind == "kernel":
            print("  %-11s rounds %d: 64^3 %.1f | %.1f  256^3 %.1f | %.1f  512^3 %.0f | %.0f (compress | decompress us)"
                  % (cfg, len(v), *med))
        else:
            print("  %-11s rounds %d: 64^3 API compress %.1f decompress %.1f | fresh: compress %.1f decompress %.1f"
                  % (cfg, len(v), *med))
