/* Direct chunk I/O (glide_h5.h) against H5Dwrite / H5Dread through the
 * filter, from host and from device memory (docs/PERFORMANCE.md, "Direct
 * chunk I/O"), and the GPU call against the CPU's by chunk size (the
 * small-chunk crossover). Markdown on stdout.
 *   glide_h5io_bench [-n side] [-r rounds] [-d dir] [-t threads] [-k 1] [-x 1]   (default 512, 3, /dev/shm, 0)
 * -t sets glide_h5's threads (0: its default); -k 1 keeps the last table's two files (glide_h5io_filter.h5,
 * glide_h5io_direct.h5) for other readers; -x 1 skips the small-chunk table.
 * Needs HDF5_PLUGIN_PATH for the filter rows and a GPU for the device rows.
 * The Nyx-like density, REL 1e-3, chunks 64^3 and 128^3; every direct chunk
 * is compared with the filter's bytes and every value with the bound. */
#include <hdf5.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bench_time.h"
#include "../h5tests/c/chunks_same.h"
#include "glide_h5.h"
#include "nyx_field.h"
#ifdef GLIDE_HAVE_GPU
#include <cuda_runtime.h>
#endif

#define FID 45123
static const unsigned CD[3] = {1, 1, 3};

static hid_t create(const char *path, size_t n, size_t c, hid_t *file)
{
    hsize_t dims[3] = {n, n, n}, ch[3] = {c, c, c};
    *file = H5Fcreate(path, H5F_ACC_TRUNC, H5P_DEFAULT, H5P_DEFAULT);
    hid_t sp = H5Screate_simple(3, dims, NULL), dcpl = H5Pcreate(H5P_DATASET_CREATE);
    H5Pset_chunk(dcpl, 3, ch);
    H5Pset_filter(dcpl, FID, H5Z_FLAG_MANDATORY, 3, CD);
    hid_t d = H5Dcreate2(*file, "density", H5T_IEEE_F32LE, sp, H5P_DEFAULT, dcpl, H5P_DEFAULT);
    H5Pclose(dcpl);
    H5Sclose(sp);
    return d;
}

static hid_t open_ds(const char *path, hid_t *file)
{
    *file = H5Fopen(path, H5F_ACC_RDONLY, H5P_DEFAULT);
    return H5Dopen2(*file, "density", H5P_DEFAULT);
}

enum { FILTER_HOST, FILTER_DEV, DIRECT_HOST, DIRECT_DEV, WAYS };
static const char *way_name[WAYS] = {"H5Dwrite / H5Dread through the filter, host memory",
                                     "the same from / into device memory (+ cudaMemcpy)",
                                     "glide_h5_write / glide_h5_read, host memory",
                                     "glide_h5_write / glide_h5_read, device memory"};

static int g_fail, g_keep;
static unsigned g_threads;
#ifdef GLIDE_HAVE_GPU
static size_t g_free0; /* free device memory before GLIDE's first call */
#endif

/* max err / bound with the bound per chunk (REL: 1e-3 x the chunk's range) */
static double worst(const float *x, const float *y, size_t n, size_t c)
{
    double w = 0;
    const size_t nc = n / c;
    for (size_t cz = 0; cz < nc; cz++)
        for (size_t cy = 0; cy < nc; cy++)
            for (size_t cx = 0; cx < nc; cx++) {
                float lo = INFINITY, hi = -INFINITY;
                for (size_t z = cz * c; z < (cz + 1) * c; z++)
                    for (size_t yy = cy * c; yy < (cy + 1) * c; yy++)
                        for (size_t xx = cx * c; xx < (cx + 1) * c; xx++) {
                            const float v = x[(z * n + yy) * n + xx];
                            lo = fminf(lo, v), hi = fmaxf(hi, v);
                        }
                const double eb = 1e-3 * ((double)hi - (double)lo);
                for (size_t z = cz * c; z < (cz + 1) * c; z++)
                    for (size_t yy = cy * c; yy < (cy + 1) * c; yy++)
                        for (size_t xx = cx * c; xx < (cx + 1) * c; xx++) {
                            const size_t i = (z * n + yy) * n + xx;
                            const double e = fabs((double)x[i] - (double)y[i]);
                            w = fmax(w, e == 0 ? 0 : eb > 0 ? e / eb : INFINITY);
                        }
            }
    return w;
}

