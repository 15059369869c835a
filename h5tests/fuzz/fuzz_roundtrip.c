/* Fuzz target: whatever the values and parameters, a chunk compresses, the
 * stream is the same bytes every time, and it decodes to values within the
 * bound: |x - x'| <= eb_abs for every finite, non-fill x (checked in double
 * on the decoded value, as a user would), and NaN, ±Inf and fill values come
 * back bit for bit. A violation aborts, so libFuzzer keeps the input.
 *
 * The first bytes choose the parameters; the rest become the values, either
 * as raw bit patterns (NaN payloads, denormals, ±FLT_MAX, anything) or, with
 * the "walk" bit, as a random walk with a chosen scale (smooth data, where
 * values sit near the edges of quantization bins). */
#include "glide.h"
#include "codec.h"
#include <float.h>
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#define MAX_COUNT 6000

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static uint64_t bits_of(const void *v, int f64)
{
    if (f64) {
        uint64_t b;
        memcpy(&b, v, 8);
        return b;
    }
    uint32_t b;
    memcpy(&b, v, 4);
    return b;
}

static double value(const void *v, size_t i, int f64) { return f64 ? ((const double *)v)[i] : ((const float *)v)[i]; }

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size < 8) return 0;
    const uint8_t b0 = data[0], b1 = data[1], b2 = data[2], b3 = data[3];
    const int f64 = b0 & 1, walk = b0 >> 7 & 1;
    const unsigned rank = 1 + (b1 & 3);
    uint64_t dims[4], count = 1;
    for (unsigned a = 0; a < rank; a++) {
        dims[a] = 1 + data[4 + a] % 40;
        if (count * dims[a] > MAX_COUNT) dims[a] = 1 + MAX_COUNT / count / 2;
        count *= dims[a];
    }
    const uint8_t *v = data + 8, *end = data + size;
    const size_t nv = (size_t)(end - v), esz = f64 ? 8 : 4;

    glide_params p;
    glide_params_init(&p, f64 ? GLIDE_FLOAT64 : GLIDE_FLOAT32, rank, dims);
    p.mode = b0 >> 1 & 1 ? GLIDE_MODE_REL : GLIDE_MODE_ABS;
    p.predictor = (glide_predictor)((b0 >> 2 & 3) % 3);
    p.codebook = (glide_codebook)((b0 >> 4 & 3) % 3);
    p.backend = GLIDE_BACKEND_AUTO; /* the GPU where there is one, and then the CPU's bytes are checked too */
    p.block_log2 = b1 >> 2 & 7; /* 0: the default; others may be refused for the rank */
    p.eb = b3 == 255 ? 0.0 : (1 + b3 % 9) * pow(10.0, -(double)(b2 % 13));
    if (walk && p.mode == GLIDE_MODE_ABS) p.eb *= ldexp(1.0, (int)(b2 >> 4) * 4 - 30); /* near the walk's scale */

    uint8_t *x = malloc(count * esz);
    if (!x) return 0;
    if (walk) {
        /* steps of int8 bytes, scale 2^(k - 60): from denormal-sized to huge */
        const double scale = ldexp(1.0, (int)(b2 >> 4) * 8 - 60);
        double acc = 0;
        for (uint64_t i = 0; i < count; i++) {
            acc += nv ? (double)(int8_t)v[i % nv] : 1.0;
            if (f64) ((double *)x)[i] = acc * scale;
            else ((float *)x)[i] = (float)(acc * scale);
        }
    } else {
        for (uint64_t i = 0; i < count * esz; i++) x[i] = nv ? v[i % nv] : 0;
    }
    p.has_fill = b0 >> 6 & 1;
    p.fill_bits = bits_of(x + (count / 2) * esz, f64); /* a value that occurs */

    const size_t cap = glide_compress_bound(&p);
    uint8_t *s1 = malloc(cap), *s2 = malloc(cap), *y = malloc(count * esz);
    if (!s1 || !s2 || !y) goto out;
    size_t n1 = glide_compress(&p, x, count * esz, s1, cap);
    if (glide_is_error(n1)) {
        if (glide_get_error(n1) != GLIDE_ERR_PARAM) abort(); /* only an anchor stride the rank cannot take */
        goto out;
    }
    size_t n2 = glide_compress(&p, x, count * esz, s2, cap);
    if (n2 != n1 || memcmp(s1, s2, n1) != 0) abort(); /* deterministic */
    if (glide_backend_resolve(GLIDE_BACKEND_AUTO) != GLIDE_BACKEND_CPU) {
        p.backend = GLIDE_BACKEND_CPU; /* the GPU's stream is the CPU codec's, byte for byte */
        n2 = glide_compress(&p, x, count * esz, s2, cap);
        if (n2 != n1 || memcmp(s1, s2, n1) != 0) abort();
    }
    if (glide_decompress(s1, n1, y, count * esz) != count * esz) abort();
    /* format 5 (symbol planes) changes only the coding: the same values
     * wherever both are coded (not RAW, and not format 6's slices, which
     * format 5 does not have) */
    glide_values mv; /* the chunk's fill value, sentinel and range, as glide_compress decides them */
    if (f64) glide_values_scan_f64(&p, (const double *)x, count, &mv);
    else glide_values_scan_f32(&p, (const float *)x, count, &mv);
    if (s1[GLIDE_HDR_METHOD] != GLIDE_METHOD_RAW && s1[GLIDE_HDR_METHOD] != GLIDE_METHOD_SLICE) {
        glide_encode_opts o = glide_default_encode_opts();
        o.planes = 1;
        o.slice = 0;
        o.runs = 0; /* format 5's symbols, whether or not s1 ran them */
        o.values = &mv;
        glide_params q = p;
        q.has_fill = mv.has_fill;
        q.fill_bits = mv.fill_bits;
        size_t n5 = glide_cpu_compress(&q, &o, x, s2, cap);
        if (glide_is_error(n5)) abort();
        /* the block trial (3-D) may choose another method than format 5's estimates */
        if (s2[GLIDE_HDR_METHOD] == s1[GLIDE_HDR_METHOD]) {
            uint8_t *y5 = malloc(count * esz);
            if (!y5) goto out;
            /* format 7 where a sentinel sits beside fill points */
            const int ok = s2[GLIDE_HDR_FORMAT_VERSION] == (mv.has_fill2 ? GLIDE_FORMAT_FILL2 : GLIDE_FORMAT_PLANES) &&
                           glide_decompress(s2, n5, y5, count * esz) == count * esz && !memcmp(y, y5, count * esz);
            free(y5);
            if (!ok) abort();
        }
    }

    /* the bound as the codec defines it: REL scales eb by the range of the
     * finite values that are neither fill nor the sentinel it found, which
     * come back exact */
    const int has_s = mv.has_fill2 || (mv.has_fill && (!p.has_fill || mv.fill_bits != p.fill_bits));
    const uint64_t sbits = mv.has_fill2 ? mv.fill2_bits : mv.fill_bits;
    double lo = INFINITY, hi = -INFINITY;
    for (uint64_t i = 0; i < count; i++) {
        const double d = value(x, i, f64);
        const uint64_t bi = bits_of(x + i * esz, f64);
        if (!isfinite(d) || (p.has_fill && bi == p.fill_bits) || (has_s && bi == sbits)) continue;
        lo = d < lo ? d : lo;
        hi = d > hi ? d : hi;
    }
    double eb = p.mode == GLIDE_MODE_ABS ? p.eb : (hi >= lo ? p.eb * (hi - lo) : 0.0);
    if (!(eb <= DBL_MAX)) eb = DBL_MAX;
    for (uint64_t i = 0; i < count; i++) {
        const double a = value(x, i, f64), b = value(y, i, f64);
        const uint64_t bi = bits_of(x + i * esz, f64);
        const int exact = !isfinite(a) || (p.has_fill && bi == p.fill_bits) || (has_s && bi == sbits);
        if (exact ? bits_of(x + i * esz, f64) != bits_of(y + i * esz, f64) : !(fabs(a - b) <= eb)) abort();
    }
out:
    free(x);
    free(s1);
    free(s2);
    free(y);
    return 0;
}
