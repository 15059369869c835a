/* Header validation and hostile streams: every mutation must give an error
 * or a successful decode, never a crash (run it under ASan/UBSan too). */
#include "check.h"
#include "bytes.h"
#include "format.h"
#include "codec.h"
#include "predict.h"
#include <math.h>
#include <stdlib.h>
#include <string.h>

static uint64_t rng = 0x9E3779B97F4A7C15ull;
static uint32_t rnd(void) { rng ^= rng << 13; rng ^= rng >> 7; rng ^= rng << 17; return (uint32_t)rng; }

static void reseal(uint8_t *s, size_t n)
{
    if (n >= 4) put_u32(s + n - 4, glide_crc32(s, n - 4));
}

static size_t make(uint8_t *buf, size_t cap, int pred, int book, unsigned rank, const uint64_t *dims, const float *x, size_t n, double eb)
{
    glide_params p;
    glide_params_init(&p, GLIDE_FLOAT32, rank, dims);
    p.predictor = pred; p.codebook = book; p.mode = GLIDE_MODE_REL; p.eb = eb;
    return glide_compress(&p, x, n * 4, buf, cap);
}

/* The version a stream must name: 4 where a level is blended, else base. */
static unsigned fmt_or_blend(const uint8_t *s, unsigned eff_rank, unsigned base)
{
    if (s[GLIDE_HDR_METHOD] != GLIDE_METHOD_INTERP) return base;
    return glide_levels_blended(eff_rank, s[GLIDE_HDR_BLOCK_LOG2], s + GLIDE_HDR_LEVEL_CFG) ? GLIDE_FORMAT_BLEND : base;
}

/* The encoder of formats 1-4 (GLIDE 1.4's streams): every option default
 * but the symbol planes of format 5. The version tests below are about it. */
static size_t compress14(const glide_params *p, const void *x, uint8_t *s, size_t cap)
{
    glide_encode_opts o = glide_default_encode_opts();
    o.planes = 0;
    return glide_cpu_compress(p, &o, x, s, cap);
}

/* Dictionary versions (docs/FORMAT.md §10): a stream names v1 unless its
 * book is one of v2's mixed books, decoders accept a v1 book named as v2's,
 * and a book id beyond the named dictionary is corrupt. */
static void dict_versions(void)
{
    uint64_t dims[3] = {24, 30, 36};
    size_t n = 24 * 30 * 36, cap = n * 4 + 512;
    float *x = malloc(n * 4), *y = malloc(n * 4), *z = malloc(n * 4);
    uint8_t *s = malloc(cap);
    glide_params p;
    glide_params_init(&p, GLIDE_FLOAT32, 3, dims);
    p.mode = GLIDE_MODE_REL;
    p.eb = 1e-3;
    p.codebook = GLIDE_BOOK_DICT;
    p.backend = GLIDE_BACKEND_CPU;
    /* a smooth field, a third of it land (fill value 0): a fill book */
    for (size_t i = 0; i < n; i++) x[i] = i % 3 == 0 ? 0.0f : (float)(280 + 10 * sin(0.002 * (double)i));
    p.has_fill = 1;
    p.fill_bits = 0;
    size_t len = glide_compress(&p, x, n * 4, s, cap);
    unsigned book = len > 12 ? get_u16(s + 10) : 0;
    CHECK(!glide_is_error(len) && s[5] == 2 && s[9] == GLIDE_BOOKKIND_DICT && book >= 96 && book < 288,
          "a third fill values: a v2 fill book (version %u, book %u)", s[5], book);
    CHECK(glide_decompress(s, len, y, n * 4) == n * 4, "the fill-book stream decodes");
    double e = 0, lo = INFINITY, hi = -INFINITY;
    int fills_exact = 1;
    for (size_t i = 0; i < n; i++) {
        if (i % 3 == 0) { fills_exact &= y[i] == 0.0f; continue; }
        e = fmax(e, fabs((double)x[i] - (double)y[i]));
        lo = fmin(lo, x[i]), hi = fmax(hi, x[i]);
    }
    CHECK(fills_exact && e <= 1e-3 * (hi - lo), "fill values exact, the rest within the bound (%.3g <= %.3g)", e,
          1e-3 * (hi - lo));
    /* steps: most points predicted exactly, a zero-code book */
    p.has_fill = 0;
    for (size_t i = 0; i < n; i++) x[i] = (float)floor(4 * sin(0.0005 * (double)i));
    len = glide_compress(&p, x, n * 4, s, cap);
    book = len > 12 ? get_u16(s + 10) : 0;
    CHECK(!glide_is_error(len) && s[5] == 2 && s[9] == GLIDE_BOOKKIND_DICT && book >= 288 && book < 432,
          "a stepped field: a v2 zero-code book (version %u, book %u)", s[5], book);
    CHECK(glide_decompress(s, len, y, n * 4) == n * 4, "the zero-code-book stream decodes");
    s[10] = 432 & 0xFF, s[11] = 432 >> 8;
    reseal(s, len);
    CHECK(glide_get_error(glide_decompress(s, len, y, n * 4)) == GLIDE_ERR_CORRUPT, "book 432 of v2 is corrupt");
    s[10] = 96, s[11] = 0, s[5] = 1;
    reseal(s, len);
    CHECK(glide_get_error(glide_decompress(s, len, y, n * 4)) == GLIDE_ERR_CORRUPT, "book 96 of v1 is corrupt");
    /* a smooth field: a v1 book, named v1; renamed v2 it decodes the same */
    for (size_t i = 0; i < n; i++) x[i] = (float)(sin(0.01 * (double)i) + 0.3 * cos(0.0007 * (double)i));
    glide_encode_opts o5 = glide_default_encode_opts();
    o5.slice = 0; /* format 5's methods: the book this field's interpolation gets */
    len = glide_cpu_compress(&p, &o5, x, s, cap);
    book = len > 12 ? get_u16(s + 10) : 0;
    CHECK(!glide_is_error(len) && s[5] == 1 && s[9] == GLIDE_BOOKKIND_DICT && book < 96,
          "a smooth field: a v1 book, named v1 (version %u, book %u)", s[5], book);
    CHECK(glide_decompress(s, len, y, n * 4) == n * 4, "v1-named stream decodes");
    s[5] = 2;
    reseal(s, len);
    CHECK(glide_decompress(s, len, z, n * 4) == n * 4 && !memcmp(y, z, n * 4),
          "the same book named as v2's decodes to the same values");
    free(x), free(y), free(z), free(s);
}

/* Format 2: a chunk with more than three axes keeps its 3-D slabs apart, so
 * a field that jumps between time steps does not pay for the seams; every
 * other stream stays format 1, readable by GLIDE 1.0 and 1.1. */
