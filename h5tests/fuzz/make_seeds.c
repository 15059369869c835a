/* Writes the fuzz seed corpora (committed in corpus/): small streams of
 * every kind for fuzz_decompress, and parameter + value inputs for
 * fuzz_roundtrip. Rerun after a format change:
 *   make_seeds CORPUS_DIR */
#include "glide.h"
#include "codec.h"
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int put(const char *dir, const char *sub, const char *name, const void *p, size_t n)
{
    char path[4096];
    snprintf(path, sizeof path, "%s/%s/%s", dir, sub, name);
    FILE *f = fopen(path, "wb");
    if (!f || fwrite(p, 1, n, f) != n) return fprintf(stderr, "cannot write %s\n", path), 1;
    return fclose(f) != 0;
}

typedef struct {
    unsigned rank;
    uint64_t d[3];
} seed_shape;

/* An interpolation stream of a smooth float32 field (with fill, NaN and inf
 * if fill), REL 1e-3, encoded with options o, written as corpus entry name. */
static int interp_seed(const char *dir, const char *name, const seed_shape *sh, int fill, glide_codebook book,
                       const glide_encode_opts *o)
{
    glide_params p;
    glide_params_init(&p, GLIDE_FLOAT32, sh->rank, sh->d);
    p.predictor = GLIDE_PRED_INTERP;
    p.codebook = book;
    p.eb = 1e-3;
    size_t n = 1;
    for (unsigned a = 0; a < sh->rank; a++) n *= sh->d[a];
    float *x = malloc(n * sizeof *x);
    for (size_t i = 0; i < n; i++) x[i] = (float)(sin(0.3 * (double)i) + 0.01 * (double)(i % 7));
    if (fill) {
        x[n / 2] = NAN, x[n / 3] = INFINITY;
        for (size_t i = 1; i < n; i += 5) x[i] = -999.0f;
        uint32_t b;
        memcpy(&b, &x[1], 4);
        p.has_fill = 1;
        p.fill_bits = b;
    }
    size_t cap = glide_compress_bound(&p);
    unsigned char *out = malloc(cap);
    size_t len = glide_cpu_compress(&p, o, x, out, cap);
    int bad = glide_is_error(len) ? 1 : put(dir, "decompress", name, out, len);
    free(out);
    free(x);
    return bad;
}

