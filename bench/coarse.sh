#!/usr/bin/env bash
# Issue 2's open question, one candidate measured: plane 0 (anchors and the
# coarse levels) by a closed-loop Lorenzo on the stride-2 grid, the finest
# level as interpolation codes it, against interpolation and the Lorenzo
# option: `glide_bench coarse`, ideal codes of each plane's frequencies, on
# the real 3-D fields without fill values and the Nyx-like 64^3 fields (a
# second or so). An estimate, not a format. Writes bench/results-coarse.md (or $1).
exec bash "$(dirname "$0")/one_table.sh" coarse "Plane 0 by a stride-2 Lorenzo: an estimate" \
  "${1:-bench/results-coarse.md}" "bash bench/coarse.sh"