static void format_versions(void)
{
    enum { T = 4, Z = 13, Y = 20, X = 24 };
    const size_t n = (size_t)T * Z * Y * X;
    float *x = malloc(n * 4), *y = malloc(n * 4);
    for (size_t t = 0, i = 0; t < T; t++)
        for (size_t z = 0; z < Z; z++)
            for (size_t yy = 0; yy < Y; yy++)
                for (size_t xx = 0; xx < X; xx++, i++) /* a profile in z that each time step shifts */
                    x[i] = (float)(280.0 + 3.0 * t + 40.0 * exp(-0.2 * z) + sin(0.3 * xx + 0.2 * yy + t));
    uint64_t d4[4] = {T, Z, Y, X}, d3[3] = {T * Z, Y, X};
    glide_params p;
    size_t cap = n * 4 + 4096;
    uint8_t *s4 = malloc(cap), *s3 = malloc(cap);
    for (int pred = 0; pred < 3; pred++) {
        glide_params_init(&p, GLIDE_FLOAT32, 4, d4);
        p.predictor = (glide_predictor)pred;
        p.eb = 1e-3;
        size_t l4 = compress14(&p, x, s4, cap);
        glide_params_init(&p, GLIDE_FLOAT32, 3, d3); /* the same values as one merged grid: format 1's view of them */
        p.predictor = (glide_predictor)pred;
        p.eb = 1e-3;
        size_t l3 = compress14(&p, x, s3, cap);
        CHECK(!glide_is_error(l4) && !glide_is_error(l3), "pred %d: both compress", pred);
        if (glide_is_error(l4) || glide_is_error(l3)) continue;
        CHECK(s4[GLIDE_HDR_FORMAT_VERSION] == fmt_or_blend(s4, 3, 2), "pred %d: 4-D chunk names format 2 (4 if blended)", pred);
        CHECK(s3[GLIDE_HDR_FORMAT_VERSION] == fmt_or_blend(s3, 3, 1), "pred %d: 3-D chunk names format 1 (4 if blended)", pred);
        CHECK(l4 < l3, "pred %d: slabs apart beat the merged grid on a seamed field (%zu vs %zu bytes)", pred, l4, l3);
        CHECK(glide_decompress(s4, l4, y, n * 4) == n * 4, "pred %d: format 2 decodes", pred);
        double lo = INFINITY, hi = -INFINITY, maxe = 0;
        for (size_t i = 0; i < n; i++) { lo = fmin(lo, x[i]); hi = fmax(hi, x[i]); }
        for (size_t i = 0; i < n; i++) { double e = fabs((double)x[i] - (double)y[i]); if (!(e <= maxe)) maxe = e; }
        CHECK(maxe <= 1e-3 * (hi - lo), "pred %d: format 2 within the bound (%g vs %g)", pred, maxe, 1e-3 * (hi - lo));
        if (pred == 2) printf("4x13x20x24 interpolation REL 1e-3: %zu bytes with slabs apart, %zu merged\n", l4, l3);
    }
    /* a format 2 stream read as format 1 no longer fits its own layout */
    glide_params_init(&p, GLIDE_FLOAT32, 4, d4);
    glide_encode_opts ob = glide_default_encode_opts();
    ob.planes = 0;
    ob.no_blend = 1;
    size_t l4 = glide_cpu_compress(&p, &ob, x, s4, cap);
    CHECK(s4[GLIDE_HDR_FORMAT_VERSION] == 2, "without blends a 4-D chunk names format 2");
    s4[GLIDE_HDR_FORMAT_VERSION] = 1;
    reseal(s4, l4);
    CHECK(glide_is_error(glide_decompress(s4, l4, y, n * 4)), "format 2 renamed 1: an error, not a wrong decode");
    /* noise stored raw: format 1 whatever the rank */
    for (size_t i = 0; i < n; i++) { uint32_t b = rnd() & 0x7F7FFFFFu; memcpy(&x[i], &b, 4); }
    glide_params_init(&p, GLIDE_FLOAT32, 4, d4);
    p.mode = GLIDE_MODE_ABS;
    p.eb = 0;
    l4 = compress14(&p, x, s4, cap);
    CHECK(!glide_is_error(l4) && s4[GLIDE_HDR_METHOD] == GLIDE_METHOD_RAW && s4[GLIDE_HDR_FORMAT_VERSION] == 1,
          "a raw 4-D stream names format 1");
    free(x); free(y); free(s4); free(s3);
}

/* Format 3: interpolation stencils leave fill points out. A masked field
 * (land of fill 1e20, as in ocean files) gains from it; streams name 3 only
 * where a fill point occurs under interpolation. */
static void format_fill_aware(void)
{
    enum { Y = 90, X = 120 };
    const size_t n = (size_t)Y * X;
    float *x = malloc(n * 4), *y = malloc(n * 4), fillv = 1e20f;
    uint32_t fb;
    memcpy(&fb, &fillv, 4);
    size_t masked = 0;
    for (size_t i = 0; i < n; i++) {
        double yy = (double)(i / X), xx = (double)(i % X);
        x[i] = (float)(285 + 10 * sin(yy / 11) * cos(xx / 17) + 0.2 * sin(0.7 * xx + 0.4 * yy));
        if (xx < 20 + 8 * sin(yy / 6) || (xx - 70) * (xx - 70) + (yy - 45) * (yy - 45) < 150) x[i] = fillv, masked++;
    }
    uint64_t d[2] = {Y, X};
    size_t cap = n * 4 + 4096;
    uint8_t *s = malloc(cap), *s1 = malloc(cap);
    for (int k = 0; k < 3; k++) {
        const double eb = k == 0 ? 1e-2 : k == 1 ? 1e-3 : 1e-4;
        glide_params p;
        glide_params_init(&p, GLIDE_FLOAT32, 2, d);
        p.predictor = GLIDE_PRED_INTERP;
        p.codebook = GLIDE_BOOK_DICT;
        p.eb = eb;
        p.has_fill = 1;
        p.fill_bits = fb;
        glide_encode_opts ob = glide_default_encode_opts();
    ob.planes = 0;
        ob.no_blend = 1; /* format 3 as GLIDE 1.3 writes it; blends: format_blend */
        size_t l = glide_cpu_compress(&p, &ob, x, s, cap);
        CHECK(!glide_is_error(l) && s[GLIDE_HDR_FORMAT_VERSION] == 3, "masked field, interpolation: format 3");
        if (glide_is_error(l)) continue;
        CHECK(glide_decompress(s, l, y, n * 4) == n * 4, "format 3 decodes");
        double lo = INFINITY, hi = -INFINITY, maxe = 0;
        int fills_exact = 1;
        for (size_t i = 0; i < n; i++)
            if (x[i] != fillv) lo = fmin(lo, x[i]), hi = fmax(hi, x[i]);
        for (size_t i = 0; i < n; i++) {
            if (x[i] == fillv) { fills_exact &= !memcmp(&x[i], &y[i], 4); continue; }
            double e = fabs((double)x[i] - (double)y[i]);
            if (!(e <= maxe)) maxe = e;
        }
        CHECK(maxe <= eb * (hi - lo) && fills_exact, "format 3 within the bound (%g vs %g), fill exact", maxe,
              eb * (hi - lo));
        /* the same stream with format 1's stencils, the substitute standing in for fill */
        glide_encode_opts o = glide_default_encode_opts();
        o.planes = 0;
        o.no_fill_aware = 1;
        size_t l1 = glide_cpu_compress(&p, &o, x, s1, cap);
        CHECK(!glide_is_error(l1) && s1[GLIDE_HDR_FORMAT_VERSION] == 1, "without fill-aware stencils: format 1");
        CHECK(l < l1, "eb %g: fill-aware stencils beat the substitute's (%zu vs %zu bytes)", eb, l, l1);
        if (k == 1) printf("masked field REL 1e-3: %zu bytes fill-aware, %zu with the substitute\n", l, l1);
    }
    glide_params p;
    glide_params_init(&p, GLIDE_FLOAT32, 2, d);
    p.has_fill = 1;
    p.fill_bits = fb;
    /* Lorenzo keeps format 1 */
    p.predictor = GLIDE_PRED_LORENZO;
    size_t l = compress14(&p, x, s, cap);
    CHECK(!glide_is_error(l) && s[GLIDE_HDR_FORMAT_VERSION] == 1, "masked field, Lorenzo: format 1");
    /* ... and so does a stream whose version says 3 but whose method is Lorenzo: corrupt */
    s[GLIDE_HDR_FORMAT_VERSION] = 3;
    reseal(s, l);
    CHECK(glide_get_error(glide_decompress(s, l, y, n * 4)) == GLIDE_ERR_CORRUPT, "format 3 with Lorenzo is corrupt");
    /* a fill value declared but absent: format 1 */
    p.predictor = GLIDE_PRED_INTERP;
    p.fill_bits = 0x7F7FFFFFu; /* FLT_MAX, not in the data */
    glide_encode_opts ob = glide_default_encode_opts();
    ob.planes = 0;
    ob.no_blend = 1;
    l = glide_cpu_compress(&p, &ob, x, s, cap);
    CHECK(!glide_is_error(l) && s[GLIDE_HDR_FORMAT_VERSION] == 1, "fill value declared, none present: format 1");
    /* format 3 without HAS_FILL: corrupt */
    p.fill_bits = fb;
    l = glide_cpu_compress(&p, &ob, x, s, cap);
    CHECK(!glide_is_error(l) && s[GLIDE_HDR_FORMAT_VERSION] == 3, "format 3 again");
    s[GLIDE_HDR_FLAGS] = 0;
    memset(s + GLIDE_HDR_FILL_BITS, 0, 8);
    reseal(s, l);
    CHECK(glide_get_error(glide_decompress(s, l, y, n * 4)) == GLIDE_ERR_CORRUPT, "format 3 without HAS_FILL is corrupt");
    printf("masked 90x120 field: %zu of %zu points fill\n", masked, n);
    free(x); free(y); free(s); free(s1);
}

