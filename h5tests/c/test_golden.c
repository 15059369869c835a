/* Golden streams (h5tests/golden/README.md): files written by every format
 * and dictionary must decode, bit for bit, in every later version, and the
 * current encoder must reproduce the current streams byte for byte (a
 * deliberate encoder change regenerates them with --write and says so in
 * its commit). The decode check must never be regenerated away: a stream
 * the encoder no longer writes moves to golden/archive/, where it is only
 * decoded, forever.
 *
 * Only the streams are stored. manifest.txt gives, for each, the size and
 * SHA-256 of its decoded output and the generator of its input (below), so
 * the test also holds the output to the bound against that input, and
 * re-encodes the input: NAME.glide (the current CPU cases) with the case's
 * parameters, gpu/NAME.glide (made by the GPU backend: test_gpu_codec
 * --write-golden) with those the stream records. The GPU backend is held to
 * the same files (GLIDE_BACKEND=gpu decodes the current cases on it).
 *   test_golden DIR            check
 *   test_golden --write DIR    rewrite the current cases' streams and their
 *                              manifest lines; add lines for gpu/ and
 *                              archive/ streams that have none */
#include "check.h"
#include "glide.h"
#include "codec.h"
#include "sha256.h"
#include <dirent.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

/* ---- inputs ---- */

/* The CPU cases: NAME.glide, compressed from value() with these parameters. */
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
#define NCASES (sizeof cases / sizeof cases[0])

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

/* The inputs of gpu/NAME.glide, as gpu_golden() in h5tests/gpu/test_gpu_codec.c
 * makes them (keep the two in step): smooth() draws one number per value
 * from an xorshift generator seeded 0x1234567 at the start of that test,
 * which runs the cases in this order, one after the other. */
typedef struct {
    const char *name;
    glide_dtype dt;
    unsigned rank;
    uint64_t dims[4];
    int fill; /* 1: -999 and NaN; 2: a land mask of 1e20 */
} gpu_case;

static const gpu_case gpu_cases[] = {
    {"gpu_f32_64c_interp_auto_rel1e-3", GLIDE_FLOAT32, 3, {64, 64, 64}, 0},
    {"gpu_f32_91c_lorenzo_dict_rel1e-4", GLIDE_FLOAT32, 3, {91, 91, 91}, 0},
    {"gpu_f64_2d_interp_custom_abs1e-2", GLIDE_FLOAT64, 2, {130, 65}, 0},
    {"gpu_f32_1d_interp_auto_rel1e-2", GLIDE_FLOAT32, 1, {12293}, 0},
    {"gpu_f32_3d_fill_nan_rel1e-3", GLIDE_FLOAT32, 3, {33, 20, 47}, 1},
    {"gpu_f32_3d_blog5_abs1e-1", GLIDE_FLOAT32, 3, {40, 36, 70}, 0},
    {"gpu_f32_4d_slabs_interp_auto_rel1e-3", GLIDE_FLOAT32, 4, {3, 13, 40, 36}, 0},
    {"gpu_f32_4d_slabs_lorenzo_rel1e-4", GLIDE_FLOAT32, 4, {5, 9, 20, 33}, 0},
    {"gpu_f32_3d_mask_rel1e-3", GLIDE_FLOAT32, 3, {6, 70, 90}, 2},
    {"gpu_f32_3d_mask_blog6_rel1e-2", GLIDE_FLOAT32, 3, {40, 70, 90}, 2},
};
#define NGPU (sizeof gpu_cases / sizeof gpu_cases[0])

static uint64_t xorshift(uint64_t *s)
{
    *s ^= *s << 13;
    *s ^= *s >> 7;
    *s ^= *s << 17;
    return *s;
}

static double smooth(uint64_t *rng, uint64_t i, uint64_t n0, uint64_t n1, uint64_t n2)
{
    uint64_t x = i % n2, y = (i / n2) % n1, z = i / (n1 * n2);
    double a = (double)x / (double)n2, b = (double)y / (double)(n1 ? n1 : 1), c = (double)z / (double)(n0 ? n0 : 1);
    return 280 + 15 * sin(6.1 * a + 2 * b) * cos(4.3 * b - c) + 3 * sin(40 * a * c) + 0.01 * (double)(xorshift(rng) % 1000) / 1000;
}

