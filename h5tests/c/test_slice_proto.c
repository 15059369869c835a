/* PROTOTYPE (branch proto-slice): the slice method (format 6, method 3)
 * round trip through the public decoder: every finite value within the
 * bound, NaN, +-Inf and fill values exact, on 3-D and 4-D shapes with odd
 * and size-1 axes, float and double, both 2-D orders, ABS and REL; and a
 * corrupted slice stream fails cleanly. */
#include "glide.h"
#include "codec.h"
#include "check.h"
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

static uint64_t rng = 0x9E3779B97F4A7C15ull;
static double urand(void) { rng ^= rng << 13; rng ^= rng >> 7; rng ^= rng << 17; return (double)(rng >> 11) / 9007199254740992.0; }

static void trip(glide_dtype dt, unsigned rank, const uint64_t *dims, int order, int mode, double eb, int specials)
{
    glide_params p;
    glide_params_init(&p, dt, rank, dims);
    p.mode = mode;
    p.eb = eb;
    p.codebook = GLIDE_BOOK_AUTO;
    uint64_t n = 1;
    for (unsigned i = 0; i < rank; i++) n *= dims[i];
    const size_t esz = dt == GLIDE_FLOAT64 ? 8 : 4;
    double *v = malloc(n * sizeof *v);
    for (uint64_t i = 0; i < n; i++) {
        const double t = (double)i;
        v[i] = 100 * sin(t * 0.013) + 30 * cos(t * 0.17) + 5 * urand();
    }
    const double fillv = -999.0;
    if (specials) {
        p.has_fill = 1;
        if (dt == GLIDE_FLOAT64) { double f = fillv; memcpy(&p.fill_bits, &f, 8); }
        else { float f = (float)fillv; uint32_t b; memcpy(&b, &f, 4); p.fill_bits = b; }
        for (uint64_t i = 0; i < n; i += 37) v[i] = fillv;
        if (n > 10) { v[3] = NAN; v[5] = INFINITY; v[7] = -INFINITY; v[9] = 1e30; }
    }
    void *x = malloc(n * esz), *back = malloc(n * esz);
    for (uint64_t i = 0; i < n; i++) {
        if (dt == GLIDE_FLOAT64) ((double *)x)[i] = v[i];
        else ((float *)x)[i] = (float)v[i];
    }
    glide_encode_opts o = glide_default_encode_opts();
    o.slice = order;
    const size_t cap = glide_compress_bound(&p);
    unsigned char *s = malloc(cap);
    const size_t len = glide_cpu_compress(&p, &o, x, s, cap);
    CHECK(!glide_is_error(len), "compress rank %u dims0 %llu: %s", rank, (unsigned long long)dims[0], glide_error_name(len));
    if (glide_is_error(len)) goto out;
    const size_t d = glide_decompress_with(GLIDE_BACKEND_CPU, s, len, back, n * esz);
    CHECK(d == n * esz, "decompress: %s", glide_error_name(d));
    /* the bound the stream applied (REL: of the range of the finite, non-fill values) */
    double lo = INFINITY, hi = -INFINITY;
    for (uint64_t i = 0; i < n; i++) {
        const double a = dt == GLIDE_FLOAT64 ? ((double *)x)[i] : ((float *)x)[i];
        if (isfinite(a) && !(specials && a == (dt == GLIDE_FLOAT64 ? fillv : (double)(float)fillv))) {
            lo = fmin(lo, a);
            hi = fmax(hi, a);
        }
    }
    const double ebabs = mode == GLIDE_MODE_REL ? eb * (hi - lo) : eb;
    uint64_t bad = 0;
    for (uint64_t i = 0; i < n; i++) {
        const double a = dt == GLIDE_FLOAT64 ? ((double *)x)[i] : ((float *)x)[i];
        const double b = dt == GLIDE_FLOAT64 ? ((double *)back)[i] : ((float *)back)[i];
        if (isnan(a)) bad += !isnan(b);
        else if (!isfinite(a) || (specials && a == (dt == GLIDE_FLOAT64 ? fillv : (double)(float)fillv))) bad += a != b;
        else bad += !(fabs(a - b) <= ebabs);
    }
    CHECK(bad == 0, "rank %u order %d mode %d eb %g specials %d: %llu values off", rank, order, mode, eb, specials,
          (unsigned long long)bad);
    /* the stream names the prototype's format and method, unless stored raw
     * (format 1, method 0) or the grid has fewer than three effective axes */
    unsigned eff = 0;
    for (unsigned i = 0; i < rank; i++) eff += dims[i] > 1;
    const int raw = s[4] == 1 && s[7] == 0;
    CHECK(raw || eff < 3 ? s[4] != 6 : (s[4] == 6 && s[7] == 3), "rank %u eff %u: format byte %u, method %u", rank, eff,
          s[4], s[7]);
    /* a flipped payload byte: an error, no crash */
    s[len / 2] ^= 0x5A;
    CHECK(glide_is_error(glide_decompress_with(GLIDE_BACKEND_CPU, s, len, back, n * esz)), "corrupted stream decoded");
out:
    free(s);
    free(back);
    free(x);
    free(v);
}

int main(void)
{
    static const uint64_t shapes[][4] = {{3, 17, 19, 0}, {33, 20, 47, 0}, {16, 16, 16, 0}, {40, 40, 40, 0},
                                         {2, 1, 30, 31}, {3, 5, 17, 19}, {17, 33, 1, 0}};
    static const unsigned ranks[] = {3, 3, 3, 3, 4, 4, 3};
    for (size_t k = 0; k < sizeof ranks / sizeof *ranks; k++)
        for (int order = 1; order <= 2; order++)
            for (int dt = 0; dt < 2; dt++)
                for (int specials = 0; specials < 2; specials++) {
                    trip(dt ? GLIDE_FLOAT64 : GLIDE_FLOAT32, ranks[k], shapes[k], order, GLIDE_MODE_REL, 1e-3, specials);
                    trip(dt ? GLIDE_FLOAT64 : GLIDE_FLOAT32, ranks[k], shapes[k], order, GLIDE_MODE_ABS, 0.5, specials);
                    trip(dt ? GLIDE_FLOAT64 : GLIDE_FLOAT32, ranks[k], shapes[k], order, GLIDE_MODE_REL, 1e-6, specials);
                }
    return CHECK_DONE();
}
