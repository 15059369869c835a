/* GPU benchmark of the GLIDE codec and filter, one shot on a GPU machine.
 *   glide_gpu_bench [--quick] [--out FILE] [--tmp DIR] [--plugin DIR]
 * Prints Markdown to stdout (and to FILE):
 *   1. device and host
 *   2. host<->device copy bandwidth (cudaMemcpy, 64 MiB, pageable and pinned)
 *   3. codebook selection: the GPU's dictionary selection kernel vs building
 *      a custom codebook on the host
 *   4. per-chunk latency through glide_compress / glide_decompress_with (as
 *      the HDF5 filter calls them: pageable buffers, transfers included),
 *      GPU and CPU backends, 32^3 .. 256^3 float32 chunks of a Nyx-like field
 *   5. kernel-only throughput at 256^3 and 512^3 (CUDA-event stage times
 *      without the transfers) and device-to-device copy bandwidth
 *   6. per-stage breakdown, 64^3 and 256^3, compress and decompress
 *   7. end to end through HDF5: a 512^3 dataset written and read with no
 *      filter, the GLIDE filter on the CPU and on the GPU
 *      (glide_gpu_bench_h5.c).
 * Without a usable GPU (or in a CPU-only build) the GPU rows say
 * "not run (no GPU)" and the program still exits 0.
 * --quick: fewer runs, no 512^3 parts (the HDF5 dataset is 256^3).
 * --kernels: only parts 5 and 6 (and the device's description), for A/B
 * runs of kernel work. */
#define _GNU_SOURCE
#include "glide.h"
#include "codec.h"
#include "dict.h"
#include "format.h"
#include "huff_build.h"
#include "huff_codec.h"
#include "book_select.h"
#include "nyx_field.h"
#include "bench_time.h"
#include "glide_gpu_bench.h"
#include <hdf5.h>

#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#ifdef GLIDE_HAVE_GPU
#include "gpu_backend.h"
#include "gpu_test_hooks.h" /* who planned each chunk; the kernels one by one for part 6 */
#include <cuda_runtime.h>
#endif

#define NOGPU "not run (no GPU)"
#ifdef GLIDE_HAVE_GPU
#define NSTG GG_MAX_STAGES
#else
#define NSTG 16
#endif

/* ------------------------------------------------------------------ output */

static FILE *g_out; /* --out FILE, or NULL */
static int g_quick;
static int g_kernels; /* --kernels */
static int g_latency; /* --latency */
static int g_no_planes; /* --no-planes: the stage timings with format 1-4's one book (A/B of format 5's planes) */
static int g_slice = -1; /* --slice N: glide_encode_opts.slice = N (0 format 5's methods, 1/2 a forced slice order); -1 the default */
int g_gpu;   /* the GPU backend is built and usable */
const char *g_nogpu_why = NOGPU;

void say(const char *fmt, ...)
{
    va_list a;
    va_start(a, fmt);
    vfprintf(stdout, fmt, a);
    va_end(a);
    if (g_out) {
        va_start(a, fmt);
        vfprintf(g_out, fmt, a);
        va_end(a);
    }
}

void flush_all(void)
{
    fflush(stdout);
    if (g_out) fflush(g_out);
}

/* ------------------------------------------------------------------ helpers */

void *xmalloc(size_t n)
{
    void *p = malloc(n ? n : 1);
    if (!p) {
        fprintf(stderr, "glide_gpu_bench: out of memory (%zu bytes)\n", n);
        exit(1);
    }
    return p;
}

/* µs with a sensible number of digits */
static const char *fus(char *b, double us)
{
    if (!isfinite(us)) snprintf(b, 32, "-");
    else if (us < 10) snprintf(b, 32, "%.2f", us);
    else if (us < 1000) snprintf(b, 32, "%.1f", us);
    else snprintf(b, 32, "%.0f", us);
    return b;
}

/* the cube [o, o+s)^3 of a side-n field */
void extract(const float *f, size_t n, size_t oz, size_t oy, size_t ox, size_t s, float *out)
{
    for (size_t z = 0; z < s; z++)
        for (size_t y = 0; y < s; y++)
            memcpy(out + (z * s + y) * s, f + ((oz + z) * n + oy + y) * n + ox, s * sizeof(float));
}

/* max |x - y| / (rel * (max - min of x)) over one buffer (REL bound of one chunk) */
static double err_ratio(const float *x, const float *y, size_t count, double rel)
{
    double lo = INFINITY, hi = -INFINITY, m = 0;
    for (size_t i = 0; i < count; i++) {
        if (!isfinite(x[i])) continue;
        lo = fmin(lo, x[i]);
        hi = fmax(hi, x[i]);
        m = fmax(m, fabs((double)x[i] - (double)y[i]));
    }
    double eb = rel * (hi - lo);
    return eb > 0 ? m / eb : (m > 0 ? INFINITY : 0);
}

static void cube_params(glide_params *p, size_t s, glide_backend b)
{
    uint64_t d[3] = {s, s, s};
    glide_params_init(p, GLIDE_FLOAT32, 3, d); /* REL 1e-3, auto predictor, auto codebook */
    p->backend = b;
}

const char *cube_name(char *b, size_t s)
{
    snprintf(b, 32, "%zu³", s);
    return b;
}

/* ============================================================ 1. device and host */

static void cpu_model(char *b, size_t cap)
{
    snprintf(b, cap, "unknown");
    FILE *f = fopen("/proc/cpuinfo", "r");
    if (!f) return;
    char line[512];
    while (fgets(line, sizeof line, f)) {
        if (!strncmp(line, "model name", 10)) {
            char *c = strchr(line, ':');
            if (c) {
                c++;
                while (*c == ' ' || *c == '\t') c++;
                c[strcspn(c, "\n")] = 0;
                snprintf(b, cap, "%s", c);
            }
            break;
        }
    }
    fclose(f);
}