static uint64_t count_of(unsigned rank, const uint64_t *dims)
{
    uint64_t n = 1;
    for (unsigned i = 0; i < rank; i++) n *= dims[i];
    return n;
}

/* The input named name (a case of either table), malloc'd, little-endian
 * (hosts are little-endian in practice); NULL if no generator has that name. */
static unsigned char *make_input(const char *name, size_t *bytes)
{
    for (size_t k = 0; k < NCASES; k++) {
        const gcase *c = &cases[k];
        if (strcmp(c->name, name)) continue;
        size_t n = count_of(c->rank, c->dims), esz = c->dt == GLIDE_FLOAT32 ? 4 : 8;
        unsigned char *in = malloc(n * esz);
        for (size_t i = 0; i < n; i++) {
            double v = value(c, i, n);
            if (esz == 4) { float f = (float)v; memcpy(in + 4 * i, &f, 4); }
            else memcpy(in + 8 * i, &v, 8);
        }
        *bytes = n * esz;
        return in;
    }
    uint64_t rng = 0x1234567;
    for (size_t k = 0; k < NGPU; k++) {
        const gpu_case *g = &gpu_cases[k];
        uint64_t n = count_of(g->rank, g->dims);
        if (strcmp(g->name, name)) {
            for (uint64_t i = 0; i < n; i++) xorshift(&rng);
            continue;
        }
        uint64_t n2 = g->dims[g->rank - 1], n1 = g->rank > 1 ? g->dims[g->rank - 2] : 1;
        size_t esz = g->dt == GLIDE_FLOAT64 ? 8 : 4;
        unsigned char *x = malloc(n * esz);
        for (uint64_t i = 0; i < n; i++) {
            double v = smooth(&rng, i, n / (n1 * n2), n1, n2);
            if (g->fill == 1 && i % 17 == 3) v = -999.0;
            if (g->fill == 1 && i % 101 == 5) v = NAN;
            if (g->fill == 2) { /* a coast and an island, the same in every plane */
                double y = (double)(i / n2 % n1), xx = (double)(i % n2);
                if (xx < 12 + 6 * sin(y / 5) || (xx - 55) * (xx - 55) + (y - 30) * (y - 30) < 90) v = 1e20;
            }
            if (esz == 8) memcpy(x + 8 * i, &v, 8);
            else { float f = (float)v; memcpy(x + 4 * i, &f, 4); }
        }
        *bytes = n * esz;
        return x;
    }
    return NULL;
}

static void case_params(const gcase *c, glide_params *p)
{
    glide_params_init(p, c->dt, c->rank, c->dims);
    p->mode = c->mode; p->eb = c->eb; p->predictor = c->pred; p->codebook = c->book;
    p->backend = GLIDE_BACKEND_CPU;
    if (c->fill == 1 || c->fill == 3) { p->has_fill = 1; p->fill_bits = 0; }
    if (c->fill == 2) {
        uint32_t b;
        float f = MASK_FILL;
        memcpy(&b, &f, 4);
        p->has_fill = 1;
        p->fill_bits = b;
    }
}

/* ---- files ---- */

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

/* manifest.txt: one line a stream, "PATH BYTES SHA256 INPUT"; PATH relative
 * to the golden folder, BYTES and SHA256 the decoded output's, INPUT the
 * generator (make_input) or "-" where none makes the stream's input. */
typedef struct {
    char path[160], sha[65], input[80];
    size_t bytes;
    int seen;
} entry;

static entry *entries;
static size_t n_entries;

static void read_manifest(const char *dir)
{
    char path[4096], line[512];
    snprintf(path, sizeof path, "%s/manifest.txt", dir);
    FILE *f = fopen(path, "r");
    if (!f) return;
    while (fgets(line, sizeof line, f)) {
        entry e = {{0}, {0}, {0}, 0, 0};
        if (line[0] == '#' || line[0] == '\n') continue;
        if (sscanf(line, "%159s %zu %64s %79s", e.path, &e.bytes, e.sha, e.input) != 4 || strlen(e.sha) != 64) {
            CHECK(0, "manifest line parses: %s", line);
            continue;
        }
        entries = realloc(entries, (n_entries + 1) * sizeof *entries);
        entries[n_entries++] = e;
    }
    fclose(f);
}

