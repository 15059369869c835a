#!/usr/bin/env bash
# Format 5's symbol planes against format 1-4's one book, and against the
# Lorenzo option: `glide_bench planes` on the real fields and the Nyx-like
# 64^3 fields (about 5 s). Writes bench/results-planes.md (or $1).
exec bash "$(dirname "$0")/one_table.sh" planes "Symbol planes (format 5) against one book" \
  "${1:-bench/results-planes.md}" "bash bench/planes.sh"