/* max |x - y| over finite non-fill values against the bound, fills and
 * non-finite values bit for bit */
static int within(const void *xv, const void *yv, size_t n, int f64, double eb, int has_fill, uint64_t fb, double *ratio)
{
    double lo = INFINITY, hi = -INFINITY, maxe = 0;
    int exact = 1;
    for (int pass = 0; pass < 2; pass++)
        for (size_t i = 0; i < n; i++) {
            double a, b;
            uint64_t ab = 0, bb = 0;
            if (f64) { memcpy(&a, (const double *)xv + i, 8); memcpy(&b, (const double *)yv + i, 8); memcpy(&ab, &a, 8); memcpy(&bb, &b, 8); }
            else {
                float fa, fbv;
                memcpy(&fa, (const float *)xv + i, 4); memcpy(&fbv, (const float *)yv + i, 4);
                uint32_t ua, ub;
                memcpy(&ua, &fa, 4); memcpy(&ub, &fbv, 4);
                ab = ua, bb = ub, a = fa, b = fbv;
            }
            int special = !isfinite(a) || (has_fill && ab == fb);
            if (pass == 0) {
                if (!special) lo = fmin(lo, a), hi = fmax(hi, a);
            } else if (special) {
                exact &= ab == bb;
            } else {
                double e = fabs(a - b);
                if (!(e <= maxe)) maxe = e;
            }
        }
    double bound = eb * (hi > lo ? hi - lo : 0);
    *ratio = bound > 0 ? maxe / bound : maxe;
    return exact && maxe <= bound;
}

/* Blocks of only fill points (HDF5's padding of a partial edge chunk, a
 * land mask) take FILL without the level passes, and blocks and tuning
 * boxes without one the plain stencils: tuning's every cost and the
 * streams must be those of the fill-aware stencils over every block
 * (whole_pass), and decode within the bound with the fills exact, to the
 * encoder's reconstruction. 1-D to 4-D grids padded past a corner of real
 * data, with holes in all of it or in part of it (blocks of each kind),
 * float and double, tuned and every level blended. */
static void format_fill_blocks(void)
{
    static const uint64_t dims[4][4] = {{9000}, {150, 140}, {40, 37, 50}, {3, 20, 40, 33}};
    static const uint64_t real[4][4] = {{5000}, {90, 70}, {20, 25, 30}, {3, 17, 17, 33}};
    int cases = 0, same = 0, ok = 0, interp = 0;
    for (unsigned r = 1; r <= 4; r++) {
        const uint64_t *d = dims[r - 1], *re = real[r - 1];
        size_t n = 1;
        for (unsigned a = 0; a < r; a++) n *= d[a];
        double *x = malloc(n * 8), *y = malloc(n * 8), *rc = malloc(n * 8);
        uint8_t *s0 = malloc(n * 8 + 4096), *s1 = malloc(n * 8 + 4096);
        for (int t = 0; t < 4; t++) {
            /* float and double; holes everywhere (spread), or only past the first block along the last
             * axis (blocks and tuning boxes without fill) */
            const int f64 = t % 2, spread = t / 2;
            for (size_t i = 0; i < n; i++) {
                uint64_t rem = i, c[4];
                int in = 1;
                for (int a = (int)r - 1; a >= 0; a--) { c[a] = rem % d[a]; rem /= d[a]; in &= c[a] < re[a]; }
                double v = 0;
                for (unsigned a = 0; a < r; a++) v += sin(0.07 * (double)(c[a] * (a + 1)) + a) * (a + 2);
                v += 0.01 * (double)(rnd() % 100);
                const uint64_t B = r == 1 ? 4096 : r == 2 ? 64 : 16;
                if (!in || (c[r - 1] % 11 == 3 && c[0] % 3 == 1 && (spread || c[r - 1] > B))) v = 0; /* padding, holes */
                if (f64) x[i] = v;
                else ((float *)x)[i] = (float)v;
            }
            for (int k = 0; k < 4; k++) {
                glide_params p;
                glide_params_init(&p, f64 ? GLIDE_FLOAT64 : GLIDE_FLOAT32, r, d);
                p.eb = k % 2 ? 1e-4 : 1e-2;
                p.predictor = k < 2 ? GLIDE_PRED_AUTO : GLIDE_PRED_INTERP;
                p.has_fill = 1; /* fill 0, HDF5's default */
                glide_encode_opts o = glide_default_encode_opts();
                if (k >= 2 && r >= 2) o.force_blend = 1 + (k == 3 ? GLIDE_BLEND_LINEAR_R : GLIDE_BLEND_SPLINE_R);
                uint64_t tr0[GLIDE_MAX_LEVELS * GLIDE_TUNE_TRACE] = {0}, tr1[GLIDE_MAX_LEVELS * GLIDE_TUNE_TRACE] = {0};
                o.recon_out = rc;
                o.tune_trace = tr0;
                size_t cap = glide_compress_bound(&p), l0 = glide_cpu_compress(&p, &o, x, s0, cap);
                o.recon_out = NULL;
                o.tune_trace = tr1;
                o.whole_pass = 1;
                size_t l1 = glide_cpu_compress(&p, &o, x, s1, cap);
                cases++;
                if (glide_is_error(l0) || glide_is_error(l1)) continue;
                same += l0 == l1 && !memcmp(s0, s1, l0) && !memcmp(tr0, tr1, sizeof tr0);
                interp += s0[GLIDE_HDR_METHOD] == GLIDE_METHOD_INTERP;
                double ratio;
                const size_t es = f64 ? 8 : 4;
                int dec = glide_decompress(s0, l0, y, n * es) == n * es && within(x, y, n, f64, p.eb, 1, 0, &ratio);
                /* the encoder's reconstruction bit for bit at every finite point that is not fill */
                for (size_t i = 0; dec && i < n; i++) {
                    const double v = f64 ? x[i] : (double)((float *)x)[i];
                    if (isfinite(v) && v != 0) dec = !memcmp((char *)y + i * es, (char *)rc + i * es, es);
                }
                ok += dec;
            }
        }
        free(x); free(y); free(rc); free(s0); free(s1);
    }
    printf("fill blocks: %d streams, %d interpolated\n", cases, interp);
    CHECK(same == cases && ok == cases && interp >= cases / 2,
          "fill blocks: %d of %d streams as the whole pass's, %d decode within the bound to the encoder's values, %d "
          "interpolated", same, cases, ok,
          interp);
}

/* The passes that look for outliers skip sixteen symbols at a time where
 * none is one, past FILL too where the chunk has a fill value: outliers at
 * every place of such a span, alone, in pairs and beside fill points, must
 * each come back exactly (a missed one leaves the outlier section a value
 * short or long, which the decoder rejects), the fill points exactly, and
 * every other point within the bound. */
static void outliers_among_fill(void)
{
    enum { N = 5000 };
    float *x = malloc(N * 4), *y = malloc(N * 4);
    uint8_t *s = malloc(N * 8 + 4096);
    int cases = 0, ok = 0;
    for (int t = 0; t < 4; t++) {
        for (size_t i = 0; i < N; i++) {
            const int pad = t < 2 ? i >= N / 2 : (i / 40) % 3 == 1; /* a padded tail, or fill runs between data */
            x[i] = pad ? 0.0f : (float)sin(0.01 * (double)i);
        }
        for (size_t j = 0; 17 * j + 3 < N; j++) { /* every offset of a 16-symbol span, in data and in fill */
            const size_t i = 17 * j + (t % 2) * 3;
            x[i] = 1e6f * (float)(j + 1);
            if (j % 5 == 0 && i + 1 < N) x[i + 1] = -3e5f; /* a pair */
        }
        uint64_t d[1] = {N};
        glide_params p;
        glide_params_init(&p, GLIDE_FLOAT32, 1, d);
        p.mode = GLIDE_MODE_ABS;
        p.eb = 1e-3;
        p.has_fill = 1; /* fill 0 */
        for (int pred = 0; pred < 2; pred++) {
            p.predictor = pred ? GLIDE_PRED_LORENZO : GLIDE_PRED_INTERP;
            const size_t l = glide_compress(&p, x, N * 4, s, N * 8 + 4096);
            cases++;
            if (glide_is_error(l) || glide_decompress(s, l, y, N * 4) != N * 4) continue;
            int good = 1;
            for (size_t i = 0; i < N; i++)
                good &= fabsf(x[i]) >= 1e5f || x[i] == 0.0f ? !memcmp(&x[i], &y[i], 4) : fabs((double)x[i] - y[i]) <= p.eb;
            ok += good;
        }
    }
    free(x); free(y); free(s);
    CHECK(ok == cases, "outliers among fill points: %d of %d chunks decode with every outlier and fill point exact, "
          "the rest within the bound", ok, cases);
}

