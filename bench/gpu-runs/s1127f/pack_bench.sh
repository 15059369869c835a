#!/usr/bin/env bash
# pack_bench.sh BUILD NAME: packs the benchmark programs of a build (BUILD/bench) into
# .bin/NAME.tar.xz, so that a device run can alternate builds in its A/B rounds without a knob in
# the codec for the change measured. Run 1's "old" was a worktree of the previous main (4c4e531)
# at /work/oldwt, built like build-g90.
set -e
cd "$(dirname "$0")/../../.."
OLD=${1:?build dir}; NAME=${2:?name}
T=$(mktemp -d); mkdir -p $T/bench
cp $OLD/bench/glide_gpu_bench $OLD/bench/gpu_probe $OLD/bench/gpu_trace $T/bench/ && strip --strip-unneeded $T/bench/*
mkdir -p .bin && (cd $T && tar cf - bench) | xz -9 -T2 > .bin/$NAME.tar.xz
ls -l .bin/$NAME.tar.xz; rm -rf $T
