#!/usr/bin/env bash
# Device checks and an A/B of format 5's planes with binaries built here
# (nvcc on a machine without a GPU), so that the device only runs:
#   bash h5tests/gpu/prebuilt_probe.sh pack   # here: build-g90 (sm_90), the four programs into .bin/bins.tar.xz
#   (device, carrying .bin and .devdata) OUT=out/pp bash h5tests/gpu/prebuilt_probe.sh
# (.bin must be git-ignored, e.g. in .git/info/exclude; the carried tree stays under 64 MiB.)
# Runs test_gpu_huff, test_gpu_codec on the synthetic and real fields,
# ROUNDS (default 3) alternations of `glide_gpu_bench --kernels` over
# VARIANTS ("label=flag,flag label=..."; default with and without --no-planes) (rows: 64^3, 256^3, 512^3 kernel-only; stage medians;
# a first flag bin:NAME runs the packed binary NAME instead, for A/B of builds:
# pack with EXTRA="path:NAME ...", e.g. another revision's glide_gpu_bench),
# with NCU=REGEX the ncu medians of those kernels at 64^3 and 256^3, and
# with SAN=huff or SAN=codec compute-sanitizer on that test (memcheck, and
# racecheck for codec) as h5tests/gpu/run.sh runs it, with GOLDEN=1 the GPU's
# golden streams (test_gpu_codec --write-golden) into $OUT/golden.tgz. ROUNDS=0: no A/B.
# The A/B's reports (k_LABEL_ROUND.md) come back in $OUT/reports.tgz, its summary in $OUT/ab.txt;
# TESTS=0 skips the two tests.
set -u
cd "$(dirname "$0")/../.."
if [ "${1:-}" = pack ]; then
    set -e
    [ -d build-g90 ] || cmake -S . -B build-g90 -DCMAKE_BUILD_TYPE=Release -DGLIDE_CUDA_ARCHITECTURES=90 >/dev/null
    cmake --build build-g90 -j"$(nproc)" --target glide_gpu_bench gpu_probe test_gpu_codec test_gpu_huff >/dev/null
    t=$(mktemp -d)
    cp build-g90/bench/glide_gpu_bench build-g90/bench/gpu_probe build-g90/h5tests/gpu/test_gpu_codec \
        build-g90/gpu/test_gpu_huff "$t"/
    for e in ${EXTRA:-}; do cp "${e%%:*}" "$t/${e##*:}"; done
    strip "$t"/*
    mkdir -p .bin
    tar cf - -C "$t" . | xz -9e -T0 >.bin/bins.tar.xz # -9e: its window spans the similar binaries
    rm -rf "$t"
    ls -l .bin/bins.tar.xz
    exit 0
fi
OUT=${OUT:-$PWD/out/pp}
mkdir -p "$OUT"
B=/tmp/glide_prebuilt
rm -rf $B && mkdir -p $B && tar xJf .bin/bins.tar.xz -C $B || exit 2
data=${GLIDE_DATA_DIR:-.devdata}
farg=()
if [ -f "$data/real_fields_dev.h5" ]; then
    python3 h5tests/gpu/extract_fields.py "$data/real_fields_dev.h5" /tmp/glide_fields >/dev/null
    farg=(--fields /tmp/glide_fields)
fi
rc=0
if [ "${TESTS:-1}" = 0 ]; then :; else # TESTS=0: the A/B alone
timeout 300 $B/test_gpu_huff >"$OUT/huff.log" 2>&1 || rc=1
echo "test_gpu_huff: $(tail -1 "$OUT/huff.log")"
grep -m5 "FAIL" "$OUT/huff.log"
if [ -n "${GOLDEN:-}" ]; then
    rm -rf /tmp/glide_golden && mkdir -p /tmp/glide_golden
    farg+=(--write-golden /tmp/glide_golden)
fi
timeout 300 $B/test_gpu_codec "${farg[@]}" >"$OUT/codec.log" 2>&1 || rc=1
echo "test_gpu_codec: $(grep -m1 'passed,' "$OUT/codec.log")"
grep -m5 -i "fail" "$OUT/codec.log" | grep -v " 0 failed"
fi
# VARIANTS: the A/B's label=flags pairs (default: format 5's planes against one book)
read -r -a variants <<<"${VARIANTS:-planes= one=--no-planes}"
for r in $(seq 1 "${ROUNDS:-3}"); do
    for pair in "${variants[@]}"; do
        v=${pair%%=*}
        IFS=, read -r -a a <<<"${pair#*=}"
        prog=glide_gpu_bench
        first=${a[0]-}
        if [ "$first" != "${first#bin:}" ]; then prog=${first#bin:}; a=("${a[@]:1}"); fi
        $B/$prog --kernels "${a[@]}" --out "$OUT/k_${v}_$r.md" >/dev/null 2>&1 || rc=1
    done
done
for pair in "${variants[@]}"; do
    v=${pair%%=*}
    for f in "$OUT"/k_${v}_*.md; do
        [ -f "$f" ] || continue
        echo "== $v $(basename "$f"): device us (compress, decompress)" \
            "64^3 $(grep -m1 '^| 64³ | 1.0 |' "$f" | cut -d'|' -f5,7)" \
            "256^3 $(grep -m1 '^| 256³ | 67.1 |' "$f" | cut -d'|' -f5,7)" \
            "512^3 $(grep -m1 '^| 512³ | 536.9 |' "$f" | cut -d'|' -f5,7)"
        for s in "64³ compress$" "64³ decompress" "256³ compress$" "256³ decompress"; do
            echo "   $s: $(grep -A18 "### $s" "$f" | grep '^| [a-z]' | grep -v 'stage\|upload\|download\|to host\|host plan' |
                cut -d'|' -f2,3 | tr '\n' ' ')"
        done
    done
done | tee "$OUT/ab.txt"
case "${SAN:-}" in
huff)
    timeout 200 compute-sanitizer --tool memcheck --error-exitcode 9 $B/test_gpu_huff -q >"$OUT/san.log" 2>&1 || rc=1
    echo "memcheck test_gpu_huff -q: rc=$? $(grep -m1 'ERROR SUMMARY' "$OUT/san.log")"
    ;;
codec)
    timeout 200 compute-sanitizer --tool memcheck --leak-check no --error-exitcode 9 $B/test_gpu_codec --quick \
        >"$OUT/san.log" 2>&1 || rc=1
    echo "memcheck test_gpu_codec --quick: $(grep -m1 'ERROR SUMMARY' "$OUT/san.log")"
    timeout 250 compute-sanitizer --tool racecheck --error-exitcode 9 $B/test_gpu_codec --race >"$OUT/race.log" 2>&1 || rc=1
    echo "racecheck test_gpu_codec --race: $(grep -m1 'RACECHECK SUMMARY\|ERROR SUMMARY' "$OUT/race.log")"
    ;;
esac
if [ -n "${NCU:-}" ]; then
    for s in 64 256; do bash h5tests/gpu/ncu_kernels.sh $B/gpu_probe $s "$NCU" 6; done 2>&1 | cut -c1-120 | tee "$OUT/ncu.txt"
fi
if [ -n "${GOLDEN:-}" ]; then # the GPU-made golden streams (h5tests/golden/gpu/), written by the test run above
    tar czf "$OUT/golden.tgz" -C /tmp/glide_golden .
fi
# the device returns at most 8 files: the A/B's reports go back as one archive
reports=$(cd "$OUT" && ls k_*.md 2>/dev/null)
if [ -n "$reports" ]; then
    (cd "$OUT" && tar czf reports.tgz $reports && rm -f $reports)
fi
exit $rc