static void section_device(void)
{
    char cpu[256];
    cpu_model(cpu, sizeof cpu);
    unsigned maj = 0, min = 0, rel = 0;
    H5get_libversion(&maj, &min, &rel);
    say("## 1. Device and host\n\n| item | value |\n|---|---|\n");
#ifdef GLIDE_HAVE_GPU
    say("| GPU | %s |\n", g_gpu ? glide_gpu_device_name() : "none usable (no device, or its setup failed)");
    if (g_gpu) {
        int dev = 0, rt = 0, drv = 0;
        struct cudaDeviceProp prop;
        cudaGetDevice(&dev);
        cudaRuntimeGetVersion(&rt);
        cudaDriverGetVersion(&drv);
        if (cudaGetDeviceProperties(&prop, dev) == cudaSuccess)
            say("| GPU details | sm_%d%d, %d SMs, %.1f GiB, device %d |\n", prop.major, prop.minor,
                prop.multiProcessorCount, prop.totalGlobalMem / 1073741824.0, dev);
        say("| host copy threads | %u helpers (GLIDE_GPU_COPY_THREADS): decompressed values of 256 KiB to 256 MiB "
            "and uploads of 1 MiB to 256 MiB cross through pinned memory, the others by a pageable copy |\n",
            glide_gpu_copy_threads());
        say("| CUDA runtime / driver | %d.%d / %d.%d |\n", rt / 1000, rt % 1000 / 10, drv / 1000, drv % 1000 / 10);
    }
#else
    say("| GPU | none (CPU-only build: GLIDE_HAVE_GPU not defined) |\n");
#endif
    say("| CPU | %s, %ld logical cores (the codec uses one) |\n", cpu, sysconf(_SC_NPROCESSORS_ONLN));
    say("| HDF5 | %u.%u.%u |\n", maj, min, rel);
    say("| GLIDE | %d.%d.%d, filter id %d |\n", GLIDE_VERSION_MAJOR, GLIDE_VERSION_MINOR, GLIDE_VERSION_PATCH,
        GLIDE_FILTER_ID);
    say("| mode | %s |\n\n", g_quick ? "--quick (fewer runs, no 512³ parts)" : "full");
}

/* ============================================================ 2. bandwidth */

static double g_h2d_pageable = NAN, g_d2h_pageable = NAN; /* GB/s */

#ifdef GLIDE_HAVE_GPU
/* one cudaMemcpy, host wall clock to completion on the device; seconds or NAN */
static double timed_copy(void *dst, const void *src, size_t n, enum cudaMemcpyKind k)
{
    double t0 = now();
    cudaError_t e = cudaMemcpy(dst, src, n, k);
    if (e == cudaSuccess) e = cudaDeviceSynchronize();
    double t1 = now();
    if (e != cudaSuccess) {
        cudaGetLastError();
        return NAN;
    }
    return t1 - t0;
}

static double copy_gbs(void *dst, const void *src, size_t n, enum cudaMemcpyKind k, int reps)
{
    double t[16];
    if (reps > 16) reps = 16;
    if (!isfinite(timed_copy(dst, src, n, k))) return NAN; /* warm-up */
    for (int r = 0; r < reps; r++) {
        t[r] = timed_copy(dst, src, n, k);
        if (!isfinite(t[r])) return NAN;
    }
    return n / median(t, reps) / 1e9;
}
#endif

static void section_bandwidth(void)
{
    say("## 2. Host↔device copy bandwidth\n\n");
    say("cudaMemcpy of 64 MiB, host wall clock to completion, median of 5 after one warm-up; GB/s = 10⁹ B/s.\n\n");
    say("| direction | host memory | GB/s |\n|---|---|---|\n");
#ifdef GLIDE_HAVE_GPU
    if (g_gpu) {
        const size_t n = 64u << 20;
        void *d = NULL, *pin = NULL;
        char *pg = xmalloc(n);
        memset(pg, 1, n); /* fault the pages in before timing */
        if (cudaMalloc(&d, n) != cudaSuccess) {
            cudaGetLastError();
            say("| all | - | cudaMalloc of 64 MiB failed |\n\n");
            free(pg);
            return;
        }
        int have_pin = cudaMallocHost(&pin, n) == cudaSuccess;
        if (!have_pin) cudaGetLastError();
        else memset(pin, 1, n);
        g_h2d_pageable = copy_gbs(d, pg, n, cudaMemcpyHostToDevice, 5);
        double h2d_pin = have_pin ? copy_gbs(d, pin, n, cudaMemcpyHostToDevice, 5) : NAN;
        g_d2h_pageable = copy_gbs(pg, d, n, cudaMemcpyDeviceToHost, 5);
        double d2h_pin = have_pin ? copy_gbs(pin, d, n, cudaMemcpyDeviceToHost, 5) : NAN;
        say("| host→device | pageable (malloc) | %.2f |\n", g_h2d_pageable);
        say("| host→device | pinned (cudaMallocHost) | %.2f |\n", h2d_pin);
        say("| device→host | pageable (malloc) | %.2f |\n", g_d2h_pageable);
        say("| device→host | pinned (cudaMallocHost) | %.2f |\n\n", d2h_pin);
        say("HDF5 hands the filter pageable buffers, so the pageable rows bound what the GPU filter can reach.\n\n");
        if (have_pin) cudaFreeHost(pin);
        cudaFree(d);
        free(pg);
        return;
    }
#endif
    say("| host→device | pageable | %s |\n| host→device | pinned | %s |\n| device→host | pageable | %s |\n"
        "| device→host | pinned | %s |\n\n",
        g_nogpu_why, g_nogpu_why, g_nogpu_why, g_nogpu_why);
}

/* ============================================================ stage timing */

/* CUDA-event stage times of repeated GPU calls on one kind of chunk */
typedef struct {
    int ns, runs;
    const char *name[NSTG];
    double us[NSTG][MAXR];
    int cnt[NSTG];
    double kern[MAXR]; /* per run: the device stages, without upload, download, histogram to host, host plan (µs) */
    double wall[MAXR]; /* per run: host wall clock of the call (µs) */
    int plans[8]; /* compress calls by who planned the entropy stage (GG_PLANNED_*) */
    double bytes;      /* uncompressed bytes of one call */
    double err;        /* max err / eb of the decompressed chunks checked */
    int ok;
    char why[200];
} stageset;

/* S64g, S256g, S512c: graphs replayed (parts 5, 6); S64c, S256c: kernels one by one (part 6) */
static stageset S64c, S64d, S64g, S64gd, S256c, S256d, S256g, S256gd, S512c, S512d;

static double stage_median(stageset *S, const char *name)
{
    for (int j = 0; j < S->ns; j++)
        if (!strcmp(S->name[j], name)) return median(S->us[j], S->cnt[j]);
    return NAN;
}

#ifdef GLIDE_HAVE_GPU
static int is_transfer(const char *nm)
{
    return !strcmp(nm, "upload") || !strcmp(nm, "upload codes") || !strcmp(nm, "download") ||
           !strcmp(nm, "histogram to host") || !strcmp(nm, "host plan");
}

