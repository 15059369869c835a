#!/usr/bin/env bash
# pack_min.sh BUILD NAME: the device programs a run needs (stripped) into .bin/NAME.tar.xz: the GPU
# tests and the benchmarks, not the CPU tests or the plugin (the carry limit is 64 MiB with the
# tracked files' 34).
set -e
cd "$(dirname "$0")/../../.."
B=${1:?build dir}; NAME=${2:?name}
T=$(mktemp -d); mkdir -p $T/gpu $T/h5tests/gpu $T/bench
cp $B/gpu/test_gpu_huff $T/gpu/; cp $B/h5tests/gpu/test_gpu_codec $T/h5tests/gpu/
cp $B/bench/gpu_probe $B/bench/glide_gpu_bench $B/bench/gpu_trace $T/bench/
strip --strip-unneeded $T/gpu/* $T/h5tests/gpu/* $T/bench/*
mkdir -p .bin && (cd $T && tar cf - .) | xz -9 -T2 > .bin/$NAME.tar.xz
ls -l .bin/$NAME.tar.xz; rm -rf $T
