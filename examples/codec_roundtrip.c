/* The codec API without HDF5: compress a buffer under an absolute bound,
 * read the stream's description, decompress, and check the bound. Built
 * against an installed GLIDE by find_package(glide) (examples/consumer/) or
 * by pkg-config (h5tests/install.sh).
 *   codec_roundtrip     exit 0 when every value is within the bound */
#include <glide.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

int main(void)
{
    enum { NZ = 32, NY = 40, NX = 48 };
    const size_t n = (size_t)NZ * NY * NX;
    float *x = malloc(n * sizeof *x), *y = malloc(n * sizeof *y);
    if (!x || !y) return 1;
    for (size_t i = 0; i < n; i++)
        x[i] = (float)(sin(0.05 * (double)(i % NX)) * cos(0.03 * (double)(i / NX % NY)) + 0.01 * (double)(i / (NX * NY)));

    const uint64_t dims[3] = {NZ, NY, NX};
    glide_params p;
    glide_params_init(&p, GLIDE_FLOAT32, 3, dims);
    p.mode = GLIDE_MODE_ABS;
    p.eb = 1e-3;
    const size_t cap = glide_compress_bound(&p);
    void *stream = glide_is_error(cap) ? NULL : malloc(cap);
    if (!stream) return 1;
    const size_t bytes = glide_compress(&p, x, n * sizeof *x, stream, cap);
    if (glide_is_error(bytes)) {
        fprintf(stderr, "compress: %s\n", glide_error_name(bytes));
        return 1;
    }
    glide_params info;
    const size_t need = glide_stream_info(stream, bytes, &info);
    const size_t got = glide_decompress(stream, bytes, y, n * sizeof *y);
    if (glide_is_error(need) || glide_is_error(got) || got != n * sizeof *y) {
        fprintf(stderr, "decompress: %s\n", glide_error_name(glide_is_error(got) ? got : need));
        return 1;
    }
    double worst = 0;
    for (size_t i = 0; i < n; i++) worst = fmax(worst, fabs((double)x[i] - (double)y[i]));
    printf("GLIDE %d.%d.%d (%s): %zu -> %zu bytes, max error %.3g (bound %g)\n", GLIDE_VERSION_MAJOR,
           GLIDE_VERSION_MINOR, GLIDE_VERSION_PATCH, glide_backend_name(glide_backend_resolve(GLIDE_BACKEND_AUTO)),
           n * sizeof *x, bytes, worst, info.eb);
    free(x), free(y), free(stream);
    return worst <= p.eb ? 0 : 2;
}
