#!/usr/bin/env bash
# Run 10: the host plan's gate as one kernel (state_gate_k: the state copied into mapped memory, the
# state word raised, then the plan's word polled) against 9f80372's copy, stream write and gate_k,
# two binaries. Carry [".bin/new.tar.xz", ".bin/gate.tar.xz"] (pack_min.sh build-g90 new at
# 9f80372, build-g90 gate with the change). test_gpu_codec --quick (the gate's backend tests),
# --quick with the planner forced to the host... (GLIDE_GPU_SPLIT_POINTS=20000); check with `host`;
# gpu_probe 64 300 fresh host, five alternated rounds, and fresh (device-planned) three; a trace.
OUT=${OUT:-/tmp/s1131r10}; mkdir -p $OUT
nvidia-smi -L
mkdir -p old new; tar xf .bin/new.tar.xz -C old; tar xf .bin/gate.tar.xz -C new
t() { local n=$1; shift; timeout 200 "$@" > $OUT/$n.log 2>&1; local rc=$?; echo "$n: rc $rc $(grep -m1 'passed,' $OUT/$n.log) $(grep -m1 'host plans with the tail' $OUT/$n.log)"; [ $rc = 0 ] || { grep -m5 FAIL $OUT/$n.log; tail -3 $OUT/$n.log; exit 1; }; }
t quick new/h5tests/gpu/test_gpu_codec --quick
t quick_split env GLIDE_GPU_SPLIT_POINTS=20000 new/h5tests/gpu/test_gpu_codec --quick
for s in 64 256; do timeout 60 new/bench/gpu_probe $s 12 fresh check host 2>&1 | grep '^check\|host plans' | tr '\n' ' ' | sed "s/^/$s host: /"; echo; done | tee $OUT/check.txt
if grep -q "check: [1-9]" $OUT/check.txt || [ $(grep -c "check:" $OUT/check.txt) -lt 2 ]; then echo "streams differ or check missing"; exit 1; fi
p() { timeout 60 $1/bench/gpu_probe 64 300 fresh $2 2>&1 | grep 'compress' | grep -v memcpy | cut -c1-90 | tr '\n' ' '; }
for r in 1 2 3 4 5; do for b in old new; do echo "$b host r$r: $(p $b host)"; done; done | tee $OUT/probe_host.txt
for r in 1 2 3; do for b in old new; do echo "$b device r$r: $(p $b)"; done; done | tee $OUT/probe_device.txt
for b in old new; do timeout 60 $b/bench/gpu_trace 64 30 host > $OUT/trace64_host_$b.txt 2>&1; grep -m1 "median wall" $OUT/trace64_host_$b.txt; done
cd $OUT && tar czf logs.tgz *.log && rm -f *.log
