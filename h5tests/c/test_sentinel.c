/* Missing-value sentinels (README.md, "Missing values"): a value such as
 * netCDF's 1e20 land that is not the fill value is found, kept exact and
 * left out of the REL range; the range scan agrees with a plain loop; the
 * rule does not fire on ordinary heavy tails. Every bound is checked on the
 * decoded values against a range this test computes itself. */
#include "check.h"
#include "codec.h"
#include "glide.h"
#include <float.h>
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#define NZ 20
#define NY 30
#define NX 40
#define N (NZ * NY * NX)

static uint64_t rng_state = 0x9E3779B97F4A7C15ull;
static double urand(void)
{
    rng_state ^= rng_state << 13, rng_state ^= rng_state >> 7, rng_state ^= rng_state << 17;
    return (double)(rng_state >> 11) / 9007199254740992.0;
}

static uint64_t bits64(double v, int f64)
{
    if (f64) {
        uint64_t b;
        memcpy(&b, &v, 8);
        return b;
    }
    const float f = (float)v;
    uint32_t b;
    memcpy(&b, &f, 4);
    return b;
}

/* An SST-like field: smooth values in about [271, 305], "land" where the
 * mask says, and a band of fill points (HDF5's padding) if pad. */
static void make_field(double *v, int *land, int *pad, int with_pad, int seed)
{
    rng_state = 0x9E3779B97F4A7C15ull + (uint64_t)seed;
    for (int z = 0; z < NZ; z++)
        for (int y = 0; y < NY; y++)
            for (int x = 0; x < NX; x++) {
                const int i = (z * NY + y) * NX + x;
                v[i] = 288.0 + 15.0 * sin(0.13 * x + 0.07 * y + 0.3 * seed) * cos(0.09 * y - 0.05 * z) +
                       0.01 * urand();
                land[i] = (x - 25) * (x - 25) + (y - 12) * (y - 12) < 90 || x < 4;
                pad[i] = with_pad && y >= NY - 6;
            }
}

typedef struct {
    int mode;      /* glide_mode */
    double eb;
    int sentinel;  /* glide_sentinel */
    double s;      /* the sentinel's value, in the data's type */
    int with_pad;  /* fill points (value 0) as well */
    int f64;
    int ordinary;  /* the "land" value is data the rule must leave alone */
} case_t;

/* Compresses the field through glide_compress, decodes it, and checks the
 * bound over the ocean (its own range under REL) and exactness elsewhere.
 * Returns the stream's fill bits (or ~0 without HAS_FILL). */
static uint64_t run_case(const case_t *c, const char *name, size_t *bytes)
{
    double v[N];
    int land[N], pad[N];
    make_field(v, land, pad, c->with_pad, 1);
    const size_t esz = c->f64 ? 8 : 4;
    void *x = malloc(N * esz), *y = malloc(N * esz);
    for (int i = 0; i < N; i++) {
        const double w = pad[i] ? 0.0 : land[i] ? c->s : v[i];
        if (c->f64) ((double *)x)[i] = w;
        else ((float *)x)[i] = (float)w;
    }
    const uint64_t dims[3] = {NZ, NY, NX};
    glide_params p;
    glide_params_init(&p, c->f64 ? GLIDE_FLOAT64 : GLIDE_FLOAT32, 3, dims);
    p.mode = (glide_mode)c->mode;
    p.eb = c->eb;
    p.backend = GLIDE_BACKEND_CPU;
    p.has_fill = 1;
    p.fill_bits = 0; /* HDF5's default fill value, +0 */
    p.sentinel = (glide_sentinel)c->sentinel;
    p.sentinel_bits = bits64(c->s, c->f64);
    const size_t cap = glide_compress_bound(&p);
    uint8_t *s = malloc(cap);
    const size_t n = glide_compress(&p, x, N * esz, s, cap);
    uint64_t fill = ~0ull;
    CHECK(!glide_is_error(n), "%s: compress: %s", name, glide_error_name(n));
    if (glide_is_error(n)) goto out;
    *bytes = n;
    if (glide_backend_resolve(GLIDE_BACKEND_AUTO) == GLIDE_BACKEND_GPU) {
        /* where a GPU is present, its stream is the CPU's byte for byte */
        uint8_t *s2 = malloc(cap);
        p.backend = GLIDE_BACKEND_GPU;
        const size_t n2 = glide_compress(&p, x, N * esz, s2, cap);
        CHECK(n2 == n && !memcmp(s, s2, n), "%s: the GPU's stream differs from the CPU's", name);
        free(s2);
    }
    CHECK(glide_decompress(s, n, y, N * esz) == N * esz, "%s: decompress", name);
    glide_params info;
    if (!glide_is_error(glide_stream_info(s, n, &info)) && info.has_fill) fill = info.fill_bits;

    /* the range the bound scales: the ocean's own, when the sentinel is masked */
    const int masked = c->sentinel == GLIDE_SENTINEL_VALUE || (c->sentinel == GLIDE_SENTINEL_AUTO && !c->ordinary);
    double lo = INFINITY, hi = -INFINITY;
    for (int i = 0; i < N; i++) {
        const double a = c->f64 ? ((double *)x)[i] : ((float *)x)[i];
        if (pad[i] || (masked && land[i])) continue;
        lo = fmin(lo, a), hi = fmax(hi, a);
    }
    const double eb = c->mode == GLIDE_MODE_REL ? c->eb * (hi - lo) : c->eb;
    double worst = 0;
    int inexact = 0;
    for (int i = 0; i < N; i++) {
        const double a = c->f64 ? ((double *)x)[i] : ((float *)x)[i];
        const double b = c->f64 ? ((double *)y)[i] : ((float *)y)[i];
        if (pad[i] || (masked && land[i])) inexact += bits64(a, c->f64) != bits64(b, c->f64);
        else worst = fmax(worst, fabs(a - b) / eb);
    }
    CHECK(worst <= 1.0, "%s: max err / eb = %g", name, worst);
    CHECK(inexact == 0, "%s: %d fill or sentinel points not exact", name, inexact);
out:
    free(x), free(y), free(s);
    return fill;
}

