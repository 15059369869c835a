#include "glide.h"
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int n_pass, n_fail;
#define CHECK(cond, ...) do { if (cond) n_pass++; else { n_fail++; printf("FAIL %s:%d: ", __FILE__, __LINE__); printf(__VA_ARGS__); printf("\n"); } } while (0)

static void smooth3(float *x, int nz, int ny, int nx)
{
    for (int z = 0; z < nz; z++) for (int y = 0; y < ny; y++) for (int i = 0; i < nx; i++)
        x[(z * ny + y) * nx + i] = (float)(sin(0.1 * i) * cos(0.07 * y) + 0.3 * sin(0.05 * z + 0.02 * i * y / 10.0) + 2.0);
}

int main(void)
{
    int nz = 40, ny = 37, nx = 70;
    size_t n = (size_t)nz * ny * nx;
    float *x = malloc(n * 4), *y = malloc(n * 4);
    smooth3(x, nz, ny, nx);
    uint64_t dims[3] = {nz, ny, nx};
    double ebs[] = {1e-1, 1e-2, 1e-3, 1e-4, 1e-5, 1e-6};
    for (int pr = 0; pr < 2; pr++)
    for (int e = 0; e < 6; e++) {
        glide_params p;
        glide_params_init(&p, GLIDE_FLOAT32, 3, dims);
        p.mode = GLIDE_MODE_ABS; p.eb = ebs[e]; p.predictor = pr;
        size_t cap = glide_compress_bound(&p);
        unsigned char *buf = malloc(cap);
        size_t c = glide_compress(&p, x, n * 4, buf, cap);
        CHECK(!glide_is_error(c), "compress: %s", glide_error_name(c));
        size_t d = glide_decompress(buf, c, y, n * 4);
        CHECK(d == n * 4, "decompress: %s", glide_error_name(d));
        double maxe = 0;
        for (size_t i = 0; i < n; i++) { double err = fabs((double)x[i] - (double)y[i]); if (err > maxe) maxe = err; }
        CHECK(maxe <= ebs[e], "bound %g max err %g", ebs[e], maxe);
        printf("pred %d eb %g: CR %.2f maxerr/eb %.3f\n", pr, ebs[e], (double)n * 4 / c, maxe / ebs[e]);
        free(buf);
    }
    printf("%d passed, %d failed\n", n_pass, n_fail);
    return n_fail != 0;
}
