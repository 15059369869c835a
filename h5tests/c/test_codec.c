/* Codec round trips: the bound is checked here independently of the codec,
 * on every finite value, with the REL range computed from the input. */
#include "check.h"
#include "glide.h"
#include <float.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

static uint64_t rng = 0x2545F4914F6CDD1Dull;
static double urand(void) { rng ^= rng << 13; rng ^= rng >> 7; rng ^= rng << 17; return (double)(rng >> 11) / 9007199254740992.0; }

typedef struct { int has_fill; double fill; } fillspec;

/* Returns the stream size, or 0 on failure (reported). */
static size_t trip(const char *what, glide_dtype dt, unsigned rank, const uint64_t *dims, const void *x,
                   glide_mode mode, double eb, int pred, int book, fillspec fs, int quiet)
{
    glide_params p;
    glide_params_init(&p, dt, rank, dims);
    p.mode = mode; p.eb = eb; p.predictor = pred; p.codebook = book;
    size_t n = 1, esz = dt == GLIDE_FLOAT32 ? 4 : 8;
    for (unsigned i = 0; i < rank; i++) n *= dims[i];
    if (fs.has_fill) {
        p.has_fill = 1;
        if (dt == GLIDE_FLOAT32) { float f = (float)fs.fill; uint32_t b; memcpy(&b, &f, 4); p.fill_bits = b; }
        else memcpy(&p.fill_bits, &fs.fill, 8);
    }
    size_t cap = glide_compress_bound(&p);
    unsigned char *buf = malloc(cap), *buf2 = malloc(cap);
    unsigned char *y = malloc(n * esz + 1);
    size_t c = glide_compress(&p, x, n * esz, buf, cap);
    CHECK(!glide_is_error(c), "%s: compress: %s", what, glide_error_name(c));
    if (glide_is_error(c)) { free(buf); free(buf2); free(y); return 0; }
    size_t c2 = glide_compress(&p, x, n * esz, buf2, cap);
    CHECK(c2 == c && memcmp(buf, buf2, c) == 0, "%s: deterministic output", what);
    CHECK(c <= n * esz + 96 + 8 * rank + 4, "%s: never beyond raw + header (%zu vs %zu)", what, c, n * esz);
    size_t d = glide_decompress(buf, c, y, n * esz);
    CHECK(d == n * esz, "%s: decompress: %s", what, glide_error_name(d));
    /* the bound, computed here from the input */
    double lo = INFINITY, hi = -INFINITY;
    for (size_t i = 0; i < n; i++) {
        double v = dt == GLIDE_FLOAT32 ? ((const float *)x)[i] : ((const double *)x)[i];
        int isfill = fs.has_fill && (dt == GLIDE_FLOAT32 ? ((const float *)x)[i] == (float)fs.fill : v == fs.fill);
        if (!isfinite(v) || isfill) continue;
        lo = fmin(lo, v); hi = fmax(hi, v);
    }
    double bound = mode == GLIDE_MODE_ABS ? eb : (hi >= lo ? eb * (hi - lo) : 0);
    double maxe = 0;
    size_t bad_nonfinite = 0, bad_fill = 0;
    for (size_t i = 0; i < n; i++) {
        double v, w;
        int same_bits;
        if (dt == GLIDE_FLOAT32) { v = ((const float *)x)[i]; w = ((float *)y)[i]; same_bits = !memcmp((const float *)x + i, (float *)y + i, 4); }
        else { v = ((const double *)x)[i]; w = ((double *)y)[i]; same_bits = !memcmp((const double *)x + i, (double *)y + i, 8); }
        if (!isfinite(v)) { bad_nonfinite += !same_bits; continue; }
        int isfill = fs.has_fill && (dt == GLIDE_FLOAT32 ? (float)v == (float)fs.fill : v == fs.fill);
        if (isfill) { bad_fill += !same_bits; continue; }
        double e = fabs(v - w);
        if (!(e <= maxe)) maxe = e; /* NaN output counts as a violation */
    }
    CHECK(maxe <= bound, "%s: max err %.17g > bound %.17g", what, maxe, bound);
    CHECK(bad_nonfinite == 0, "%s: %zu non-finite values not bit-exact", what, bad_nonfinite);
    CHECK(bad_fill == 0, "%s: %zu fill values not exact", what, bad_fill);
    if (!quiet) printf("ok %-40s CR %7.2f  max err/bound %.3f\n", what, (double)n * esz / c, bound > 0 ? maxe / bound : 0);
    free(buf); free(buf2); free(y);
    return c;
}

static void field(float *x, size_t n, int kind)
{
    for (size_t i = 0; i < n; i++) {
        double t = (double)i;
        x[i] = kind == 0 ? (float)(sin(0.013 * t) * 50 + cos(0.0007 * t) * 20 + 300)
                         : (float)(urand() * 2 - 1);
    }
}

