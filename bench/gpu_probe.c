/* gpu_probe: per-call latency of one cube size through the codec API with
 * the GPU backend, small enough to run under ncu (kernel durations) and to
 * compare pipeline variants quickly; glide_gpu_bench is the full report.
 *   gpu_probe [SIDE [RUNS [fresh] [check] [host]]]     (defaults 64 and 200)
 * Prints median compress / decompress µs (pageable buffers, as the filter)
 * and with `fresh` also each call as HDF5 makes it: the chunk copied into a
 * newly allocated buffer just before compressing it, and the output into
 * one just before decompressing into it (its lines dirty in the caller's
 * cache, where a buffer reused call after call is only read or written)
 * and, for the transfer question, the host memcpy into pinned memory and the
 * pinned and pageable host->device copy times of the same bytes. With
 * `check`, every timed stream is compared with the CPU codec's stream and
 * one GPU reconstruction with the CPU's (exit 3 if any differ). With
 * `host`, the host plans every chunk's entropy stage (glide_gpu_planner),
 * as after a chunk whose stream had a custom book: the tail then waits
 * behind the plan's gate. */
#include "glide.h"
#include "gpu_backend.h"
#include "gpu_cube.h"
#include "bench_time.h"
#include <cuda_runtime.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

/* Pipelined staging through a pinned ring: the host copies piece k into a
 * slot while the DMA engine moves piece k-1; a slot is reused once its
 * copy's event has passed. H2D: src -> ring -> dev; D2H: dev -> ring -> dst. */
static void staged(int h2d, void *dev, void *host, size_t bytes, uint8_t *ring, size_t piece, int slots,
                   cudaStream_t s, cudaEvent_t *ev)
{
    int k = 0;
    if (h2d) {
        for (size_t off = 0; off < bytes; off += piece, k = (k + 1) % slots) {
            size_t m = bytes - off < piece ? bytes - off : piece;
            cudaEventSynchronize(ev[k]);
            memcpy(ring + (size_t)k * piece, (uint8_t *)host + off, m);
            cudaMemcpyAsync((uint8_t *)dev + off, ring + (size_t)k * piece, m, cudaMemcpyHostToDevice, s);
            cudaEventRecord(ev[k], s);
        }
        cudaStreamSynchronize(s);
        return;
    }
    size_t npieces = (bytes + piece - 1) / piece, issued = 0;
    for (size_t i = 0; i < npieces; i++) {
        for (; issued < npieces && issued < i + (size_t)slots; issued++) {
            size_t off = issued * piece, m = bytes - off < piece ? bytes - off : piece;
            int sl = (int)(issued % (size_t)slots);
            cudaMemcpyAsync(ring + (size_t)sl * piece, (uint8_t *)dev + off, m, cudaMemcpyDeviceToHost, s);
            cudaEventRecord(ev[sl], s);
        }
        size_t off = i * piece, m = bytes - off < piece ? bytes - off : piece;
        int sl = (int)(i % (size_t)slots);
        cudaEventSynchronize(ev[sl]);
        memcpy((uint8_t *)host + off, ring + (size_t)sl * piece, m);
    }
}

static void staging_table(void *src, void *dst, void *dev, size_t bytes, int runs)
{
    static const size_t pieces[] = {64 << 10, 128 << 10, 256 << 10, 512 << 10, 1 << 20, 4 << 20};
    static const int slots_of[] = {2, 4};
    cudaStream_t s;
    cudaEvent_t ev[4];
    uint8_t *ring;
    if (cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking) != cudaSuccess ||
        cudaMallocHost((void **)&ring, 4 * (4 << 20)) != cudaSuccess)
        return;
    for (int i = 0; i < 4; i++) cudaEventCreateWithFlags(&ev[i], cudaEventDisableTiming);
    double *t = malloc(runs * sizeof *t);
    for (int dir = 1; dir >= 0; dir--)
        for (size_t pi = 0; pi < sizeof pieces / sizeof *pieces; pi++)
            for (size_t si = 0; si < 2; si++) {
                if (pieces[pi] > bytes && pi) continue;
                for (int i = -3; i < runs; i++) {
                    double t0 = now();
                    staged(dir, dev, dir ? src : dst, bytes, ring, pieces[pi], slots_of[si], s, ev);
                    if (i >= 0) t[i] = (now() - t0) * 1e6;
                }
                if (!dir && memcmp(src, dst, bytes)) printf("staged D2H: WRONG BYTES\n");
                printf("staged %s piece %zu KiB x %d slots: %.1f us\n", dir ? "H2D" : "D2H", pieces[pi] >> 10,
                       slots_of[si], median(t, runs));
            }
    free(t);
}

