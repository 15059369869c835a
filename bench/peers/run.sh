#!/usr/bin/env bash
# GLIDE against what users pick today, through HDF5, in one run on the same
# data and the same absolute bounds (CPU machine; docs/PERFORMANCE.md, "Peers"):
#   bash bench/peers/run.sh           # everything (about 20 min on 2 cores)
#   bash bench/peers/run.sh --quick   # smoke run: 128^3 Nyx-like, 2 bounds, 1 repeat;
#                                     # writes only under build-peers/quick/
# The full run writes bench/peers/results.{json,md}, docs/plots/peers_*.png and
# the "## Peers (bench/peers)" section at the end of docs/PERFORMANCE.md.
# GPU rows: bash bench/peers/run_device.sh on a GPU machine, then here
#   python3 bench/peers/report.py --merge peers_device_gpu.json peers_device_cpu.json
# (any python with matplotlib: build-peers/venv/bin/python has it).
# Env: GLIDE_DATA_DIR (folder of real_fields_dev.h5, default ../shared/data),
#      GLIDE_PEERS_BUILD (default build-peers), DEBIAN_PYTHON (default /usr/bin/python3),
#      NYX_N (default 512), NYX_REPS (default "*:3", per bound: "1e-3:5,*:3"), REAL_REPS (default 5).
set -euo pipefail
cd "$(dirname "$0")/../.."
t0=$SECONDS
quick=0
for a in "$@"; do
  case "$a" in --quick) quick=1 ;; *) echo "usage: $0 [--quick]" >&2; exit 2 ;; esac
done
B=${GLIDE_PEERS_BUILD:-$PWD/build-peers}
data=${GLIDE_DATA_DIR:-$PWD/../shared/data}/real_fields_dev.h5
DEBPY=${DEBIAN_PYTHON:-/usr/bin/python3}
SUDO=""; [ "$(id -u)" -ne 0 ] && SUDO="sudo"
notrun=()

