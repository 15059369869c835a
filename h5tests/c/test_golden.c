/* Golden v1 streams: files written by format v1 must decode, bit for bit, in
 * every later version; the current encoder must also reproduce them byte
 * for byte (a deliberate encoder change regenerates them with --write and
 * says so in its commit). The decode check must never be regenerated away:
 * a stream the encoder no longer writes moves to golden/archive/, where it
 * is only decoded (NAME.glide to NAME.output), forever.
 * The GPU backend is held to the same files.
 *   test_golden DIR            check
 *   test_golden --write DIR    regenerate */
#include "check.h"
#include "glide.h"
#include "codec.h"
#include <dirent.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

typedef struct {
    const char *name;
    glide_dtype dt;
    unsigned rank;
    uint64_t dims[4];
    glide_mode mode;
    double eb;
    glide_predictor pred;
    int book, fill;
} gcase;

static const gcase cases[] = {
    {"f32_3d_interp_dict_rel1e-3", GLIDE_FLOAT32, 3, {20, 24, 28}, GLIDE_MODE_REL, 1e-3, GLIDE_PRED_INTERP, GLIDE_BOOK_DICT, 0},
    {"f32_3d_interp_custom_abs1e-2", GLIDE_FLOAT32, 3, {20, 24, 28}, GLIDE_MODE_ABS, 1e-2, GLIDE_PRED_INTERP, GLIDE_BOOK_CUSTOM, 0},
    {"f32_3d_lorenzo_dict_rel1e-4", GLIDE_FLOAT32, 3, {20, 24, 28}, GLIDE_MODE_REL, 1e-4, GLIDE_PRED_LORENZO, GLIDE_BOOK_DICT, 0},
    {"f64_2d_interp_auto_rel1e-5", GLIDE_FLOAT64, 2, {70, 90}, GLIDE_MODE_REL, 1e-5, GLIDE_PRED_INTERP, GLIDE_BOOK_AUTO, 0},
    {"f32_1d_interp_auto_rel1e-2", GLIDE_FLOAT32, 1, {5000}, GLIDE_MODE_REL, 1e-2, GLIDE_PRED_INTERP, GLIDE_BOOK_AUTO, 0},
    {"f32_4d_fill_nan_interp_rel1e-3", GLIDE_FLOAT32, 4, {3, 1, 30, 33}, GLIDE_MODE_REL, 1e-3, GLIDE_PRED_INTERP, GLIDE_BOOK_AUTO, 1},
    {"f32_noise_raw", GLIDE_FLOAT32, 2, {40, 40}, GLIDE_MODE_ABS, 1e-9, GLIDE_PRED_INTERP, GLIDE_BOOK_AUTO, 0},
    /* format 2: four axes, slabs kept apart */
    {"f32_4d_slabs_interp_auto_rel1e-3", GLIDE_FLOAT32, 4, {3, 13, 20, 24}, GLIDE_MODE_REL, 1e-3, GLIDE_PRED_INTERP, GLIDE_BOOK_AUTO, 0},
    {"f32_4d_slabs_lorenzo_dict_rel1e-4", GLIDE_FLOAT32, 4, {4, 9, 17, 30}, GLIDE_MODE_REL, 1e-4, GLIDE_PRED_LORENZO, GLIDE_BOOK_DICT, 0},
    /* format 3: fill-aware stencils around a land mask of fill 1e20 */
    {"f32_2d_mask_interp_rel1e-3", GLIDE_FLOAT32, 2, {70, 90}, GLIDE_MODE_REL, 1e-3, GLIDE_PRED_INTERP, GLIDE_BOOK_AUTO, 2},
    /* format 7: that land as a sentinel (1e20, not the fill value) beside
     * fill points (0, as HDF5 pads an edge chunk) */
    {"f32_2d_sentinel_fill2_rel1e-3", GLIDE_FLOAT32, 2, {70, 90}, GLIDE_MODE_REL, 1e-3, GLIDE_PRED_INTERP, GLIDE_BOOK_AUTO, 3},
};

#define MASK_FILL 1e20f /* as in the CMIP ocean files (tos) */

