#!/usr/bin/env bash
# pack_min.sh BUILD NAME [PROGRAM...]: the device programs a run needs, stripped, into
# .bin/NAME.tar.xz (paths relative to BUILD, kept inside the archive). By default the GPU tests and
# the three benchmarks, not the CPU tests or the plugin: the carry limit is 64 MiB with the tracked
# files' 34, and the whole tree is about 21 MB.
set -e
cd "$(dirname "$0")/../../.."
B=${1:?build dir}; NAME=${2:?name}; shift 2
P=("$@"); [ ${#P[@]} -gt 0 ] || P=(gpu/test_gpu_huff h5tests/gpu/test_gpu_codec bench/gpu_probe bench/glide_gpu_bench bench/gpu_trace)
T=$(mktemp -d)
for p in "${P[@]}"; do mkdir -p "$T/$(dirname "$p")"; cp "$B/$p" "$T/$p"; strip --strip-unneeded "$T/$p"; done
mkdir -p .bin && (cd $T && tar cf - .) | xz -9 -T2 > .bin/$NAME.tar.xz
ls -l .bin/$NAME.tar.xz; rm -rf $T
