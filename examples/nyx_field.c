#include "nyx_field.h"
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#define NYX_MODES 48

static double urand(uint64_t *s)
{
    *s = *s * 6364136223846793005ull + 1442695040888963407ull;
    return (double)(*s >> 11) / 9007199254740992.0;
}

/* Gaussian random field with unit variance, from separable per-axis tables:
 * sin(a+b+c) expanded so each point costs a few multiplies per mode. */
static int grf(float *g, size_t n, uint64_t seed)
{
    double *tab = malloc(sizeof(double) * 6 * NYX_MODES * n);
    if (!tab) return -1;
    double amp[NYX_MODES];
    double norm = 0;
    for (int m = 0; m < NYX_MODES; m++) {
        double k[3], kk = 0;
        for (int a = 0; a < 3; a++) {
            k[a] = floor((urand(&seed) * 2 - 1) * 12.0);
            kk += k[a] * k[a];
        }
        if (kk == 0) { k[0] = 1; kk = 1; }
        amp[m] = pow(kk, -0.75); /* |k|^-1.5 amplitude: P(k) ~ k^-3 */
        norm += amp[m] * amp[m] / 2;
        for (int a = 0; a < 3; a++) {
            double ph = urand(&seed) * 2 * M_PI;
            for (size_t i = 0; i < n; i++) {
                double t = 2 * M_PI * k[a] * (double)i / (double)n + ph;
                tab[((size_t)(m * 3 + a) * 2 + 0) * n + i] = sin(t);
                tab[((size_t)(m * 3 + a) * 2 + 1) * n + i] = cos(t);
            }
        }
    }
    norm = 1.0 / sqrt(norm);
    memset(g, 0, sizeof(float) * n * n * n);
    double *row = malloc(sizeof(double) * n);
    if (!row) { free(tab); return -1; }
    for (size_t z = 0; z < n; z++)
        for (size_t y = 0; y < n; y++) {
            memset(row, 0, sizeof(double) * n);
            for (int m = 0; m < NYX_MODES; m++) {
                const double *sz = tab + ((size_t)(m * 3 + 0) * 2) * n, *cz = sz + n;
                const double *sy = tab + ((size_t)(m * 3 + 1) * 2) * n, *cy = sy + n;
                const double *sx = tab + ((size_t)(m * 3 + 2) * 2) * n, *cx = sx + n;
                /* sin(A + X) with A = z + y part */
                double sa = sz[z] * cy[y] + cz[z] * sy[y], ca = cz[z] * cy[y] - sz[z] * sy[y];
                double w = amp[m] * norm;
                for (size_t x = 0; x < n; x++) row[x] += w * (sa * cx[x] + ca * sx[x]);
            }
            for (size_t x = 0; x < n; x++) g[(z * n + y) * n + x] = (float)row[x];
        }
    free(row);
    free(tab);
    return 0;
}

int nyx_field(float *out, size_t n, nyx_kind kind, unsigned seed)
{
    size_t N = n * n * n;
    if (grf(out, n, 0x9E3779B97F4A7C15ull ^ seed) != 0) return -1;
    if (kind == NYX_VELOCITY) {
        for (size_t i = 0; i < N; i++) out[i] = (float)(1e7 * out[i]);
        return 0;
    }
    double mean = 0;
    for (size_t i = 0; i < N; i++) mean += exp(1.2 * out[i]);
    mean /= (double)N;
    if (kind == NYX_DENSITY) {
        for (size_t i = 0; i < N; i++) out[i] = (float)(exp(1.2 * out[i]) / mean);
        return 0;
    }
    float *g2 = malloc(sizeof(float) * N);
    if (!g2 || grf(g2, n, 0xD1B54A32D192ED03ull ^ seed) != 0) { free(g2); return -1; }
    for (size_t i = 0; i < N; i++)
        out[i] = (float)(1e4 * pow(exp(1.2 * out[i]) / mean, 0.6) * (1 + 0.05 * g2[i]));
    free(g2);
    return 0;
}
