#!/usr/bin/env bash
# Kernel work with binaries built on a machine without a GPU (nvcc there):
# GPU-vs-CPU byte equality (test_gpu_codec on the synthetic and real
# fields), per-call latency of 64^3 and 256^3 cubes (gpu_probe), and the
# durations of the prediction and tuning kernels at 256^3 under ncu
# (clocks and caches left alone; 4 calls). With PROFILE=1 also ncu's
# source counters of the blended prediction kernel, per source line
# (needs a -lineinfo build), into $OUT/lines0.txt (encode) and lines1.txt.
#   cmake -S . -B build-g90 -DGLIDE_CUDA_ARCHITECTURES=90 -DCMAKE_CUDA_FLAGS=-lineinfo
#   cmake --build build-g90 --target gpu_probe test_gpu_codec
#   (device, carrying build-g90/bench/gpu_probe, build-g90/h5tests/gpu/test_gpu_codec, .devdata)
#   BUILD=build-g90 OUT=out/kp bash h5tests/gpu/kernel_probe.sh
set -u
cd "$(dirname "$0")/../.."
B=${BUILD:-build-g90}
OUT=${OUT:-$PWD/out/kp}
mkdir -p "$OUT"
data=${GLIDE_DATA_DIR:-.devdata}
farg=()
if [ -f "$data/real_fields_dev.h5" ]; then
    python3 h5tests/gpu/extract_fields.py "$data/real_fields_dev.h5" /tmp/kp_fields >/dev/null
    farg=(--fields /tmp/kp_fields)
fi
timeout 300 "$B/h5tests/gpu/test_gpu_codec" "${farg[@]}" >"$OUT/codec.log" 2>&1
rc=$?
echo "test_gpu_codec rc=$rc: $(grep -m1 "passed," "$OUT/codec.log")"
grep -m5 -i "fail" "$OUT/codec.log" | grep -v " 0 failed"
for s in 64 256; do "$B/bench/gpu_probe" $s 100 | head -1; done
ncu --clock-control none --cache-control none -k regex:"interp_sh_k|tune_k|blend|choose_k" --launch-skip 20 \
    --launch-count 60 --section SpeedOfLight "$B/bench/gpu_probe" 256 5 >"$OUT/ncu.txt" 2>&1
python3 - "$OUT/ncu.txt" <<'PY'
import re, sys, statistics, collections
d = collections.defaultdict(list); name = None
for line in open(sys.argv[1]):
    m = re.match(r"\s+(?:void )?(\w+<[^(]*>)\(", line)
    if m: name = m.group(1)
    m = re.match(r"\s+Duration\s+(\S+)\s+([\d.,]+)", line)
    if m and name:
        v = float(m.group(2).replace(",", "")); d[name].append(v * (1000 if m.group(1) == "ms" else 1))
print("| kernel (256^3, ncu) | launches | median us |")
for k, v in sorted(d.items()):
    if max(v) > 6: print(f"| {k} | {len(v)} | {statistics.median(v):.1f} |")
PY
if [ "${PROFILE:-0}" = 1 ]; then
    # the blended float32 instances that do the work on the Nyx-like field:
    # encode (OP 0) and decode (OP 1), 256 threads, not fill-aware
    for op in 0 1; do
        ncu --clock-control none --kernel-name-base mangled -k regex:"_Z11interp_sh_kIfLi${op}ELi256ELb0ELb1EE" \
            --launch-skip 1 --launch-count 2 --section SourceCounters \
            --import-source yes -o "$OUT/prof$op" "$B/bench/gpu_probe" 256 3 >/dev/null 2>&1
        ncu --import "$OUT/prof$op.ncu-rep" --page source --print-source cuda,sass --csv >"$OUT/mix$op.csv" 2>/dev/null
        rm -f "$OUT/prof$op.ncu-rep"
        python3 - "$OUT/mix$op.csv" >"$OUT/lines$op.txt" <<'PY'
import csv, sys, collections
agg = collections.defaultdict(int); tot = 0; f = None; hdr = None
for r in csv.reader(open(sys.argv[1])):
    if not r: continue
    if r[0] == "File Path": f = r[1].split("/")[-1]; continue
    if r[0] == "Line No": hdr = r; ie = r.index("Instructions Executed"); continue
    if hdr is None or r[0] == "" or len(r) <= ie or r[2] != "-": continue
    try: e = int(r[ie])
    except ValueError: continue
    agg[(f, int(r[0]), r[1].strip()[:110])] += e; tot += e
print("instructions executed", tot)
for k, v in sorted(agg.items(), key=lambda kv: -kv[1])[:80]: print(f"{100*v/tot:5.1f}% {k[0]}:{k[1]} {k[2]}")
PY
        echo "op $op: $(head -1 "$OUT/lines$op.txt")"
        rm -f "$OUT/mix$op.csv"
    done
fi
exit $rc
