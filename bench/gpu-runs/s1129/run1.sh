#!/usr/bin/env bash
# Branches enc-ticket5 (new) and enc-ticket5-relaxed (varB) against main (old); not yet run. It is
# s1128's run 6 with three rounds: build build-g90 on each branch (`make -j2`), pack enc-ticket5 with
# `bash bench/gpu-runs/s1128/pack_min.sh build-g90 new`, varB as README here says, old with
# `bash bench/gpu-runs/s1127f/pack_bench.sh build-g90 old` on main; carry
# [".bin/new.tar.xz", ".bin/old.tar.xz", ".bin/varB.tar.xz"].
ROUNDS=${ROUNDS:-3} OUT=${OUT:-/tmp/et5} exec bash "$(dirname "$0")/../s1128/run6.sh"