# 1. Dependencies: the project's, plus Debian's H5Z-ZFP and venv support.
bash .ci/install-deps
missing=()
for p in hdf5-filter-plugin-zfp-serial python3-venv; do dpkg -s "$p" >/dev/null 2>&1 || missing+=("$p"); done
if [ ${#missing[@]} -gt 0 ]; then
  $SUDO apt-get update -qq || true
  DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null || true
fi
zfpso=$(dpkg -L hdf5-filter-plugin-zfp-serial 2>/dev/null | grep -m1 '/libh5zzfp\.so$' || true)
deb_peers=none,h5zzfp,glide,glide-custom,glide-lorenzo
if [ -z "$zfpso" ]; then
  deb_peers=none,glide,glide-custom,glide-lorenzo
  notrun+=(--not-run "h5zzfp=Debian's hdf5-filter-plugin-zfp-serial could not be installed")
fi

# 2. The PyPI side in a venv: a pip h5py wheel (its own HDF5), hdf5plugin
#    (SZ3, ZFP) and matplotlib. Without PyPI those rows are marked not run.
VENV=$B/venv
pypi=1
if ! "$VENV/bin/python" -c 'import h5py, hdf5plugin, matplotlib' >/dev/null 2>&1; then
  mkdir -p "$B"
  { python3 -m venv "$VENV" && "$VENV/bin/python" -m pip install -q h5py hdf5plugin numpy matplotlib; } || pypi=0
fi
"$VENV/bin/python" -c 'import h5py, hdf5plugin' >/dev/null 2>&1 || pypi=0
if [ $pypi = 0 ]; then
  notrun+=(--not-run "zfp=PyPI (hdf5plugin) not reachable" --not-run "sz3=PyPI (hdf5plugin) not reachable")
fi
REPORTPY="$VENV/bin/python"
if ! "$REPORTPY" -c 'import matplotlib' >/dev/null 2>&1; then
  dpkg -s python3-matplotlib >/dev/null 2>&1 || DEBIAN_FRONTEND=noninteractive \
    $SUDO apt-get install -y -qq --no-install-recommends python3-matplotlib >/dev/null || true
  REPORTPY=$DEBPY
fi

# 3. Build the plugin and glide_bench (CPU only: GPU rows come from run_device.sh)
#    and the generator of the Nyx-like fields.
cmake -S . -B "$B" -DCMAKE_BUILD_TYPE=Release -DGLIDE_WITH_CUDA=OFF -DBUILD_TESTING=OFF >/dev/null
cmake --build "$B" -j"$(nproc)" --target h5z_glide glide_bench >/dev/null
gen_src=(bench/peers/nyx_gen.c examples/nyx_field.c examples/nyx_field.h)
if [ ! -x "$B/nyx_gen" ] || [ -n "$(find "${gen_src[@]}" -newer "$B/nyx_gen")" ]; then
  cc -O2 -std=gnu11 -ffp-contract=off -Iexamples bench/peers/nyx_gen.c examples/nyx_field.c -lm -o "$B/nyx_gen"
fi

if [ $quick = 1 ]; then
  R=$B/quick; n=128; real_bounds=1e-2,1e-3; nyx_bounds=1e-2,1e-3; real_reps=1; nyx_reps='*:1'; dict_nyx=32
  report_out=(--results "$R/results.json" --md "$R/results.md" --plots "$R/plots" --doc '')
  cmd="bash bench/peers/run.sh --quick"
else
  R=$B/results; n=${NYX_N:-512}; real_bounds=1e-2,1e-3,1e-4,1e-5; nyx_bounds=$real_bounds
  real_reps=${REAL_REPS:-5}; nyx_reps=${NYX_REPS:-*:3}; dict_nyx=128
  report_out=()
  cmd="bash bench/peers/run.sh"
fi
mkdir -p "$R" "$B/data" "$B/tmp"

# 4. The Nyx-like fields (cached; remade when the generator changes).
. bench/peers/nyx_data.sh
make_nyx "$B/nyx_gen" "$B/data" "$n"

common=(--fields real,nyx --data "$data" --nyx-dir "$B/data" --nyx-n "$n" --bounds "$real_bounds"
        --reps "$real_reps" --nyx-bounds "$nyx_bounds" --nyx-reps "$nyx_reps" --tmp "$B/tmp")
inputs=()

# 5. Debian's HDF5 and h5py: no compression, H5Z-ZFP, GLIDE. The plugin path is
#    set here, not inherited, so that exactly these filters are measured.
echo "== Debian HDF5: $deb_peers"
HDF5_PLUGIN_PATH="$B/plugin${zfpso:+:$(dirname "$zfpso")}" \
  "$DEBPY" bench/peers/measure.py --peers "$deb_peers" "${common[@]}" --out "$R/debian.json"
inputs+=("$R/debian.json")

# 6. pip h5py + hdf5plugin: ZFP and SZ3 (hdf5plugin registers its own filters).
if [ $pypi = 1 ]; then
  echo "== pip h5py + hdf5plugin: zfp, sz3"
  HDF5_PLUGIN_PATH="$B/plugin" "$VENV/bin/python" bench/peers/measure.py --peers zfp,sz3 "${common[@]}" \
    --out "$R/pypi.json"
  inputs+=("$R/pypi.json")
fi

# 7. Dictionary vs custom codebook and dictionary size (the seed paper's
#    Figs. 7 and 6): glide_bench's own table, parsed by report.py.
echo "== glide_bench dict"
"$B/bench/glide_bench" --data "$data" --nyx "$dict_nyx" dict >"$R/dict.md"

wall=$((SECONDS - t0))
echo "== report (measurements took $wall s)"
"$REPORTPY" bench/peers/report.py --combine "${inputs[@]}" --dict "$R/dict.md" --wall-s "$wall" \
  --command "$cmd" "${notrun[@]}" "${report_out[@]}"
echo "done in $((SECONDS - t0)) s"