/* the datasets of two files store the same chunks */
static int same_chunks(const char *pa, const char *pb)
{
    hid_t fa, fb, a = open_ds(pa, &fa), b = open_ds(pb, &fb);
    const int same = glide_chunks_same(a, b, NULL, NULL);
    H5Dclose(a), H5Dclose(b), H5Fclose(fa), H5Fclose(fb);
    return same;
}

static void io_table(const float *x, size_t n, size_t c, int rounds, const char *dir, int gpu)
{
    const size_t bytes = n * n * n * sizeof(float);
    float *y = malloc(bytes), *ref = malloc(bytes);
    void *dx = NULL, *dy = NULL;
#ifdef GLIDE_HAVE_GPU
    if (gpu && (cudaMalloc(&dx, bytes) != cudaSuccess || cudaMalloc(&dy, bytes) != cudaSuccess ||
                cudaMemcpy(dx, x, bytes, cudaMemcpyHostToDevice) != cudaSuccess))
        gpu = 0;
#endif
    double tw[WAYS][16], tr[WAYS][16], stored = 0, first = 0;
    char pf[512], pd[512];
    snprintf(pf, sizeof pf, "%s/glide_h5io_filter.h5", dir);
    snprintf(pd, sizeof pd, "%s/glide_h5io_direct.h5", dir);
    for (int way = 0; way < WAYS; way++) {
        const int dev = way == FILTER_DEV || way == DIRECT_DEV;
        if (dev && !gpu) continue;
        glide_h5_opts o;
        glide_h5_opts_init(&o);
        o.memory = dev ? GLIDE_MEM_DEVICE : GLIDE_MEM_HOST;
        o.threads = g_threads;
        const char *path = way <= FILTER_DEV ? pf : pd;
        for (int r = 0; r <= rounds; r++) { /* round 0 warms up */
            hid_t f, d = create(path, n, c, &f);
            double t0 = now();
            int ok;
            if (way <= FILTER_DEV) {
#ifdef GLIDE_HAVE_GPU
                if (dev) cudaMemcpy(y, dx, bytes, cudaMemcpyDeviceToHost);
#endif
                ok = H5Dwrite(d, H5T_NATIVE_FLOAT, H5S_ALL, H5S_ALL, H5P_DEFAULT, dev ? y : x) >= 0;
            } else {
                ok = glide_h5_write(d, 0, NULL, NULL, dev ? dx : x, &o) == 0;
                if (!ok) fprintf(stderr, "glide_h5_write: %s\n", glide_h5_last_error());
            }
            ok = ok && H5Fflush(f, H5F_SCOPE_LOCAL) >= 0;
            const double t1 = now();
            stored = (double)H5Dget_storage_size(d);
            H5Dclose(d);
            H5Fclose(f);
            if (!ok) g_fail = 1;
            d = open_ds(path, &f);
            const double t2 = now();
            if (way <= FILTER_DEV) {
                ok = H5Dread(d, H5T_NATIVE_FLOAT, H5S_ALL, H5S_ALL, H5P_DEFAULT, y) >= 0;
#ifdef GLIDE_HAVE_GPU
                if (dev) cudaMemcpy(dy, y, bytes, cudaMemcpyHostToDevice);
#endif
            } else {
                ok = glide_h5_read(d, 0, NULL, NULL, dev ? dy : y, &o) == 0;
                if (!ok) fprintf(stderr, "glide_h5_read: %s\n", glide_h5_last_error());
            }
            const double t3 = now();
            H5Dclose(d);
            H5Fclose(f);
            if (!ok) g_fail = 1;
            if (r) tw[way][r - 1] = t1 - t0, tr[way][r - 1] = t3 - t2;
            else if (way == DIRECT_HOST) first = t1 - t0;
        }
#ifdef GLIDE_HAVE_GPU
        if (dev && way != FILTER_DEV) cudaMemcpy(y, dy, bytes, cudaMemcpyDeviceToHost);
#endif
        if (way == FILTER_HOST) {
            memcpy(ref, y, bytes);
            const double w = worst(x, y, n, c);
            printf("chunks %zu^3: CR %.2f, max err/eb %.4f (through the filter)\n\n", c, (double)bytes / stored, w);
            if (!(w <= 1)) g_fail = 1;
        } else if (memcmp(ref, y, bytes)) {
            printf("MISMATCH: %s read other values than the filter\n", way_name[way]);
            g_fail = 1;
        }
        if (way >= DIRECT_HOST && !same_chunks(pf, pd)) {
            printf("MISMATCH: %s wrote other chunks than the filter\n", way_name[way]);
            g_fail = 1;
        }
    }
    printf("| %zu^3 chunks | write GB/s | read GB/s |\n|---|---|---|\n", c);
    for (int way = 0; way < WAYS; way++) {
        const int dev = way == FILTER_DEV || way == DIRECT_DEV;
        if (dev && !gpu) continue;
        printf("| %s | %.2f | %.2f |\n", way_name[way], bytes / median(tw[way], rounds) / 1e9,
               bytes / median(tr[way], rounds) / 1e9);
    }
    /* the warm-up's write: the process's first glide_h5 call makes the contexts and the workers' buffers */
    printf("\nglide_h5_write from host memory, the warm-up call (buffers grown for these chunks; before the "
           "64^3 table also the GPU contexts made): %.1f ms, then %.1f ms (median).\n\n",
           first * 1e3, median(tw[DIRECT_HOST], rounds) * 1e3);
#ifdef GLIDE_HAVE_GPU
    cudaFree(dx);
    cudaFree(dy);
    size_t avail = 0, total = 0;
    if (gpu && cudaMemGetInfo(&avail, &total) == cudaSuccess && g_free0 >= avail)
        printf("Device memory GLIDE keeps for the next call (contexts, workers' buffers): %.0f MiB.\n\n",
               (double)(g_free0 - avail) / 1048576.0);
#endif
    if (!g_keep || c != 128) remove(pf), remove(pd);
    free(y), free(ref);
}