int main(int argc, char **argv)
{
    size_t s = argc > 1 ? (size_t)atol(argv[1]) : 64;
    int runs = argc > 2 ? atoi(argv[2]) : 200;
    if (s < 2 || runs < 1) return 2;
    size_t n = s * s * s, bytes = n * sizeof(float);
    glide_params p;
    float *x = gpu_cube(s, &p), *back = malloc(bytes);
    if (!x || !back) return 1;
    size_t cap = glide_compress_bound(&p), sz = 0;
    uint8_t *dst = malloc(cap);
    double *tc = malloc(runs * sizeof *tc), *td = malloc(runs * sizeof *td);
    if (!dst || !tc || !td) return 1;
    /* `check`: every timed stream compared with the CPU codec's, and one
     * decompression with the CPU's reconstruction (the transfers' bytes) */
    int check = 0, fresh = 0, host = 0;
    for (int a = 3; a < argc; a++)
        check |= !strcmp(argv[a], "check"), fresh |= !strcmp(argv[a], "fresh"), host |= !strcmp(argv[a], "host");
    if (host) glide_gpu_planner(GLIDE_GPU_PLANNER_HOST);
    uint8_t *ref = NULL;
    size_t ref_sz = 0;
    long differ = 0, checked = 0;
    if (check) {
        glide_params pc = p;
        pc.backend = GLIDE_BACKEND_CPU;
        if (!(ref = malloc(cap))) return 1;
        ref_sz = glide_compress(&pc, x, bytes, ref, cap);
        if (glide_is_error(ref_sz)) return fprintf(stderr, "CPU compress: %s\n", glide_error_name(ref_sz)), 1;
    }
#define CHECK_STREAM(len)                                                                                   \
    do {                                                                                                    \
        if (check) checked++, differ += (len) != ref_sz || memcmp(dst, ref, ref_sz) != 0;                   \
    } while (0)
    int gated = 0; /* timed calls whose tail waited behind the host plan's gate */
    for (int i = -3; i < runs; i++) {
        double t0 = now();
        sz = glide_compress(&p, x, bytes, dst, cap);
        if (i >= 0) tc[i] = (now() - t0) * 1e6, gated += glide_gpu_last_plan_gated();
        if (glide_is_error(sz)) return fprintf(stderr, "compress: %s\n", glide_error_name(sz)), 1;
        CHECK_STREAM(sz);
    }
    for (int i = -3; i < runs; i++) {
        double t0 = now();
        size_t r = glide_decompress_with(GLIDE_BACKEND_GPU, dst, sz, back, bytes);
        if (i >= 0) td[i] = (now() - t0) * 1e6;
        if (glide_is_error(r)) return fprintf(stderr, "decompress: %s\n", glide_error_name(r)), 1;
    }
    printf("side %zu, %d runs: compress %.1f us, decompress %.1f us, CR %.2f\n", s, runs, median(tc, runs),
           median(td, runs), (double)bytes / sz);
    if (host) printf("host plans: %d of %d timed compress calls behind the plan's gate\n", gated, runs);
    if (check) {
        float *cb = malloc(bytes);
        if (!cb) return 1;
        size_t r = glide_decompress_with(GLIDE_BACKEND_CPU, ref, ref_sz, cb, bytes);
        checked++, differ += glide_is_error(r) || memcmp(cb, back, bytes) != 0;
        free(cb);
    }
    if (fresh) {
        for (int i = -3; i < runs; i++) {
            float *c = malloc(bytes);
            if (!c) return 1;
            memcpy(c, x, bytes);
            double t0 = now();
            size_t r = glide_compress(&p, c, bytes, dst, cap);
            if (i >= 0) tc[i] = (now() - t0) * 1e6;
            free(c);
            if (glide_is_error(r)) return fprintf(stderr, "compress: %s\n", glide_error_name(r)), 1;
            CHECK_STREAM(r);
        }
        for (int i = -3; i < runs; i++) {
            float *o = malloc(bytes);
            if (!o) return 1;
            memset(o, 0, bytes);
            double t0 = now();
            size_t r = glide_decompress_with(GLIDE_BACKEND_GPU, dst, sz, o, bytes);
            if (i >= 0) td[i] = (now() - t0) * 1e6;
            free(o);
            if (glide_is_error(r)) return fprintf(stderr, "decompress: %s\n", glide_error_name(r)), 1;
        }
        printf("side %zu, %d runs, fresh buffers: compress %.1f us, decompress %.1f us\n", s, runs,
               median(tc, runs), median(td, runs));
    }
    if (check) {
        printf("check: %ld of %ld GPU streams and reconstructions differ from the CPU codec's\n", differ, checked);
        if (differ) return 3;
    }

    void *pin, *dev;
    if (cudaMallocHost(&pin, bytes) != cudaSuccess || cudaMalloc(&dev, bytes) != cudaSuccess) return 1;
    double *tm = malloc(runs * sizeof *tm), *tp = malloc(runs * sizeof *tp), *tg = malloc(runs * sizeof *tg);
    for (int i = -3; i < runs; i++) {
        double t0 = now();
        memcpy(pin, x, bytes);
        double t1 = now();
        cudaMemcpy(dev, pin, bytes, cudaMemcpyHostToDevice);
        double t2 = now();
        cudaMemcpy(dev, x, bytes, cudaMemcpyHostToDevice);
        double t3 = now();
        if (i >= 0) tm[i] = (t1 - t0) * 1e6, tp[i] = (t2 - t1) * 1e6, tg[i] = (t3 - t2) * 1e6;
    }
    printf("host memcpy to pinned %.1f us, pinned H2D %.1f us, pageable H2D %.1f us\n", median(tm, runs),
           median(tp, runs), median(tg, runs));
    for (int i = -3; i < runs; i++) {
        double t0 = now();
        cudaMemcpy(back, dev, bytes, cudaMemcpyDeviceToHost);
        if (i >= 0) tg[i] = (now() - t0) * 1e6;
    }
    printf("pageable D2H %.1f us\n", median(tg, runs));
    staging_table(x, back, dev, bytes, runs);
    return 0;
}
