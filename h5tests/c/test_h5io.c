/* glide_h5.h's direct chunk I/O against the filter: the same chunk bytes,
 * the bound per value, fill and edge chunks, sub-boxes, raw and corrupt
 * chunks, and a clear error for each dataset it cannot serve. With a usable
 * GPU (GPU builds), device memory too. Needs HDF5_PLUGIN_PATH (ctest sets it). */
#include <hdf5.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "chunks_same.h"
#include "glide_h5.h"
#ifdef GLIDE_HAVE_GPU
#include <cuda_runtime.h>
#endif

#define FID 45123
static const char *path = "test_h5io.h5";

typedef struct {
    hid_t type;
    int rank;
    hsize_t dims[3], chunk[3];
    unsigned cd[4];
    int user_fill;    /* a fill value of -999 */
    int fill_never;   /* H5D_FILL_TIME_NEVER */
    const char *name;
} cfg;

static double value(const cfg *c, size_t i)
{
    /* smooth, with noise and a few exact fill values where there is a fill value */
    double x = sin(0.05 * (double)i) * 40.0 + cos(0.0007 * (double)(i * i % 100003)) * 3.0;
    if (c->user_fill && i % 97 == 5) x = -999.0;
    return x;
}

static size_t npoints(const cfg *c)
{
    size_t n = 1;
    for (int i = 0; i < c->rank; i++) n *= c->dims[i];
    return n;
}

static hid_t make_dset(hid_t f, const char *name, const cfg *c, int filtered)
{
    hid_t sp = H5Screate_simple(c->rank, c->dims, NULL), dcpl = H5Pcreate(H5P_DATASET_CREATE);
    H5Pset_chunk(dcpl, c->rank, c->chunk);
    if (filtered) H5Pset_filter(dcpl, FID, H5Z_FLAG_MANDATORY, 4, c->cd);
    if (c->user_fill) {
        if (H5Tequal(c->type, H5T_IEEE_F32LE) > 0) {
            float v = -999.0f;
            H5Pset_fill_value(dcpl, H5T_NATIVE_FLOAT, &v);
        } else {
            double v = -999.0;
            H5Pset_fill_value(dcpl, H5T_NATIVE_DOUBLE, &v);
        }
    }
    if (c->fill_never) H5Pset_fill_time(dcpl, H5D_FILL_TIME_NEVER);
    hid_t d = H5Dcreate2(f, name, c->type, sp, H5P_DEFAULT, dcpl, H5P_DEFAULT);
    H5Pclose(dcpl);
    H5Sclose(sp);
    return d;
}

static double get(const void *buf, size_t esz, size_t i)
{
    return esz == 4 ? (double)((const float *)buf)[i] : ((const double *)buf)[i];
}

/* max |x - y| / bound over the box (whole dataset here), the bound per
 * chunk for REL (the chunk's range of non-fill finite values) */
static double worst(const cfg *c, const void *x, const void *y, size_t esz)
{
    const double eb = c->cd[1] * pow(10.0, -(double)c->cd[2]);
    const size_t n = npoints(c);
    double w = 0;
    /* chunk id of point i, and each chunk's range */
    size_t nc[3] = {1, 1, 1}, tot = 1;
    for (int d = 0; d < c->rank; d++) nc[d] = (c->dims[d] + c->chunk[d] - 1) / c->chunk[d], tot *= nc[d];
    double *lo = malloc(tot * sizeof *lo), *hi = malloc(tot * sizeof *hi);
    size_t *cid = malloc(n * sizeof *cid);
    for (size_t k = 0; k < tot; k++) lo[k] = INFINITY, hi[k] = -INFINITY;
    for (size_t i = 0; i < n; i++) {
        size_t r = i, id = 0, mul = 1;
        for (int d = c->rank - 1; d >= 0; d--) {
            id += (r % c->dims[d]) / c->chunk[d] * mul;
            mul *= nc[d];
            r /= c->dims[d];
        }
        cid[i] = id;
        const double v = get(x, esz, i);
        if (isfinite(v) && !(c->user_fill && v == -999.0)) lo[id] = fmin(lo[id], v), hi[id] = fmax(hi[id], v);
    }
    for (size_t i = 0; i < n; i++) {
        const double v = get(x, esz, i), u = get(y, esz, i);
        if (c->user_fill && v == -999.0) {
            if (u != v) w = INFINITY;
            continue;
        }
        const double b = c->cd[0] == 1 ? eb * (hi[cid[i]] - lo[cid[i]]) : eb;
        const double e = fabs(v - u);
        w = fmax(w, e == 0 ? 0 : b > 0 ? e / b : INFINITY); /* fmax drops a NaN error: */
        if (isnan(e)) w = INFINITY;
    }
    free(lo), free(hi), free(cid);
    return w;
}