/* One chunk through glide_compress / glide_decompress on each backend. */
static void crossover(const float *x, size_t n)
{
    static const struct {
        unsigned rank;
        uint64_t d[3];
    } shapes[] = {{1, {1024}}, {1, {16384}}, {3, {16, 16, 16}}, {3, {32, 32, 32}}, {3, {48, 48, 48}}, {3, {64, 64, 64}}};
    printf("| chunk | values | CPU compress µs | GPU compress µs | CPU decompress µs | GPU decompress µs |\n");
    printf("|---|---|---|---|---|---|\n");
    for (size_t s = 0; s < sizeof shapes / sizeof *shapes; s++) {
        uint64_t cnt = 1;
        for (unsigned i = 0; i < shapes[s].rank; i++) cnt *= shapes[s].d[i];
        float *c = malloc(cnt * 4), *back = malloc(cnt * 4);
        if (shapes[s].rank == 1) memcpy(c, x, cnt * 4);
        else
            for (uint64_t i = 0; i < cnt; i++) {
                const uint64_t e = shapes[s].d[2], zz = i / (e * e), yy = i / e % e, xx = i % e;
                c[i] = x[(zz * n + yy) * n + xx];
            }
        glide_params p;
        glide_params_init(&p, GLIDE_FLOAT32, shapes[s].rank, shapes[s].d);
        const size_t cap = glide_compress_bound(&p);
        void *st = malloc(cap);
        double tc[2][41], td[2][41];
        for (int be = 0; be < 2; be++) {
            p.backend = be ? GLIDE_BACKEND_GPU : GLIDE_BACKEND_CPU;
            if (be && glide_backend_resolve(GLIDE_BACKEND_GPU) != GLIDE_BACKEND_GPU) continue;
            for (int r = 0; r <= 40; r++) {
                double t0 = now();
                size_t z = glide_compress(&p, c, cnt * 4, st, cap);
                double t1 = now();
                size_t b = glide_decompress_with(p.backend, st, z, back, cnt * 4);
                double t2 = now();
                if (glide_is_error(z) || glide_is_error(b)) g_fail = 1;
                if (r) tc[be][r - 1] = (t1 - t0) * 1e6, td[be][r - 1] = (t2 - t1) * 1e6;
            }
        }
        char name[64];
        if (shapes[s].rank == 1) snprintf(name, sizeof name, "%llu (1-D)", (unsigned long long)shapes[s].d[0]);
        else snprintf(name, sizeof name, "%llu^3", (unsigned long long)shapes[s].d[0]);
        const int g = glide_backend_resolve(GLIDE_BACKEND_GPU) == GLIDE_BACKEND_GPU;
        printf("| %s | %llu | %.1f | %.1f | %.1f | %.1f |\n", name, (unsigned long long)cnt, median(tc[0], 40),
               g ? median(tc[1], 40) : NAN, median(td[0], 40), g ? median(td[1], 40) : NAN);
        free(c), free(back), free(st);
    }
    printf("\n");
}