/* Compresses x twice with o: as it is into s0, then by the general paths
 * (o.scalar = 1; recon and trace, where not NULL, for that run only) into
 * s1. Returns the first stream's length, an error where either failed;
 * *same: both gave the same stream. */
static size_t lanes_and_scalar(const glide_params *p, glide_encode_opts o, const void *x, uint8_t *s0, uint8_t *s1,
                               void *recon, uint64_t *trace, int *same)
{
    const size_t cap = glide_compress_bound(p), l0 = glide_cpu_compress(p, &o, x, s0, cap);
    o.scalar = 1;
    if (recon) o.recon_out = recon;
    if (trace) o.tune_trace = trace;
    const size_t l1 = glide_cpu_compress(p, &o, x, s1, cap);
    *same = !glide_is_error(l0) && l0 == l1 && !memcmp(s0, s1, l0);
    return glide_is_error(l1) ? l1 : l0;
}

/* Blended levels' points four at a time (cpu/blend_sse2.h, x86-64): the
 * streams must be those of the point-by-point code (glide_encode_opts
 * .scalar), and the decoder (which takes four points at a time too) must
 * give the encoder's reconstruction bit for bit at every finite point.
 * Every level forced blended with each spline and residual
 * spline, grids of several shapes (whole blocks, cut blocks, rows shorter
 * than four points), smooth data with spikes past the bound (outlier
 * lanes), NaN and inf (the levels' NaN tests), bounds 1e-2 to 1e-5. */
static void format_blend_lanes(void)
{
    /* 64 and 32 along x: the grid's last block lacks its far end */
    static const uint64_t dims[7][3] = {{64, 64, 64}, {33, 40, 57}, {17, 17, 17}, {5, 70, 9},
                                        {1, 200, 300}, {96, 97, 3}, {20, 24, 32}};
    int cases = 0, same = 0, ok = 0, exact = 0;
    for (unsigned t = 0; t < 7; t++) {
        const uint64_t *d = dims[t];
        const size_t n = (size_t)(d[0] * d[1] * d[2]);
        float *x = malloc(n * 4), *y = malloc(n * 4), *rc = malloc(n * 4);
        uint8_t *s0 = malloc(n * 8 + 4096), *s1 = malloc(n * 8 + 4096);
        for (int data = 0; data < 2; data++) {
            for (size_t i = 0; i < n; i++) {
                const uint64_t c0 = i / (d[1] * d[2]), c1 = i / d[2] % d[1], c2 = i % d[2];
                float v = (float)(sin(0.11 * (double)c2 + 0.5 * sin(0.07 * (double)c1)) * cos(0.05 * (double)c0) * 10.0 +
                                  0.001 * (double)(rnd() % 1000));
                if (rnd() % 97 == 0) v += 50.0f; /* spikes: outliers */
                if (data && rnd() % 5003 == 0) v = rnd() % 2 ? NAN : INFINITY;
                x[i] = v;
            }
            const unsigned er = (d[0] > 1) + (d[1] > 1) + (d[2] > 1);
            for (int k = 0; k < 8; k++) {
                glide_params p;
                glide_params_init(&p, GLIDE_FLOAT32, 3, d);
                static const double ebs[4] = {1e-2, 1e-3, 1e-4, 1e-5};
                p.eb = ebs[k % 4];
                p.predictor = GLIDE_PRED_INTERP;
                uint8_t cfg[GLIDE_MAX_LEVELS];
                const unsigned sp = k < 4 ? GLIDE_SPLINE_CUBIC_NAK : GLIDE_SPLINE_CUBIC_NATURAL;
                const unsigned levels = er == 3 ? 4 : 6; /* the default anchor strides' */
                for (unsigned l = 0; l < GLIDE_MAX_LEVELS; l++)
                    cfg[l] = l >= levels ? 0
                                         : (uint8_t)((l == 1 && k % 2 ? GLIDE_SPLINE_LINEAR : sp) |
                                                     ((glide_n_orders(er) + (k / 2 % 2 ? GLIDE_BLEND_LINEAR_R
                                                                                       : GLIDE_BLEND_SPLINE_R))
                                                      << 2));
                glide_encode_opts o = glide_default_encode_opts();
                o.level_cfg = cfg;
                int sm;
                const size_t l0 = lanes_and_scalar(&p, o, x, s0, s1, rc, NULL, &sm);
                cases++;
                if (glide_is_error(l0)) continue;
                same += sm;
                double ratio;
                const int dec = glide_decompress(s0, l0, y, n * 4) == n * 4;
                ok += dec && within(x, y, n, 0, p.eb, 0, 0, &ratio);
                int eq = dec;
                for (size_t i = 0; eq && i < n; i++) eq = !isfinite(x[i]) || !memcmp(&y[i], &rc[i], 4);
                exact += eq;
            }
        }
        free(x); free(y); free(rc); free(s0); free(s1);
    }
    CHECK(same == cases && ok == cases && exact == cases, "blended levels four points at a time: %d of %d streams as the "
          "point-by-point code's, %d decode within the bound, %d to the encoder's reconstruction", same, cases, ok, exact);
}

/* The slice method's encoder four points at a time (x86-64): the same
 * streams as point by point (test-only glide_encode_opts.scalar), both
 * orders, with fill points (the fill-aware stencils' fallback), NaN, inf
 * and spikes, on shapes with partial blocks; within the bound. */
static void slice_lanes(void)
{
    /* 64 and 32 along x: the row's last block lacks its far end */
    static const uint64_t dims[6][3] = {{40, 64, 64}, {20, 33, 70}, {17, 48, 17}, {3, 100, 35}, {33, 9, 130}, {18, 40, 32}};
    int cases = 0, same = 0, ok = 0;
    for (unsigned t = 0; t < 6; t++) {
        const uint64_t *d = dims[t];
        const size_t n = (size_t)(d[0] * d[1] * d[2]);
        float *x = malloc(n * 4), *y = malloc(n * 4);
        uint8_t *s0 = malloc(n * 8 + 4096), *s1 = malloc(n * 8 + 4096);
        const float fill = 1e20f;
        uint32_t fb;
        memcpy(&fb, &fill, 4);
        for (int data = 0; data < 3; data++) {
            for (size_t i = 0; i < n; i++) {
                const uint64_t c0 = i / (d[1] * d[2]), c1 = i / d[2] % d[1], c2 = i % d[2];
                float v = (float)(sin(0.08 * (double)c2 + 0.3 * sin(0.05 * (double)c1)) * cos(0.04 * (double)c0) * 20.0 +
                                  0.003 * (double)(rnd() % 1000));
                if (rnd() % 97 == 0) v += 60.0f;
                /* runs of fill points moving along axis 0, and lone ones */
                if (data == 1 && ((c1 * 7 + c2 * 3 + c0 * 5) % 41 < 9 || (c0 + 3 * c1 + 7 * c2) % 13 == 0)) v = fill;
                if (data == 2 && rnd() % 2003 == 0) v = rnd() % 2 ? NAN : INFINITY;
                x[i] = v;
            }
            for (int k = 0; k < 4; k++) {
                glide_params p;
                glide_params_init(&p, GLIDE_FLOAT32, 3, d);
                p.eb = k / 2 ? 1e-4 : 1e-2;
                if (data == 1) p.has_fill = 1, p.fill_bits = fb;
                glide_encode_opts o = glide_default_encode_opts();
                o.slice = 1 + k % 2; /* the order forced */
                int sm;
                const size_t l0 = lanes_and_scalar(&p, o, x, s0, s1, NULL, NULL, &sm);
                cases++;
                if (glide_is_error(l0) || s0[GLIDE_HDR_METHOD] != GLIDE_METHOD_SLICE) continue;
                same += sm;
                double ratio;
                ok += glide_decompress(s0, l0, y, n * 4) == n * 4 && within(x, y, n, 0, p.eb, p.has_fill, fb, &ratio);
            }
        }
        free(x); free(y); free(s0); free(s1);
    }
    CHECK(same == cases && ok == cases, "the slice method's encoder four points at a time: %d of %d streams as the "
          "point-by-point code's, %d decode within the bound", same, cases, ok);
}