static double value(const gcase *c, size_t i, size_t n)
{
    if (!strcmp(c->name, "f32_noise_raw")) {
        uint64_t h = (i + 1) * 0x9E3779B97F4A7C15ull;
        h ^= h >> 31; h *= 0xBF58476D1CE4E5B9ull; h ^= h >> 29;
        return (double)(h >> 11) / 9007199254740992.0;
    }
    double t = (double)i / (double)n;
    double v = 300 + 20 * sin(40 * t) + 5 * cos(300 * t) + 0.5 * sin(2000 * t * t);
    if (c->fill >= 2) { /* a smooth 2-D field, a coast and an island */
        double y = (double)(i / c->dims[1]), x = (double)(i % c->dims[1]);
        v = 290 + 8 * sin(y / 9) * cos(x / 13) + 0.3 * sin(x * y / 7);
        if (x < 12 + 6 * sin(y / 5) || (x - 55) * (x - 55) + (y - 30) * (y - 30) < 90) v = MASK_FILL;
        if (c->fill == 3 && x >= 80) v = 0.0; /* the padding */
        return v;
    }
    if (c->fill) {
        if (i % 13 == 0 || (i > n / 2 && i < n / 2 + 40)) v = 0.0; /* fill value 0 */
        if (i % 97 == 5) v = NAN;
        if (i % 101 == 7) v = -INFINITY;
    }
    return v;
}

static unsigned char *slurp(const char *path, size_t *n)
{
    FILE *f = fopen(path, "rb");
    if (!f) return NULL;
    fseek(f, 0, SEEK_END);
    long len = ftell(f);
    fseek(f, 0, SEEK_SET);
    unsigned char *b = malloc(len > 0 ? (size_t)len : 1);
    *n = fread(b, 1, (size_t)len, f);
    fclose(f);
    return b;
}

static void spit(const char *path, const void *b, size_t n)
{
    FILE *f = fopen(path, "wb");
    if (!f || fwrite(b, 1, n, f) != n) { fprintf(stderr, "cannot write %s\n", path); exit(1); }
    fclose(f);
}

/* Streams made elsewhere (golden/gpu/: by the GPU backend, on a GPU
 * machine, with h5tests/gpu/run.sh): each NAME.glide must decode to
 * NAME.output bit for bit, and (reencode) re-encoding NAME.input with the
 * parameters the stream records must give NAME.glide byte for byte. */
static void check_stream_dir(const char *dir, int reencode)
{
    DIR *d = opendir(dir);
    CHECK(d != NULL, "stream directory %s", dir);
    if (!d) return;
    struct dirent *e;
    char path[4096];
    int count = 0;
    while ((e = readdir(d))) {
        size_t nl = strlen(e->d_name);
        if (strlen(dir) + nl > 2048) continue;
        if (nl < 7 || strcmp(e->d_name + nl - 6, ".glide")) continue;
        int base = (int)(nl - 6);
        size_t gl = 0, il = 0, ol = 0;
        snprintf(path, sizeof path, "%s/%s", dir, e->d_name);
        unsigned char *g = slurp(path, &gl);
        unsigned char *gi = NULL;
        if (reencode) {
            snprintf(path, sizeof path, "%s/%.*s.input", dir, base, e->d_name);
            gi = slurp(path, &il);
        }
        snprintf(path, sizeof path, "%s/%.*s.output", dir, base, e->d_name);
        unsigned char *go = slurp(path, &ol);
        CHECK(g && (gi || !reencode) && go, "%.*s: stream, %soutput present", base, e->d_name,
              reencode ? "input and " : "");
        if (!reencode) il = ol;
        glide_params p;
        size_t out_n = g ? glide_stream_info(g, gl, &p) : 0;
        CHECK(g && !glide_is_error(out_n) && out_n == il && out_n == ol, "%.*s: header parses, sizes agree", base,
              e->d_name);
        if (g && (gi || !reencode) && go && !glide_is_error(out_n) && out_n == il && out_n == ol) {
            count++;
            unsigned char *out = malloc(ol), *s = malloc(glide_compress_bound(&p));
            p.backend = GLIDE_BACKEND_CPU;
            size_t dn = glide_decompress_with(GLIDE_BACKEND_CPU, g, gl, out, ol);
            CHECK(dn == ol && memcmp(out, go, ol) == 0, "%.*s: decodes bit for bit", base, e->d_name);
            if (reencode) {
                /* a stream of an older format: that format's encoder (no slices before format 6) */
                glide_encode_opts o = glide_default_encode_opts();
                if (g[GLIDE_HDR_FORMAT_VERSION] < GLIDE_FORMAT_SLICE) o.slice = 0;
                size_t r = glide_cpu_compress(&p, &o, gi, s, glide_compress_bound(&p));
                CHECK(r == gl && memcmp(s, g, gl) == 0, "%.*s: CPU encoder reproduces it byte for byte", base,
                      e->d_name);
            }
            free(out);
            free(s);
        }
        free(g);
        free(gi);
        free(go);
    }
    closedir(d);
    CHECK(count > 0, "%d streams checked in %s", count, dir);
}