int main(int argc, char **argv)
{
    size_t n = 512;
    int rounds = 3, cross = 1;
    const char *dir = "/dev/shm";
    for (int i = 1; i + 1 < argc; i += 2) {
        if (!strcmp(argv[i], "-n")) n = (size_t)atol(argv[i + 1]);
        else if (!strcmp(argv[i], "-r")) rounds = atoi(argv[i + 1]);
        else if (!strcmp(argv[i], "-d")) dir = argv[i + 1];
        else if (!strcmp(argv[i], "-k")) g_keep = atoi(argv[i + 1]);
        else if (!strcmp(argv[i], "-t")) g_threads = (unsigned)atoi(argv[i + 1]);
        else if (!strcmp(argv[i], "-x")) cross = !atoi(argv[i + 1]);
    }
    if (rounds < 1 || rounds > 15 || n < 128 || n % 128 || g_threads > 64) {
        fprintf(stderr, "usage: glide_h5io_bench [-n side, a multiple of 128] [-r rounds 1-15] [-d dir] "
                        "[-t threads 0-64] [-k 1] [-x 1]\n");
        return 2;
    }
    float *x = malloc(n * n * n * sizeof *x);
    if (!x || nyx_field(x, n, NYX_DENSITY, 1)) return 1;
#ifdef GLIDE_HAVE_GPU
    size_t total = 0;
    if (cudaMemGetInfo(&g_free0, &total) != cudaSuccess) cudaGetLastError(); /* before GLIDE's first call */
#endif
    const int gpu = glide_backend_resolve(GLIDE_BACKEND_GPU) == GLIDE_BACKEND_GPU;
    char th[16] = "default";
    if (g_threads) snprintf(th, sizeof th, "%u", g_threads);
    printf("Nyx-like density %zu^3 float32 (%.1f MB), REL 1e-3, files in %s, median of %d rounds, glide_h5 threads: "
           "%s; GPU: %s\n\n",
           n, n * n * n * 4 / 1e6, dir, rounds, th, gpu ? "yes" : "none (device rows skipped)");
    io_table(x, n, 64, rounds, dir, gpu);
    io_table(x, n, 128, rounds, dir, gpu);
    if (cross) crossover(x, n);
    free(x);
    if (g_fail) printf("FAILED: a call failed, a bound was broken or a result differed\n");
    return g_fail;
}