static void sentinels_found(void)
{
    /* the sentinels, float32 and float64, with and without fill points */
    const double ss[] = {1e20, -1e34, -1e10, -9999.0, 9.96921e36, -FLT_MAX};
    for (int f64 = 0; f64 < 2; f64++)
        for (unsigned k = 0; k < sizeof ss / sizeof ss[0]; k++)
            for (int pad = 0; pad < 2; pad++) {
                char name[96];
                snprintf(name, sizeof name, "auto %s %g%s", f64 ? "f64" : "f32", ss[k], pad ? " + fill" : "");
                case_t c = {GLIDE_MODE_REL, 1e-3, GLIDE_SENTINEL_AUTO, ss[k], pad, f64, 0};
                size_t bytes = 0;
                const uint64_t fill = run_case(&c, name, &bytes);
                /* without fill points the sentinel is the stream's fill value */
                if (!pad) CHECK(fill == bits64(ss[k], f64), "%s: stream fill %llx", name, (unsigned long long)fill);
                else CHECK(fill == 0, "%s: the fill value stays the stream's", name);
            }
    /* ABS keeps it exact too */
    case_t a = {GLIDE_MODE_ABS, 0.05, GLIDE_SENTINEL_AUTO, 1e20, 0, 0, 0};
    size_t b = 0;
    CHECK(run_case(&a, "abs 0.05 1e20", &b) == bits64(1e20, 0), "abs: 1e20 is the stream's fill");
}

static void user_settings(void)
{
    size_t auto_bytes = 0, user_bytes = 0, off_bytes = 0;
    /* 200 with data in about [273, 303] is too close for the rule (gap 73 < 4 x 30) */
    case_t c = {GLIDE_MODE_REL, 1e-3, GLIDE_SENTINEL_OFF, 200.0, 0, 0, 1};
    CHECK(run_case(&c, "200 as data", &off_bytes) == 0, "off");
    c.sentinel = GLIDE_SENTINEL_AUTO;
    CHECK(run_case(&c, "auto 200 not found", &auto_bytes) == 0, "200 must not be taken for a sentinel");
    CHECK(auto_bytes == off_bytes, "auto changed a stream without a sentinel (%zu, %zu bytes)", auto_bytes, off_bytes);
    /* ... but the user can name it */
    c.sentinel = GLIDE_SENTINEL_VALUE;
    c.ordinary = 0;
    CHECK(run_case(&c, "user 200", &user_bytes) == bits64(200.0, 0), "user 200 is the stream's fill");
    c.with_pad = 1;
    CHECK(run_case(&c, "user 200 + fill", &user_bytes) == 0, "user 200 beside fill points");
    /* off: 1e20 stays an ordinary value; the bound over the whole range holds */
    case_t o = {GLIDE_MODE_REL, 1e-3, GLIDE_SENTINEL_OFF, 1e20, 0, 0, 1};
    CHECK(run_case(&o, "off 1e20", &off_bytes) == 0, "off: the stream's fill is the user's");
}

/* The rule's edge (the range of the others is 1): two points at gap ratio
 * 3.9 stay ordinary, at 4.1 they are a sentinel; a lone point needs 64. */