int main(int argc, char **argv)
{
    if (argc != 2) return fprintf(stderr, "usage: make_seeds CORPUS_DIR\n"), 2;
    const char *dir = argv[1];
    static const seed_shape shapes[] = {{1, {7}}, {2, {5, 9}}, {3, {9, 10, 11}}, {3, {1, 17, 33}}};
    int bad = 0, k = 0;
    for (unsigned s = 0; s < 4; s++)
        for (int f64 = 0; f64 < 2; f64++)
            for (int pred = 0; pred < 3; pred++)
                for (int book = 0; book < 3; book++) {
                    if ((s + pred + book + f64) % 2) continue; /* half the combinations is plenty */
                    glide_params p;
                    glide_params_init(&p, f64 ? GLIDE_FLOAT64 : GLIDE_FLOAT32, shapes[s].rank, shapes[s].d);
                    p.predictor = (glide_predictor)pred;
                    p.codebook = (glide_codebook)book;
                    p.mode = (k % 3) ? GLIDE_MODE_REL : GLIDE_MODE_ABS;
                    p.eb = (k % 3) ? 1e-3 : 1e-2;
                    p.backend = GLIDE_BACKEND_CPU;
                    size_t n = 1;
                    for (unsigned a = 0; a < shapes[s].rank; a++) n *= shapes[s].d[a];
                    double *v = malloc(n * sizeof *v);
                    for (size_t i = 0; i < n; i++) v[i] = sin(0.3 * (double)i) + 0.01 * (double)(i % 7);
                    if (k % 4 == 1) v[n / 2] = NAN, v[n / 3] = INFINITY; /* outliers */
                    if (k % 5 == 2) { p.has_fill = 1; v[1] = -999.0; }
                    void *x = v;
                    float *xf = NULL;
                    if (!f64) {
                        xf = malloc(n * sizeof *xf);
                        for (size_t i = 0; i < n; i++) xf[i] = (float)v[i];
                        x = xf;
                    }
                    if (p.has_fill) {
                        if (f64) memcpy(&p.fill_bits, &v[1], 8);
                        else { uint32_t b; memcpy(&b, &xf[1], 4); p.fill_bits = b; }
                    }
                    size_t cap = glide_compress_bound(&p);
                    unsigned char *out = malloc(cap);
                    size_t len = glide_compress(&p, x, n * (f64 ? 8 : 4), out, cap);
                    char name[64];
                    snprintf(name, sizeof name, "seed%02d.glide", k++);
                    bad |= glide_is_error(len) ? 1 : put(dir, "decompress", name, out, len);
                    free(out); free(v); free(xf);
                }
    /* format 4: every level blended (both residual splines), with fill,
     * NaN and inf, so that the decoder's blended paths are fuzzed whatever
     * tuning picks for such small inputs */
    for (unsigned s = 1; s < 4; s++)
        for (int force = 1; force <= 2; force++)
            for (int fill = 0; fill < 2; fill++) {
                glide_encode_opts o = glide_default_encode_opts();
                o.force_blend = force;
                o.planes = 0;
                char name[64];
                snprintf(name, sizeof name, "blend%u%d%d.glide", s, force, fill);
                bad |= interp_seed(dir, name, &shapes[s], fill, GLIDE_BOOK_AUTO, &o);
            }
    /* format 5: symbol planes (dictionary, custom and auto books), with
     * fill, NaN and inf */
    for (unsigned s = 1; s < 4; s++)
        for (int book = 0; book < 3; book++)
            for (int fill = 0; fill < 2; fill++) {
                glide_encode_opts o = glide_default_encode_opts();
                o.planes = 1;
                char name[64];
                snprintf(name, sizeof name, "planes%u%d%d.glide", s, book, fill);
                bad |= interp_seed(dir, name, &shapes[s], fill,
                                   book == 0 ? GLIDE_BOOK_DICT : book == 1 ? GLIDE_BOOK_CUSTOM : GLIDE_BOOK_AUTO, &o);
            }
    /* format 6: the slice method, both orders, with fill, NaN and inf */
    static const seed_shape cubes[] = {{3, {9, 10, 11}}, {3, {17, 9, 18}}};
    for (unsigned s = 0; s < 2; s++)
        for (int order = 1; order <= 2; order++)
            for (int fill = 0; fill < 2; fill++) {
                glide_encode_opts o = glide_default_encode_opts();
                o.slice = order;
                char name[64];
                snprintf(name, sizeof name, "slice%u%d%d.glide", s, order, fill);
                bad |= interp_seed(dir, name, &cubes[s], fill, GLIDE_BOOK_AUTO, &o);
            }
    /* format 8: run-coded planes, a bump on a flat floor at a loose bound
     * (ZERO runs), with a mask of fill (FILL runs), NaN and inf */
    static const seed_shape flat[] = {{1, {5000}}, {2, {40, 50}}, {3, {12, 20, 21}}};
    for (unsigned s = 0; s < 3; s++)
        for (int book = 0; book < 2; book++)
            for (int fill = 0; fill < 2; fill++) {
                glide_params p;
                glide_params_init(&p, GLIDE_FLOAT32, flat[s].rank, flat[s].d);
                p.codebook = book ? GLIDE_BOOK_CUSTOM : GLIDE_BOOK_AUTO;
                p.eb = 1e-2;
                p.backend = GLIDE_BACKEND_CPU;
                size_t n = 1;
                for (unsigned a = 0; a < flat[s].rank; a++) n *= flat[s].d[a];
                float *x = malloc(n * sizeof *x);
                for (size_t i = 0; i < n; i++) {
                    const double t = ((double)i - 0.4 * (double)n) / (0.05 * (double)n);
                    x[i] = (float)(2.0 + 30.0 * exp(-t * t));
                    if (fill && i % 97 < 30) x[i] = -999.0f;
                }
                if (fill) {
                    x[n / 2] = NAN, x[n / 3] = INFINITY;
                    const float fv = -999.0f;
                    uint32_t b;
                    memcpy(&b, &fv, 4);
                    p.has_fill = 1;
                    p.fill_bits = b;
                }
                size_t cap = glide_compress_bound(&p);
                unsigned char *out = malloc(cap);
                size_t len = glide_compress(&p, x, n * sizeof *x, out, cap);
                char name[64];
                snprintf(name, sizeof name, "runs%u%d%d.glide", s, book, fill);
                /* the seed is worth keeping only as format 8 */
                bad |= glide_is_error(len) || out[4] != 8 ? 1 : put(dir, "decompress", name, out, len);
                free(out);
                free(x);
            }
    /* random bytes (noise: a RAW stream) */
    {
        uint64_t d = 300;
        glide_params p;
        glide_params_init(&p, GLIDE_FLOAT32, 1, &d);
        p.backend = GLIDE_BACKEND_CPU;
        uint32_t x[300], r = 12345;
        for (int i = 0; i < 300; i++) r = r * 1103515245u + 12345u, x[i] = r;
        unsigned char out[2048];
        size_t len = glide_compress(&p, x, sizeof x, out, sizeof out);
        bad |= glide_is_error(len) ? 1 : put(dir, "decompress", "raw.glide", out, len);
    }
    /* roundtrip inputs: 8 parameter bytes (fuzz_roundtrip.c), then values */
    for (int i = 0; i < 12; i++) {
        unsigned char in[8 + 256];
        in[0] = (unsigned char)((i & 1) | (i % 4 == 1) << 1 | (i % 3) << 2 | (i % 3) << 4 | (i % 5 == 0) << 6 | (i < 6) << 7);
        in[1] = (unsigned char)(i % 4);
        in[2] = (unsigned char)(i * 37);
        in[3] = (unsigned char)(i == 11 ? 255 : i);
        for (int a = 0; a < 4; a++) in[4 + a] = (unsigned char)(3 + 7 * a + i);
        for (int j = 0; j < 256; j++) in[8 + j] = (unsigned char)(i < 6 ? (j * 7 + i) % 9 - 4 : (j * 131 + i * 17) & 255);
        char name[64];
        snprintf(name, sizeof name, "seed%02d.in", i);
        bad |= put(dir, "roundtrip", name, in, sizeof in);
    }
    return bad;
}
