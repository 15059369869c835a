# Sourced by run.sh and run_device.sh: make_nyx GEN DIR N writes the three
# Nyx-like fields as DIR/nyx_KIND_N.f32, one process per field (a machine with
# more cores makes them in parallel), keeping files that are whole and newer
# than the generator.
make_nyx() {
  local gen=$1 dir=$2 n=$3 k f p pids=()
  for k in density temperature velocity; do
    f=$dir/nyx_${k}_$n.f32
    if [ ! -f "$f" ] || [ "$(stat -c %s "$f")" -ne $((n * n * n * 4)) ] || [ "$gen" -nt "$f" ]; then
      "$gen" "$n" 1 "$dir" "$k" & pids+=($!)
    fi
  done
  for p in "${pids[@]}"; do wait "$p"; done
}