static int stageset_add(stageset *S, double wall_s)
{
    glide_gpu_stages g;
    glide_gpu_last_stages(&g);
    if (!g.names[0]) {
        snprintf(S->why, sizeof S->why, "the GPU call recorded no stage times");
        return -1;
    }
    if (S->runs >= MAXR) return 0;
    double k = 0;
    for (int i = 0; i < GG_MAX_STAGES && g.names[i]; i++) {
        int j = 0;
        while (j < S->ns && strcmp(S->name[j], g.names[i])) j++;
        if (j == S->ns) {
            if (S->ns >= NSTG) continue;
            S->name[S->ns++] = g.names[i];
            S->cnt[j] = 0;
        }
        if (S->cnt[j] < MAXR) S->us[j][S->cnt[j]++] = g.ms[i] * 1e3;
        if (!is_transfer(g.names[i])) k += g.ms[i] * 1e3;
    }
    S->kern[S->runs] = k;
    S->wall[S->runs] = wall_s * 1e6;
    S->runs++;
    return 0;
}

/* Compresses then decompresses chunks[r % nchunks] for r < runs with the GPU
 * backend called directly (so a GPU failure shows instead of silently
 * falling back to the CPU as glide_compress would), stage timing on.
 * One untimed warm-up call first (it grows the device buffers). graphs: the
 * encoder replays its graphs (each is one stage) or launches its kernels
 * one by one (a stage per step). */
static void gpu_stage_runs(stageset *C, stageset *D, float **chunks, int nchunks, size_t s, int runs, int graphs)
{
    memset(C, 0, sizeof *C);
    memset(D, 0, sizeof *D);
    if (runs > MAXR) runs = MAXR;
    if (nchunks > runs) nchunks = runs;
    const size_t n = s * s * s, bytes = n * sizeof(float);
    C->bytes = D->bytes = (double)bytes;
    glide_params p;
    cube_params(&p, s, GLIDE_BACKEND_GPU);
    glide_encode_opts o = glide_default_encode_opts();
    o.planes = !g_no_planes;
    if (g_slice >= 0) o.slice = g_slice;
    size_t cap = glide_compress_bound(&p);
    uint8_t **st = calloc((size_t)nchunks, sizeof *st);
    size_t *sz = calloc((size_t)nchunks, sizeof *sz);
    float *back = malloc(bytes);
    int ok = st && sz && back;
    for (int c = 0; ok && c < nchunks; c++) ok = (st[c] = malloc(cap)) != NULL;
    if (!ok) {
        snprintf(C->why, sizeof C->why, "skipped: host out of memory");
        snprintf(D->why, sizeof D->why, "skipped: host out of memory");
        goto out;
    }
    glide_gpu_time_stages(1);
    gg_test_use_graphs(graphs);
    size_t r = glide_gpu_compress(&p, &o, chunks[0], 0, st[0], cap);
    if (glide_is_error(r)) {
        snprintf(C->why, sizeof C->why, "skipped: GPU compress failed (%s)", glide_error_name(r));
        snprintf(D->why, sizeof D->why, "skipped: nothing to decompress");
        goto off;
    }
    for (int i = 0; i < runs; i++) {
        int c = i % nchunks;
        double t0 = now();
        r = glide_gpu_compress(&p, &o, chunks[c], 0, st[c], cap);
        double t1 = now();
        if (glide_is_error(r)) {
            snprintf(C->why, sizeof C->why, "GPU compress failed at run %d (%s)", i, glide_error_name(r));
            snprintf(D->why, sizeof D->why, "skipped: nothing to decompress");
            goto off;
        }
        sz[c] = r;
        if (stageset_add(C, t1 - t0)) goto off;
        const int pk = gg_test_last_plan();
        if (pk >= 0 && pk < GG_PLANNED_KINDS) C->plans[pk]++;
    }
    C->ok = 1;
    glide_header h;
    glide_layout lay;
    r = glide_header_read(st[0], sz[0], &h, &lay);
    if (!glide_is_error(r)) r = glide_gpu_decompress(&h, &lay, st[0], sz[0], back, 0); /* warm-up */
    if (glide_is_error(r)) {
        snprintf(D->why, sizeof D->why, "skipped: GPU decompress failed (%s)", glide_error_name(r));
        goto off;
    }
    D->err = err_ratio(chunks[0], back, n, 1e-3);
    for (int i = 0; i < runs; i++) {
        int c = i % nchunks;
        double t0 = now();
        r = glide_header_read(st[c], sz[c], &h, &lay);
        if (!glide_is_error(r)) r = glide_gpu_decompress(&h, &lay, st[c], sz[c], back, 0);
        double t1 = now();
        if (glide_is_error(r)) {
            snprintf(D->why, sizeof D->why, "GPU decompress failed at run %d (%s)", i, glide_error_name(r));
            goto off;
        }
        if (i < nchunks) {
            double e = err_ratio(chunks[c], back, n, 1e-3);
            if (e > D->err) D->err = e;
        }
        if (stageset_add(D, t1 - t0)) goto off;
    }
    D->ok = 1;
    C->err = D->err;
off:
    glide_gpu_time_stages(0);
    gg_test_use_graphs(1);
out:
    for (int c = 0; st && c < nchunks; c++) free(st[c]);
    free(st);
    free(sz);
    free(back);
}
#endif

/* ============================================================ 3. codebook selection */

/* The quantization-code histogram of a stream, by decoding its symbols. */
static int hist_from_stream(const uint8_t *src, size_t size, uint64_t *hist)
{
    glide_header h;
    glide_layout lay;
    if (glide_is_error(glide_header_read(src, size, &h, &lay)) || h.method == GLIDE_METHOD_RAW) return -1;
    glide_shape sh;
    glide_shape_from_dims(h.rank, h.dims, h.format_version, &sh);
    /* formats 5 and 6 code two planes, each with its book: the codec's own reader */
    const uint64_t n0 = h.format_version >= GLIDE_FORMAT_PLANES ? glide_plane0_count(&sh) : sh.count;
    uint16_t *sym = malloc(sh.count * sizeof *sym);
    int rc = -1;
    if (sym && !glide_is_error(glide_entropy_read(&h, &lay, src, sym, sh.count, n0))) {
        memset(hist, 0, GLIDE_NSYM * sizeof *hist);
        for (uint64_t i = 0; i < sh.count; i++) hist[sym[i] < GLIDE_NSYM ? sym[i] : GLIDE_SYM_OUTLIER]++;
        rc = 0;
    }
    free(sym);
    return rc;
}

/* Laplace-like counts over the GLIDE_NSYM symbols for `points` values:
 * scale 3 bins around the zero code, a few outliers. */
static void synthetic_hist(uint64_t *hist, uint64_t points)
{
    double w[GLIDE_NSYM], sum = 0;
    for (int i = 0; i < GLIDE_NSYM; i++) {
        w[i] = i < GLIDE_NQUANT ? exp(-fabs((double)(i - GLIDE_SYM_ZERO)) / 3.0) : 0;
        sum += w[i];
    }
    uint64_t outl = points / 10000, total = 0;
    for (int i = 0; i < GLIDE_NSYM; i++) {
        hist[i] = (uint64_t)floor((double)(points - outl) * w[i] / sum);
        total += hist[i];
    }
    hist[GLIDE_SYM_OUTLIER] = outl;
    hist[GLIDE_SYM_ZERO] += points - outl - total;
}