static int gpu_ok(void)
{
#ifdef GLIDE_HAVE_GPU
    int n = 0;
    return glide_backend_resolve(GLIDE_BACKEND_GPU) == GLIDE_BACKEND_GPU && cudaGetDeviceCount(&n) == cudaSuccess && n > 0;
#else
    return 0;
#endif
}

#ifdef GLIDE_HAVE_GPU
/* dx (device) written by glide_h5_write into a new dataset and read back
 * into device memory, on backend be: the filter dataset a's chunks, and the
 * values y it reads. */
static void device_roundtrip(const cfg *c, hid_t f, hid_t a, const void *dx, const void *y, glide_backend be)
{
    const size_t n = npoints(c), esz = H5Tget_size(c->type);
    const char *bn = be == GLIDE_BACKEND_CPU ? "CPU" : "GPU";
    char nm[64];
    snprintf(nm, sizeof nm, "%s_device_%s", c->name, bn);
    hid_t d = make_dset(f, nm, c, 1);
    glide_h5_opts o;
    glide_h5_opts_init(&o);
    o.backend = be;
    o.threads = 3;
    o.memory = GLIDE_MEM_DEVICE;
    size_t r = glide_h5_write(d, 0, NULL, NULL, dx, &o);
    CHECK(r == 0 && glide_chunks_same(a, d, NULL, NULL), "%s: device write, %s backend, gives the filter's chunks: %s",
          c->name, bn, glide_h5_last_error());
    void *dz = NULL, *z = malloc(n * esz);
    cudaMalloc(&dz, n * esz);
    cudaMemset(dz, 0x55, n * esz);
    r = glide_h5_read(d, 0, NULL, NULL, dz, &o);
    memset(z, 0, n * esz);
    cudaMemcpy(z, dz, n * esz, cudaMemcpyDeviceToHost);
    CHECK(r == 0 && !memcmp(y, z, n * esz), "%s: device read, %s backend, gives the filter's values: %s", c->name,
          bn, glide_h5_last_error());
    H5Dclose(d);
    cudaFree(dz);
    free(z);
}
#endif

static void roundtrip(const cfg *c, hid_t f, int gpu)
{
    const size_t n = npoints(c), esz = H5Tget_size(c->type);
    void *x = malloc(n * esz), *y = malloc(n * esz), *z = malloc(n * esz);
    for (size_t i = 0; i < n; i++) {
        if (esz == 4) ((float *)x)[i] = (float)value(c, i);
        else ((double *)x)[i] = value(c, i);
    }
    char na[64], nb[64];
    snprintf(na, sizeof na, "%s_filter%s", c->name, gpu ? "_gpu" : "");
    snprintf(nb, sizeof nb, "%s_direct%s", c->name, gpu ? "_gpu" : "");
    hid_t a = make_dset(f, na, c, 1), b = make_dset(f, nb, c, 1);
    CHECK(H5Dwrite(a, c->type, H5S_ALL, H5S_ALL, H5P_DEFAULT, x) >= 0, "%s: filter write", c->name);
    glide_h5_opts o;
    glide_h5_opts_init(&o);
    o.backend = gpu ? GLIDE_BACKEND_GPU : GLIDE_BACKEND_CPU;
    o.threads = 3;
    size_t r = glide_h5_write(b, 0, NULL, NULL, x, &o);
    CHECK(r == 0, "%s: glide_h5_write: %s", c->name, glide_h5_last_error());
    CHECK(glide_chunks_same(a, b, NULL, NULL), "%s: direct chunks are the filter's bytes (%s)", c->name,
          gpu ? "gpu" : "cpu");
    CHECK(H5Dread(b, c->type, H5S_ALL, H5S_ALL, H5P_DEFAULT, y) >= 0, "%s: read through the filter", c->name);
    const double w = worst(c, x, y, esz);
    CHECK(w <= 1.0, "%s: max err/eb %.4f", c->name, w);
    memset(z, 0x55, n * esz);
    r = glide_h5_read(b, 0, NULL, NULL, z, &o);
    CHECK(r == 0 && !memcmp(y, z, n * esz), "%s: glide_h5_read gives the filter's values: %s", c->name,
          glide_h5_last_error());
#ifdef GLIDE_HAVE_GPU
    if (gpu) { /* from and into device memory, GPU and CPU backends: the same chunks and values */
        void *dx = NULL;
        cudaMalloc(&dx, n * esz);
        cudaMemcpy(dx, x, n * esz, cudaMemcpyHostToDevice);
        device_roundtrip(c, f, a, dx, y, GLIDE_BACKEND_GPU);
        device_roundtrip(c, f, a, dx, y, GLIDE_BACKEND_CPU); /* the values cross to the host */
        cudaFree(dx);
    }
#endif
    H5Dclose(a);
    H5Dclose(b);
    free(x), free(y), free(z);
}