int main(int argc, char **argv)
{
    int write = argc > 2 && !strcmp(argv[1], "--write");
    const char *dir = argc > 1 ? argv[argc - 1] : ".";
    char path[1024];
    for (size_t k = 0; k < sizeof cases / sizeof cases[0]; k++) {
        const gcase *c = &cases[k];
        size_t n = 1, esz = c->dt == GLIDE_FLOAT32 ? 4 : 8;
        for (unsigned i = 0; i < c->rank; i++) n *= c->dims[i];
        /* the input, little-endian on disk (hosts are little-endian in practice) */
        unsigned char *in = malloc(n * esz);
        for (size_t i = 0; i < n; i++) {
            double v = value(c, i, n);
            if (esz == 4) { float f = (float)v; memcpy(in + 4 * i, &f, 4); }
            else memcpy(in + 8 * i, &v, 8);
        }
        glide_params p;
        glide_params_init(&p, c->dt, c->rank, c->dims);
        p.mode = c->mode; p.eb = c->eb; p.predictor = c->pred; p.codebook = c->book;
        p.backend = GLIDE_BACKEND_CPU;
        if (c->fill == 1 || c->fill == 3) { p.has_fill = 1; p.fill_bits = 0; }
        if (c->fill == 2) {
            uint32_t b;
            float f = MASK_FILL;
            memcpy(&b, &f, 4);
            p.has_fill = 1;
            p.fill_bits = b;
        }
        size_t cap = glide_compress_bound(&p);
        unsigned char *s = malloc(cap), *out = malloc(n * esz);
        size_t sl = glide_compress(&p, in, n * esz, s, cap);
        CHECK(!glide_is_error(sl), "%s: compress", c->name);
        if (write) {
            size_t d = glide_decompress(s, sl, out, n * esz);
            CHECK(d == n * esz, "%s: decompress", c->name);
            snprintf(path, sizeof path, "%s/%s.input", dir, c->name); spit(path, in, n * esz);
            snprintf(path, sizeof path, "%s/%s.glide", dir, c->name); spit(path, s, sl);
            snprintf(path, sizeof path, "%s/%s.output", dir, c->name); spit(path, out, n * esz);
            printf("wrote %s (%zu -> %zu bytes)\n", c->name, n * esz, sl);
        } else {
            size_t gl = 0, il = 0, ol = 0;
            snprintf(path, sizeof path, "%s/%s.glide", dir, c->name);
            unsigned char *g = slurp(path, &gl);
            snprintf(path, sizeof path, "%s/%s.input", dir, c->name);
            unsigned char *gi = slurp(path, &il);
            snprintf(path, sizeof path, "%s/%s.output", dir, c->name);
            unsigned char *go = slurp(path, &ol);
            CHECK(g && gi && go, "%s: golden files present in %s", c->name, dir);
            if (g && gi && go) {
                CHECK(il == n * esz && memcmp(gi, in, il) == 0, "%s: input generator unchanged", c->name);
                size_t d = glide_decompress(g, gl, out, n * esz);
                CHECK(d == ol && memcmp(out, go, ol) == 0, "%s: stream decodes bit for bit", c->name);
                size_t r = glide_compress(&p, gi, il, s, cap);
                CHECK(r == gl && memcmp(s, g, gl) == 0, "%s: encoder reproduces the stream byte for byte", c->name);
            }
            free(g); free(gi); free(go);
        }
        free(in); free(s); free(out);
    }
    if (!write) {
        snprintf(path, sizeof path, "%s/gpu", dir);
        check_stream_dir(path, 1);
        snprintf(path, sizeof path, "%s/archive", dir);
        check_stream_dir(path, 0);
    }
    return CHECK_DONE();
}
