#!/usr/bin/env bash
# Smoke test of the peer benchmark (about 30 s; not part of CI): builds the
# plugin (CPU only) into build-peers/, makes a 32^3 Nyx-like field set, runs
# every peer this machine has on it (and on sperr/wmag91 when the real data is
# there) at two bounds, renders the report into a scratch folder, and checks
# that every GLIDE row is ok with max err/eb <= 1.
#   bash bench/peers/test_smoke.sh
# Expects the dependencies of run.sh (run it, or run.sh --quick, once first).
set -euo pipefail
cd "$(dirname "$0")/../.."
B=${GLIDE_PEERS_BUILD:-$PWD/build-peers}
DEBPY=${DEBIAN_PYTHON:-/usr/bin/python3}
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT
data=${GLIDE_DATA_DIR:-$PWD/../shared/data}/real_fields_dev.h5

cmake -S . -B "$B" -DCMAKE_BUILD_TYPE=Release -DGLIDE_WITH_CUDA=OFF -DBUILD_TESTING=OFF >/dev/null
cmake --build "$B" -j"$(nproc)" --target h5z_glide >/dev/null
cc -O2 -std=gnu11 -ffp-contract=off -Iexamples bench/peers/nyx_gen.c examples/nyx_field.c -lm -o "$T/nyx_gen"
"$T/nyx_gen" 32 1 "$T"

fields=nyx; extra=()
[ -f "$data" ] && fields=real,nyx && extra=(--data "$data" --only wmag91,generated/)
args=(--fields "$fields" "${extra[@]}" --nyx-dir "$T" --nyx-n 32 --nyx-bounds 1e-2,1e-4 --nyx-reps '*:1'
      --bounds 1e-2,1e-4 --reps 1 --nyx-chunk 16 --tmp "$T")
zfpso=$(dpkg -L hdf5-filter-plugin-zfp-serial 2>/dev/null | grep -m1 '/libh5zzfp\.so$' || true)
peers=none,glide,glide-custom,glide-lorenzo${zfpso:+,h5zzfp}
HDF5_PLUGIN_PATH="$B/plugin${zfpso:+:$(dirname "$zfpso")}" "$DEBPY" bench/peers/measure.py --peers "$peers" \
  "${args[@]}" --out "$T/debian.json"
inputs=("$T/debian.json")
if "$B/venv/bin/python" -c 'import h5py, hdf5plugin' 2>/dev/null; then
  HDF5_PLUGIN_PATH="$B/plugin" "$B/venv/bin/python" bench/peers/measure.py --peers zfp,sz3,glide "${args[@]}" \
    --out "$T/pypi.json"
  inputs+=("$T/pypi.json")
  rpy=$B/venv/bin/python
else
  rpy=$DEBPY
fi
"$rpy" bench/peers/report.py --combine "${inputs[@]}" --results "$T/results.json" --md "$T/results.md" \
  --plots "$T/plots" --doc ''

"$DEBPY" - "$T/results.json" <<'EOF'
import json, sys
res = json.load(open(sys.argv[1]))
rows = res["rows"]
glide = [r for r in rows if r["compressor"].startswith("glide")]
fails = []
for key in ("glide", "glide-custom", "glide-lorenzo"):
    if not any(r["compressor"] == key for r in glide):
        fails.append(f"no rows for {key}")
for r in glide:
    if r["status"] != "ok":
        fails.append(f"{r['compressor']} {r['field']} {r['rel']}: {r['status']}")
    elif not (r["max_err_ratio"] <= 1.0):
        fails.append(f"{r['compressor']} {r['field']} {r['rel']}: max err/eb {r['max_err_ratio']}")
    elif not r["cr"] > 1:
        fails.append(f"{r['compressor']} {r['field']} {r['rel']}: CR {r['cr']}")
if not any(r["field"].startswith("generated/") for r in rows):
    fails.append("no generated field measured")
for f in fails:
    print("FAIL:", f)
print(f"smoke: {len(glide)} GLIDE rows, {len(rows)} rows in all")
print(f"{0 if fails else len(glide)} passed, {len(fails)} failed")
sys.exit(1 if fails else 0)
EOF