/* A box of whole chunks ending at the edge: written; the rest reads as HDF5 reads it (fill). */
static void sub_box(const cfg *c, hid_t f, int gpu)
{
    const size_t esz = H5Tget_size(c->type);
    uint64_t start[3] = {0, 0, 0}, count[3];
    size_t m = 1;
    for (int d = 0; d < c->rank; d++) count[d] = c->dims[d], m *= count[d];
    start[0] = c->chunk[0];
    count[0] = c->dims[0] - c->chunk[0];
    m = m / c->dims[0] * count[0];
    void *x = malloc(m * esz), *all = malloc(npoints(c) * esz), *z = malloc(npoints(c) * esz);
    for (size_t i = 0; i < m; i++) {
        if (esz == 4) ((float *)x)[i] = (float)value(c, i);
        else ((double *)x)[i] = value(c, i);
    }
    char nm[64];
    snprintf(nm, sizeof nm, "%s_box", c->name);
    hid_t b = make_dset(f, nm, c, 1);
    size_t r = glide_h5_write(b, 0, start, count, x, NULL);
    CHECK(r == 0, "%s: sub-box write: %s", c->name, glide_h5_last_error());
    CHECK(H5Dread(b, c->type, H5S_ALL, H5S_ALL, H5P_DEFAULT, all) >= 0, "%s: sub-box read", c->name);
    r = glide_h5_read(b, 0, NULL, NULL, z, NULL);
    /* with fill time NEVER, HDF5 leaves the unwritten part of its buffer as it was: compare the rest */
    const size_t plane = npoints(c) / c->dims[0], off = (size_t)c->chunk[0] * plane;
    const size_t from = c->fill_never ? off : 0;
    CHECK(r == 0 && !memcmp((char *)all + from * esz, (char *)z + from * esz, (npoints(c) - from) * esz),
          "%s: glide_h5_read of a partly written dataset is HDF5's: %s", c->name, glide_h5_last_error());
    if (c->fill_never) CHECK(get(z, esz, 0) == -999.0, "%s: a chunk never written reads as the fill value", c->name);
#ifdef GLIDE_HAVE_GPU
    if (gpu) { /* into device memory: chunks never written filled there */
        const size_t nb = npoints(c) * esz;
        void *dz = NULL, *h = malloc(nb);
        cudaMalloc(&dz, nb);
        cudaMemset(dz, 0x55, nb);
        glide_h5_opts o;
        glide_h5_opts_init(&o);
        o.memory = GLIDE_MEM_DEVICE;
        r = glide_h5_read(b, 0, NULL, NULL, dz, &o);
        cudaMemcpy(h, dz, nb, cudaMemcpyDeviceToHost);
        CHECK(r == 0 && !memcmp(h, z, nb), "%s: a partly written dataset read into device memory: %s", c->name,
              glide_h5_last_error());
        cudaFree(dz);
        free(h);
    }
#else
    (void)gpu;
#endif
    /* the written part against x, ABS bound */
    double w = 0;
    const double eb = c->cd[1] * pow(10.0, -(double)c->cd[2]);
    for (size_t i = 0; i < m; i++) w = fmax(w, fabs(get(x, esz, i) - get(all, esz, off + i)) / eb);
    if (c->cd[0] == 0) CHECK(w <= 1.0, "%s: sub-box max err/eb %.4f", c->name, w);
    /* a box read: the same values as that part of the whole */
    r = glide_h5_read(b, 0, start, count, x, NULL);
    CHECK(r == 0 && !memcmp(x, (char *)all + off * esz, m * esz), "%s: sub-box glide_h5_read", c->name);
    /* not a box of whole chunks */
    start[0] = 1;
    r = glide_h5_write(b, 0, start, count, x, NULL);
    CHECK(glide_is_error(r) && strstr(glide_h5_last_error(), "whole chunks"), "%s: unaligned box refused: %s",
          c->name, glide_h5_last_error());
    H5Dclose(b);
    free(x), free(all), free(z);
}