static entry *find_entry(const char *path)
{
    for (size_t i = 0; i < n_entries; i++)
        if (!strcmp(entries[i].path, path)) return &entries[i];
    return NULL;
}

static int by_path(const void *a, const void *b) { return strcmp(((const entry *)a)->path, ((const entry *)b)->path); }

static void write_manifest(const char *dir)
{
    char path[4096];
    snprintf(path, sizeof path, "%s/manifest.txt", dir);
    FILE *f = fopen(path, "w");
    if (!f) { fprintf(stderr, "cannot write %s\n", path); exit(1); }
    qsort(entries, n_entries, sizeof *entries, by_path);
    fprintf(f, "# Golden streams (README.md): stream, decoded output's size in bytes and SHA-256, input generator\n"
               "# (h5tests/c/test_golden.c; - where none). Written by test_golden --write, which never changes a\n"
               "# line of gpu/ or archive/.\n");
    for (size_t i = 0; i < n_entries; i++)
        fprintf(f, "%s %zu %s %s\n", entries[i].path, entries[i].bytes, entries[i].sha, entries[i].input);
    fclose(f);
}

/* The streams of DIR/sub ("" for DIR), as manifest paths. */
static size_t list_streams(const char *dir, const char *sub, char (*names)[160], size_t cap)
{
    char path[4096];
    snprintf(path, sizeof path, "%s/%s", dir, sub);
    DIR *d = opendir(path);
    CHECK(d != NULL, "stream directory %s", path);
    if (!d) return 0;
    struct dirent *e;
    size_t k = 0;
    while ((e = readdir(d)) && k < cap) {
        size_t nl = strlen(e->d_name);
        if (nl < 7 || nl > 120 || strcmp(e->d_name + nl - 6, ".glide")) continue;
        snprintf(names[k++], 160, "%.8s%s%.140s", sub, *sub ? "/" : "", e->d_name);
    }
    closedir(d);
    return k;
}

/* ---- checks ---- */

/* 1 if y is x within eb: finite values within eb, the others bit for bit */
static int within_bound(const unsigned char *x, const unsigned char *y, size_t bytes, size_t esz, double eb)
{
    for (size_t i = 0; i < bytes; i += esz) {
        double a, b;
        if (esz == 4) { float fa, fb; memcpy(&fa, x + i, 4); memcpy(&fb, y + i, 4); a = fa; b = fb; }
        else { memcpy(&a, x + i, 8); memcpy(&b, y + i, 8); }
        if (!isfinite(a) ? memcmp(x + i, y + i, esz) != 0 : !(fabs(a - b) <= eb)) return 0;
    }
    return 1;
}

static const gcase *cpu_case(const char *name)
{
    for (size_t k = 0; k < NCASES; k++)
        if (!strcmp(cases[k].name, name)) return &cases[k];
    return NULL;
}

/* The input of a manifest line: its generator's, or an .input file kept
 * beside the stream (which a generator, if there is one, must reproduce). */
static unsigned char *input_of(const char *dir, const entry *e, size_t *bytes)
{
    char path[4096];
    size_t fl = 0;
    snprintf(path, sizeof path, "%s/%.*s.input", dir, (int)(strlen(e->path) - 6), e->path);
    unsigned char *file = slurp(path, &fl);
    unsigned char *gen = strcmp(e->input, "-") ? make_input(e->input, bytes) : NULL;
    CHECK(!strcmp(e->input, "-") || gen, "%s: generator %s exists", e->path, e->input);
    if (file && gen) {
        CHECK(fl == *bytes && memcmp(file, gen, fl) == 0, "%s: generator %s reproduces the kept %s", e->path, e->input,
              path);
    }
    if (!file) return gen;
    free(gen);
    *bytes = fl;
    return file;
}

/* One stream of the manifest: decodes to its hash, within the bound of its
 * input; current streams re-encode byte for byte. */