static void rule_edge(void)
{
    float x[1000];
    const uint64_t dims[1] = {1000};
    glide_params p;
    glide_params_init(&p, GLIDE_FLOAT32, 1, dims);
    const double ratio[4] = {3.9, 4.1, 63.0, 65.0};
    for (int k = 0; k < 4; k++) {
        const int lone = k >= 2, found = k % 2;
        for (int side = 0; side < 2; side++) {
            for (int i = 0; i < 1000; i++) x[i] = (float)(i % 100) / 99.0f;
            const float s = side ? (float)(1.0 + ratio[k]) : -(float)ratio[k];
            x[500] = s;
            if (!lone) x[900] = s;
            glide_values v;
            glide_values_scan_f32(&p, x, 1000, &v);
            CHECK(found ? v.has_fill && v.fill_bits == bits64(s, 0) : !v.has_fill, "ratio %g side %d: found %d",
                  ratio[k], side, v.has_fill);
            const double want_lo = side || found ? 0.0 : s, want_hi = !side || found ? 1.0 : s;
            CHECK(v.lo == want_lo && v.hi == want_hi, "ratio %g side %d: range %g %g", ratio[k], side, v.lo, v.hi);
        }
    }
    /* zero is never a sentinel */
    for (int i = 0; i < 1000; i++) x[i] = 100.0f + (float)(i % 7);
    x[3] = 0.0f;
    x[4] = 0.0f;
    glide_values v;
    glide_values_scan_f32(&p, x, 1000, &v);
    CHECK(!v.has_fill && v.lo == 0.0, "zero taken for a sentinel");
}

/* Heavy-tailed ordinary data (log-normal, as cosmology densities) keeps its
 * full range: the rule does not fire. */
static void no_misfire(void)
{
    static float x[64 * 64 * 64];
    int fired = 0;
    for (int t = 0; t < 8; t++) {
        for (int i = 0; i < 64 * 64 * 64; i++) {
            const double g = sqrt(-2.0 * log(urand() + 1e-300)) * cos(6.283185307179586 * urand());
            x[i] = (float)exp(1.5 * g);
        }
        const uint64_t dims[3] = {64, 64, 64};
        glide_params p;
        glide_params_init(&p, GLIDE_FLOAT32, 3, dims);
        p.has_fill = 1;
        glide_values v;
        glide_values_scan_f32(&p, x, 64 * 64 * 64, &v);
        if (v.fill_bits != 0 || v.has_fill2) {
            fired++;
            float f;
            uint32_t b = (uint32_t)(v.has_fill2 ? v.fill2_bits : v.fill_bits);
            memcpy(&f, &b, 4);
            printf("fired on %g (range %g %g)\n", f, v.lo, v.hi);
        }
    }
    CHECK(fired == 0, "the rule fired on %d of 8 log-normal chunks", fired);
}

/* The vector range scan against a plain loop: the first value of equal
 * extremes (0 and -0), fill and non-finite points left out. */
static void range_matches_loop(void)
{
    static float x[3001];
    const float pool[] = {0.0f, -0.0f, 1.5f, -2.25f, NAN, INFINITY, -INFINITY, 7.0f, 1e-40f, -3e38f};
    int mismatches = 0;
    for (int t = 0; t < 400; t++) {
        const int n = 1 + (int)(urand() * 3000);
        for (int i = 0; i < n; i++) x[i] = pool[(int)(urand() * 10)];
        if (t % 3 == 0)
            for (int i = 0; i < n; i++) x[i] = x[i] == 7.0f ? 0.0f : x[i];
        const uint64_t dims[1] = {(uint64_t)n};
        glide_shape sh;
        glide_shape_from_dims(1, dims, GLIDE_FORMAT_VERSION, &sh);
        glide_grid g;
        const float fill = pool[t % 10];
        uint32_t fb;
        memcpy(&fb, &fill, 4);
        glide_grid_init(&g, &sh, 4, t % 2, fb);
        double lo, hi;
        int any, fills;
        glide_value_range_f32(&g, x, &lo, &hi, &any, &fills);
        float mn = 0, mx = 0;
        int seen = 0, fl = 0;
        for (int i = 0; i < n; i++) {
            uint32_t b;
            memcpy(&b, &x[i], 4);
            if (g.has_fill && b == fb) { fl = 1; continue; }
            if (!isfinite(x[i])) continue;
            if (!seen) { mn = mx = x[i]; seen = 1; continue; }
            if (x[i] < mn) mn = x[i];
            if (x[i] > mx) mx = x[i];
        }
        const double l = mn, h = mx;
        mismatches += any != seen || fills != fl || memcmp(&lo, &l, 8) || memcmp(&hi, &h, 8);
    }
    CHECK(mismatches == 0, "%d of 400 ranges differ from the plain loop", mismatches);
}

int main(void)
{
    sentinels_found();
    user_settings();
    rule_edge();
    no_misfire();
    range_matches_loop();
    return CHECK_DONE();
}