static double time_huff_lengths(const uint64_t *hist, int reps)
{
    double t[512];
    uint8_t len[GLIDE_NSYM];
    if (reps > 512) reps = 512;
    glide_huff_lengths(hist, GLIDE_NSYM, GLIDE_HUFF_MAX_LEN, len); /* warm-up */
    for (int r = 0; r < reps; r++) {
        double t0 = now();
        glide_huff_lengths(hist, GLIDE_NSYM, GLIDE_HUFF_MAX_LEN, len);
        t[r] = (now() - t0) * 1e6;
    }
    return median(t, reps);
}

static double time_book_select(const uint64_t *hist, int reps)
{
    double t[512];
    uint64_t bits;
    const glide_dictionary *d = glide_dict_get(GLIDE_DICT_VERSION);
    if (reps > 512) reps = 512;
    glide_book_select(d, hist, GLIDE_SCORE_SIZE, &bits);
    for (int r = 0; r < reps; r++) {
        double t0 = now();
        glide_book_select(d, hist, GLIDE_SCORE_SIZE, &bits);
        t[r] = (now() - t0) * 1e6;
    }
    return median(t, reps);
}

static void section_codebook(const float *chunk64)
{
    char b1[32], b2[32], b3[32];
    const int reps = 201;
    const glide_dictionary *d = glide_dict_get(GLIDE_DICT_VERSION);
    say("## 3. Codebook selection\n\n");
    /* the real histogram: the first 64^3 chunk's codes, decoded from its CPU stream */
    glide_params p;
    cube_params(&p, 64, GLIDE_BACKEND_CPU);
    size_t cap = glide_compress_bound(&p);
    uint8_t *st = xmalloc(cap);
    static uint64_t real[GLIDE_NSYM], synth[GLIDE_NSYM];
    size_t sz = glide_compress(&p, chunk64, 64 * 64 * 64 * sizeof(float), st, cap);
    int have_real = !glide_is_error(sz) && hist_from_stream(st, sz, real) == 0;
    free(st);
    synthetic_hist(synth, 262144);
    double t_sel_real = have_real ? time_book_select(real, reps) : NAN;
    double t_len_real = have_real ? time_huff_lengths(real, reps) : NAN;
    double t_sel_syn = time_book_select(synth, reps);
    double t_len_syn = time_huff_lengths(synth, reps);
    double g = S64c.ok ? stage_median(&S64c, "book select") : NAN;

    say("| step | where | histogram | median µs |\n|---|---|---|---|\n");
    if (S64c.ok)
        say("| dictionary book selection kernel (stage \"book select\": format 5's two planes in one launch, %u books) | GPU | each 64³ chunk's own, %d chunks | %s |\n",
            d->n_books, S64c.runs, fus(b1, g));
    else
        say("| dictionary book selection kernel (stage \"book select\") | GPU | 64³ chunks | %s |\n",
            g_gpu ? S64c.why : g_nogpu_why);
    if (have_real) {
        say("| dictionary book selection (glide_book_select, %u books) | host CPU | real, first 64³ chunk | %s |\n",
            d->n_books, fus(b1, t_sel_real));
        say("| custom codebook (glide_huff_lengths, 1025 symbols, ≤ 16 bits) | host CPU | real, first 64³ chunk | %s |\n",
            fus(b1, t_len_real));
    }
    say("| dictionary book selection (glide_book_select) | host CPU | synthetic Laplace | %s |\n", fus(b1, t_sel_syn));
    say("| custom codebook (glide_huff_lengths) | host CPU | synthetic Laplace | %s |\n\n", fus(b1, t_len_syn));
    if (S64c.ok && g > 0)
        say("Custom codebook on the host / selection kernel on the GPU: %s× (real histogram), %s× (synthetic).\n\n",
            have_real ? (snprintf(b2, 32, "%.1f", t_len_real / g), b2) : "-", (snprintf(b3, 32, "%.1f", t_len_syn / g), b3));
    say("Host times: median of %d calls, one thread. \"real\": the quantization codes of the first 64³ chunk of the "
        "256³ Nyx-like density (REL 1e-3), decoded from its CPU stream%s. \"synthetic\": Laplace-like counts "
        "(scale 3 bins) over the 1025 symbols for 262144 points (= 64³), 0.01 %% outliers. The kernel time is the "
        "CUDA-event interval of the stage (launch included), median over the chunks.\n\n",
        reps, have_real ? "" : " (not available: decoding it failed)");
}

/* ============================================================ 4. latency */

typedef struct {
    int ok;
    double cu, du, cr, err;      /* medians (µs), CR over the chunks, the largest max err/eb */
    double cu10, cu90, du10, du90; /* the 10th and 90th percentiles (µs) */
    int runs, chunks;
    int same; /* GPU only: every chunk's stream byte-identical to the CPU's (-1 unknown) */
    char why[200];
} lat_res;

#define LAT_MAXR 300  /* most timed calls of one latency row */
#define LAT_CHUNKS 10 /* distinct chunks a small chunk's row cycles through */

static double pct(const double *sorted, int n, int p) { return sorted[(size_t)n * (size_t)p / 100]; }

/* glide_compress / glide_decompress_with as the filter calls them, with
 * pageable buffers: warm-ups, then `runs` calls each way cycling through
 * the nsrc chunks (so that a call finds its values out of the caches, as
 * a dataset's next chunk is), their median and percentiles. ref[i]: the
 * CPU's stream of chunk i (GPU rows), checked once; keep: the streams for
 * the GPU row's check. */