static void refusals(hid_t f)
{
    hsize_t dims[2] = {32, 32}, ch[2] = {16, 16};
    const unsigned cd[3] = {0, 1, 3};
    float *x = calloc(32 * 32, sizeof *x);
    hid_t sp = H5Screate_simple(2, dims, NULL);
    struct {
        const char *name, *why;
        int chunked, shuffle, glide;
        hid_t type;
    } t[] = {
        {"contiguous", "not chunked", 0, 0, 0, H5T_IEEE_F32LE},
        {"shuffled", "GLIDE (45123) alone", 1, 1, 1, H5T_IEEE_F32LE},
        {"unfiltered", "GLIDE (45123) alone", 1, 0, 0, H5T_IEEE_F32LE},
        {"integers", "type", 1, 0, 0, H5T_STD_I32LE},
        {"bigendian", "type", 1, 0, 1, H5T_IEEE_F32BE},
    };
    for (size_t i = 0; i < sizeof t / sizeof *t; i++) {
        hid_t dcpl = H5Pcreate(H5P_DATASET_CREATE);
        if (t[i].chunked) H5Pset_chunk(dcpl, 2, ch);
        if (t[i].shuffle) H5Pset_shuffle(dcpl);
        if (t[i].glide) H5Pset_filter(dcpl, FID, H5Z_FLAG_MANDATORY, 3, cd);
        hid_t d = H5Dcreate2(f, t[i].name, t[i].type, sp, H5P_DEFAULT, dcpl, H5P_DEFAULT);
        size_t r = glide_h5_write(d, 0, NULL, NULL, x, NULL);
        CHECK(d >= 0 && glide_is_error(r) && strstr(glide_h5_last_error(), t[i].why), "%s refused: %s", t[i].name,
              glide_h5_last_error());
        r = glide_h5_read(d, 0, NULL, NULL, x, NULL);
        CHECK(glide_is_error(r) && strstr(glide_h5_last_error(), t[i].why), "%s refused on read", t[i].name);
        H5Dclose(d);
        H5Pclose(dcpl);
    }
    H5E_auto2_t fn;
    void *data;
    H5Eget_auto2(H5E_DEFAULT, &fn, &data);
    H5Eset_auto2(H5E_DEFAULT, NULL, NULL); /* HDF5's own report of the bad id is expected */
    CHECK(glide_is_error(glide_h5_write(-1, 0, NULL, NULL, x, NULL)), "a bad id refused: %s", glide_h5_last_error());
    H5Eset_auto2(H5E_DEFAULT, fn, data);
    /* a chunk HDF5 stored raw (filter mask bit 0), and a corrupt one */
    hid_t dcpl = H5Pcreate(H5P_DATASET_CREATE);
    H5Pset_chunk(dcpl, 2, ch);
    H5Pset_filter(dcpl, FID, H5Z_FLAG_OPTIONAL, 3, cd);
    hid_t d = H5Dcreate2(f, "rawchunk", H5T_IEEE_F32LE, sp, H5P_DEFAULT, dcpl, H5P_DEFAULT);
    for (int i = 0; i < 32 * 32; i++) x[i] = (float)i * 0.25f;
    CHECK(glide_h5_write(d, 0, NULL, NULL, x, NULL) == 0, "raw: write");
    float raw[256];
    for (int i = 0; i < 256; i++) raw[i] = (float)(1000 + i);
    hsize_t off[2] = {16, 0};
    CHECK(H5Dwrite_chunk(d, H5P_DEFAULT, 1, off, sizeof raw, raw) >= 0, "raw: a raw chunk written");
    float *y = calloc(32 * 32, sizeof *y);
    size_t r = glide_h5_read(d, 0, NULL, NULL, y, NULL);
    int ok = r == 0;
    for (int i = 0; ok && i < 16; i++)
        for (int j = 0; j < 16; j++) ok = y[(16 + i) * 32 + j] == raw[i * 16 + j];
    CHECK(ok, "raw: the raw chunk's values come back as stored: %s", glide_h5_last_error());
    unsigned char junk[300];
    for (int i = 0; i < 300; i++) junk[i] = (unsigned char)(i * 37 + 11);
    off[0] = 0;
    off[1] = 16;
    H5Dwrite_chunk(d, H5P_DEFAULT, 0, off, sizeof junk, junk);
    r = glide_h5_read(d, 0, NULL, NULL, y, NULL);
    CHECK(glide_is_error(r) && strstr(glide_h5_last_error(), "could not be read"), "corrupt chunk: %s",
          glide_h5_last_error());
    /* a valid GLIDE stream of another shape in that chunk's place, and a truncated one */
    {
        glide_params p;
        const uint64_t other[2] = {8, 32};
        glide_params_init(&p, GLIDE_FLOAT32, 2, other);
        const size_t cap = glide_compress_bound(&p);
        unsigned char *st = malloc(cap);
        const size_t len = glide_compress(&p, x, 8 * 32 * sizeof(float), st, cap);
        CHECK(!glide_is_error(len) && H5Dwrite_chunk(d, H5P_DEFAULT, 0, off, len, st) >= 0, "other shape written");
        r = glide_h5_read(d, 0, NULL, NULL, y, NULL);
        CHECK(glide_get_error(r) == GLIDE_ERR_CORRUPT, "a stream of another shape is refused: %s", glide_h5_last_error());
        H5Dwrite_chunk(d, H5P_DEFAULT, 0, off, len / 2, st);
        r = glide_h5_read(d, 0, NULL, NULL, y, NULL);
        CHECK(glide_is_error(r), "a truncated stream is refused: %s", glide_h5_last_error());
        free(st);
    }
    H5Dclose(d);
    H5Pclose(dcpl);
    /* device memory without a usable GPU */
    if (!gpu_ok()) {
        glide_h5_opts o;
        glide_h5_opts_init(&o);
        o.memory = GLIDE_MEM_DEVICE;
        hid_t dcpl2 = H5Pcreate(H5P_DATASET_CREATE);
        H5Pset_chunk(dcpl2, 2, ch);
        H5Pset_filter(dcpl2, FID, H5Z_FLAG_MANDATORY, 3, cd);
        hid_t e = H5Dcreate2(f, "nodevice", H5T_IEEE_F32LE, sp, H5P_DEFAULT, dcpl2, H5P_DEFAULT);
        r = glide_h5_write(e, 0, NULL, NULL, x, &o);
        CHECK(glide_get_error(r) == GLIDE_ERR_BACKEND, "device memory without a GPU: %s", glide_h5_last_error());
        H5Dclose(e);
        H5Pclose(dcpl2);
    }
    H5Sclose(sp);
    free(x), free(y);
}