/* Lorenzo on grids of one block and a face a side (the block trial's
 * boxes) walks them in raster order: the same streams as the grouped
 * sweep (test-only glide_encode_opts.scalar), by Lorenzo and by the
 * trial, with NaN, inf and fill points, and within the bound. */
static void lorenzo_small(void)
{
    /* the last two: slabs of rows (a 4-D chunk), each its own blocks */
    static const uint64_t dims[8][4] = {{17, 17, 17}, {9, 17, 5},  {1, 17, 17},  {17, 1, 3},
                                        {16, 16, 16}, {3, 17, 2}, {3, 9, 17, 5}, {2, 17, 4, 17}};
    int cases = 0, same = 0, ok = 0;
    for (unsigned t = 0; t < 8; t++) {
        const uint64_t *d = dims[t];
        const unsigned rank = t < 6 ? 3 : 4;
        const size_t n = (size_t)(d[0] * d[1] * d[2] * (rank == 4 ? d[3] : 1));
        const uint64_t nx = d[rank - 1];
        float *x = malloc(n * 4), *y = malloc(n * 4);
        uint8_t *s0 = malloc(n * 8 + 4096), *s1 = malloc(n * 8 + 4096);
        for (int data = 0; data < 2; data++) {
            for (size_t i = 0; i < n; i++) {
                x[i] = (float)(sin(0.3 * (double)(i % nx) + 0.2 * (double)(i / nx)) * 5.0 + 0.01 * (double)(rnd() % 100));
                if (rnd() % 61 == 0) x[i] += 30.0f;
                if (data && rnd() % 37 == 0) x[i] = rnd() % 3 == 0 ? NAN : rnd() % 2 ? INFINITY : -1.5f;
            }
            for (int k = 0; k < 4; k++) {
                glide_params p;
                glide_params_init(&p, GLIDE_FLOAT32, rank, d);
                p.eb = k % 2 ? 1e-4 : 1e-2;
                p.predictor = k < 2 ? GLIDE_PRED_LORENZO : GLIDE_PRED_AUTO;
                if (data) p.has_fill = 1, p.fill_bits = 0xbfc00000u; /* -1.5 */
                int sm;
                const size_t l0 = lanes_and_scalar(&p, glide_default_encode_opts(), x, s0, s1, NULL, NULL, &sm);
                cases++;
                if (glide_is_error(l0)) continue;
                same += sm;
                double ratio;
                ok += glide_decompress(s0, l0, y, n * 4) == n * 4 && within(x, y, n, 0, p.eb, 0, 0, &ratio);
            }
        }
        free(x); free(y); free(s0); free(s1);
    }
    CHECK(same == cases && ok == cases, "Lorenzo on one-block grids in raster order: %d of %d streams as the grouped "
          "sweep's, %d decode within the bound", same, cases, ok);
}

/* Tuning four points at a time (x86-64): every cost it sums, and so every
 * choice, must be the point-by-point code's, with spikes, NaN and inf,
 * huge values (the lanes' fallbacks) and fill points, in the plain
 * stencils and in the fill-aware ones (lone fill points and a padded
 * corner as HDF5 writes a partial edge chunk, fill 7.25 and fill 0, whose
 * bits the four-lane reads also hold where a point reads nothing). */
static void tune_lanes(void)
{
    static const uint64_t dims[5][3] = {{64, 64, 64}, {33, 40, 57}, {17, 17, 17}, {1, 200, 300}, {96, 97, 3}};
    int cases = 0, same = 0, blended = 0;
    for (unsigned t = 0; t < 5; t++) {
        const uint64_t *d = dims[t];
        const size_t n = (size_t)(d[0] * d[1] * d[2]);
        float *x = malloc(n * 4);
        uint8_t *s0 = malloc(n * 8 + 4096), *s1 = malloc(n * 8 + 4096);
        for (int data = 0; data < 6; data++) {
            const float fill = data == 5 ? 0.0f : 7.25f;
            for (size_t i = 0; i < n; i++) {
                const uint64_t c0 = i / (d[1] * d[2]), c1 = i / d[2] % d[1], c2 = i % d[2];
                float v = (float)(sin(0.09 * (double)c2 + 0.4 * sin(0.06 * (double)c1)) * cos(0.05 * (double)c0) * 10.0 +
                                  0.002 * (double)(rnd() % 1000));
                if (rnd() % 89 == 0) v += 40.0f;
                if (data == 1 && rnd() % 4001 == 0) v = rnd() % 2 ? NAN : -INFINITY;
                if (data == 2 && rnd() % 3001 == 0) v = rnd() % 2 ? 3e38f : -3e38f; /* quotients past 2^31 */
                if (data >= 3 && rnd() % 301 == 0) v = fill;
                if (data >= 4 && 3 * c2 >= 2 * d[2] && 2 * c1 >= d[1]) v = fill;
                x[i] = v;
            }
            for (int k = 0; k < 3; k++) {
                glide_params p;
                glide_params_init(&p, GLIDE_FLOAT32, 3, d);
                static const double ebs[3] = {1e-2, 1e-3, 1e-5};
                p.eb = ebs[k];
                p.predictor = GLIDE_PRED_INTERP;
                uint64_t tr0[GLIDE_MAX_LEVELS * GLIDE_TUNE_TRACE] = {0}, tr1[GLIDE_MAX_LEVELS * GLIDE_TUNE_TRACE] = {0};
                glide_encode_opts o = glide_default_encode_opts();
                if (data >= 3) { /* fill points: the lanes' fill test, and the fill-aware stencils' */
                    uint32_t fb;
                    memcpy(&fb, &fill, 4);
                    p.has_fill = 1, p.fill_bits = fb;
                    o.no_fill_aware = data == 3; /* format 1's plain stencils */
                }
                o.tune_trace = tr0;
                int sm;
                const size_t l0 = lanes_and_scalar(&p, o, x, s0, s1, NULL, tr1, &sm);
                cases++;
                if (glide_is_error(l0)) continue;
                same += sm && !memcmp(tr0, tr1, sizeof tr0);
                for (unsigned l = 0; l < GLIDE_MAX_LEVELS; l++) blended += tr0[l * GLIDE_TUNE_TRACE + 2] != 0;
            }
        }
        free(x); free(s0); free(s1);
    }
    CHECK(same == cases && blended > 0, "tuning four points at a time: %d of %d chunks with the point-by-point code's "
          "costs and stream (%d levels costed blended)", same, cases, blended);
}

/* Format 4: blended levels (FORMAT.md §8.4). Tuning blends where it pays;
 * every level forced blended, with both residual splines, on 2-D, 3-D and
 * 4-D grids of odd sizes, float and double, with fill points, NaN and inf,
 * decodes within the bound; and the header rules make each stream one
 * encoding. */