static void check_entry(const char *dir, entry *e)
{
    char path[4096];
    const int gpu = !strncmp(e->path, "gpu/", 4), archive = !strncmp(e->path, "archive/", 8), top = !gpu && !archive;
    const char *base = strrchr(e->path, '/') ? strrchr(e->path, '/') + 1 : e->path;
    const int bl = (int)(strlen(base) - 6);
    size_t gl = 0, il = 0;
    snprintf(path, sizeof path, "%s/%s", dir, e->path);
    unsigned char *g = slurp(path, &gl);
    CHECK(g != NULL, "%s: stream present", e->path);
    if (!g) return;
    glide_params p;
    glide_header h;
    glide_layout lay;
    const size_t out_n = glide_stream_info(g, gl, &p);
    CHECK(!glide_is_error(out_n) && out_n == e->bytes && !glide_is_error(glide_header_read(g, gl, &h, &lay)),
          "%s: header parses, output size %zu as listed", e->path, out_n);
    if (glide_is_error(out_n) || out_n != e->bytes || glide_is_error(glide_header_read(g, gl, &h, &lay))) {
        free(g);
        return;
    }
    unsigned char *out = malloc(out_n ? out_n : 1);
    /* the current cases through the default backend (GLIDE_BACKEND), the others on the CPU */
    const size_t dn = top ? glide_decompress(g, gl, out, out_n) : glide_decompress_with(GLIDE_BACKEND_CPU, g, gl, out, out_n);
    char sha[65] = "decoding error";
    if (dn == out_n) sha256_hex(out, out_n, sha);
    CHECK(dn == out_n && !strcmp(sha, e->sha), "%s: decodes bit for bit (SHA-256 %.16s..., listed %.16s...)", e->path, sha,
          e->sha);
    unsigned char *in = input_of(dir, e, &il);
    const size_t esz = p.dtype == GLIDE_FLOAT64 ? 8 : 4;
    if (in && dn == out_n) {
        CHECK(il == out_n && within_bound(in, out, il, esz, h.eb_abs), "%s: output within the bound %.3g of input %s",
              e->path, h.eb_abs, e->input);
    }
    CHECK(in || archive, "%s: a current stream has an input", e->path);
    if (in && il == out_n && !archive) {
        const gcase *c = top ? cpu_case(e->input) : NULL;
        CHECK(!top || (c && !strncmp(base, c->name, (size_t)bl) && c->name[bl] == 0), "%s: the stream of case %s",
              e->path, e->input);
        if (c) case_params(c, &p);
        p.backend = GLIDE_BACKEND_CPU;
        size_t cap = glide_compress_bound(&p), r = 0;
        unsigned char *s = malloc(cap);
        if (c) {
            r = glide_compress(&p, in, il, s, cap);
        } else if (gpu) {
            /* the parameters the stream records; a stream of an older
             * format: that format's encoder (no slices before format 6) */
            glide_encode_opts o = glide_default_encode_opts();
            if (g[GLIDE_HDR_FORMAT_VERSION] < GLIDE_FORMAT_SLICE) o.slice = 0;
            r = glide_cpu_compress(&p, &o, in, s, cap);
        }
        CHECK(r == gl && memcmp(s, g, gl) == 0, "%s: %s encoder reproduces the stream byte for byte", e->path,
              c ? "the" : "the CPU");
        free(s);
    }
    free(in);
    free(out);
    free(g);
}

/* ---- --write ---- */

/* A manifest line for a stream that has none (a new gpu/ or archive/ one):
 * its output as the decoder gives it now; as input, the generator of its
 * name without the archive's prefix (glide14_NAME: NAME), where the output
 * lies within the bound of that input. */
static void add_entry(const char *dir, const char *rel)
{
    char path[4096];
    size_t gl = 0, il = 0;
    entry e = {{0}, {0}, "-", 0, 0};
    snprintf(e.path, sizeof e.path, "%.159s", rel);
    snprintf(path, sizeof path, "%.3000s/%.159s", dir, rel);
    unsigned char *g = slurp(path, &gl);
    glide_params p;
    glide_header h;
    glide_layout lay;
    size_t n = g ? glide_stream_info(g, gl, &p) : 0;
    if (!g || glide_is_error(n) || glide_is_error(glide_header_read(g, gl, &h, &lay))) {
        fprintf(stderr, "%s: not a stream\n", rel);
        exit(1);
    }
    unsigned char *out = malloc(n ? n : 1);
    if (glide_decompress_with(GLIDE_BACKEND_CPU, g, gl, out, n) != n) {
        fprintf(stderr, "%s: does not decode\n", rel);
        exit(1);
    }
    e.bytes = n;
    sha256_hex(out, n, e.sha);
    const char *name = strrchr(rel, '/') + 1;
    if (!strncmp(rel, "archive/", 8) && strchr(name, '_')) name = strchr(name, '_') + 1;
    char gen[80];
    snprintf(gen, sizeof gen, "%.*s", (int)(strlen(name) - 6), name);
    unsigned char *in = make_input(gen, &il);
    if (in && il == n && within_bound(in, out, n, p.dtype == GLIDE_FLOAT64 ? 8 : 4, h.eb_abs))
        snprintf(e.input, sizeof e.input, "%s", gen);
    printf("listed %s (%zu bytes, input %s)\n", rel, n, e.input);
    entries = realloc(entries, (n_entries + 1) * sizeof *entries);
    entries[n_entries++] = e;
    free(in);
    free(out);
    free(g);
}

