/* The main job: a simulation writes a Nyx-like 3-D field through the GLIDE
 * filter with H5Pset_filter, and reads it back transparently.
 *   glide_demo [-n SIDE] [-c CHUNK] [-e EXPONENT] [-o FILE]   (--help: usage)
 * Defaults: a 256^3 float32 log-normal density field, 64^3 chunks, REL 1e-3.
 * Needs HDF5_PLUGIN_PATH to point at the folder holding libh5z_glide.so. */
#define _POSIX_C_SOURCE 200809L
#include "glide.h"
#include "nyx_field.h"
#include <hdf5.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#define GLIDE_FILTER_ID 45123

static double now(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return t.tv_sec + 1e-9 * t.tv_nsec;
}

static void usage(FILE *to)
{
    fprintf(to,
            "usage: glide_demo [-n SIDE] [-c CHUNK] [-e EXPONENT] [-o FILE]\n"
            "Writes a generated Nyx-like SIDE^3 float32 field through the GLIDE filter, reads it back and\n"
            "checks the error bound.\n"
            "  -n SIDE      side of the cube (default 256)\n"
            "  -c CHUNK     side of the HDF5 chunks (default 64)\n"
            "  -e EXPONENT  REL bound 1e-EXPONENT of each chunk's range (default 3)\n"
            "  -o FILE      the HDF5 file to write (default glide_demo.h5)\n"
            "Needs HDF5_PLUGIN_PATH set to the folder of libh5z_glide.so; GLIDE_BACKEND=cpu|gpu|auto picks the\n"
            "backend. Exit status: 0 when the bound holds, 2 when it does not or on a usage error, 1 on other\n"
            "errors.\n");
}