static void format_blend(void)
{
    /* a sum of lower-dimensional terms plus a little 3-D texture: what the
     * Boolean sum predicts and a single axis does not */
    enum { Z = 40, Y = 44, X = 50 };
    const size_t n = (size_t)Z * Y * X;
    float *x = malloc(n * 4), *y = malloc(n * 4);
    for (size_t i = 0; i < n; i++) {
        double z = (double)(i / (Y * X)), yy = (double)(i / X % Y), xx = (double)(i % X);
        x[i] = (float)(100 * exp(-0.05 * z) + 10 * sin(0.2 * yy + 0.1 * z) + 5 * cos(0.15 * xx) * (1 + 0.02 * z) +
                       0.3 * sin(0.31 * xx + 0.23 * yy + 0.17 * z));
    }
    uint64_t d3[3] = {Z, Y, X};
    size_t cap = n * 8 + 4096;
    uint8_t *s = malloc(cap), *s0 = malloc(cap);
    for (int k = 0; k < 2; k++) {
        const double eb = k ? 1e-4 : 1e-3;
        glide_params p;
        glide_params_init(&p, GLIDE_FLOAT32, 3, d3);
        p.predictor = GLIDE_PRED_INTERP;
        p.eb = eb;
        size_t l = compress14(&p, x, s, cap);
        glide_encode_opts ob = glide_default_encode_opts();
    ob.planes = 0;
        ob.no_blend = 1;
        size_t l0 = glide_cpu_compress(&p, &ob, x, s0, cap);
        CHECK(!glide_is_error(l) && !glide_is_error(l0), "eb %g: compresses", eb);
        if (glide_is_error(l) || glide_is_error(l0)) continue;
        CHECK(s[GLIDE_HDR_FORMAT_VERSION] == 4 && s0[GLIDE_HDR_FORMAT_VERSION] == 1,
              "eb %g: tuning blends (format 4), and without blends format 1", eb);
        CHECK(l < l0, "eb %g: blending pays on a layered field (%zu vs %zu bytes)", eb, l, l0);
        double ratio;
        CHECK(glide_decompress(s, l, y, n * 4) == n * 4 && within(x, y, n, 0, eb, 0, 0, &ratio),
              "eb %g: format 4 decodes within the bound (max err/eb %.4f)", eb, ratio);
        printf("layered 40x44x50 REL %g: %zu bytes blended, %zu without\n", eb, l, l0);
    }

    /* forced blends on every shape */
    static const struct { unsigned rank; uint64_t d[4]; } shapes[] = {
        {2, {70, 90}}, {3, {20, 24, 28}}, {3, {17, 33, 9}}, {4, {3, 13, 20, 24}}, {3, {130, 1, 7}}, {3, {40, 3, 65}}};
    double *v = malloc(n * 8);
    int cases = 0, good = 0;
    for (size_t sh = 0; sh < sizeof shapes / sizeof shapes[0]; sh++)
        for (int f64 = 0; f64 < 2; f64++)
            for (int fill = 0; fill < 3; fill++)
                for (int force = 1; force <= GLIDE_NBLENDS; force++)
                    for (int b = 0; b < 3; b++) {
                        size_t m = 1;
                        for (unsigned a = 0; a < shapes[sh].rank; a++) m *= shapes[sh].d[a];
                        const double ebs[3] = {1e-2, 1e-4, 1e-6};
                        for (size_t i = 0; i < m; i++) {
                            double t = (double)i / (double)m;
                            v[i] = 300 + 20 * sin(40 * t) + 5 * cos(300 * t) + 0.5 * sin(2000 * t * t) + 0.01 * (i % 7);
                            if (fill == 1 && (i % 13 == 0 || (i > m / 2 && i < m / 2 + 40))) v[i] = 0.0;
                            if (fill == 2 && (i % 97 < 30)) v[i] = 1e20; /* a mask in runs */
                            if (fill && i % 89 == 5) v[i] = NAN;
                            if (fill && i % 101 == 7) v[i] = -INFINITY;
                        }
                        void *in = v;
                        float *vf = (float *)y;
                        if (!f64) { for (size_t i = 0; i < m; i++) vf[i] = (float)v[i]; in = vf; }
                        glide_params p;
                        glide_params_init(&p, f64 ? GLIDE_FLOAT64 : GLIDE_FLOAT32, shapes[sh].rank, shapes[sh].d);
                        p.predictor = GLIDE_PRED_INTERP;
                        p.eb = ebs[b];
                        uint64_t fb = 0;
                        if (fill) {
                            p.has_fill = 1;
                            double fv = fill == 1 ? 0.0 : 1e20;
                            if (f64) memcpy(&fb, &fv, 8);
                            else { float ff = (float)fv; uint32_t u; memcpy(&u, &ff, 4); fb = u; }
                            p.fill_bits = fb;
                        }
                        glide_encode_opts o = glide_default_encode_opts();
        o.planes = 0;
                        o.force_blend = force;
                        size_t l = glide_cpu_compress(&p, &o, in, s, cap);
                        cases++;
                        if (glide_is_error(l)) continue;
                        void *out = malloc(m * 8);
                        double ratio = 0;
                        size_t dn = glide_decompress(s, l, out, m * 8);
                        unsigned want = s[GLIDE_HDR_METHOD] == GLIDE_METHOD_RAW ? 1 : 4;
                        int ok = dn == m * (f64 ? 8 : 4) && s[GLIDE_HDR_FORMAT_VERSION] == want &&
                                 within(in, out, m, f64, p.eb, p.has_fill, fb, &ratio);
                        if (!ok)
                            printf("  forced blend %d, shape %zu, f64 %d, fill %d, eb %g: version %u, err/eb %.4f\n", force, sh,
                                   f64, fill, p.eb, s[GLIDE_HDR_FORMAT_VERSION], ratio);
                        good += ok;
                        free(out);
                    }
    CHECK(good == cases, "forced blends: %d of %d round trips name format 4 and hold the bound, fills exact", good, cases);

    /* one encoding per stream */
    glide_params p;
    glide_params_init(&p, GLIDE_FLOAT32, 3, d3);
    p.predictor = GLIDE_PRED_INTERP;
    p.eb = 1e-4;
    size_t l = compress14(&p, x, s, cap);
    CHECK(!glide_is_error(l) && s[GLIDE_HDR_FORMAT_VERSION] == 4, "a blended stream");
    memcpy(s0, s, l);
    s0[GLIDE_HDR_FORMAT_VERSION] = 1;
    reseal(s0, l);
    CHECK(glide_get_error(glide_decompress(s0, l, y, n * 4)) == GLIDE_ERR_CORRUPT, "blends named format 1: corrupt");
    memcpy(s0, s, l);
    unsigned lv = 0;
    while (!glide_cfg_blended(3, s0[GLIDE_HDR_LEVEL_CFG + lv])) lv++;
    s0[GLIDE_HDR_LEVEL_CFG + lv] = (uint8_t)((s0[GLIDE_HDR_LEVEL_CFG + lv] & 3u) | ((glide_n_orders(3) + GLIDE_NBLENDS) << 2));
    reseal(s0, l);
    CHECK(glide_get_error(glide_decompress(s0, l, y, n * 4)) == GLIDE_ERR_CORRUPT, "order value past the blends: corrupt");
    glide_encode_opts ob = glide_default_encode_opts();
    ob.planes = 0;
    ob.no_blend = 1;
    l = glide_cpu_compress(&p, &ob, x, s, cap);
    CHECK(!glide_is_error(l) && s[GLIDE_HDR_FORMAT_VERSION] == 1, "unblended: format 1");
    s[GLIDE_HDR_FORMAT_VERSION] = 4;
    reseal(s, l);
    CHECK(glide_get_error(glide_decompress(s, l, y, n * 4)) == GLIDE_ERR_CORRUPT, "format 4 without a blended level: corrupt");
    p.predictor = GLIDE_PRED_LORENZO;
    l = compress14(&p, x, s, cap);
    s[GLIDE_HDR_FORMAT_VERSION] = 4;
    reseal(s, l);
    CHECK(glide_get_error(glide_decompress(s, l, y, n * 4)) == GLIDE_ERR_CORRUPT, "format 4 with Lorenzo: corrupt");
    /* 1-D has no blends */
    uint64_t d1 = 4000;
    glide_params_init(&p, GLIDE_FLOAT32, 1, &d1);
    p.predictor = GLIDE_PRED_INTERP;
    l = compress14(&p, x, s, cap);
    CHECK(!glide_is_error(l) && s[GLIDE_HDR_FORMAT_VERSION] == 1, "1-D: format 1");
    s[GLIDE_HDR_FORMAT_VERSION] = 4;
    s[GLIDE_HDR_LEVEL_CFG] = (uint8_t)((s[GLIDE_HDR_LEVEL_CFG] & 3u) | (1u << 2));
    reseal(s, l);
    CHECK(glide_get_error(glide_decompress(s, l, y, d1 * 4)) == GLIDE_ERR_CORRUPT, "a 1-D blend: corrupt");
    free(x); free(y); free(s); free(s0); free(v);
}

/* The tuning sample (glide_tune_stride, which both backends use): every
 * k-th block on each axis, about 1/32 of the points up to 256^3 and at most
 * about GLIDE_TUNE_MAX_POINTS past it. */
