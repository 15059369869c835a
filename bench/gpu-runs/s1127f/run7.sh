#!/usr/bin/env bash
# session s1127f run 7: where the host plans (the tail behind the plan's gate), the stream and the
# state's tail fields are taken from gg_deliver's copy in pinned memory instead of being copied back
# again ("new"), against afe23e5 ("prev", .bin/prev.tar.xz). test_gpu_codec --quick (also split
# from 20000 points), each stopping the run at a failure; gpu_probe check, device- and host-planned,
# at 64^3, 96^3 and 256^3; gpu_probe 64 300 fresh host, 5 rounds new / prev, and device-planned, 3
# rounds; the host-planned 64^3 trace of this build.
OUT=${OUT:-/tmp/r7}; mkdir -p $OUT
nvidia-smi -L
B=build-g90; mkdir -p $B prev; tar xf .bin/tree.tar.xz -C $B; tar xf .bin/prev.tar.xz -C prev
G=$B/h5tests/gpu/test_gpu_codec
t() { env $2 timeout 100 stdbuf -oL $G --quick > $OUT/codec_$1.log 2>&1; rc=$?; echo "test_gpu_codec --quick $1 ($2): rc $rc $(grep -m1 'passed,' $OUT/codec_$1.log)"; grep -m5 FAIL $OUT/codec_$1.log; grep "behind the plan's gate:" $OUT/codec_$1.log; [ $rc = 0 ] || { tail -5 $OUT/codec_$1.log; exit 1; }; }
t default X=0
t split GLIDE_GPU_SPLIT_POINTS=20000
for s in 64 96 256; do for h in "" host; do timeout 60 $B/bench/gpu_probe $s 20 fresh check $h 2>&1 | grep '^check' | sed "s/^/$s $h: /"; done; done | tee $OUT/check7.txt
p() { echo "r$1 $2: $(timeout 60 $3/bench/gpu_probe 64 300 fresh $4 2>&1 | grep '^side\|^host plans' | sed 's/side [0-9]*, 300 runs//' | tr '\n' ' ')"; }
for r in 1 2 3 4 5; do p $r new-host $B host; p $r prev-host prev host; [ $r -le 3 ] && { p $r new $B; p $r prev prev; }; done | tee $OUT/probe7.txt
timeout 60 $B/bench/gpu_trace 64 50 host > $OUT/trace64_host_new.txt 2>&1; grep -m1 "compress (median" $OUT/trace64_host_new.txt
cd $OUT && tar czf logs7.tgz *.log && rm -f *.log