int main(int argc, char **argv)
{
    size_t n = 256, ch = 64;
    unsigned exponent = 3;
    const char *path = "glide_demo.h5";
    for (int i = 1; i < argc; i++) {
        if (!strcmp(argv[i], "-h") || !strcmp(argv[i], "--help")) { usage(stdout); return 0; }
        /* Every option takes a value: an unknown one or a missing value is a usage error, not ignored. */
        int known = !strcmp(argv[i], "-n") || !strcmp(argv[i], "-c") || !strcmp(argv[i], "-e") || !strcmp(argv[i], "-o");
        if (!known || i + 1 >= argc) {
            fprintf(stderr, "glide_demo: %s '%s'\n", known ? "missing value after" : "unknown argument", argv[i]);
            usage(stderr);
            return 2;
        }
        const char *v = argv[++i];
        if (!strcmp(argv[i - 1], "-n")) n = (size_t)atol(v);
        else if (!strcmp(argv[i - 1], "-c")) ch = (size_t)atol(v);
        else if (!strcmp(argv[i - 1], "-e")) exponent = (unsigned)atoi(v);
        else path = v;
    }
    if (n == 0 || ch == 0) {
        fprintf(stderr, "glide_demo: -n and -c need positive integers\n");
        usage(stderr);
        return 2;
    }
    if (ch > n) ch = n;
    size_t N = n * n * n;
    float *x = malloc(N * sizeof(float)), *y = malloc(N * sizeof(float));
    if (!x || !y || nyx_field(x, n, NYX_DENSITY, 7) != 0) { fprintf(stderr, "out of memory\n"); return 1; }
    printf("field      : Nyx-like log-normal baryon density, %zu^3 float32 (%.1f MB), chunks %zu^3\n", n,
           N * 4 / 1e6, ch);

    if (H5Zfilter_avail(GLIDE_FILTER_ID) <= 0) {
        fprintf(stderr, "GLIDE filter %d not found: set HDF5_PLUGIN_PATH to the folder of libh5z_glide.so\n",
                GLIDE_FILTER_ID);
        return 1;
    }
    /* REL bound 1 x 10^-exponent: cd_values = {mode, mantissa, exponent} */
    const unsigned cd[3] = {1, 1, exponent};
    hsize_t dims[3] = {n, n, n}, cdims[3] = {ch, ch, ch};
    hid_t f = H5Fcreate(path, H5F_ACC_TRUNC, H5P_DEFAULT, H5P_DEFAULT);
    hid_t sp = H5Screate_simple(3, dims, NULL);
    hid_t dcpl = H5Pcreate(H5P_DATASET_CREATE);
    H5Pset_chunk(dcpl, 3, cdims);
    if (H5Pset_filter(dcpl, GLIDE_FILTER_ID, H5Z_FLAG_MANDATORY, 3, cd) < 0) return 1;
    hid_t d = H5Dcreate2(f, "density", H5T_IEEE_F32LE, sp, H5P_DEFAULT, dcpl, H5P_DEFAULT);
    if (d < 0) return 1;
    double t0 = now();
    if (H5Dwrite(d, H5T_NATIVE_FLOAT, H5S_ALL, H5S_ALL, H5P_DEFAULT, x) < 0) return 1;
    H5Dclose(d);
    H5Fclose(f);
    double t1 = now();

    f = H5Fopen(path, H5F_ACC_RDONLY, H5P_DEFAULT);
    d = H5Dopen2(f, "density", H5P_DEFAULT);
    double t2 = now();
    if (H5Dread(d, H5T_NATIVE_FLOAT, H5S_ALL, H5S_ALL, H5P_DEFAULT, y) < 0) return 1;
    double t3 = now();
    hsize_t stored = H5Dget_storage_size(d);
    H5Dclose(d);
    H5Fclose(f);
    H5Sclose(sp);
    H5Pclose(dcpl);

    /* REL bounds are per chunk: check every chunk against its own range */
    double worst = 0, se = 0, lo = INFINITY, hi = -INFINITY;
    for (size_t cz = 0; cz < n; cz += ch)
        for (size_t cy = 0; cy < n; cy += ch)
            for (size_t cx = 0; cx < n; cx += ch) {
                double clo = INFINITY, chi = -INFINITY, cmax = 0;
                for (size_t z = cz; z < cz + ch && z < n; z++)
                    for (size_t yy = cy; yy < cy + ch && yy < n; yy++)
                        for (size_t xx = cx; xx < cx + ch && xx < n; xx++) {
                            size_t i = (z * n + yy) * n + xx;
                            double e = fabs((double)x[i] - (double)y[i]);
                            clo = fmin(clo, x[i]); chi = fmax(chi, x[i]);
                            cmax = fmax(cmax, e);
                            se += e * e;
                        }
                double bound = pow(10.0, -(double)exponent) * (chi - clo);
                worst = fmax(worst, bound > 0 ? cmax / bound : (cmax > 0 ? INFINITY : 0));
                lo = fmin(lo, clo); hi = fmax(hi, chi);
            }
    double psnr = 20 * log10(hi - lo) - 10 * log10(se / (double)N);
    const char *env = getenv("GLIDE_BACKEND");
    glide_backend req = env && !strcmp(env, "gpu") ? GLIDE_BACKEND_GPU : env && !strcmp(env, "cpu") ? GLIDE_BACKEND_CPU : GLIDE_BACKEND_AUTO;
    printf("bound      : REL 1e-%u (per chunk: 1e-%u x (max - min) of the chunk)\n", exponent, exponent);
    printf("CR         : %.2f  (%.1f MB -> %.2f MB on disk)\n", (double)N * 4 / stored, N * 4 / 1e6, stored / 1e6);
    printf("PSNR       : %.2f dB\n", psnr);
    printf("max err/eb : %.4f  (must be <= 1)\n", worst);
    printf("H5Dwrite   : %.3f s (%.0f MB/s)   H5Dread: %.3f s (%.0f MB/s)\n", t1 - t0, N * 4 / 1e6 / (t1 - t0),
           t3 - t2, N * 4 / 1e6 / (t3 - t2));
    printf("backend    : %s (GLIDE_BACKEND=%s)\n", glide_backend_name(glide_backend_resolve(req)), env ? env : "auto");
    free(x);
    free(y);
    return worst <= 1.0 ? 0 : 2;
}