static void tune_sample(void)
{
    static const struct {
        uint64_t side, k, blocks;
    } cases[] = {{64, 4, 1}, {256, 4, 64}, {512, 7, 125}, {1024, 13, 125}};
    for (size_t c = 0; c < sizeof cases / sizeof cases[0]; c++) {
        const uint64_t d[3] = {cases[c].side, cases[c].side, cases[c].side};
        glide_shape sh;
        glide_shape_from_dims(3, d, 1, &sh);
        glide_grid g;
        glide_grid_init(&g, &sh, 4, 0, 0);
        glide_sample_lattice lat;
        glide_sample_lattice_init(&g, &lat);
        const uint64_t budget = g.count / 32 < GLIDE_TUNE_MAX_POINTS ? g.count / 32 : GLIDE_TUNE_MAX_POINTS;
        CHECK(lat.k == cases[c].k && lat.count == cases[c].blocks && (lat.count * 4096 <= budget || lat.count == 1),
              "%llu^3: tuning samples every %llu-th block (%llu blocks)", (unsigned long long)cases[c].side,
              (unsigned long long)lat.k, (unsigned long long)lat.count);
    }
}

/* Format 5's plane of raster point i, from its coordinates one by one (1:
 * plane 1): the reference the codec's closed-form count is checked against. */
static int point_plane(const glide_shape *s, uint64_t i)
{
    uint64_t o = 0, r = i;
    for (unsigned d = s->rank - 1; d >= 1; d--) {
        o |= r % s->n[d];
        r /= s->n[d];
    }
    return ((o | r % s->slab_rows) & 1u) != 0;
}

/* Format 5: two symbol planes, a book each (FORMAT.md §10.6). The planes
 * change only the entropy coding, so a stream decodes to exactly what the
 * same options give in format 1-4; over 1-D to 4-D shapes with odd and
 * size-1 axes, one and two points, float and double, every book kind, fill
 * points, NaN and inf. Then the header rules and hostile versions. */
static void format_planes(void)
{
    static const struct {
        unsigned rank;
        uint64_t d[4];
    } shapes[] = {{1, {1}}, {1, {2}}, {1, {7}}, {1, {5001}}, {2, {33, 47}}, {3, {1, 9, 13}},
                  {3, {17, 19, 23}}, {3, {40, 44, 50}}, {4, {3, 5, 7, 9}}, {4, {2, 1, 33, 18}}};
    const size_t nmax = 40 * 44 * 50, cap = nmax * 8 + 8192;
    double *x = malloc(nmax * 8), *y = malloc(nmax * 8), *y4 = malloc(nmax * 8);
    uint8_t *s = malloc(cap), *s4 = malloc(cap), *m = malloc(cap);
    int ok_rt = 1, ok_same = 1, ok_ver = 1, ok_count = 1, cases = 0, compared = 0;
    size_t keep_len = 0;
    uint8_t *keep = malloc(cap);
    for (size_t c = 0; c < sizeof shapes / sizeof shapes[0]; c++) {
        uint64_t n = 1;
        for (unsigned d = 0; d < shapes[c].rank; d++) n *= shapes[c].d[d];
        glide_shape sh;
        glide_shape_from_dims(shapes[c].rank, shapes[c].d, GLIDE_FORMAT_PLANES, &sh);
        uint64_t n1 = 0;
        for (uint64_t i = 0; i < n; i++) n1 += point_plane(&sh, i);
        ok_count &= glide_plane0_count(&sh) == n - n1;
        for (int f64 = 0; f64 < 2; f64++)
            for (int book = 0; book < 3; book++)
                for (int fill = 0; fill < 2; fill++) {
                    for (uint64_t i = 0; i < n; i++) {
                        double v = 50 + 20 * sin(0.013 * (double)i) + 3 * cos(0.7 * (double)(i % 37)) + 0.01 * (double)(i % 5);
                        if (fill && i % 11 == 3) v = -999.0;
                        if (i % 97 == 50) v = i % 2 ? NAN : INFINITY;
                        if (f64) x[i] = v;
                        else ((float *)x)[i] = (float)v;
                    }
                    glide_params p;
                    glide_params_init(&p, f64 ? GLIDE_FLOAT64 : GLIDE_FLOAT32, shapes[c].rank, shapes[c].d);
                    p.predictor = GLIDE_PRED_INTERP;
                    p.codebook = book == 0 ? GLIDE_BOOK_DICT : book == 1 ? GLIDE_BOOK_CUSTOM : GLIDE_BOOK_AUTO;
                    p.mode = GLIDE_MODE_REL;
                    p.eb = 1e-4;
                    p.backend = GLIDE_BACKEND_CPU;
                    p.has_fill = fill;
                    if (fill) {
                        if (f64) { double fv = -999.0; memcpy(&p.fill_bits, &fv, 8); }
                        else { float fv = -999.0f; uint32_t b; memcpy(&b, &fv, 4); p.fill_bits = b; }
                    }
                    glide_encode_opts o = glide_default_encode_opts(), o4 = o;
                    o.planes = 1;
                    o.slice = 0; /* interpolation itself, not the slices the trial may take */
                    o.runs = 0;  /* format 5 itself (format 8's run-coded planes: test_runs.c) */
                    o4.planes = 0;
                    size_t esz = f64 ? 8 : 4, l = glide_cpu_compress(&p, &o, x, s, cap),
                           l4 = glide_cpu_compress(&p, &o4, x, s4, cap);
                    if (glide_is_error(l) || glide_is_error(l4)) { ok_rt = 0; continue; }
                    cases++;
                    ok_ver &= s[7] == GLIDE_METHOD_RAW ? s[4] == GLIDE_FORMAT_FIRST_VERSION : s[4] == GLIDE_FORMAT_PLANES;
                    double ratio;
                    ok_rt &= glide_decompress(s, l, y, n * esz) == n * esz &&
                             within(x, y, n, f64, p.eb, fill, p.fill_bits, &ratio);
                    /* (only a tiny chunk may go RAW, with format 5's larger header) */
                    const int raw = s[7] == GLIDE_METHOD_RAW || s4[7] == GLIDE_METHOD_RAW;
                    ok_same &= glide_decompress(s4, l4, y4, n * esz) == n * esz &&
                               (raw ? n < 100 : !memcmp(y, y4, n * esz));
                    compared += !raw;
                    if (c == 7 && !f64 && book == 1 && fill) { memcpy(keep, s, l); keep_len = l; }
                }
    }
    CHECK(ok_count, "plane 0 holds exactly the points with every coordinate even");
    CHECK(ok_ver, "planes: interpolation streams name format 5 (%d cases)", cases);
    CHECK(ok_rt, "planes: every stream decodes within the bound, fills and non-finite values exact");
    CHECK(ok_same && compared >= cases - 36, "planes: the same values as the format 1-4 stream of the same options (%d of %d)",
          compared, cases);

    /* header rules, on a 3-D float stream with custom books and fill points */
    CHECK(keep_len && keep[4] == GLIDE_FORMAT_PLANES && keep[9] == GLIDE_BOOKKIND_CUSTOM &&
              keep[GLIDE_HEADER_FIXED + 8 * 3 + GLIDE_HDRX_BOOK_KIND] == GLIDE_BOOKKIND_CUSTOM,
          "a format 5 stream with two custom books to mutate");
    const size_t n = 40 * 44 * 50, hx = GLIDE_HEADER_FIXED + 8 * 3;
    struct { size_t off; uint8_t val; glide_error want; const char *what; } rules[] = {
        {hx + GLIDE_HDRX_BOOK_KIND, 7, GLIDE_ERR_CORRUPT, "plane 1 book kind"},
        {hx + GLIDE_HDRX_BOOK_KIND, GLIDE_BOOKKIND_DICT, GLIDE_ERR_CORRUPT, "plane 1 dictionary book with a section"},
        {hx + GLIDE_HDRX_RESERVED, 1, GLIDE_ERR_CORRUPT, "plane book reserved byte"},
        {hx + GLIDE_HDRX_BOOK_ID, 1, GLIDE_ERR_CORRUPT, "custom plane 1 book with an id"},
        {hx + GLIDE_HDRX_BOOK_BYTES + 3, 0x40, GLIDE_ERR_TRUNCATED, "plane 1 book bytes"},
        {GLIDE_HDR_METHOD, GLIDE_METHOD_RAW, GLIDE_ERR_CORRUPT, "format 5 RAW"},
        {GLIDE_HDR_N_SEGMENTS, 1, GLIDE_ERR_CORRUPT, "one plane's segments"},
    };
    for (size_t c = 0; c < sizeof rules / sizeof rules[0]; c++) {
        memcpy(m, keep, keep_len);
        m[rules[c].off] = rules[c].val;
        if (rules[c].off == GLIDE_HDR_METHOD) memset(m + GLIDE_HDR_LEVEL_CFG, 0, GLIDE_MAX_LEVELS);
        reseal(m, keep_len);
        size_t r = glide_decompress(m, keep_len, y, n * 4);
        CHECK(glide_get_error(r) == rules[c].want, "%s: got '%s'", rules[c].what, glide_error_name(r));
    }
    int trunc_ok = 1;
    for (size_t t = 0; t < keep_len; t += (t < 300 ? 1 : 5)) trunc_ok &= glide_is_error(glide_decompress(keep, t, y, n * 4)) != 0;
    CHECK(trunc_ok, "every truncation of a format 5 stream is an error");
    unsigned decoded = 0, rejected = 0;
    for (int it = 0; it < 5000; it++) {
        memcpy(m, keep, keep_len);
        for (int f = 0, flips = 1 + rnd() % 3; f < flips; f++) m[rnd() % (it % 2 ? keep_len : hx + 8)] ^= (uint8_t)(1u << (rnd() % 8));
        reseal(m, keep_len);
        if (glide_is_error(glide_decompress(m, keep_len, y, n * 4))) rejected++;
        else decoded++;
    }
    CHECK(rejected > 0, "hostile format 5 streams: %u rejected, %u decoded, no crash", rejected, decoded);
    free(x); free(y); free(y4); free(s); free(s4); free(m); free(keep);
}

