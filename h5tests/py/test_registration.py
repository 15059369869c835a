"""A C program that links libhdf5 and registers the filter itself, instead of
HDF5 loading the plugin: the plugin's caller is then not libhdf5 and it must
fall back to the global symbol namespace."""
import shutil
import subprocess

import pytest

import glide_check as gc

PROGRAM = r"""
#include <dlfcn.h>
#include <hdf5.h>
#include <math.h>
#include <stdio.h>

int main(int argc, char **argv)
{
    if (argc != 3) return 10;
    void *h = dlopen(argv[1], RTLD_NOW | RTLD_LOCAL);
    if (!h) { fprintf(stderr, "%s\n", dlerror()); return 11; }
    const void *(*info)(void) = (const void *(*)(void))dlsym(h, "H5PLget_plugin_info");
    if (!info || H5Zregister(info()) < 0) return 12;

    enum { N = 1000 };
    static float x[N], y[N];
    for (int i = 0; i < N; i++) x[i] = sinf(0.01f * (float)i);
    hsize_t dims[1] = {N}, chunk[1] = {300};
    hid_t space = H5Screate_simple(1, dims, NULL);
    hid_t dcpl = H5Pcreate(H5P_DATASET_CREATE);
    H5Pset_chunk(dcpl, 1, chunk);
    unsigned cd[3] = {0, 1, 3}; /* ABS 1e-3 */
    H5Pset_filter(dcpl, 45123, H5Z_FLAG_MANDATORY, 3, cd);
    hid_t f = H5Fcreate(argv[2], H5F_ACC_TRUNC, H5P_DEFAULT, H5P_DEFAULT);
    hid_t d = H5Dcreate2(f, "x", H5T_IEEE_F32LE, space, H5P_DEFAULT, dcpl, H5P_DEFAULT);
    if (d < 0 || H5Dwrite(d, H5T_NATIVE_FLOAT, H5S_ALL, H5S_ALL, H5P_DEFAULT, x) < 0) return 13;
    H5Dclose(d);
    H5Fclose(f);
    f = H5Fopen(argv[2], H5F_ACC_RDONLY, H5P_DEFAULT);
    d = H5Dopen2(f, "x", H5P_DEFAULT);
    if (H5Dread(d, H5T_NATIVE_FLOAT, H5S_ALL, H5S_ALL, H5P_DEFAULT, y) < 0) return 14;
    double worst = 0;
    for (int i = 0; i < N; i++) worst = fmax(worst, fabs((double)x[i] - (double)y[i]));
    printf("worst %.9g\n", worst);
    if (!(worst <= 1e-3)) return 15;

    /* A bad mode must fail creation, with our message on the stack. */
    unsigned bad[3] = {7, 1, 3};
    H5Pmodify_filter(dcpl, 45123, H5Z_FLAG_MANDATORY, 3, bad);
    hid_t f2 = H5Fcreate("bad.h5", H5F_ACC_TRUNC, H5P_DEFAULT, H5P_DEFAULT);
    hid_t d2 = H5Dcreate2(f2, "x", H5T_IEEE_F32LE, space, H5P_DEFAULT, dcpl, H5P_DEFAULT);
    return d2 < 0 ? 0 : 16;
}
"""


def test_program_registers_filter(tmp_path):
    cc = shutil.which("cc") or shutil.which("gcc")
    if not cc:
        pytest.skip("no C compiler")
    inc = "/usr/include/hdf5/serial"
    lib = "/usr/lib/x86_64-linux-gnu/hdf5/serial"
    src = tmp_path / "reg.c"
    src.write_text(PROGRAM)
    exe = tmp_path / "reg"
    r = subprocess.run([cc, "-O1", "-I", inc, str(src), "-o", str(exe), "-L", lib, "-lhdf5",
                        "-ldl", "-lm"], capture_output=True, text=True)
    if r.returncode != 0:
        pytest.skip("cannot build against the system HDF5: " + r.stderr[-300:])
    # No plugin path: the filter must come from H5Zregister alone.
    env = {"HDF5_PLUGIN_PATH": str(tmp_path / "none"), "PATH": "/usr/bin:/bin"}
    r = subprocess.run([str(exe), str(gc.PLUGIN_DIR / "libh5z_glide.so"), str(tmp_path / "r.h5")],
                       capture_output=True, text=True, env=env, cwd=tmp_path, timeout=60)
    assert r.returncode == 0, (r.returncode, r.stdout, r.stderr[-3000:])
    assert "worst" in r.stdout
    assert "glide: unknown mode 7" in r.stderr  # HDF5 prints the stack of the failed create
