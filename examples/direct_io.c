/* A simulation that keeps its field in GPU memory writes it with GLIDE's
 * direct chunk I/O (glide_h5.h): several time steps, each a dataset created
 * with the GLIDE filter as usual and filled by glide_h5_write straight from
 * device memory; then each is read back by glide_h5_read and checked against
 * the bound. Without a usable GPU the field stays in host memory and the
 * same calls run on the CPU. Any reader decodes the file through the filter.
 *   direct_io [-n SIDE] [-c CHUNK] [-t STEPS] [-o FILE]   (defaults 128, 64, 2, direct_io.h5)
 * Needs HDF5_PLUGIN_PATH (only to create the datasets: the filter's set_local
 * records the chunk description the direct chunks follow). */
#include "glide_h5.h"
#include "nyx_field.h"
#include <hdf5.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#ifdef GLIDE_HAVE_GPU
#include <cuda_runtime.h>
#endif

int main(int argc, char **argv)
{
    size_t n = 128, c = 64;
    int steps = 2;
    const char *path = "direct_io.h5";
    for (int i = 1; i + 1 < argc; i += 2) {
        if (!strcmp(argv[i], "-n")) n = (size_t)atol(argv[i + 1]);
        else if (!strcmp(argv[i], "-c")) c = (size_t)atol(argv[i + 1]);
        else if (!strcmp(argv[i], "-t")) steps = atoi(argv[i + 1]);
        else if (!strcmp(argv[i], "-o")) path = argv[i + 1];
    }
    if (n < 8 || c < 4 || c > n || steps < 1) {
        fprintf(stderr, "usage: direct_io [-n SIDE >= 8] [-c CHUNK 4..SIDE] [-t STEPS >= 1] [-o FILE]\n");
        return 2;
    }
    const size_t count = n * n * n, bytes = count * sizeof(float);
    float *host = malloc(bytes), *back = malloc(bytes);
    if (!host || !back) return 1;
    glide_h5_opts o;
    glide_h5_opts_init(&o);
    void *field = host, *dback = back;
#ifdef GLIDE_HAVE_GPU
    /* the simulation's field lives on the GPU GLIDE uses */
    if (glide_backend_resolve(GLIDE_BACKEND_AUTO) == GLIDE_BACKEND_GPU && cudaMalloc(&field, bytes) == cudaSuccess &&
        cudaMalloc(&dback, bytes) == cudaSuccess)
        o.memory = GLIDE_MEM_DEVICE;
    else
        field = host, dback = back;
#endif
    const unsigned cd[3] = {1, 1, 3}; /* REL 1e-3 of each chunk's range */
    hsize_t dims[3] = {n, n, n}, ch[3] = {c, c, c};
    hid_t f = H5Fcreate(path, H5F_ACC_TRUNC, H5P_DEFAULT, H5P_DEFAULT);
    hid_t sp = H5Screate_simple(3, dims, NULL), dcpl = H5Pcreate(H5P_DATASET_CREATE);
    H5Pset_chunk(dcpl, 3, ch);
    H5Pset_filter(dcpl, 45123, H5Z_FLAG_MANDATORY, 3, cd);
    int bad = 0;
    for (int t = 0; t < steps && !bad; t++) {
        if (nyx_field(host, n, NYX_DENSITY, (unsigned)t + 1)) return 1;
#ifdef GLIDE_HAVE_GPU
        if (o.memory == GLIDE_MEM_DEVICE) cudaMemcpy(field, host, bytes, cudaMemcpyHostToDevice);
#endif
        char name[32];
        snprintf(name, sizeof name, "density_%03d", t);
        hid_t d = H5Dcreate2(f, name, H5T_IEEE_F32LE, sp, H5P_DEFAULT, dcpl, H5P_DEFAULT);
        size_t r = d < 0 ? GLIDE_ERR_PARAM : glide_h5_write(d, H5P_DEFAULT, NULL, NULL, field, &o);
        if (d < 0 || glide_is_error(r)) {
            fprintf(stderr, "%s: %s\n", name, d < 0 ? "H5Dcreate2 failed (is HDF5_PLUGIN_PATH set?)" : glide_h5_last_error());
            return 1;
        }
        r = glide_h5_read(d, H5P_DEFAULT, NULL, NULL, dback, &o);
        if (glide_is_error(r)) {
            fprintf(stderr, "%s: %s\n", name, glide_h5_last_error());
            return 1;
        }
#ifdef GLIDE_HAVE_GPU
        if (o.memory == GLIDE_MEM_DEVICE) cudaMemcpy(back, dback, bytes, cudaMemcpyDeviceToHost);
#endif
        /* the bound, chunk by chunk (REL: 1e-3 of the chunk's range) */
        double worst = 0;
        for (size_t z0 = 0; z0 < n; z0 += c)
            for (size_t y0 = 0; y0 < n; y0 += c)
                for (size_t x0 = 0; x0 < n; x0 += c) {
                    float lo = INFINITY, hi = -INFINITY;
                    for (int pass = 0; pass < 2; pass++)
                        for (size_t z = z0; z < z0 + c && z < n; z++)
                            for (size_t y = y0; y < y0 + c && y < n; y++)
                                for (size_t x = x0; x < x0 + c && x < n; x++) {
                                    const size_t i = (z * n + y) * n + x;
                                    if (!pass) lo = fminf(lo, host[i]), hi = fmaxf(hi, host[i]);
                                    else {
                                        const double eb = 1e-3 * ((double)hi - lo), e = fabs((double)host[i] - back[i]);
                                        worst = fmax(worst, e == 0 ? 0 : eb > 0 ? e / eb : INFINITY);
                                    }
                                }
                }
        printf("%s: %.1f MB -> %.2f MB (CR %.1f) from %s memory, max err/eb %.4f\n", name, bytes / 1e6,
               H5Dget_storage_size(d) / 1e6, (double)bytes / (double)H5Dget_storage_size(d),
               o.memory == GLIDE_MEM_DEVICE ? "device" : "host", worst);
        bad = !(worst <= 1.0);
        H5Dclose(d);
    }
    H5Pclose(dcpl);
    H5Sclose(sp);
    H5Fclose(f);
#ifdef GLIDE_HAVE_GPU
    if (o.memory == GLIDE_MEM_DEVICE) cudaFree(field), cudaFree(dback);
#endif
    free(host), free(back);
    return bad ? 2 : 0;
}