/* The stream of x under predictor pred (REL, auto codebook), malloc'd. */
static unsigned char *stream_of(const float *x, const uint64_t *dims, double eb, glide_predictor pred, size_t *len)
{
    glide_params p;
    glide_params_init(&p, GLIDE_FLOAT32, 3, dims);
    p.mode = GLIDE_MODE_REL; p.eb = eb; p.predictor = pred; p.backend = GLIDE_BACKEND_CPU;
    size_t n = dims[0] * dims[1] * dims[2];
    unsigned char *s = malloc(glide_compress_bound(&p));
    *len = glide_compress(&p, x, n * 4, s, glide_compress_bound(&p));
    CHECK(!glide_is_error(*len), "predictor %d: compress", (int)pred);
    return s;
}

/* GLIDE_PRED_AUTO writes exactly the stream of the method it picks, and
 * picks Lorenzo where it is much better (a sum of rough functions of one
 * coordinate each, which the Lorenzo stencil cancels) and interpolation on
 * a smooth field; the stream records the choice. */
static void auto_predictor(void)
{
    uint64_t d[3] = {24, 40, 36};
    size_t n = 24 * 40 * 36;
    float *x = malloc(n * 4);
    double a[40], b[40], c[40];
    for (int i = 0; i < 40; i++) { a[i] = urand(); b[i] = urand(); c[i] = urand(); }
    for (int kind = 0; kind < 2; kind++) {
        for (size_t z = 0, i = 0; z < d[0]; z++)
            for (size_t y = 0; y < d[1]; y++)
                for (size_t xx = 0; xx < d[2]; xx++, i++)
                    x[i] = kind == 0 ? (float)(a[z] + b[y] + c[xx]) : (float)(sin(0.2 * xx) * cos(0.15 * y) + 0.01 * z);
        for (int e = 2; e <= 5; e += 3) {
            double eb = pow(10, -e);
            size_t la, ll, li;
            unsigned char *sa = stream_of(x, d, eb, GLIDE_PRED_AUTO, &la), *sl = stream_of(x, d, eb, GLIDE_PRED_LORENZO, &ll),
                          *si = stream_of(x, d, eb, GLIDE_PRED_INTERP, &li);
            /* auto must take the smaller of the two where they differ by more than 10 % */
            int lor = ll < li;
            const unsigned char *want = lor ? sl : si;
            size_t lw = lor ? ll : li;
            if ((double)(lor ? li : ll) > 1.1 * (double)lw)
                CHECK(la == lw && !memcmp(sa, want, la), "auto predictor, %s field, REL %g: the %s stream (auto %zu, Lorenzo %zu, interpolation %zu bytes)",
                      kind == 0 ? "separable rough" : "smooth", eb, lor ? "Lorenzo" : "interpolation", la, ll, li);
            else
                CHECK((la == ll && !memcmp(sa, sl, la)) || (la == li && !memcmp(sa, si, la)), "auto predictor: one of the two streams");
            if (kind == 0) CHECK(lor, "separable rough field, REL %g: Lorenzo is the smaller", eb);
            if (kind == 1 && e == 2) CHECK(!lor, "smooth field at REL 1e-2: interpolation is the smaller");
            glide_params info;
            CHECK(!glide_is_error(glide_stream_info(sa, la, &info)) &&
                      info.predictor == (la == ll && !memcmp(sa, sl, la) ? GLIDE_PRED_LORENZO : GLIDE_PRED_INTERP),
                  "auto predictor: the stream records the method");
            free(sa); free(sl); free(si);
        }
    }
    free(x);
}