static void latency(lat_res *R, float *const *src, int nsrc, size_t s, glide_backend b, int warm, int runs,
                    uint8_t *const *ref, const size_t *ref_size, uint8_t **keep, size_t *keep_size)
{
    memset(R, 0, sizeof *R);
    R->same = -1;
    if (runs > LAT_MAXR) runs = LAT_MAXR;
    R->runs = runs, R->chunks = nsrc;
    const size_t n = s * s * s, bytes = n * sizeof(float);
    glide_params p;
    cube_params(&p, s, b);
    const size_t cap = glide_compress_bound(&p);
    uint8_t *st[LAT_CHUNKS] = {0};
    size_t sz[LAT_CHUNKS] = {0};
    float *back = malloc(bytes);
    double *tc = malloc(LAT_MAXR * sizeof *tc), *td = malloc(LAT_MAXR * sizeof *td);
    int ok = back && tc && td && nsrc >= 1 && nsrc <= LAT_CHUNKS;
    for (int i = 0; ok && i < nsrc; i++) ok = (st[i] = malloc(cap)) != NULL;
    if (!ok) {
        snprintf(R->why, sizeof R->why, "skipped: host out of memory");
        goto out;
    }
#ifdef GLIDE_HAVE_GPU
    if (b == GLIDE_BACKEND_GPU) {
        /* the GPU itself, once a chunk, so a failure shows instead of the API's silent CPU fallback */
        glide_encode_opts o = glide_default_encode_opts();
        R->same = ref != NULL;
        for (int i = 0; i < nsrc; i++) {
            sz[i] = glide_gpu_compress(&p, &o, src[i], 0, st[i], cap);
            if (glide_is_error(sz[i])) {
                snprintf(R->why, sizeof R->why, "GPU compress failed (%s)", glide_error_name(sz[i]));
                goto out;
            }
            if (ref) R->same &= sz[i] == ref_size[i] && !memcmp(st[i], ref[i], sz[i]);
            glide_header h;
            glide_layout lay;
            size_t r = glide_header_read(st[i], sz[i], &h, &lay);
            if (!glide_is_error(r)) r = glide_gpu_decompress(&h, &lay, st[i], sz[i], back, 0);
            if (glide_is_error(r)) {
                snprintf(R->why, sizeof R->why, "GPU decompress failed (%s)", glide_error_name(r));
                goto out;
            }
        }
    }
#else
    (void)ref;
    (void)ref_size;
#endif
    for (int k = 0; k < warm + runs; k++) {
        const int i = k % nsrc;
        double t0 = now();
        sz[i] = glide_compress(&p, src[i], bytes, st[i], cap);
        double t1 = now();
        if (glide_is_error(sz[i])) {
            snprintf(R->why, sizeof R->why, "glide_compress failed (%s)", glide_error_name(sz[i]));
            goto out;
        }
        if (k >= warm) tc[k - warm] = (t1 - t0) * 1e6;
    }
    for (int k = 0; k < warm + runs; k++) {
        const int i = k % nsrc;
        double t0 = now();
        size_t r = glide_decompress_with(b, st[i], sz[i], back, bytes);
        double t1 = now();
        if (glide_is_error(r) || r != bytes) {
            snprintf(R->why, sizeof R->why, "glide_decompress_with failed (%s)",
                     glide_is_error(r) ? glide_error_name(r) : "wrong size");
            goto out;
        }
        if (k >= warm) td[k - warm] = (t1 - t0) * 1e6;
    }
#ifdef GLIDE_HAVE_GPU
    if (b == GLIDE_BACKEND_GPU && !glide_gpu_usable()) {
        snprintf(R->why, sizeof R->why, "the GPU failed during the runs (the API redid them on the CPU)");
        goto out;
    }
#endif
    R->cu = median(tc, runs), R->cu10 = pct(tc, runs, 10), R->cu90 = pct(tc, runs, 90);
    R->du = median(td, runs), R->du10 = pct(td, runs, 10), R->du90 = pct(td, runs, 90);
    size_t tot = 0;
    for (int i = 0; i < nsrc; i++) {
        tot += sz[i];
        if (glide_is_error(glide_decompress_with(b, st[i], sz[i], back, bytes))) {
            snprintf(R->why, sizeof R->why, "glide_decompress_with failed on a kept stream");
            goto out;
        }
        const double e = err_ratio(src[i], back, n, 1e-3);
        if (e != e || (R->err == R->err && e > R->err)) R->err = e; /* a NaN stays */
    }
    R->cr = (double)bytes * nsrc / (double)tot;
    R->ok = 1;
    if (keep)
        for (int i = 0; i < nsrc; i++) {
            keep[i] = st[i], keep_size[i] = sz[i];
            st[i] = NULL;
        }
out:
    for (int i = 0; i < nsrc; i++) free(st[i]);
    free(back);
    free(tc);
    free(td);
}

static void lat_table(const char *title, const lat_res *R, const size_t *sides, int ns)
{
    char b1[32], b2[32], b3[32], b4[32], b5[32], b6[32], cn[32];
    say("%s\n\n| chunk | MB | compress µs (p10–p90) | decompress µs (p10–p90) | compress GB/s | decompress GB/s | CR | "
        "calls (chunks) |\n|---|---|---|---|---|---|---|---|\n",
        title);
    for (int i = 0; i < ns; i++) {
        double mb = (double)(sides[i] * sides[i] * sides[i]) * 4 / 1e6;
        if (R[i].ok)
            say("| %s | %.2f | %s (%s–%s) | %s (%s–%s) | %.2f | %.2f | %.2f | %d (%d) |\n", cube_name(cn, sides[i]), mb,
                fus(b1, R[i].cu), fus(b3, R[i].cu10), fus(b4, R[i].cu90), fus(b2, R[i].du), fus(b5, R[i].du10),
                fus(b6, R[i].du90), mb * 1e3 / R[i].cu, mb * 1e3 / R[i].du, R[i].cr, R[i].runs, R[i].chunks);
        else
            say("| %s | %.2f | %s | | | | | |\n", cube_name(cn, sides[i]), mb, R[i].why);
    }
    say("\n");
}

