#!/usr/bin/env bash
# The plugin under a program built with plain `h5cc` (Debian's links the
# static libhdf5.a, whose symbols the program does not export), and the same
# program linked shared (`h5cc -shlib`): write a float32 dataset through the
# filter, read it back and check the bound. Needs the plugin built
# (GLIDE_PLUGIN_DIR, default build/plugin) and h5cc (libhdf5-dev).
set -euo pipefail
cd "$(dirname "$0")/.."
plugin_dir=$(readlink -f "${GLIDE_PLUGIN_DIR:-build/plugin}")
[ -f "$plugin_dir/libh5z_glide.so" ] || { echo "no plugin in $plugin_dir" >&2; exit 1; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
cat > "$tmp/prog.c" <<'C'
#include <hdf5.h>
#include <math.h>
#include <stdio.h>

int main(void)
{
    enum { N = 4000 };
    static float x[N], y[N];
    for (int i = 0; i < N; i++) x[i] = sinf(0.01f * (float)i) + 0.3f * cosf(0.037f * (float)i);
    hsize_t dims[1] = {N}; /* one chunk: REL's range is the whole array's */
    hid_t space = H5Screate_simple(1, dims, NULL);
    hid_t dcpl = H5Pcreate(H5P_DATASET_CREATE);
    H5Pset_chunk(dcpl, 1, dims);
    const unsigned cd[3] = {1, 1, 3}; /* REL 1e-3 */
    H5Pset_filter(dcpl, 45123, H5Z_FLAG_MANDATORY, 3, cd);
    hid_t f = H5Fcreate("prog.h5", H5F_ACC_TRUNC, H5P_DEFAULT, H5P_DEFAULT);
    hid_t d = H5Dcreate2(f, "x", H5T_IEEE_F32LE, space, H5P_DEFAULT, dcpl, H5P_DEFAULT);
    if (d < 0 || H5Dwrite(d, H5T_NATIVE_FLOAT, H5S_ALL, H5S_ALL, H5P_DEFAULT, x) < 0) return 1;
    H5Dclose(d);
    H5Fclose(f);
    f = H5Fopen("prog.h5", H5F_ACC_RDONLY, H5P_DEFAULT);
    d = H5Dopen2(f, "x", H5P_DEFAULT);
    if (d < 0 || H5Dread(d, H5T_NATIVE_FLOAT, H5S_ALL, H5S_ALL, H5P_DEFAULT, y) < 0) return 2;
    hid_t p = H5Dget_create_plist(d);
    if (H5Pget_nfilters(p) != 1) return 3;
    double lo = x[0], hi = x[0], worst = 0;
    for (int i = 0; i < N; i++) {
        lo = fmin(lo, x[i]);
        hi = fmax(hi, x[i]);
        worst = fmax(worst, fabs((double)x[i] - (double)y[i]));
    }
    printf("max err/eb %.4f\n", worst / (1e-3 * (hi - lo)));
    return worst <= 1e-3 * (hi - lo) ? 0 : 4;
}
C
echo "== the plugin under programs built with h5cc (static and shared libhdf5)"
fail=0
for link in static shared; do
  flags=(); [ "$link" = shared ] && flags=(-shlib)
  (cd "$tmp" && h5cc "${flags[@]}" -o "prog_$link" prog.c -lm)
  if out=$(cd "$tmp" && HDF5_PLUGIN_PATH="$plugin_dir" "./prog_$link" 2>&1); then
    echo "h5cc ($link libhdf5): ok, $out"
  else
    echo "h5cc ($link libhdf5): FAILED (rc $?)"; echo "$out" | head -20; fail=1
  fi
done
exit $fail