int main(void)
{
    if (!getenv("HDF5_PLUGIN_PATH")) {
        printf("HDF5_PLUGIN_PATH is not set\n");
        return 1;
    }
    hid_t f = H5Fcreate(path, H5F_ACC_TRUNC, H5P_DEFAULT, H5P_DEFAULT);
    const cfg cs[] = {
        {H5T_IEEE_F32LE, 3, {37, 40, 44}, {16, 16, 16}, {0, 1, 2, 0}, 0, 0, "f32_abs"},
        {H5T_IEEE_F32LE, 3, {37, 40, 44}, {16, 16, 16}, {1, 1, 3, 0}, 0, 0, "f32_rel"},
        {H5T_IEEE_F64LE, 2, {70, 90}, {32, 32}, {0, 5, 3, 0}, 1, 0, "f64_fill"},
        {H5T_IEEE_F32LE, 2, {70, 90}, {32, 32}, {0, 1, 2, 0}, 1, 1, "f32_fill_never"},
        {H5T_IEEE_F32LE, 1, {5000}, {1024}, {0, 1, 3, 0x1}, 0, 0, "f32_1d_lorenzo"},
    };
    const int gpu = gpu_ok();
    printf("GPU paths: %s\n", gpu ? "on" : "off (no usable GPU)");
    for (size_t i = 0; i < sizeof cs / sizeof *cs; i++) {
        roundtrip(&cs[i], f, 0);
        if (gpu) roundtrip(&cs[i], f, 1);
        sub_box(&cs[i], f, gpu);
    }
    refusals(f);
    H5Fclose(f);
    remove(path);
    return CHECK_DONE();
}