static void section_latency(const float *f256)
{
    static const size_t sides[4] = {32, 64, 128, 256};
    const int gruns[4] = {300, 300, 20, 7}, cruns[4] = {50, 50, 3, 3}, cwarm[4] = {3, 3, 1, 1};
    const int qgruns[4] = {100, 100, 5, 3}, qcruns[4] = {10, 10, 1, 1};
    lat_res G[4], C[4];
    char cn[32];
    for (int i = 0; i < 4; i++) {
        size_t s = sides[i];
        /* up to 64^3 ten chunks of the field's first 4 x 4 x 4 grid, else its corner (the whole field at 256^3) */
        const int nsrc = s <= 64 ? LAT_CHUNKS : 1;
        float *src[LAT_CHUNKS];
        for (int k = 0; k < nsrc; k++) {
            src[k] = (float *)f256;
            if (s == 256) continue;
            src[k] = xmalloc(s * s * s * sizeof(float));
            extract(f256, 256, s * (size_t)(k / 16), s * (size_t)(k / 4 % 4), s * (size_t)(k % 4), s, src[k]);
        }
        uint8_t *ref[LAT_CHUNKS] = {0};
        size_t ref_size[LAT_CHUNKS] = {0};
        latency(&C[i], src, nsrc, s, GLIDE_BACKEND_CPU, cwarm[i], g_quick ? qcruns[i] : cruns[i], NULL, NULL, ref,
                ref_size);
        if (g_gpu) {
            latency(&G[i], src, nsrc, s, GLIDE_BACKEND_GPU, 3, g_quick ? qgruns[i] : gruns[i], C[i].ok ? ref : NULL,
                    ref_size, NULL, NULL);
        } else {
            memset(&G[i], 0, sizeof G[i]);
            snprintf(G[i].why, sizeof G[i].why, "%s", g_nogpu_why);
        }
        for (int k = 0; k < nsrc; k++) {
            free(ref[k]);
            if (src[k] != f256) free(src[k]);
        }
        fprintf(stderr, "glide_gpu_bench: latency %zu^3 done\n", s);
    }
    say("## 4. Per-chunk latency through the codec API\n\n");
    say("float32 cubes of the 256³ Nyx-like density, REL 1e-3, defaults. 32³ and 64³: ten chunks of the field, "
        "which the calls take in turn, so that each finds its values out of the caches as a dataset's next chunk "
        "does; 128³: the field's corner; 256³: the whole field. glide_compress / glide_decompress_with with "
        "malloc'd (pageable) buffers, as the HDF5 filter calls them: the host↔device transfers are included. "
        "Median (10th–90th percentile) of the calls after 3 warm-up calls (1 for the CPU's 128³ and 256³); CR "
        "over the chunks. MB = 10⁶ B, GB/s of uncompressed bytes.\n\n");
    lat_table("### GPU backend", G, sides, 4);
    if (g_gpu) {
        say("Checks: GPU stream byte-identical to the CPU's:");
        for (int i = 0; i < 4; i++)
            say(" %s %s%s", cube_name(cn, sides[i]),
                !G[i].ok ? "-" : G[i].same == 1 ? "yes" : G[i].same == 0 ? "**NO**" : "?", i < 3 ? "," : ";");
        say(" max err/eb after the GPU round trip:");
        for (int i = 0; i < 4; i++)
            if (G[i].ok)
                say(" %s %.4f%s%s", cube_name(cn, sides[i]), G[i].err, G[i].err <= 1.0 ? "" : " **OVER**",
                    i < 3 ? "," : "");
        say(".\n\n");
        say("GPU speed-up over the CPU (compress / decompress):");
        for (int i = 0; i < 4; i++)
            if (G[i].ok && C[i].ok)
                say(" %s %.1f× / %.1f×%s", cube_name(cn, sides[i]), C[i].cu / G[i].cu, C[i].du / G[i].du,
                    i < 3 ? "," : "");
        say(".\n\n");
        if (G[3].ok) {
            double mb = 256.0 * 256 * 256 * 4 / 1e6;
            double ec = mb * 1e3 / G[3].cu, ed = mb * 1e3 / G[3].du;
            say("**256³: effective compress input bandwidth / pageable H2D bandwidth = %.2f / %.2f GB/s = %.0f %%** "
                "(goal ≥ 80 %%). Decompress output bandwidth / pageable D2H bandwidth = %.2f / %.2f GB/s = %.0f %%.\n\n",
                ec, g_h2d_pageable, 100 * ec / g_h2d_pageable, ed, g_d2h_pageable, 100 * ed / g_d2h_pageable);
        }
    }
    lat_table("### CPU backend (one thread)", C, sides, 4);
    say("CPU max err/eb:");
    for (int i = 0; i < 4; i++)
        if (C[i].ok) say(" %s %.4f%s%s", cube_name(cn, sides[i]), C[i].err, C[i].err <= 1.0 ? "" : " **OVER**", i < 3 ? "," : "");
    say(".\n\n");
}

/* ============================================================ 5. kernel throughput */

static double g_d2d = NAN;
static size_t g_d2d_bytes;

#ifdef GLIDE_HAVE_GPU
/* cudaMemcpy device to device of n bytes, events, median of 5; GB/s of read + write bytes */
static double d2d_gbs(size_t n)
{
    void *a = NULL, *b = NULL;
    double r = NAN, t[5];
    cudaEvent_t e0 = NULL, e1 = NULL;
    if (cudaMalloc(&a, n) != cudaSuccess || cudaMalloc(&b, n) != cudaSuccess || cudaEventCreate(&e0) != cudaSuccess ||
        cudaEventCreate(&e1) != cudaSuccess || cudaMemset(a, 1, n) != cudaSuccess ||
        cudaMemcpy(b, a, n, cudaMemcpyDeviceToDevice) != cudaSuccess)
        goto out;
    for (int i = 0; i < 5; i++) {
        float ms = 0;
        if (cudaEventRecord(e0, 0) != cudaSuccess || cudaMemcpy(b, a, n, cudaMemcpyDeviceToDevice) != cudaSuccess ||
            cudaEventRecord(e1, 0) != cudaSuccess || cudaEventSynchronize(e1) != cudaSuccess ||
            cudaEventElapsedTime(&ms, e0, e1) != cudaSuccess)
            goto out;
        t[i] = ms * 1e-3;
    }
    r = 2.0 * n / median(t, 5) / 1e9;
out:
    cudaGetLastError();
    if (e0) cudaEventDestroy(e0);
    if (e1) cudaEventDestroy(e1);
    cudaFree(a);
    cudaFree(b);
    return r;
}
#endif

static void kern_row(const char *chunk, stageset *C, stageset *D)
{
    char b1[32], b2[32], b3[32], b4[32];
    if (!C->ok) {
        say("| %s | | | %s | | | | | |\n", chunk, C->why);
        return;
    }
    double mb = C->bytes / 1e6, kc = median(C->kern, C->runs), wc = median(C->wall, C->runs);
    if (!D->ok) {
        say("| %s | %.1f | %d | %s | %.1f | %s | | %s | |\n", chunk, mb, C->runs, fus(b1, kc), mb * 1e3 / kc, D->why,
            fus(b2, wc));
        return;
    }
    double kd = median(D->kern, D->runs), wd = median(D->wall, D->runs);
    say("| %s | %.1f | %d | %s | %.1f | %s | %.1f | %s | %s |\n", chunk, mb, C->runs, fus(b1, kc), mb * 1e3 / kc,
        fus(b2, kd), mb * 1e3 / kd, fus(b3, wc), fus(b4, wd));
}

