#!/usr/bin/env bash
# Where one kernel's warps wait, per CUDA source line: ncu's stall samples
# (and executed instructions) of one launch, top 28 lines.
#   bash h5tests/gpu/ncu_stalls.sh GPU_PROBE SIZE REGEX [SKIP [NAME]]
# e.g. bash h5tests/gpu/ncu_stalls.sh build-li/bench/gpu_probe 64 tune_k 3 tune
# (BASE=mangled: REGEX matches mangled names, to pick one instantiation)
# GPU_PROBE from a -lineinfo build (-DCMAKE_CUDA_FLAGS=-lineinfo); ncu reads
# the sources at the paths the build saw, so on another machine link the
# build's source tree there first (e.g. ln -sfn "$PWD" /path/of/the/build/tree).
P=$1 S=$2 K=$3 SKIP=${4:-3} N=${5:-k}
ncu -f --clock-control none --kernel-name-base ${BASE:-function} -k regex:"$K" --launch-skip $SKIP --launch-count 1 --section SourceCounters --section WarpStateStats \
    --section SpeedOfLight --section ComputeWorkloadAnalysis --section Occupancy --import-source yes \
    -o /tmp/rep_$N $P $S 8 >/dev/null 2>&1
# the kernel's time, how busy its issue slots were, and where its warps waited
ncu --import /tmp/rep_$N.ncu-rep --print-summary none --section SpeedOfLight --section ComputeWorkloadAnalysis \
    --section Occupancy --section WarpStateStats 2>/dev/null |
    grep -E "Duration|Elapsed Cycles|Issue Slots Busy|Executed Ipc Active|Achieved Occupancy|Theoretical Occupancy|Warp Cycles Per Issued|Avg. Active Threads"
# the stall reasons over the whole launch (pc samples), largest first
ncu --import /tmp/rep_$N.ncu-rep --page raw --csv 2>/dev/null | python3 -c '
import csv, sys
rows = list(csv.reader(sys.stdin))
if len(rows) >= 3:
    v = {h: rows[2][i] for i, h in enumerate(rows[0]) if h.startswith("smsp__pcsamp_warps_issue_stalled_") and not h.endswith("_not_issued")}
    def f(x):
        try: return float(x.replace(",", ""))
        except ValueError: return 0.0
    tot = sum(f(x) for x in v.values()) or 1
    print("stalls:", ", ".join(f"{k[33:]} {100*f(x)/tot:.1f}%" for k, x in sorted(v.items(), key=lambda kv: -f(kv[1]))[:9]))'
ncu --import /tmp/rep_$N.ncu-rep --page source --print-source cuda,sass --csv >/tmp/src_$N.csv 2>/dev/null
python3 - /tmp/src_$N.csv <<'PY'
import csv, sys, collections
agg = collections.defaultdict(lambda: [0, 0]); f = None; tot = [0, 0]; ist = iex = None
for r in csv.reader(open(sys.argv[1])):
    if not r: continue
    if r[0] in ("File Path", "File Name"): f = r[1].split("/")[-1]; continue
    if r[0] == "Line No" or r[0] == "#":
        ist = next((i for i, h in enumerate(r) if h.startswith("Warp Stall Sampling (All")), None)
        iex = next((i for i, h in enumerate(r) if h.startswith("Instructions Executed")), None)
        if len(sys.argv) < 3: print("HDR", r[:12]); sys.argv.append("x")
        continue
    if ist is None or not r[0].strip().isdigit() or len(r) < 3 or r[2] != "-": continue
    def num(i):
        try: return int(float(r[i].replace(",", ""))) if i is not None and i < len(r) else 0
        except ValueError: return 0
    a = agg[(f, int(r[0]), r[1].strip()[:100])]; a[0] += num(ist); a[1] += num(iex); tot[0] += num(ist); tot[1] += num(iex)
print("stall samples", tot[0], "instructions", tot[1])
for k, v in sorted(agg.items(), key=lambda kv: -kv[1][0])[:28]:
    if v[0]: print(f"{100*v[0]/max(tot[0],1):5.1f}% st {100*v[1]/max(tot[1],1):5.1f}% ins {k[0]}:{k[1]} {k[2]}")
PY