int main(void)
{
    tune_sample();
    dict_versions();
    format_versions();
    format_fill_aware();
    format_fill_blocks();
    outliers_among_fill();
    format_blend_lanes();
    tune_lanes();
    lorenzo_small();
    slice_lanes();
    format_blend();
    format_planes();
    size_t n = 30 * 20 * 25;
    uint64_t dims[3] = {30, 20, 25};
    float *x = malloc(n * 4), *y = malloc(n * 4);
    for (size_t i = 0; i < n; i++) x[i] = (float)(sin(0.01 * i) + (i % 97 == 0 ? NAN : 0) + 0.001 * (i % 13));
    size_t cap = n * 4 + 256;
    uint8_t *s = malloc(cap), *m = malloc(cap);

    /* streams of every kind: interp/Lorenzo x dict/custom, and raw */
    size_t lens[5];
    uint8_t *streams[5];
    int kinds[4][2] = {{0, 0}, {0, 2}, {1, 0}, {0, 1}}; /* dict, auto, Lorenzo, custom */
    for (int k = 0; k < 4; k++) {
        streams[k] = malloc(cap);
        lens[k] = make(streams[k], cap, kinds[k][0], kinds[k][1], 3, dims, x, n, 1e-3);
        CHECK(!glide_is_error(lens[k]), "stream %d", k);
    }
    for (size_t i = 0; i < n; i++) { rng ^= i; x[i] = (float)(rnd() * 1e-3); }
    streams[4] = malloc(cap);
    lens[4] = make(streams[4], cap, 0, 2, 3, dims, x, n, 1e-9);
    CHECK(streams[4][7] == GLIDE_METHOD_RAW, "noise gives a raw stream");
    int custom_seen = 0;
    for (int k = 0; k < 4; k++) custom_seen |= streams[k][9] == GLIDE_BOOKKIND_CUSTOM;
    CHECK(custom_seen, "a custom-book stream is among the tests");

    /* header fields, one at a time */
    memcpy(s, streams[0], lens[0]);
    glide_header h;
    glide_layout lay;
    CHECK(!glide_is_error(glide_header_read(s, lens[0], &h, &lay)), "valid header");
    struct { size_t off; uint8_t val; glide_error want; const char *what; } cases[] = {
        {0, 'X', GLIDE_ERR_MAGIC, "magic"},       {4, GLIDE_FORMAT_VERSION + 1, GLIDE_ERR_VERSION, "format version"}, {4, 0, GLIDE_ERR_VERSION, "format version 0"},
        {5, 9, GLIDE_ERR_VERSION, "dictionary version"}, {6, 3, GLIDE_ERR_CORRUPT, "dtype"},
        {7, 4, GLIDE_ERR_CORRUPT, "method"},      {8, 2, GLIDE_ERR_CORRUPT, "mode"},
        {9, 7, GLIDE_ERR_CORRUPT, "book kind"},   {11, 0xFF, GLIDE_ERR_CORRUPT, "book id"},
        {12, 0, GLIDE_ERR_CORRUPT, "rank 0"},     {12, 33, GLIDE_ERR_CORRUPT, "rank 33"},
        {13, 0, GLIDE_ERR_CORRUPT, "block log2 0"}, {13, 16, GLIDE_ERR_CORRUPT, "block log2 16"},
        {14, 0x80, GLIDE_ERR_CORRUPT, "flags"},   {15, 1, GLIDE_ERR_CORRUPT, "reserved"},
        {31, 0xFF, GLIDE_ERR_CORRUPT, "eb NaN"},  {39, 0x80, GLIDE_ERR_CORRUPT, "alpha < 1"},
        {63, 0x10, GLIDE_ERR_CORRUPT, "segment count"}, {71, 0x10, GLIDE_ERR_CORRUPT, "outlier count"},
        {79, 0x10, GLIDE_ERR_TRUNCATED, "stream bytes"},  {80, 0xFF, GLIDE_ERR_CORRUPT, "level config"},
        {95, 1, GLIDE_ERR_CORRUPT, "unused level config"}, {96, 0, GLIDE_ERR_CORRUPT, "dim 0"},
        {103, 0x7F, GLIDE_ERR_CORRUPT, "huge dim"},
    };
    for (size_t c = 0; c < sizeof cases / sizeof cases[0]; c++) {
        memcpy(s, streams[0], lens[0]);
        s[cases[c].off] = cases[c].val;
        if (cases[c].off == 31) { s[30] = 0xF8; }
        reseal(s, lens[0]);
        size_t r = glide_decompress(s, lens[0], y, n * 4);
        CHECK(glide_get_error(r) == cases[c].want, "%s: got '%s'", cases[c].what, glide_error_name(r));
    }
    memcpy(s, streams[0], lens[0]);
    s[lens[0] / 2] ^= 0x10;
    CHECK(glide_get_error(glide_decompress(s, lens[0], y, n * 4)) == GLIDE_ERR_CHECKSUM, "payload bit flip");
    memcpy(s, streams[0], lens[0]);
    CHECK(glide_get_error(glide_decompress(s, lens[0] + 1, y, n * 4)) == GLIDE_ERR_CORRUPT, "trailing byte");

    /* every truncation of every stream kind */
    int trunc_ok = 1;
    for (int k = 0; k < 5; k++)
        for (size_t t = 0; t < lens[k]; t += (t < 200 ? 1 : 7))
            trunc_ok &= glide_is_error(glide_decompress(streams[k], t, y, n * 4)) != 0;
    CHECK(trunc_ok, "every truncation is an error");

    /* random mutations, CRC re-sealed so the deeper checks are exercised */
    unsigned decoded = 0, rejected = 0;
    for (int it = 0; it < 20000; it++) {
        int k = it % 5;
        memcpy(m, streams[k], lens[k]);
        int flips = 1 + rnd() % 4;
        for (int f = 0; f < flips; f++) {
            size_t pos = rnd() % lens[k];
            if (rnd() % 2) m[pos] ^= (uint8_t)(1u << (rnd() % 8));
            else m[pos] = (uint8_t)rnd();
        }
        size_t len = lens[k];
        if (rnd() % 8 == 0) len = rnd() % len;
        reseal(m, len);
        size_t r = glide_decompress(m, len, y, n * 4);
        if (glide_is_error(r)) rejected++;
        else decoded++;
    }
    CHECK(rejected + decoded == 20000, "20000 mutated streams handled (%u decoded, %u rejected)", decoded, rejected);
    printf("mutations: %u decoded, %u rejected\n", decoded, rejected);

    for (int k = 0; k < 5; k++) free(streams[k]);
    free(s); free(m); free(x); free(y);
    return CHECK_DONE();
}
