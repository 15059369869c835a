/* The slice method (format 6, method 3, FORMAT.md §9a): round trips
 * through the public decoder with each order forced (every finite value
 * within the bound, NaN, +-Inf and fill values exact, on 3-D and 4-D shapes
 * with odd and size-1 axes, float and double, ABS and REL); a corrupted
 * slice stream fails cleanly; the header rules of method 3; and the block
 * trial choosing slices where the slow axis repeats a rough pattern. */
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
    /* the stream names format 6 (or 8) and method 3, unless stored raw
     * (format 1, method 0) or the grid has fewer than three effective axes */
    unsigned eff = 0;
    for (unsigned i = 0; i < rank; i++) eff += dims[i] > 1;
    const int raw = s[4] == 1 && s[7] == 0;
    /* (format 8 where a plane is run-coded, any method) */
    CHECK(raw || eff < 3 ? s[4] != 6 : ((s[4] == 6 || s[4] == 8) && s[7] == 3), "rank %u eff %u: format byte %u, method %u",
          rank, eff, s[4], s[7]);
    /* a flipped payload byte: an error, no crash */
    s[len / 2] ^= 0x5A;
    CHECK(glide_is_error(glide_decompress_with(GLIDE_BACKEND_CPU, s, len, back, n * esz)), "corrupted stream decoded");
out:
    free(s);
    free(back);
    free(x);
    free(v);
}

/* Header rules 6a and 13d (SLICE), on a valid slice stream. */
static void header_rules(void)
{
    const uint64_t dims[3] = {20, 24, 28}, n = 20 * 24 * 28;
    float *x = malloc(n * 4), *y = malloc(n * 4);
    for (uint64_t i = 0; i < n; i++) x[i] = (float)(sin(0.01 * (double)i) + 0.1 * cos(0.3 * (double)(i % 28)));
    glide_params p;
    glide_params_init(&p, GLIDE_FLOAT32, 3, dims);
    p.eb = 1e-3;
    glide_encode_opts o = glide_default_encode_opts();
    o.slice = 2;
    const size_t cap = glide_compress_bound(&p);
    uint8_t *s = malloc(cap), *m = malloc(cap);
    const size_t len = glide_cpu_compress(&p, &o, x, s, cap);
    CHECK(!glide_is_error(len) && s[4] == 6 && s[7] == 3 && s[80] == 1, "a y-before-x slice stream (format %u, method %u, "
          "level_cfg[0] %u)", s[4], s[7], s[80]);
    CHECK(glide_decompress(s, len, y, n * 4) == n * 4, "it decodes");
    struct { size_t off; uint8_t val; const char *what; } bad[] = {
        {4, 5, "method 3 in format 5"}, {7, 1, "format 6 with method 1"}, {7, 2, "format 6 with method 2"},
        {80, 2, "level_cfg[0] 2"}, {81, 1, "level_cfg[1] set"}, {95, 1, "level_cfg[15] set"}, {7, 4, "method 4"},
    };
    for (size_t k = 0; k < sizeof bad / sizeof *bad; k++) {
        memcpy(m, s, len);
        m[bad[k].off] = bad[k].val;
        CHECK(glide_get_error(glide_decompress(m, len, y, n * 4)) == GLIDE_ERR_CORRUPT, "%s: CORRUPT", bad[k].what);
    }
    /* a 2-D chunk may not name the slice method */
    const uint64_t d2[2] = {60, 70};
    glide_params_init(&p, GLIDE_FLOAT32, 2, d2);
    p.eb = 1e-3;
    o.slice = 0;
    const size_t l2 = glide_cpu_compress(&p, &o, x, m, cap);
    CHECK(!glide_is_error(l2) && m[4] == 5, "a 2-D stream of format 5");
    m[4] = 6;
    m[7] = 3;
    m[80] = 0;
    CHECK(glide_get_error(glide_decompress(m, l2, y, 60 * 70 * 4)) == GLIDE_ERR_CORRUPT, "slices on a 2-D grid: CORRUPT");
    free(s), free(m), free(x), free(y);
}

/* The default encoder's block trial: slices where every slice repeats a
 * rough pattern (3-D interpolation must predict it within the slice, the
 * slice method carries it over), interpolation on a smooth field. */
static void trial_choice(void)
{
    const uint64_t dims[3] = {32, 48, 40}, n = 32 * 48 * 40;
    float *x = malloc(n * 4);
    const size_t cap = n * 4 + 4096;
    uint8_t *s = malloc(cap);
    for (int kind = 0; kind < 2; kind++) {
        for (uint64_t i = 0; i < n; i++) {
            const uint64_t z = i / (48 * 40), yx = i % (48 * 40);
            const uint64_t hsh = yx * 0x9E3779B97F4A7C15ull >> 40;
            x[i] = kind == 0 ? (float)(280 + 0.05 * (double)z + (double)(hsh % 1000) / 100.0)
                             : (float)(sin(0.1 * (double)z) * cos(0.07 * (double)(yx / 40)) + 0.5 * sin(0.05 * (double)(yx % 40)));
        }
        for (int pred = 0; pred < 2; pred++) { /* AUTO, INTERP */
            glide_params p;
            glide_params_init(&p, GLIDE_FLOAT32, 3, dims);
            p.eb = 1e-3;
            p.predictor = pred ? GLIDE_PRED_INTERP : GLIDE_PRED_AUTO;
            const size_t len = glide_compress(&p, x, n * 4, s, cap);
            CHECK(!glide_is_error(len) && s[7] == (kind == 0 ? 3 : 1), "%s field, predictor %s: method %u",
                  kind == 0 ? "a repeated rough" : "a smooth", pred ? "INTERP" : "AUTO", s[7]);
        }
    }
    free(x), free(s);
}

int main(void)
{
    header_rules();
    trial_choice();
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
