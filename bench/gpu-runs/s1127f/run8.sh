#!/usr/bin/env bash
# session s1127f run 8: run 4a's suite on the final code (6222e73: afe23e5's kernels, and the host
# plan's stream taken from gg_deliver's copy), on a fresh machine.
OUT=${OUT:-/tmp/r8} bash "$(dirname "$0")/run4a.sh"