static void section_kernels(int have512)
{
    say("## 5. Kernel-only throughput\n\n");
    say("Per call, the sum of the CUDA-event stage times except \"upload\", \"upload codes\", \"download\", "
        "\"histogram to host\" "
        "and \"host plan\" (the host building a custom book while the device idles) "
        "(median over runs of that sum); GB/s of uncompressed bytes. The GPU backend called directly "
        "(glide_gpu_compress / glide_gpu_decompress), stage timing on, one untimed warm-up call first. The "
        "encoder replays its CUDA graphs, as in use, each graph one stage. Wall = the host's clock around the "
        "whole call, transfers included.\n\n");
    say("| chunk | MB | runs | compress device µs | compress GB/s | decompress device µs | decompress GB/s | "
        "compress wall µs | decompress wall µs |\n|---|---|---|---|---|---|---|---|---|\n");
    if (!g_gpu) {
        say("| 256³ | 67.1 | | %s | | | | | |\n| 512³ | 536.9 | | %s | | | | | |\n\n", g_nogpu_why, g_nogpu_why);
    } else {
        kern_row("64³", &S64g, &S64gd);
        kern_row("256³", &S256g, &S256gd);
        if (g_quick) say("| 512³ | 536.9 | | skipped (--quick) | | | | | |\n");
        else if (!have512) say("| 512³ | 536.9 | | skipped: no host memory for the field | | | | | |\n");
        else kern_row("512³", &S512c, &S512d);
        say("\n");
    }
    if (g_gpu && isfinite(g_d2d))
        say("Device-to-device cudaMemcpy of %zu MiB (events, median of 5), read + write bytes: **%.0f GB/s**; "
            "as read-only input bandwidth that is %.0f GB/s.\n\n", g_d2d_bytes >> 20, g_d2d, g_d2d / 2);
    else if (g_gpu)
        say("Device-to-device cudaMemcpy of %zu MiB: skipped (cudaMalloc failed).\n\n", g_d2d_bytes >> 20);
    else
        say("Device-to-device cudaMemcpy: %s.\n\n", g_nogpu_why);
    say("Calls whose histogram may want a custom book (GLIDE_BOOK_AUTO with the dictionary book over its slack) hand "
        "it to the host at stage \"plan\"; the host builds the book while the device runs the queued tail empty, "
        "then queues the tail again. The first interval of that second tail also holds the host's codebook work, "
        "made while the device waits.\n\n");
}

/* ============================================================ 6. stage breakdown */

static void stage_table(const char *title, stageset *S, int compress)
{
    char b1[32];
    say("### %s\n\n", title);
    if (!S->ok) {
        say("%s\n\n", g_gpu ? S->why : g_nogpu_why);
        return;
    }
    double med[NSTG], sum = 0;
    for (int j = 0; j < S->ns; j++) {
        med[j] = median(S->us[j], S->cnt[j]);
        sum += med[j];
    }
    say("| stage | median µs | share |\n|---|---|---|\n");
    for (int j = 0; j < S->ns; j++)
        say("| %s | %s | %.1f %% |\n", S->name[j], fus(b1, med[j]), sum > 0 ? 100 * med[j] / sum : 0);
    say("| *sum of the stage medians* | %s | |\n", fus(b1, sum));
    say("| *device stages without transfers (median of per-call sums)* | %s | |\n", fus(b1, median(S->kern, S->runs)));
    double wall = median(S->wall, S->runs);
    say("| *host wall clock of the call (median)* | %s | |\n\n", fus(b1, wall));
#ifdef GLIDE_HAVE_GPU
    if (compress)
        say("Entropy stage planned by the device for %d of the %d calls (dictionary book), by the host for %d (a "
            "custom book may win: the tail stages appear twice in those calls), RAW %d.\n\n",
            S->plans[GG_PLANNED_DEVICE], S->runs, S->plans[GG_PLANNED_HOST_BOOK], S->plans[GG_PLANNED_RAW]);
#endif
    /* The host's part of a transfer (a pageable cudaMemcpyAsync, or the
     * copy helpers filling and emptying pinned memory) runs on the host;
     * the stream's events may not see it. Say so when the numbers show it. */
    const char *xfer = compress ? "upload" : "download";
    double bw = compress ? g_h2d_pageable : g_d2h_pageable, seen = stage_median(S, xfer);
    double expect = bw > 0 ? S->bytes / (bw * 1e3) : NAN; /* µs */
    if (isfinite(expect) && isfinite(seen) && seen < 0.2 * expect) {
        char b2[32], b3[32];
        say("Note: the %s of %.1f MB %s pageable memory should take about %s µs at the pageable bandwidth of part 2, "
            "but its events show %s µs: the host's part of the copy (a pageable cudaMemcpyAsync, or the copy "
            "helpers' staging through pinned memory) is done on the host, and the stream's events do not capture "
            "it. That time is in the wall clock (wall − sum = %s µs).\n\n",
            xfer, S->bytes / 1e6, compress ? "from" : "to", fus(b1, expect), fus(b2, seen), fus(b3, wall - sum));
    }
}

static void section_stages(void)
{
    say("## 6. Per-stage breakdown\n\n");
    if (g_gpu)
        say("CUDA-event intervals on the backend's stream, median over the calls (64³: %d different chunks of the 256³ "
        "field; 256³: the whole field, %d calls). The wall clock exceeds the sum by the host's own work (API "
        "checks, copy out of the pinned staging buffer) and event latency. For this breakdown the kernels are "
        "launched one by one (a test hook), not as the graphs the calls replay; the device then also waits for "
        "the host's launches.\n\n",
        S64c.runs, S256c.runs);
    stage_table("64³ compress", &S64c, 1);
    stage_table("64³ compress, graphs replayed (each graph one stage)", &S64g, 1);
    stage_table("64³ decompress", &S64d, 0);
    stage_table("256³ compress", &S256c, 1);
    stage_table("256³ decompress", &S256d, 0);
}

/* ============================================================ main */

char g_exe[4096];


static void usage(FILE *to)
{
    fprintf(to,
            "usage: glide_gpu_bench [--quick] [--kernels | --latency] [--out FILE] [--tmp DIR] [--plugin DIR]\n"
            "  --quick       fewer runs, no 512^3 parts (HDF5 part at 256^3)\n"
            "  --kernels     only the device's parts: kernel-only throughput (256^3, 512^3) and the stages\n"
            "  --latency     only the machine, its copies and the per-chunk latency through the API\n"
            "  --no-planes   kernel-only and stages with format 1-4's one book instead of format 5's planes\n"
            "  --slice N     kernel-only and stages with glide_encode_opts.slice = N (0: format 5's methods, no\n"
            "                block trial; 1 or 2: the slice method forced, x or y first; default: the trial)\n"
            "  --out FILE    also write the Markdown report to FILE\n"
            "  --tmp DIR     folder for the HDF5 files (default /tmp)\n"
            "  --plugin DIR  folder of libh5z_glide.so (default $HDF5_PLUGIN_PATH, else ../plugin beside this program)\n");
}

static double section_end(double t0)
{
    double t = now();
    say("_(section took %.1f s)_\n\n", t - t0);
    flush_all();
    return t;
}