int main(void)
{
    auto_predictor();
    static const double ebs[] = {1e-1, 1e-2, 1e-3, 1e-4, 1e-5, 1e-6};
    fillspec nofill = {0, 0};
    char what[128];
    size_t N = 40 * 37 * 70;
    float *xf = malloc(N * 4);
    double *xd = malloc(N * 8);
    for (size_t z = 0, i = 0; z < 40; z++)
        for (size_t y = 0; y < 37; y++)
            for (size_t xx = 0; xx < 70; xx++, i++) {
                double v = sin(0.1 * xx) * cos(0.07 * y) + 0.3 * sin(0.05 * z + 0.002 * xx * y) + 2.0;
                xf[i] = (float)v;
                xd[i] = v + 1e-9 * sin(3.0 * i);
            }
    uint64_t d3[3] = {40, 37, 70};
    for (int pred = 0; pred < 3; pred++) /* auto, Lorenzo, interpolation */
        for (int book = 0; book < 3; book++)
            for (int e = 0; e < 6; e++)
                for (int mode = 0; mode < 2; mode++) {
                    snprintf(what, sizeof what, "f32 3-D pred%d book%d %s %.0e", pred, book, mode ? "REL" : "ABS", ebs[e]);
                    trip(what, GLIDE_FLOAT32, 3, d3, xf, mode, ebs[e], pred, book, nofill, !(book == 2 && mode));
                    snprintf(what, sizeof what, "f64 3-D pred%d book%d %s %.0e", pred, book, mode ? "REL" : "ABS", ebs[e]);
                    trip(what, GLIDE_FLOAT64, 3, d3, xd, mode, ebs[e], pred, book, nofill, !(book == 2 && mode));
                }

    /* ranks 1 to 5, size-1 axes, odd sizes, tiny chunks */
    static const struct { unsigned r; uint64_t d[5]; } shapes[] = {
        {1, {1}}, {1, {7}}, {1, {4097}}, {2, {1, 7}}, {2, {33, 65}}, {3, {1, 1, 1}}, {3, {17, 1, 23}},
        {3, {5, 6, 7}}, {4, {3, 14, 15, 16}}, {4, {2, 1, 33, 1}}, {5, {2, 3, 1, 9, 10}}, {3, {91, 9, 11}},
    };
    for (size_t s = 0; s < sizeof shapes / sizeof shapes[0]; s++) {
        size_t n = 1;
        for (unsigned i = 0; i < shapes[s].r; i++) n *= shapes[s].d[i];
        float *x = malloc(n * 4);
        field(x, n, 0);
        for (int pred = 0; pred < 3; pred++)
            for (int e = 0; e < 6; e += 2) {
                snprintf(what, sizeof what, "shape #%zu (n=%zu) pred%d REL %.0e", s, n, pred, ebs[e]);
                trip(what, GLIDE_FLOAT32, shapes[s].r, shapes[s].d, x, GLIDE_MODE_REL, ebs[e], pred, GLIDE_BOOK_AUTO, nofill, 1);
            }
        free(x);
    }

    /* special values */
    size_t n = 4096;
    uint64_t d1[1] = {n}, d2[2] = {64, 64};
    float *x = malloc(n * 4);
    for (size_t i = 0; i < n; i++) x[i] = 3.25f;
    trip("constant REL 1e-3", GLIDE_FLOAT32, 2, d2, x, GLIDE_MODE_REL, 1e-3, 0, 2, nofill, 0);
    trip("constant ABS 0 (lossless)", GLIDE_FLOAT32, 2, d2, x, GLIDE_MODE_ABS, 0, 0, 2, nofill, 0);
    for (size_t i = 0; i < n; i++) x[i] = NAN;
    trip("all NaN", GLIDE_FLOAT32, 2, d2, x, GLIDE_MODE_REL, 1e-3, 0, 2, nofill, 0);
    field(x, n, 0);
    for (size_t i = 0; i < n; i += 37) x[i] = (i / 37) % 3 == 0 ? NAN : (i / 37) % 3 == 1 ? INFINITY : -INFINITY;
    trip("NaN and Inf mixed, interp", GLIDE_FLOAT32, 2, d2, x, GLIDE_MODE_REL, 1e-4, 0, 2, nofill, 0);
    trip("NaN and Inf mixed, Lorenzo", GLIDE_FLOAT32, 2, d2, x, GLIDE_MODE_REL, 1e-4, 1, 2, nofill, 0);
    field(x, n, 1);
    size_t cnoise = trip("uniform noise REL 1e-6", GLIDE_FLOAT32, 1, d1, x, GLIDE_MODE_REL, 1e-6, 0, 2, nofill, 0);
    CHECK(cnoise <= n * 4 + 96 + 8 + 4, "noise stored raw within header overhead");
    for (size_t i = 0; i < n; i++) x[i] = (float)((urand() * 2 - 1) * FLT_MAX);
    trip("values near +-FLT_MAX", GLIDE_FLOAT32, 2, d2, x, GLIDE_MODE_REL, 1e-3, 0, 2, nofill, 0);
    trip("values near +-FLT_MAX ABS 1e30", GLIDE_FLOAT32, 2, d2, x, GLIDE_MODE_ABS, 1e30, 0, 2, nofill, 0);
    for (size_t i = 0; i < n; i++) x[i] = (float)(urand() * FLT_MIN * (i % 2 ? 1 : -1)) * 1e-3f;
    trip("denormals REL 1e-2", GLIDE_FLOAT32, 2, d2, x, GLIDE_MODE_REL, 1e-2, 0, 2, nofill, 0);
    trip("denormals ABS 1e-45", GLIDE_FLOAT32, 2, d2, x, GLIDE_MODE_ABS, 1e-45, 0, 2, nofill, 0);
    double *xx = malloc(n * 8);
    for (size_t i = 0; i < n; i++) xx[i] = (urand() * 2 - 1) * DBL_MAX;
    trip("f64 near +-DBL_MAX", GLIDE_FLOAT64, 2, d2, xx, GLIDE_MODE_REL, 1e-3, 0, 2, nofill, 0);
    for (size_t i = 0; i < n; i++) xx[i] = 1e-310 * sin((double)i);
    trip("f64 denormals", GLIDE_FLOAT64, 2, d2, xx, GLIDE_MODE_REL, 1e-3, 1, 2, nofill, 0);

    /* fill values: exact, and out of the REL range (edge-chunk padding) */
    field(x, n, 0);
    for (size_t i = 0; i < n; i++)
        if ((i % 64) > 40 || i > 3000) x[i] = 0.0f;
    fillspec zero = {1, 0.0};
    trip("padding with fill 0, REL 1e-3", GLIDE_FLOAT32, 2, d2, x, GLIDE_MODE_REL, 1e-3, 0, 2, zero, 0);
    trip("padding with fill 0, Lorenzo", GLIDE_FLOAT32, 2, d2, x, GLIDE_MODE_REL, 1e-3, 1, 2, zero, 0);
    trip("padding with fill 0, dictionary", GLIDE_FLOAT32, 2, d2, x, GLIDE_MODE_REL, 1e-3, 0, 0, zero, 0);
    fillspec big = {1, 1e20};
    for (size_t i = 0; i < n; i++)
        if (((i / 64) * (i % 64)) % 7 == 0) x[i] = 1e20f;
    trip("land mask fill 1e20", GLIDE_FLOAT32, 2, d2, x, GLIDE_MODE_REL, 1e-4, 0, 2, big, 0);
    for (size_t i = 0; i < n; i++) x[i] = 0.0f;
    trip("all fill", GLIDE_FLOAT32, 2, d2, x, GLIDE_MODE_REL, 1e-3, 0, 2, zero, 0);

    /* API misuse is refused with an error, not a crash */
    {
        glide_params p;
        glide_params_init(&p, GLIDE_FLOAT32, 2, d2);
        unsigned char out[64];
        field(x, n, 0);
        CHECK(glide_get_error(glide_compress(&p, x, n * 4 - 4, out, sizeof out)) == GLIDE_ERR_SIZE, "size mismatch");
        CHECK(glide_get_error(glide_compress(&p, x, n * 4, out, sizeof out)) == GLIDE_ERR_DST_TOO_SMALL, "small dst");
        p.eb = NAN;
        CHECK(glide_get_error(glide_compress(&p, x, n * 4, out, sizeof out)) == GLIDE_ERR_PARAM, "NaN bound");
        p.eb = -1;
        CHECK(glide_get_error(glide_compress(&p, x, n * 4, out, sizeof out)) == GLIDE_ERR_PARAM, "negative bound");
        p.eb = 1e-3; p.mode = 7;
        CHECK(glide_get_error(glide_compress(&p, x, n * 4, out, sizeof out)) == GLIDE_ERR_PARAM, "bad mode");
        p.mode = 0; p.rank = 0;
        CHECK(glide_get_error(glide_compress(&p, x, n * 4, out, sizeof out)) == GLIDE_ERR_PARAM, "rank 0");
        glide_params_init(&p, GLIDE_FLOAT32, 2, d2);
        p.backend = GLIDE_BACKEND_GPU;
        unsigned char *gbuf = malloc(glide_compress_bound(&p));
        size_t r = glide_compress(&p, x, n * 4, gbuf, glide_compress_bound(&p));
        free(gbuf);
        CHECK(!glide_is_error(r) || glide_get_error(r) == GLIDE_ERR_BACKEND, "gpu backend: works or says unavailable");
        /* unaligned buffers */
        unsigned char *ubuf = malloc(n * 4 + 1), *ustream = malloc(glide_compress_bound(&p) + 1);
        memcpy(ubuf + 1, x, n * 4);
        p.backend = GLIDE_BACKEND_CPU;
        size_t c = glide_compress(&p, ubuf + 1, n * 4, ustream + 1, glide_compress_bound(&p));
        CHECK(!glide_is_error(c), "unaligned source");
        size_t d = glide_decompress(ustream + 1, c, ubuf + 1, n * 4);
        CHECK(d == n * 4, "unaligned destination");
        glide_params info;
        CHECK(glide_stream_info(ustream + 1, c, &info) == n * 4 && info.rank == 2 && info.dims[1] == 64 &&
                  info.mode == GLIDE_MODE_REL && info.eb == 1e-3,
              "stream info");
        CHECK(glide_get_error(glide_decompress(ustream + 1, c, ubuf, n * 4 - 1)) == GLIDE_ERR_DST_TOO_SMALL, "small output");
        free(ubuf); free(ustream);
    }
    free(x); free(xx); free(xf); free(xd);
    return CHECK_DONE();
}