static void write_golden(const char *dir)
{
    char path[4096];
    read_manifest(dir);
    for (size_t k = 0; k < NCASES; k++) {
        const gcase *c = &cases[k];
        size_t il = 0;
        unsigned char *in = make_input(c->name, &il);
        glide_params p;
        case_params(c, &p);
        size_t cap = glide_compress_bound(&p);
        unsigned char *s = malloc(cap), *out = malloc(il);
        size_t sl = glide_compress(&p, in, il, s, cap);
        CHECK(!glide_is_error(sl) && glide_decompress(s, sl, out, il) == il, "%s: compress, decompress", c->name);
        snprintf(path, sizeof path, "%s/%s.glide", dir, c->name);
        spit(path, s, sl);
        char rel[160];
        snprintf(rel, sizeof rel, "%.150s.glide", c->name);
        entry *e = find_entry(rel);
        if (!e) {
            entries = realloc(entries, (n_entries + 1) * sizeof *entries);
            e = &entries[n_entries++];
        }
        snprintf(e->path, sizeof e->path, "%s", rel);
        snprintf(e->input, sizeof e->input, "%.79s", c->name);
        e->bytes = il;
        sha256_hex(out, il, e->sha);
        printf("wrote %s (%zu -> %zu bytes)\n", c->name, il, sl);
        free(in); free(s); free(out);
    }
    static char names[512][160];
    static const char *const subs[] = {"gpu", "archive"};
    for (int d = 0; d < 2; d++) {
        size_t k = list_streams(dir, subs[d], names, 512);
        for (size_t i = 0; i < k; i++)
            if (!find_entry(names[i])) add_entry(dir, names[i]);
    }
    write_manifest(dir);
}

int main(int argc, char **argv)
{
    const char *dir = argc > 1 ? argv[argc - 1] : ".";
    if (argc > 2 && !strcmp(argv[1], "--write")) {
        write_golden(dir);
        return CHECK_DONE();
    }
    read_manifest(dir);
    CHECK(n_entries > 0, "%s/manifest.txt lists streams", dir);
    /* every stream listed, every listed stream there */
    static char names[512][160];
    static const char *const subs[] = {"", "gpu", "archive"};
    int count[3] = {0, 0, 0};
    for (int d = 0; d < 3; d++) {
        size_t k = list_streams(dir, subs[d], names, 512);
        for (size_t i = 0; i < k; i++) {
            entry *e = find_entry(names[i]);
            CHECK(e != NULL, "%s is listed in manifest.txt", names[i]);
            if (!e) continue;
            e->seen = 1;
            check_entry(dir, e);
            count[d]++;
        }
    }
    for (size_t i = 0; i < n_entries; i++) CHECK(entries[i].seen, "%s (listed) is there", entries[i].path);
    /* every current case and GPU generator has its stream */
    for (size_t k = 0; k < NCASES; k++) {
        snprintf(names[0], 160, "%s.glide", cases[k].name);
        CHECK(find_entry(names[0]) && find_entry(names[0])->seen, "case %s has its stream", cases[k].name);
    }
    for (size_t k = 0; k < NGPU; k++) {
        snprintf(names[0], 160, "gpu/%s.glide", gpu_cases[k].name);
        CHECK(find_entry(names[0]) && find_entry(names[0])->seen, "GPU case %s has its stream", gpu_cases[k].name);
    }
    CHECK(count[0] > 0 && count[1] > 0 && count[2] > 0, "streams checked: %d current, %d GPU, %d archived", count[0],
          count[1], count[2]);
    printf("%d current, %d GPU and %d archived streams\n", count[0], count[1], count[2]);
    return CHECK_DONE();
}