int main(int argc, char **argv)
{
    if (argc >= 2 && !strcmp(argv[1], "--h5")) {
        alarm(300); /* a hung child must not hang the benchmark */
        return h5_child(argc, argv);
    }
    const char *out = NULL, *tmpdir = "/tmp", *plugin_opt = NULL;
    for (int i = 1; i < argc; i++) {
        if (!strcmp(argv[i], "--quick")) g_quick = 1;
        else if (!strcmp(argv[i], "--kernels")) g_kernels = 1;
        else if (!strcmp(argv[i], "--latency")) g_latency = 1;
        else if (!strcmp(argv[i], "--no-planes")) g_no_planes = 1;
        else if (!strcmp(argv[i], "--slice") && i + 1 < argc) g_slice = atoi(argv[++i]);
        else if (!strcmp(argv[i], "--out") && i + 1 < argc) out = argv[++i];
        else if (!strcmp(argv[i], "--tmp") && i + 1 < argc) tmpdir = argv[++i];
        else if (!strcmp(argv[i], "--plugin") && i + 1 < argc) plugin_opt = argv[++i];
        else {
            /* --help is asked for (stdout, 0); anything else is a usage error (stderr, 2). */
            int help = !strcmp(argv[i], "--help") || !strcmp(argv[i], "-h");
            if (!help) fprintf(stderr, "glide_gpu_bench: unknown argument '%s'\n", argv[i]);
            usage(help ? stdout : stderr);
            return help ? 0 : 2;
        }
    }
    if (out && !(g_out = fopen(out, "we"))) {
        fprintf(stderr, "glide_gpu_bench: cannot write %s: %s\n", out, strerror(errno));
        return 1;
    }
    ssize_t l = readlink("/proc/self/exe", g_exe, sizeof g_exe - 1);
    if (l > 0) g_exe[l] = 0;
    else snprintf(g_exe, sizeof g_exe, "%s", argv[0]);
    char plugin[8192];
    const char *envp = getenv("HDF5_PLUGIN_PATH");
    if (plugin_opt) snprintf(plugin, sizeof plugin, "%s", plugin_opt);
    else if (envp && *envp) snprintf(plugin, sizeof plugin, "%s", envp);
    else {
        char d[4096];
        snprintf(d, sizeof d, "%s", g_exe);
        char *sl = strrchr(d, '/');
        if (sl) *sl = 0;
        else snprintf(d, sizeof d, ".");
        char p2[4096 + 16], *rp;
        snprintf(p2, sizeof p2, "%s/../plugin", d);
        rp = realpath(p2, NULL);
        snprintf(plugin, sizeof plugin, "%s", rp ? rp : p2);
        free(rp);
    }

    double T0 = now(), t = T0;
#ifdef GLIDE_HAVE_GPU
    g_gpu = glide_gpu_usable();
    double t_init = now() - T0;
#else
    double t_init = 0;
#endif
    {
        time_t tt = time(NULL);
        char date[64];
        strftime(date, sizeof date, "%Y-%m-%d %H:%M UTC", gmtime(&tt));
        say("# GLIDE GPU benchmark\n\n%s.", date);
        if (g_gpu) say(" GPU backend set up (first glide_gpu_usable call) in %.2f s.", t_init);
        say(" Timings: clock_gettime(CLOCK_MONOTONIC) unless said otherwise; µs = 10⁻⁶ s.\n\n");
    }
    section_device();
    t = section_end(t);
    section_bandwidth();
    t = section_end(t);

    /* the 256^3 field (the demo's seed) and 64^3 chunks of it */
    double tg = now();
    float *f256 = xmalloc((size_t)256 * 256 * 256 * sizeof(float));
    if (nyx_field(f256, 256, NYX_DENSITY, 7) != 0) {
        fprintf(stderr, "glide_gpu_bench: out of memory\n");
        return 1;
    }
    fprintf(stderr, "glide_gpu_bench: 256^3 field generated in %.1f s\n", now() - tg);
    const int n64 = g_quick ? 10 : 50;
    float *c64[64];
    for (int i = 0; i < n64; i++) {
        c64[i] = xmalloc((size_t)64 * 64 * 64 * sizeof(float));
        extract(f256, 256, 64 * (size_t)(i / 16), 64 * (size_t)(i / 4 % 4), 64 * (size_t)(i % 4), 64, c64[i]);
    }
#ifdef GLIDE_HAVE_GPU
    if (g_gpu && !g_latency) {
        gpu_stage_runs(&S64c, &S64d, c64, n64, 64, n64, 0);
        gpu_stage_runs(&S64g, &S64gd, c64, n64, 64, n64, 1);
    }
#endif
    t = now(); /* field generation is not part of a section */
    if (!g_kernels && !g_latency) {
        section_codebook(c64[0]);
        t = section_end(t);
    }
    for (int i = 0; i < n64; i++) free(c64[i]);

    if (!g_kernels) {
        section_latency(f256);
        t = section_end(t);
    }
    if (g_latency) {
        say("Total: %.0f s.\n", now() - T0);
        free(f256);
        flush_all();
        if (g_out) fclose(g_out);
        return 0;
    }

    float *f512 = NULL;
    size_t nh5 = 256;
    if (!g_quick || g_kernels) {
        tg = now();
        f512 = malloc((size_t)512 * 512 * 512 * sizeof(float));
        if (f512 && nyx_field(f512, 512, NYX_DENSITY, 7) != 0) {
            free(f512);
            f512 = NULL;
        }
        if (f512) nh5 = 512;
        fprintf(stderr, "glide_gpu_bench: 512^3 field %s in %.1f s\n", f512 ? "generated" : "NOT generated",
                now() - tg);
    }
    t = now();
#ifdef GLIDE_HAVE_GPU
    if (g_gpu) {
        float *one[1] = {f256};
        gpu_stage_runs(&S256c, &S256d, one, 1, 256, g_quick ? 3 : 7, 0);
        gpu_stage_runs(&S256g, &S256gd, one, 1, 256, g_quick ? 3 : 7, 1);
        if (f512) {
            one[0] = f512;
            gpu_stage_runs(&S512c, &S512d, one, 1, 512, 5, 1);
        }
        g_d2d_bytes = g_quick ? (size_t)64 << 20 : (size_t)512 << 20;
        g_d2d = d2d_gbs(g_d2d_bytes);
    }
#endif
    section_kernels(f512 != NULL);
    t = section_end(t);
    section_stages();
    t = section_end(t);

    if (!g_kernels) {
        section_h5(f512 ? f512 : f256, nh5, tmpdir, plugin);
        t = section_end(t);
    }
    say("Total: %.0f s.\n", now() - T0);
    free(f512);
    free(f256);
    flush_all();
    if (g_out) fclose(g_out);
    return 0;
}
