#!/usr/bin/env bash
# Format 6's slice method against interpolation and the Lorenzo option,
# and the default predictor's block trial against format 5's auto
# predictor: `glide_bench slice` on the real 3-D fields (whole field as one
# chunk; about 5 s). Writes bench/results-slice.md (or $1).
exec bash "$(dirname "$0")/one_table.sh" slice "The slice method (format 6) and the block trial" \
  "${1:-bench/results-slice.md}" "bash bench/slice.sh"
