/* One raw float32 chunk through the CPU codec (default options), best of N
 * compress and decompress timings; built against two libglide.a by
 * bench/ab_cpu.sh to compare revisions.
 *   [GLIDE_AB_PREDICTOR=0|1|2] ab_cpu FILE RANK D0 .. REPS [FILL_BITS_HEX] */
#define _POSIX_C_SOURCE 200809L
#include "glide.h"
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

static double now(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + (double)t.tv_nsec * 1e-9;
}

int main(int argc, char **argv)
{
    if (argc < 5) return fprintf(stderr, "usage: ab_cpu FILE RANK D0 .. REPS [FILL_BITS_HEX]\n"), 2;
    unsigned rank = (unsigned)atoi(argv[2]);
    if (rank < 1 || rank > 8 || argc < 4 + (int)rank) return 2;
    uint64_t dims[8];
    size_t n = 1;
    for (unsigned i = 0; i < rank; i++) n *= dims[i] = strtoull(argv[3 + i], NULL, 10);
    int reps = atoi(argv[3 + rank]);
    FILE *f = fopen(argv[1], "rb");
    float *x = malloc(n * 4), *y = malloc(n * 4);
    if (!f || !x || !y || fread(x, 4, n, f) != n) return fprintf(stderr, "cannot read %s\n", argv[1]), 1;
    fclose(f);
    glide_params p;
    glide_params_init(&p, GLIDE_FLOAT32, rank, dims);
    p.backend = GLIDE_BACKEND_CPU;
    if (argc > 4 + (int)rank) { p.has_fill = 1; p.fill_bits = strtoull(argv[4 + rank], NULL, 16); }
    const char *pred = getenv("GLIDE_AB_PREDICTOR"); /* 0 auto (default), 1 Lorenzo, 2 interpolation */
    if (pred && *pred) p.predictor = (glide_predictor)atoi(pred);
    size_t cap = glide_compress_bound(&p), s = 0;
    void *d = malloc(cap);
    double tc = 1e30, td = 1e30;
    for (int r = 0; r < reps; r++) {
        double t0 = now();
        s = glide_compress(&p, x, n * 4, d, cap);
        double t1 = now();
        if (glide_is_error(s) || glide_decompress_with(GLIDE_BACKEND_CPU, d, s, y, n * 4) != n * 4) return 1;
        double t2 = now();
        if (t1 - t0 < tc) tc = t1 - t0;
        if (t2 - t1 < td) td = t2 - t1;
    }
    printf("CR %.3f  best of %d: compress %.1f MB/s  decompress %.1f MB/s\n", (double)n * 4 / (double)s, reps,
           (double)n * 4 / tc / 1e6, (double)n * 4 / td / 1e6);
    free(x), free(y), free(d);
    return 0;
}
