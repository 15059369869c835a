/* GPU backend against the CPU reference: the same bytes for the same input
 * and options, the same values decoded (bit for bit), the same verdict on
 * damaged streams, and the bound checked on the GPU's own output.
 *   test_gpu_codec [--fields DIR] [--large] [--write-golden DIR] [--quick | --race] [-v]
 *                  [--split-points N] [--commit-grid N] [--no-coarse-merge]
 * The last three force the prediction kernels' paths on chunks that would
 * not take them (gpu_test_hooks.h): the interpolation split in two kernels
 * from N points on, the gated commits on N blocks, the split's coarse
 * kernel a warp a lattice box.
 * Format 8's run-coded planes are the CPU decoder's (the GPU's leaves
 * them to it): such GPU streams are decoded through the API's GPU
 * backend, which hands them over.
 * DIR of --fields holds raw little-endian float32 files named
 * NAME__D0xD1xD2.f32 (h5tests/gpu/run.sh extracts them from the real
 * fields). Exit 77 (skipped) where no GPU is usable. */
#include "check.h"
#include "codec.h"
#include "gpu_backend.h"
#include "gpu_test_hooks.h"
#include "bytes.h"
#include <dirent.h>
#include <float.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

static int verbose, quick, race; /* quick: a small subset, for memcheck; race: fewer still, for racecheck */

static const char *section_of(const glide_layout *l, size_t off)
{
    if (off < GLIDE_HEADER_FIXED) return "header";
    if (off < l->book_off) return "dims";
    if (off < l->runbook_off) return "book";
    if (off < l->anchors_off) return "run books";
    if (off < l->outliers_off) return "anchors";
    if (off < l->segtab_off) return "outliers";
    if (off < l->stream_off) return "segment table";
    if (off < l->crc_off) return "huffman stream";
    return "crc";
}

static void explain(const uint8_t *a, size_t na, const uint8_t *b, size_t nb)
{
    glide_header ha, hb;
    glide_layout la, lb;
    if (glide_is_error(glide_header_read(a, na, &ha, &la)) || glide_is_error(glide_header_read(b, nb, &hb, &lb))) {
        printf("    (a header does not parse)\n");
        return;
    }
    printf("    cpu: format %u flags %02x method %u book %u/%u eb_abs %.17g alpha %g subst %llx outl %llu stream %llu total %zu\n",
           ha.format_version, ha.flags, ha.method, ha.book_kind, ha.book_id, ha.eb_abs, ha.alpha,
           (unsigned long long)ha.subst_bits, (unsigned long long)ha.n_outliers, (unsigned long long)ha.stream_bytes, na);
    printf("    gpu: format %u flags %02x method %u book %u/%u eb_abs %.17g alpha %g subst %llx outl %llu stream %llu total %zu\n",
           hb.format_version, hb.flags, hb.method, hb.book_kind, hb.book_id, hb.eb_abs, hb.alpha,
           (unsigned long long)hb.subst_bits, (unsigned long long)hb.n_outliers, (unsigned long long)hb.stream_bytes, nb);
    printf("    cfg cpu:");
    for (int l = 0; l < 6; l++) printf(" %02x", ha.level_cfg[l]);
    printf("  gpu:");
    for (int l = 0; l < 6; l++) printf(" %02x", hb.level_cfg[l]);
    printf("\n");
    size_t m = na < nb ? na : nb;
    for (size_t i = 0; i < m; i++)
        if (a[i] != b[i]) {
            printf("    first difference at byte %zu (%s): cpu %02x gpu %02x\n", i, section_of(&la, i), a[i], b[i]);
            break;
        }
}

/* max |x - y| over finite x; -1 if a non-finite x is not reproduced bit for bit */
static double max_err(const void *x, const void *y, uint64_t n, int f64)
{
    double m = 0;
    for (uint64_t i = 0; i < n; i++) {
        double a = f64 ? ((const double *)x)[i] : ((const float *)x)[i];
        double b = f64 ? ((const double *)y)[i] : ((const float *)y)[i];
        if (!isfinite(a)) {
            if (memcmp((const char *)x + i * (f64 ? 8 : 4), (const char *)y + i * (f64 ? 8 : 4), f64 ? 8 : 4)) return -1;
            continue;
        }
        double e = fabs(a - b);
        if (!(e <= m)) m = e;
    }
    return m;
}

static void spit(const char *dir, const char *name, const char *ext, const void *b, size_t n)
{
    char path[1024];
    snprintf(path, sizeof path, "%s/%s.%s", dir, name, ext);
    FILE *f = fopen(path, "wb");
    if (!f || fwrite(b, 1, n, f) != n) { fprintf(stderr, "cannot write %s\n", path); exit(1); }
    fclose(f);
}

static const char *golden_dir;
static int write_golden; /* compare() also saves input, stream and output */
static int auto_lorenzo, auto_interp, auto_slice; /* GLIDE_PRED_AUTO streams by the method chosen */
static int force_slice; /* compare(): glide_encode_opts.slice 1 or 2 (a forced slice order), -1 none, else the default */
static int slice_streams; /* GPU streams of format 6's slice method */
static int plans[GG_PLANNED_KINDS]; /* compressed chunks by GG_PLANNED_* */
static int blended; /* GPU streams with a blended level (format 4's levels, in format 5 too) */
static int hist0_kernel; /* streams whose plane 0 histogram the interpolation kernel counted (checked) */
static int hist0_commit; /* and those whose Lorenzo or slice kernel counted it (checked too) */
static int runs_other; /* format 8 GPU streams planned from run statistics counted after such a commit */
static int gated_host, gated_raw; /* host-planned streams whose tail waited behind the plan's gate (RAW ones) */
/* format 8: GPU streams by their run-coded planes (0 none, 1 plane 0, 2
 * plane 1, 3 both), those with FILL runs, and those whose planes the
 * encoder reads in place or split out (plane_runs.h) */
static int runs_seen[4], runs_fill, runs_in_place, runs_split;

/* Whether the GPU encoder reads this stream's planes in place from the
 * raster order (gpu_compress.c: gg_plane_runs_make on the chunk's grid). */
static int planes_in_place(const glide_header *h)
{
    glide_shape es;
    glide_shape_from_dims(h->rank, h->dims, h->format_version, &es);
    uint64_t n[3];
    const unsigned pad = 3 - es.rank;
    for (unsigned a = 0; a < 3; a++) n[a] = a < pad ? 1 : es.n[a - pad];
    gg_plane_runs r;
    return gg_plane_runs_make(n[0], n[1], n[2], es.slabs > 1 ? es.slab_rows : n[0], &r);
}

/* Counts a GPU stream's run-coded planes (format 8) into runs_seen etc. */
static void runs_count(const glide_header *h)
{
    const unsigned planes = (h->flags & GLIDE_FLAG_RUNS) / GLIDE_FLAG_RUNS0;
    runs_seen[planes]++;
    if (!planes) return;
    runs_fill += (h->flags & GLIDE_FLAG_FILLRUNS) != 0; /* a run book with FILL's classes */
    if (planes_in_place(h)) runs_in_place++;
    else runs_split++;
}

/* One comparison. Returns the GPU stream (malloc'd) for further use. */
static uint8_t *compare(const char *name, const glide_params *p, const void *x, size_t *out_len)
{
    glide_encode_opts o = glide_default_encode_opts();
    if (force_slice) o.slice = force_slice < 0 ? 0 : force_slice;
    size_t esz = p->dtype == GLIDE_FLOAT64 ? 8 : 4;
    uint64_t n = 1;
    for (unsigned i = 0; i < p->rank; i++) n *= p->dims[i];
    size_t cap = glide_compress_bound(p);
    uint8_t *sc = malloc(cap), *sg = malloc(cap);
    void *yc = malloc(n * esz), *yg = malloc(n * esz);
    size_t lc = glide_cpu_compress(p, &o, x, sc, cap);
    /* the device's plan (the usual one), then the host's (the fallback,
     * and the path of chunks after one with a custom book): replaying the
     * same tail, it can queue that tail behind the plan's gate */
    gg_test_planner(GG_PLANNER_DEVICE);
    size_t lg = glide_gpu_compress(p, &o, x, 0, sg, cap);
    gg_test_planner(GG_PLANNER_AUTO);
    const int plan = gg_test_last_plan();
    static uint64_t h0k[GLIDE_NSYM], h0p[GLIDE_NSYM];
    const int h0_kernel = glide_is_error(lg) ? -1 : gg_test_last_hist0(h0k);
    const int r_other = glide_is_error(lg) ? 0 : gg_test_last_runs_other();
    if (!glide_is_error(lg) && plan >= 0 && plan < GG_PLANNED_KINDS) plans[plan]++;
    int same = !glide_is_error(lc) && lc == lg && memcmp(sc, sg, lc) == 0;
    CHECK(same, "%s: GPU stream equals CPU stream (cpu %zu%s, gpu %zu%s, plan %d)", name, lc,
          glide_is_error(lc) ? glide_error_name(lc) : "", lg, glide_is_error(lg) ? glide_error_name(lg) : "", plan);
    if (!same && !glide_is_error(lc) && !glide_is_error(lg)) explain(sc, lc, sg, lg);
    uint8_t *sh = malloc(cap);
    gg_test_planner(GG_PLANNER_HOST);
    const size_t lh = glide_gpu_compress(p, &o, x, 0, sh, cap);
    gg_test_planner(GG_PLANNER_AUTO);
    const int same_h = !glide_is_error(lc) && lc == lh && memcmp(sc, sh, lc) == 0;
    CHECK(same_h, "%s: GPU stream (host plan) equals CPU stream (cpu %zu%s, gpu %zu%s)", name, lc,
          glide_is_error(lc) ? glide_error_name(lc) : "", lh, glide_is_error(lh) ? glide_error_name(lh) : "");
    if (!same_h && !glide_is_error(lc) && !glide_is_error(lh)) explain(sc, lc, sh, lh);
    if (!glide_is_error(lh) && gg_test_last_plan_gated()) {
        glide_header hc;
        glide_layout lyc;
        gated_host++;
        gated_raw += same_h && !glide_is_error(glide_header_read(sc, lc, &hc, &lyc)) && hc.method == GLIDE_METHOD_RAW;
    }
    free(sh);
    if (glide_is_error(lg)) goto out;
    /* plane 0's histogram as the interpolation kernel counted it equals
     * the pass's after it (hist0_k, held to the CPU's planes by
     * test_gpu_huff): the book choice alone could hide a miscount */
    if (h0_kernel >= 1) {
        gg_test_hist0_in_kernel(0);
        uint8_t *s2 = malloc(cap);
        const size_t l2 = glide_gpu_compress(p, &o, x, 0, s2, cap);
        gg_test_hist0_in_kernel(1);
        const int who = gg_test_last_hist0(h0p);
        const int same2 = !glide_is_error(l2) && l2 == lg && memcmp(s2, sg, lg) == 0;
        CHECK(same2 && who == 0 && memcmp(h0k, h0p, sizeof h0k) == 0,
              "%s: plane 0 histogram by the %s kernel equals the pass's (same stream %d, pass %d)", name,
              h0_kernel == 1 ? "interpolation" : "Lorenzo or slice", same2, who);
        free(s2);
        if (h0_kernel == 1) hist0_kernel++;
        else hist0_commit++;
    }
    glide_header h;
    glide_layout lay;
    size_t hr = glide_header_read(sg, lg, &h, &lay);
    CHECK(!glide_is_error(hr), "%s: GPU stream header parses", name);
    if (glide_is_error(hr)) goto out;
    runs_count(&h);
    runs_other += r_other && same;
    /* decode the GPU stream on both backends (format 8: the GPU backend's API, which hands it to the CPU) */
    size_t dc = glide_decompress_with(GLIDE_BACKEND_CPU, sg, lg, yc, n * esz);
    const int gpu_dec = h.method != GLIDE_METHOD_RAW && h.format_version < GLIDE_FORMAT_FILL2;
    size_t dg = h.method == GLIDE_METHOD_RAW ? glide_decompress_with(GLIDE_BACKEND_CPU, sg, lg, yg, n * esz)
                : gpu_dec                    ? glide_gpu_decompress(&h, &lay, sg, lg, yg, 0)
                                             : glide_decompress_with(GLIDE_BACKEND_GPU, sg, lg, yg, n * esz);
    if (gpu_dec && !glide_is_error(dg)) dg = n * esz;
    CHECK(dc == n * esz && dg == n * esz && memcmp(yc, yg, n * esz) == 0,
          "%s: GPU decode equals CPU decode bit for bit (cpu %s, gpu %s)", name,
          glide_is_error(dc) ? glide_error_name(dc) : "ok", glide_is_error(dg) ? glide_error_name(dg) : "ok");
    double e = max_err(x, yg, n, esz == 8);
    CHECK(e >= 0 && e <= h.eb_abs, "%s: GPU output within the bound (max err %.3g, eb %.3g)", name, e, h.eb_abs);
    if (h.method == GLIDE_METHOD_INTERP) {
        glide_shape es;
        glide_shape_from_dims(h.rank, h.dims, h.format_version, &es);
        blended += glide_levels_blended(es.rank, h.block_log2, h.level_cfg);
    }
    if (p->predictor == GLIDE_PRED_AUTO) {
        auto_lorenzo += h.method == GLIDE_METHOD_LORENZO;
        auto_interp += h.method == GLIDE_METHOD_INTERP;
        auto_slice += h.method == GLIDE_METHOD_SLICE;
    }
    slice_streams += h.method == GLIDE_METHOD_SLICE;
    if (verbose) printf("ok %s: %zu -> %zu bytes (method %u, book %u/%u)\n", name, n * esz, lg, h.method, h.book_kind, h.book_id);
    if (write_golden) {
        spit(golden_dir, name, "input", x, n * esz);
        spit(golden_dir, name, "glide", sg, lg);
        spit(golden_dir, name, "output", yg, n * esz);
    }
out:
    free(sc);
    free(yc);
    free(yg);
    if (glide_is_error(lg)) {
        free(sg);
        return NULL;
    }
    *out_len = lg;
    return sg;
}

static uint64_t rng_state = 0x1234567;
static uint64_t rnd(void)
{
    rng_state ^= rng_state << 13;
    rng_state ^= rng_state >> 7;
    rng_state ^= rng_state << 17;
    return rng_state;
}

/* Bit for bit, except that any two NaNs match: a damaged stream that still
 * decodes can make the reconstruction compute inf - inf, and IEEE 754 leaves
 * the payload of such a NaN to the hardware (x86 gives 0xFFC00000, CUDA
 * 0x7FFFFFFF). Streams an encoder made never compute a NaN (docs/FORMAT.md
 * §6), and compare() holds them to exact bits. */
static int same_values(const void *a, const void *b, uint64_t n, size_t esz)
{
    for (uint64_t i = 0; i < n; i++) {
        const char *p = (const char *)a + i * esz, *q = (const char *)b + i * esz;
        if (!memcmp(p, q, esz)) continue;
        double x = esz == 8 ? *(const double *)p : *(const float *)p, y = esz == 8 ? *(const double *)q : *(const float *)q;
        if (!(isnan(x) && isnan(y))) return 0;
    }
    return 1;
}

/* Damaged streams: the CPU's verdict and output are the reference. */
static void damage(const char *name, const uint8_t *s, size_t len, uint64_t n, size_t esz, int trials)
{
    uint8_t *m = malloc(len);
    void *yc = malloc(n * esz), *yg = malloc(n * esz);
    int agree = 0, errors = 0;
    for (int t = 0; t < trials; t++) {
        memcpy(m, s, len);
        int flips = 1 + (int)(rnd() % 4);
        for (int f = 0; f < flips; f++) {
            size_t at = GLIDE_HEADER_FIXED + rnd() % (len - GLIDE_HEADER_FIXED);
            m[at] ^= (uint8_t)(1u << (rnd() % 8));
        }
        if (t % 4) put_u32(m + len - 4, glide_crc32(m, len - 4)); /* reseal most, so the payload checks run */
        size_t rc = glide_decompress_with(GLIDE_BACKEND_CPU, m, len, yc, n * esz);
        glide_header h;
        glide_layout lay;
        size_t rg = glide_header_read(m, len, &h, &lay);
        if (!glide_is_error(rg)) {
            if (rg > n * esz) rg = GLIDE_ERROR(DST_TOO_SMALL); /* as the API says */
            else {
                size_t out = rg;
                rg = h.method == GLIDE_METHOD_RAW ? glide_decompress_with(GLIDE_BACKEND_CPU, m, len, yg, n * esz)
                     : h.format_version < GLIDE_FORMAT_FILL2 ? glide_gpu_decompress(&h, &lay, m, len, yg, 0)
                                                              : glide_decompress_with(GLIDE_BACKEND_GPU, m, len, yg, n * esz);
                if (!glide_is_error(rg)) rg = out;
            }
        }
        int ok_c = !glide_is_error(rc), ok_g = !glide_is_error(rg);
        int same = ok_c == ok_g &&
                   (!ok_c ? glide_get_error(rc) == glide_get_error(rg) : rc == rg && same_values(yc, yg, rc / esz, esz));
        if (!same)
            printf("    %s trial %d: cpu %s, gpu %s\n", name, t, ok_c ? "ok" : glide_error_name(rc),
                   ok_g ? "ok" : glide_error_name(rg));
        agree += same;
        errors += !ok_c;
    }
    CHECK(agree == trials, "%s: %d damaged streams, GPU verdict and output equal the CPU's in %d (%d rejected)", name,
          trials, agree, errors);
    free(m);
    free(yc);
    free(yg);
}

static double smooth(uint64_t i, uint64_t n0, uint64_t n1, uint64_t n2)
{
    uint64_t x = i % n2, y = (i / n2) % n1, z = i / (n1 * n2);
    double a = (double)x / (double)n2, b = (double)y / (double)(n1 ? n1 : 1), c = (double)z / (double)(n0 ? n0 : 1);
    return 280 + 15 * sin(6.1 * a + 2 * b) * cos(4.3 * b - c) + 3 * sin(40 * a * c) + 0.01 * (double)(rnd() % 1000) / 1000;
}

typedef struct {
    const char *tag;
    int rank;
    uint64_t dims[4];
} shape;

/* 64^3 chunks the block trial takes from the speculated interpolation,
 * with run-coded planes: offsets that change from slice to slice (the
 * slices) and an oscillation at the grid's scale (Lorenzo). Their run
 * statistics are the gated count's after the commit (gpu_front.c
 * spec_other), and each stream must be the CPU's. */
static void spec_dropped(void)
{
    const uint64_t d[3] = {64, 64, 64}, n = d[0] * d[1] * d[2];
    float *x = malloc(n * sizeof *x);
    double off[64];
    for (int z = 0; z < 64; z++) off[z] = (double)(rnd() >> 11) / 9007199254740992.0 * 100;
    for (int kind = 0; kind < 2; kind++) {
        for (uint64_t i = 0; i < n; i++) {
            const uint64_t z = i / (d[1] * d[2]), y = i / d[2] % d[1], xx = i % d[2];
            x[i] = (float)(kind ? sin(xx * 0.9) + cos(y * 1.1) + sin(z * 1.3) : sin(xx * 0.2) + cos(y * 0.15) + off[z]);
        }
        glide_params p;
        glide_params_init(&p, GLIDE_FLOAT32, 3, d);
        p.eb = kind ? 1e-3 : 1e-2;
        char name[64];
        snprintf(name, sizeof name, "speculation dropped for %s", kind ? "Lorenzo" : "the slices");
        const int before = runs_other;
        size_t len = 0;
        uint8_t *st = compare(name, &p, x, &len);
        glide_header h;
        glide_layout lay;
        const int ok = st && !glide_is_error(glide_header_read(st, len, &h, &lay));
        CHECK(ok && h.method == (kind ? GLIDE_METHOD_LORENZO : GLIDE_METHOD_SLICE) && (h.flags & GLIDE_FLAG_RUNS) &&
                  runs_other > before,
              "%s: the trial's method, run-coded, run statistics counted after its commit", name);
        free(st);
    }
    free(x);
}

/* Format 4 decoding of every blend: CPU streams with every level blended
 * (force_blend, each residual spline), decoded by both backends; shapes
 * whose boxes fit shared memory and (block_log2 5) those that do not. */
static void blend_decode(void)
{
    static const shape shapes[] = {{"65x130", 2, {65, 130}}, {"33x20x47", 3, {33, 20, 47}}, {"40^3", 3, {40, 40, 40}}};
    char name[256];
    for (size_t si = 0; si < sizeof shapes / sizeof *shapes; si++) {
        const shape *sh = &shapes[si];
        if (race && si != 1) continue;
        uint64_t n = 1;
        for (int i = 0; i < sh->rank; i++) n *= sh->dims[i];
        uint64_t n2 = sh->dims[sh->rank - 1], n1 = sh->rank > 1 ? sh->dims[sh->rank - 2] : 1, n0 = n / (n1 * n2);
        for (int f64 = 0; f64 <= 1; f64++)
            for (int fill = 0; fill <= 1; fill++) {
                const size_t esz = f64 ? 8 : 4;
                void *x = malloc(n * esz), *yc = malloc(n * esz), *yg = malloc(n * esz);
                for (uint64_t i = 0; i < n; i++) {
                    double v = smooth(i, n0, n1, n2);
                    if (fill && (i % 13 == 4 || (i / 97) % 11 == 3)) v = -999.0;
                    if (fill && i % 151 == 7) v = NAN;
                    if (f64) ((double *)x)[i] = v;
                    else ((float *)x)[i] = (float)v;
                }
                for (int force = 1; force <= GLIDE_NBLENDS; force++)
                    for (int bv = 0; bv < 2; bv++) {
                        if (quick && bv) continue;
                        glide_params p;
                        glide_params_init(&p, f64 ? GLIDE_FLOAT64 : GLIDE_FLOAT32, (unsigned)sh->rank, sh->dims);
                        p.eb = 1e-3;
                        p.predictor = GLIDE_PRED_INTERP;
                        if (bv) p.block_log2 = 5; /* the global-memory path */
                        if (fill) {
                            p.has_fill = 1;
                            p.fill_bits = f64 ? 0xC08F380000000000ull : 0xC479C000u; /* -999 */
                        }
                        glide_encode_opts o = glide_default_encode_opts();
                        o.force_blend = force;
                        o.planes = 0; /* format 4 as GLIDE 1.4 wrote it: the GPU decodes the old streams too */
                        size_t cap = glide_compress_bound(&p);
                        uint8_t *sc = malloc(cap);
                        size_t lc = glide_cpu_compress(&p, &o, x, sc, cap);
                        snprintf(name, sizeof name, "blend %s %s fill%d force%d blog%u", sh->tag, f64 ? "f64" : "f32", fill,
                                 force, p.block_log2);
                        glide_header h;
                        glide_layout lay;
                        CHECK(!glide_is_error(lc) && !glide_is_error(glide_header_read(sc, lc, &h, &lay)) &&
                                  h.format_version == GLIDE_FORMAT_BLEND,
                              "%s: the CPU writes format 4", name);
                        if (!glide_is_error(lc) && h.format_version == GLIDE_FORMAT_BLEND) {
                            size_t dc = glide_decompress_with(GLIDE_BACKEND_CPU, sc, lc, yc, n * esz);
                            size_t dg = glide_gpu_decompress(&h, &lay, sc, lc, yg, 0);
                            CHECK(dc == n * esz && !glide_is_error(dg) && memcmp(yc, yg, n * esz) == 0,
                                  "%s: GPU decode equals CPU decode bit for bit (cpu %s, gpu %s)", name,
                                  glide_is_error(dc) ? glide_error_name(dc) : "ok",
                                  glide_is_error(dg) ? glide_error_name(dg) : "ok");
                        }
                        free(sc);
                    }
                free(x);
                free(yc);
                free(yg);
            }
    }
}

/* What runs_decode() met: format 8 streams by their run-coded planes, FILL
 * runs, the second fill value, and the methods the GPU decoded. */
typedef struct {
    int seen, only0, only1, both, fill_runs, fill2, by_method[4];
} runs_decoded;

/* One field the CPU codec compresses (p: its backend the CPU's); where the
 * stream is format 8, the GPU decodes it as the CPU does, and (trials > 0)
 * damaged copies are judged alike. */
static void runs_stream(const char *name, const glide_params *p, const void *x, uint64_t n, size_t esz, int trials,
                        runs_decoded *rs)
{
    const size_t cap = glide_compress_bound(p);
    uint8_t *s = malloc(cap);
    void *yc = malloc(n * esz), *yg = malloc(n * esz), *ya = malloc(n * esz);
    const size_t len = glide_compress(p, x, n * esz, s, cap);
    glide_header h;
    glide_layout lay;
    const int parsed = !glide_is_error(len) && !glide_is_error(glide_header_read(s, len, &h, &lay));
    CHECK(parsed, "%s: the CPU writes a stream that parses", name);
    if (parsed && h.format_version == GLIDE_FORMAT_RUNS) {
        rs->seen++;
        const unsigned r = h.flags & GLIDE_FLAG_RUNS;
        rs->only0 += r == GLIDE_FLAG_RUNS0, rs->only1 += r == GLIDE_FLAG_RUNS1, rs->both += r == GLIDE_FLAG_RUNS;
        rs->fill_runs += (h.flags & GLIDE_FLAG_FILLRUNS) != 0; /* a run book with FILL's half */
        const size_t dc = glide_decompress_with(GLIDE_BACKEND_CPU, s, len, yc, n * esz);
        const size_t da = glide_decompress_with(GLIDE_BACKEND_GPU, s, len, ya, n * esz);
        const size_t dg = glide_gpu_decompress(&h, &lay, s, len, yg, 0);
        if (h.flags & GLIDE_FLAG_HAS_FILL2) {
            rs->fill2++;
            CHECK(dc == n * esz && da == n * esz && !memcmp(yc, ya, n * esz) && dg == GLIDE_ERROR(VERSION),
                  "%s: format 8 with a second fill value: the GPU backend leaves it to the CPU (%s), the API decodes "
                  "it there (cpu %s, api %s)", name, glide_error_name(dg), glide_is_error(dc) ? glide_error_name(dc) : "ok",
                  glide_is_error(da) ? glide_error_name(da) : "ok");
        } else {
            rs->by_method[h.method & 3]++;
            CHECK(dc == n * esz && !glide_is_error(dg) && !memcmp(yc, yg, n * esz) && da == n * esz &&
                      !memcmp(yc, ya, n * esz),
                  "%s (method %u, flags %02x): GPU decode equals CPU decode bit for bit, directly and through the API "
                  "(cpu %s, gpu %s, api %s)", name, h.method, h.flags, glide_is_error(dc) ? glide_error_name(dc) : "ok",
                  glide_is_error(dg) ? glide_error_name(dg) : "ok", glide_is_error(da) ? glide_error_name(da) : "ok");
            if (trials) damage(name, s, len, n, esz, trials);
        }
    }
    free(s);
    free(yc), free(yg), free(ya);
}

/* Format 8 (run-coded planes, FORMAT.md §10.7) as the CPU codec writes it
 * (the GPU encoder does not yet): fields whose planes pay for runs. Smooth
 * at loose bounds (zeros), constant, zeros on even points and noise on the
 * rest (plane 0 alone run-coded), sparse spikes, a land mask of fill 1e20
 * (FILL runs), steps (plane 1 alone), a sentinel land beside padding fill
 * points (format 8 with HAS_FILL2, the CPU's alone), constant odd points
 * beside noise on even ones. */
static void runs_decode(void)
{
    static const shape shapes[] = {{"64^3", 3, {64, 64, 64}}, {"33x20x47", 3, {33, 20, 47}}, {"65x130", 2, {65, 130}},
                                   {"5000", 1, {5000}},       {"17^3", 3, {17, 17, 17}}};
    static const double ebs[] = {1e-1, 1e-3, 1e-5};
    static const char *kinds[] = {"smooth", "constant", "even zero", "spikes", "land fill", "steps", "sentinel", "odd constant"};
    runs_decoded rs;
    memset(&rs, 0, sizeof rs);
    char name[256];
    for (size_t si = 0; si < sizeof shapes / sizeof *shapes; si++) {
        const shape *sh = &shapes[si];
        if (quick && si != 1 && si != 2) continue;
        uint64_t n = 1;
        for (int i = 0; i < sh->rank; i++) n *= sh->dims[i];
        const uint64_t n2 = sh->dims[sh->rank - 1], n1 = sh->rank > 1 ? sh->dims[sh->rank - 2] : 1, n0 = n / (n1 * n2);
        for (int kind = 0; kind < 8; kind++)
            for (int f64 = 0; f64 <= (kind == 3 || kind == 4); f64++)
                for (size_t ei = 0; ei < sizeof ebs / sizeof *ebs; ei++) {
                    if (race && (ei != 0 || si != 1)) continue;
                    const size_t esz = f64 ? 8 : 4;
                    void *x = malloc(n * esz);
                    for (uint64_t i = 0; i < n; i++) {
                        const uint64_t xx = i % n2, y = (i / n2) % n1, z = i / (n1 * n2);
                        double v = smooth(i, n0, n1, n2);
                        if (kind == 1) v = 42.5;
                        if (kind == 2) v = ((xx | y | z) & 1) ? (double)(rnd() % 1000) : 0;
                        if (kind == 3) v = rnd() % 50 == 0 ? (double)(rnd() % 1000) : 0;
                        if (kind == 4 && (xx < 12 + 6 * sin((double)y / 5) || (xx > 30 && y > n1 / 2))) v = 1e20;
                        if (kind == 5) v = floor(v / 3);
                        if (kind == 6 && xx < n2 / 3) v = 1e20; /* the sentinel */
                        if (kind == 6 && y + 3 >= n1) v = 0.0;  /* HDF5's padding: the fill value */
                        if (kind == 7) v = ((xx | y | z) & 1) ? 7.0 : (double)(rnd() % 1000);
                        if (f64) ((double *)x)[i] = v;
                        else ((float *)x)[i] = (float)v;
                    }
                    glide_params p;
                    glide_params_init(&p, f64 ? GLIDE_FLOAT64 : GLIDE_FLOAT32, (unsigned)sh->rank, sh->dims);
                    p.backend = GLIDE_BACKEND_CPU;
                    p.eb = ebs[ei];
                    if (kind == 2 || kind == 7) p.predictor = GLIDE_PRED_INTERP;
                    if (kind == 4) {
                        p.has_fill = 1;
                        p.fill_bits = f64 ? 0x4415AF1D78B58C40ull : 0x60ad78ecu; /* 1e20 */
                    }
                    if (kind == 6) p.has_fill = 1, p.fill_bits = 0;
                    snprintf(name, sizeof name, "runs %s %s %s eb%g", sh->tag, f64 ? "f64" : "f32", kinds[kind], p.eb);
                    runs_stream(name, &p, x, n, esz, ei == 1 && !race ? (quick ? 10 : 60) : 0, &rs);
                    free(x);
                }
    }
    printf("format 8 streams: %d (plane 0 run-coded alone %d, plane 1 alone %d, both %d; FILL runs %d; second fill "
           "value %d); decoded by the GPU: %d interpolation, %d Lorenzo, %d slices\n",
           rs.seen, rs.only0, rs.only1, rs.both, rs.fill_runs, rs.fill2, rs.by_method[GLIDE_METHOD_INTERP],
           rs.by_method[GLIDE_METHOD_LORENZO], rs.by_method[GLIDE_METHOD_SLICE]);
    CHECK(rs.seen > 0 && (race || (rs.only0 > 0 && rs.only1 > 0 && rs.both > 0 && rs.fill_runs > 0 && rs.fill2 > 0)),
          "format 8 streams of every kind: plane 0 alone run-coded, plane 1 alone, both, FILL runs, a second fill value");
    if (!quick)
        CHECK(rs.by_method[GLIDE_METHOD_INTERP] > 0 && rs.by_method[GLIDE_METHOD_LORENZO] > 0 &&
                  rs.by_method[GLIDE_METHOD_SLICE] > 0,
              "format 8 streams of every method decoded by the GPU");
}

static void synthetic(void)
{
    static const shape shapes[] = {
        {"1", 1, {1}},           {"7", 1, {7}},             {"5000", 1, {5000}},     {"12293", 1, {4096 * 3 + 5}},
        {"64x64", 2, {64, 64}},  {"65x130", 2, {65, 130}},  {"16^3", 3, {16, 16, 16}}, {"17^3", 3, {17, 17, 17}},
        {"33x20x47", 3, {33, 20, 47}}, {"64^3", 3, {64, 64, 64}}, {"91^3", 3, {91, 91, 91}},
        {"3x5x17x19", 4, {3, 5, 17, 19}}, {"2x1x300", 3, {2, 1, 300}}, {"1x1x1x1", 4, {1, 1, 1, 1}},
        /* 810 boxes: the 256-thread interpolation instances (512 boxes and
         * more) with non-finite values and fills, and more Huffman segments
         * than the one-block writer takes; 40^3 at block_log2 2 (variant 3,
         * odd index): those instances under racecheck too */
        {"130x140x150", 3, {130, 140, 150}}, {"40^3", 3, {40, 40, 40}},
    };
    static const double ebs[] = {1e-1, 1e-2, 1e-3, 1e-4, 1e-6, 0};
    char name[256];
    for (size_t si = 0; si < sizeof shapes / sizeof *shapes; si++) {
        const shape *sh = &shapes[si];
        /* 64x64 (si 4): rows of whole groups of 64, so the encoder reads
         * format 5's planes in place under the sanitizers too */
        if (quick && si != 2 && si != 4 && si != 5 && si != 7 && si != 8) continue;
        if (race && si != 4 && si != 7 && si != 8 && si != 15) continue;
        uint64_t n = 1;
        for (int i = 0; i < sh->rank; i++) n *= sh->dims[i];
        uint64_t n2 = sh->dims[sh->rank - 1], n1 = sh->rank > 1 ? sh->dims[sh->rank - 2] : 1, n0 = n / (n1 * n2);
        for (int f64 = 0; f64 <= 1; f64++)
            for (int kind = 0; kind < (quick ? 2 : 4); kind++) {
                /* 0 smooth, 1 smooth + NaN/Inf/fill/huge, 2 noise, 3 constant */
                void *x = malloc(n * (f64 ? 8 : 4));
                for (uint64_t i = 0; i < n; i++) {
                    double v = smooth(i, n0, n1, n2);
                    if (kind == 1) {
                        if (i % 17 == 3) v = -999.0; /* fill */
                        if (i % 101 == 5) v = NAN;
                        if (i % 211 == 9) v = (i & 1) ? INFINITY : -INFINITY;
                        if (i % 307 == 11) v = f64 ? 1e300 : FLT_MAX;
                        if (i % 401 == 13) v = f64 ? 4e-320 : 1e-42; /* denormal */
                    }
                    if (kind == 2) v = (double)(rnd() >> 11) / 9007199254740992.0 * 1e6 - 5e5;
                    if (kind == 3) v = 42.5;
                    if (f64) ((double *)x)[i] = v;
                    else ((float *)x)[i] = (float)v;
                }
                for (size_t ei = 0; ei < sizeof ebs / sizeof *ebs; ei++)
                    for (int variant = 0; variant < 6; variant++) {
                        if (kind >= 2 && ei % 2) continue;
                        if (quick && ei != 1 && ei != 3) continue;
                        if (race && (ei != 3 || (f64 && variant != 2) || (si == 15 && variant != 3))) continue;
                        glide_params p;
                        glide_params_init(&p, f64 ? GLIDE_FLOAT64 : GLIDE_FLOAT32, (unsigned)sh->rank, sh->dims);
                        p.eb = ebs[ei];
                        p.mode = variant == 3 ? GLIDE_MODE_ABS : GLIDE_MODE_REL;
                        if (p.mode == GLIDE_MODE_ABS) p.eb *= 10;
                        p.predictor = variant == 1 ? GLIDE_PRED_LORENZO : variant == 2 ? GLIDE_PRED_INTERP : GLIDE_PRED_AUTO;
                        p.codebook = variant == 2 ? GLIDE_BOOK_CUSTOM : variant == 1 ? GLIDE_BOOK_DICT : GLIDE_BOOK_AUTO;
                        if (kind == 1) {
                            p.has_fill = 1;
                            p.fill_bits = f64 ? 0xC08F380000000000ull : 0xC479C000u; /* -999 */
                        }
                        if (variant == 3 && sh->rank >= 2) p.block_log2 = (si % 2) ? 2 : 5; /* 5: global-memory path */
                        /* format 6: a forced slice order (3-D grids; others as the default), anchor strides 16, 8, 32 */
                        force_slice = variant >= 4 ? variant - 3 : 0;
                        if (variant == 5 && sh->rank >= 2) p.block_log2 = (si % 2) ? 3 : 5;
                        snprintf(name, sizeof name, "syn %s %s kind%d eb%g v%d", sh->tag, f64 ? "f64" : "f32", kind, p.eb,
                                 variant);
                        size_t len = 0;
                        uint8_t *s = compare(name, &p, x, &len);
                        force_slice = 0;
                        if (s && kind == 1 && ei == (quick ? 3u : 2u) && n > 100) damage(name, s, len, n, f64 ? 8 : 4, race ? 4 : quick ? 20 : 200);
                        free(s);
                    }
                free(x);
            }
    }
}

static void fields(const char *dir)
{
    DIR *d = opendir(dir);
    CHECK(d != NULL, "fields directory %s", dir);
    if (!d) return;
    struct dirent *e;
    static const double ebs[] = {1e-2, 1e-3, 1e-4, 1e-5};
    int count = 0;
    while ((e = readdir(d))) {
        char *sep = strstr(e->d_name, "__");
        if (!sep || !strstr(e->d_name, ".f32")) continue;
        glide_params p;
        uint64_t dims[4] = {0};
        int rank = sscanf(sep + 2, "%llux%llux%llux%llu", (unsigned long long *)&dims[0],
                          (unsigned long long *)&dims[1], (unsigned long long *)&dims[2], (unsigned long long *)&dims[3]);
        if (rank < 1) continue;
        uint64_t n = 1;
        for (int i = 0; i < rank; i++) n *= dims[i];
        char path[1024];
        snprintf(path, sizeof path, "%s/%s", dir, e->d_name);
        FILE *f = fopen(path, "rb");
        float *x = malloc(n * 4);
        size_t got = f ? fread(x, 4, n, f) : 0;
        if (f) fclose(f);
        CHECK(got == n, "%s: read %llu values", e->d_name, (unsigned long long)n);
        if (got != n) { free(x); continue; }
        count++;
        for (size_t ei = 0; ei < sizeof ebs / sizeof *ebs; ei++)
            for (int variant = 0; variant < 4; variant++) {
                glide_params_init(&p, GLIDE_FLOAT32, (unsigned)rank, dims);
                p.eb = ebs[ei];
                p.predictor = variant == 1 ? GLIDE_PRED_LORENZO : variant >= 2 ? GLIDE_PRED_INTERP : GLIDE_PRED_AUTO;
                p.codebook = variant == 2 ? GLIDE_BOOK_CUSTOM : GLIDE_BOOK_AUTO;
                if (strstr(e->d_name, "tos")) { p.has_fill = 1; p.fill_bits = 0x60ad78ecu; } /* 1e20f */
                char name[300];
                snprintf(name, sizeof name, "field %.*s rel%g v%d", (int)(sep - e->d_name), e->d_name, p.eb, variant);
                size_t len = 0;
                free(compare(name, &p, x, &len));
            }
        free(x);
    }
    closedir(d);
    CHECK(count > 0, "%d real fields compared", count);
}

static void large(void)
{
    /* 1 GiB of float32: 64-bit sizes everywhere */
    uint64_t dims[3] = {512, 512, 1024}, n = dims[0] * dims[1] * dims[2];
    float *x = malloc(n * 4);
    for (uint64_t i = 0; i < n; i++) x[i] = (float)(sin((double)(i % 1024) * 0.01) * 100 + (double)(i >> 20) * 0.1);
    glide_params p;
    glide_params_init(&p, GLIDE_FLOAT32, 3, dims);
    size_t len = 0;
    free(compare("large 512x512x1024 f32", &p, x, &len));
    free(x);
}

/* GPU-made streams that CI (no GPU) decodes and re-encodes with the CPU
 * codec (h5tests/c/test_golden.c reads every stream of golden/gpu/). */
static void gpu_golden(void)
{
    static const struct {
        const char *name;
        glide_dtype dt;
        unsigned rank;
        uint64_t dims[4];
        int mode, pred, book, fill, blog;
        double eb;
    } g[] = {
        {"gpu_f32_64c_interp_auto_rel1e-3", GLIDE_FLOAT32, 3, {64, 64, 64}, 1, 0, 2, 0, 0, 1e-3},
        {"gpu_f32_91c_lorenzo_dict_rel1e-4", GLIDE_FLOAT32, 3, {91, 91, 91}, 1, 1, 0, 0, 0, 1e-4},
        {"gpu_f64_2d_interp_custom_abs1e-2", GLIDE_FLOAT64, 2, {130, 65}, 0, 0, 1, 0, 0, 1e-2},
        {"gpu_f32_1d_interp_auto_rel1e-2", GLIDE_FLOAT32, 1, {12293}, 1, 0, 2, 0, 0, 1e-2},
        {"gpu_f32_3d_fill_nan_rel1e-3", GLIDE_FLOAT32, 3, {33, 20, 47}, 1, 0, 2, 1, 0, 1e-3},
        {"gpu_f32_3d_blog5_abs1e-1", GLIDE_FLOAT32, 3, {40, 36, 70}, 0, 0, 2, 0, 5, 1e-1},
        /* format 2: four axes, the slabs kept apart */
        {"gpu_f32_4d_slabs_interp_auto_rel1e-3", GLIDE_FLOAT32, 4, {3, 13, 40, 36}, 1, 0, 2, 0, 0, 1e-3},
        {"gpu_f32_4d_slabs_lorenzo_rel1e-4", GLIDE_FLOAT32, 4, {5, 9, 20, 33}, 1, 1, 2, 0, 0, 1e-4},
        /* format 3: a land mask of fill 1e20 (fill 2), the global-scratch path too (blog 6) */
        {"gpu_f32_3d_mask_rel1e-3", GLIDE_FLOAT32, 3, {6, 70, 90}, 1, 0, 2, 2, 0, 1e-3},
        {"gpu_f32_3d_mask_blog6_rel1e-2", GLIDE_FLOAT32, 3, {40, 70, 90}, 1, 2, 2, 2, 6, 1e-2},
    };
    write_golden = 1;
    for (size_t k = 0; k < sizeof g / sizeof *g; k++) {
        uint64_t n = 1;
        for (unsigned a = 0; a < g[k].rank; a++) n *= g[k].dims[a];
        uint64_t n2 = g[k].dims[g[k].rank - 1], n1 = g[k].rank > 1 ? g[k].dims[g[k].rank - 2] : 1;
        size_t esz = g[k].dt == GLIDE_FLOAT64 ? 8 : 4;
        void *x = malloc(n * esz);
        for (uint64_t i = 0; i < n; i++) {
            double v = smooth(i, n / (n1 * n2), n1, n2);
            if (g[k].fill == 1 && i % 17 == 3) v = -999.0;
            if (g[k].fill == 1 && i % 101 == 5) v = NAN;
            if (g[k].fill == 2) { /* a coast and an island, the same in every plane */
                double y = (double)(i / n2 % n1), xx = (double)(i % n2);
                if (xx < 12 + 6 * sin(y / 5) || (xx - 55) * (xx - 55) + (y - 30) * (y - 30) < 90) v = 1e20;
            }
            if (esz == 8) ((double *)x)[i] = v;
            else ((float *)x)[i] = (float)v;
        }
        glide_params p;
        glide_params_init(&p, g[k].dt, g[k].rank, g[k].dims);
        p.mode = g[k].mode;
        p.eb = g[k].eb;
        p.predictor = g[k].pred;
        p.codebook = g[k].book;
        p.block_log2 = (unsigned)g[k].blog;
        if (g[k].fill) { p.has_fill = 1; p.fill_bits = g[k].fill == 2 ? 0x60ad78ecu : 0xC479C000u; } /* 1e20f, -999 */
        size_t len = 0;
        free(compare(g[k].name, &p, x, &len));
        free(x);
    }
    write_golden = 0;
}

/* Chunks of one shape replay the captured graphs. A run of them whose
 * data takes every entropy path (dictionary book, custom book, RAW), with
 * shape and predictor changes that force new captures and returns to an
 * earlier key, must give the CPU's bytes every time, with graphs and
 * without. compare() compresses each twice (host, then device planner). */
static void graph_replay(void)
{
    static const uint64_t shapes[2][3] = {{24, 40, 56}, {64, 64, 64}};
    for (int on = 1; on >= 0; on--) {
        gg_test_use_graphs(on);
        for (int i = 0; i < 10; i++) {
            const uint64_t *d = shapes[(i / 3) % 2];
            const uint64_t n = d[0] * d[1] * d[2];
            float *x = malloc(n * 4);
            for (uint64_t t = 0; t < n; t++)
                x[t] = i % 4 == 2 ? (float)(rnd() % 1000003) : (float)(smooth(t, d[0], d[1], d[2]) * (1 + 0.1 * i));
            glide_params p;
            glide_params_init(&p, GLIDE_FLOAT32, 3, d);
            p.mode = GLIDE_MODE_REL;
            p.eb = 1e-3;
            p.predictor = i == 7 ? GLIDE_PRED_LORENZO : GLIDE_PRED_AUTO;
            char name[80];
            snprintf(name, sizeof name, "graph replay (%s) %d: %llux%llux%llu", on ? "graphs" : "no graphs", i,
                     (unsigned long long)d[0], (unsigned long long)d[1], (unsigned long long)d[2]);
            size_t len = 0;
            free(compare(name, &p, x, &len));
            free(x);
        }
    }
    gg_test_use_graphs(1);
}

/* Inputs whose planes pay for runs (format 8), at a point of a grid of
 * n0 x n1 x n2. kind 0: smooth (loose bounds: long zero runs); 1: a land
 * mask of fill (a coast and an island in every layer: FILL runs); 2: an
 * edge chunk, fill past 5/8 of each axis (HDF5 pads edge chunks so); 3:
 * steps (exact zeros) with the odd layers noisy; 4: plane 0's points all
 * equal, plane 1's noise (only plane 0 run-coded); 5: noise a few dozen
 * bins wide at 1e-2 (no plane run-coded). */
static double runs_value(int kind, uint64_t i, uint64_t n0, uint64_t n1, uint64_t n2, double fill)
{
    const uint64_t x = i % n2, y = i / n2 % n1, z = i / (n1 * n2);
    double v = smooth(i, n0, n1, n2);
    if (kind == 1) {
        const double yy = (double)y, xx = (double)x, cx = 0.6 * (double)n2, cy = 0.5 * (double)n1;
        if (xx < 12 + 6 * sin(yy / 5) || (xx - cx) * (xx - cx) + (yy - cy) * (yy - cy) < 0.04 * (double)(n1 * n2)) v = fill;
    }
    if (kind == 2 && (x >= (5 * n2 + 7) / 8 || (n1 > 1 && y >= (5 * n1 + 7) / 8) || (n0 > 1 && z >= (5 * n0 + 7) / 8)))
        v = fill;
    if (kind == 3) {
        v = (double)((x / 16 + y / 8 + z / 4) % 5);
        if (z % 2 == 1) v += 0.001 * (double)(rnd() % 1000);
    }
    if (kind == 4) v = ((x | y | z) & 1) ? 280 + (double)(rnd() % 1000) : 280;
    if (kind == 5) v = 280 + 0.02 * (double)(rnd() % 1000);
    if (kind == 6) v = 280; /* every point exact: the dictionary's book fits, runs win */
    return v;
}

/* Format 8: run-coded planes on shapes whose planes the encoder reads in
 * place (rows of whole groups of 64) and on shapes it splits, float32 and
 * float64, every predictor and codebook mode, bounds from loose to tight;
 * compare() holds each stream to the CPU's bytes (both planners) and
 * counts which planes it run-codes. */
static void runs_fields(void)
{
    static const shape shapes[] = {{"64^3", 3, {64, 64, 64}},     {"32x48x128", 3, {32, 48, 128}}, {"96x64", 2, {96, 64}},
                                   {"33x20x47", 3, {33, 20, 47}}, {"65x130", 2, {65, 130}},        {"100000", 1, {100000}},
                                   {"3x5x17x64", 4, {3, 5, 17, 64}}};
    static const double ebs[] = {1e-1, 3e-2, 1e-2, 1e-3};
    char name[256];
    for (size_t si = 0; si < sizeof shapes / sizeof *shapes; si++) {
        const shape *sh = &shapes[si];
        if (quick && si != 2 && si != 3) continue; /* under the sanitizers: small grids, in place and split */
        uint64_t n = 1;
        for (int a = 0; a < sh->rank; a++) n *= sh->dims[a];
        const uint64_t n2 = sh->dims[sh->rank - 1], n1 = sh->rank > 1 ? sh->dims[sh->rank - 2] : 1, n0 = n / (n1 * n2);
        for (int kind = 0; kind < 6; kind++)
            for (int f64 = 0; f64 <= 1; f64++) {
                if ((quick || si % 2) && f64) continue;
                if (race && kind != 1 && kind != 4) continue;
                const size_t esz = f64 ? 8 : 4;
                void *x = malloc(n * esz);
                for (uint64_t i = 0; i < n; i++) {
                    const double v = runs_value(kind, i, n0, n1, n2, -999.0);
                    if (f64) ((double *)x)[i] = v;
                    else ((float *)x)[i] = (float)v;
                }
                for (size_t ei = 0; ei < sizeof ebs / sizeof *ebs; ei++)
                    for (int variant = 0; variant < 3; variant++) {
                        if (quick && (ei || variant == 1)) continue;
                        if (race && variant) continue;
                        glide_params p;
                        glide_params_init(&p, f64 ? GLIDE_FLOAT64 : GLIDE_FLOAT32, (unsigned)sh->rank, sh->dims);
                        p.mode = GLIDE_MODE_REL;
                        p.eb = ebs[ei];
                        p.predictor = variant == 1 ? GLIDE_PRED_LORENZO : variant == 2 ? GLIDE_PRED_INTERP : GLIDE_PRED_AUTO;
                        p.codebook = variant == 2 ? GLIDE_BOOK_CUSTOM : variant == 1 ? GLIDE_BOOK_DICT : GLIDE_BOOK_AUTO;
                        if (kind == 1 || kind == 2) {
                            p.has_fill = 1;
                            p.fill_bits = f64 ? 0xC08F380000000000ull : 0xC479C000u; /* -999 */
                        }
                        snprintf(name, sizeof name, "runs %s %s kind%d eb%g v%d", sh->tag, f64 ? "f64" : "f32", kind, p.eb,
                                 variant);
                        size_t len = 0;
                        free(compare(name, &p, x, &len));
                    }
                free(x);
            }
    }
}

/* The default planner across chunks whose run-coded planes change: after
 * a run-coded stream the host plans the next chunk, its tail queued behind
 * the plan's gate (its graph replaying). Chunks this small queue the
 * encoder that takes the run-coded planes from the plan on the device, so
 * every such tail after the graph's first launch goes behind the gate and
 * none runs empty. With gg_test_guess_run_planes(1), the path of chunks
 * over GG_PLAN_RUNS_POINTS: the tail guesses the planes the stream before
 * run-coded; where the plan run-codes other planes, or none, that tail
 * runs empty and the right one follows, and the next chunk's tail waits
 * for its plan. Chunks of one shape in an order that takes every
 * transition (both planes, plane 0 alone, none, plane 1 alone, ...), each
 * held to the CPU's bytes, with graphs and without. */
static void runs_paths(void)
{
    static const uint64_t dims[2][3] = {{16, 24, 64}, {33, 20, 47}}; /* planes in place, split */
    /* run-coded planes (the CPU's): both, both, both, 0, 0, 0, none, both, both (second shape: 1), 1, both; a
     * tail goes behind the gate once a guess has held (after a miss the next is queued after its plan), so a
     * kind holds for three chunks. After the noise (a dictionary book, no runs) the device plans the constant
     * chunk (kind 6, an absolute bound): its dictionary book is within the slack, and the host's re-check
     * finds runs smaller and plans it again. */
    static const struct {
        int kind;
        double eb;
    } seq[2][11] = {{{1, 1e-1}, {2, 1e-1}, {1, 1e-1}, {4, 1e-1}, {4, 3e-2}, {4, 1e-1}, {5, 1e-1}, {6, 0.5}, {0, 3e-2}, {0, 1e-2}, {0, 1e-1}},
                    {{1, 1e-1}, {2, 1e-1}, {1, 1e-1}, {4, 1e-1}, {4, 3e-2}, {4, 1e-1}, {5, 1e-1}, {6, 0.5}, {0, 1e-2}, {3, 3e-2}, {0, 1e-1}}};
    int requeued = 0, gated_runs = 0, host_runs = 0, bad = 0, chunks = 0;
    /* graphs on: host plans not behind the gate with the guess and with the plan's planes; with the plan's: tails
     * behind the gate where the planes changed, tails run empty */
    int guess_ungated = 0, plan_ungated = 0, changed_gated = 0, plan_requeued = 0;
    for (int guess = 1; guess >= 0; guess--)
    for (int on = 1; on >= 0; on--) {
        gg_test_use_graphs(on);
        gg_test_guess_run_planes(guess);
        if (!guess && !on) continue; /* without graphs no tail goes behind the gate */
        for (int si = 0; si < 2; si++) {
            if ((quick && !on) || (race && !si)) continue; /* under the sanitizers: graphs on; racecheck: split */
            const uint64_t *d = dims[si], n = d[0] * d[1] * d[2];
            float *x = malloc(n * 4);
            glide_params p;
            glide_params_init(&p, GLIDE_FLOAT32, 3, d);
            p.mode = GLIDE_MODE_REL;
            size_t cap = glide_compress_bound(&p);
            uint8_t *sc = malloc(cap), *sg = malloc(cap);
            glide_encode_opts o = glide_default_encode_opts();
            unsigned prev_runs = 0;
            for (int i = 0; i < 11; i++) {
                for (uint64_t t = 0; t < n; t++) x[t] = (float)runs_value(seq[si][i].kind, t, d[0], d[1], d[2], -999.0);
                p.eb = seq[si][i].eb;
                p.mode = seq[si][i].kind == 6 ? GLIDE_MODE_ABS : GLIDE_MODE_REL;
                p.has_fill = seq[si][i].kind == 1 || seq[si][i].kind == 2;
                /* the noise of kind 5 takes a dictionary book, so that the device plans the chunk after it */
                p.codebook = seq[si][i].kind == 5 ? GLIDE_BOOK_DICT : GLIDE_BOOK_AUTO;
                p.fill_bits = p.has_fill ? 0xC479C000u : 0;
                const size_t lc = glide_cpu_compress(&p, &o, x, sc, cap), lg = glide_gpu_compress(&p, &o, x, 0, sg, cap);
                const int same = !glide_is_error(lc) && lc == lg && !memcmp(sc, sg, lc);
                const int plan = gg_test_last_plan(), gated = gg_test_last_plan_gated(), rq = gg_test_last_tail_requeued();
                glide_header h;
                glide_layout lay;
                const unsigned rmask =
                    same && !glide_is_error(glide_header_read(sc, lc, &h, &lay)) ? h.flags & GLIDE_FLAG_RUNS : 0u;
                const int runs = rmask != 0;
                chunks++;
                if (guess) {
                    requeued += same && rq;
                    gated_runs += same && gated && runs;
                    host_runs += same && plan == GG_PLANNED_HOST_RUNS;
                    guess_ungated += on && plan == GG_PLANNED_HOST && !gated;
                } else {
                    changed_gated += same && gated && rmask != prev_runs;
                    plan_ungated += plan == GG_PLANNED_HOST && !gated;
                    plan_requeued += rq;
                }
                prev_runs = rmask;
                if (verbose)
                    printf("    runs path %llux%llux%llu chunk %d (%s): kind %d eb %g flags %02x plan %d gated %d requeued %d\n",
                           (unsigned long long)d[0], (unsigned long long)d[1], (unsigned long long)d[2], i,
                           on ? "graphs" : "no graphs", seq[si][i].kind, seq[si][i].eb, same ? (unsigned)h.flags : 0u,
                           plan, gated, rq);
                if (!same && bad++ < 5) {
                    printf("    runs path %llux%llux%llu chunk %d (%s): cpu %zu, gpu %zu%s, plan %d gated %d requeued %d\n",
                           (unsigned long long)d[0], (unsigned long long)d[1], (unsigned long long)d[2], i,
                           on ? "graphs" : "no graphs", lc, lg, glide_is_error(lg) ? glide_error_name(lg) : "", plan, gated, rq);
                    if (!glide_is_error(lc) && !glide_is_error(lg)) explain(sc, lc, sg, lg);
                }
            }
            free(x), free(sc), free(sg);
        }
    }
    gg_test_use_graphs(1);
    gg_test_guess_run_planes(0);
    CHECK(bad == 0, "runs paths: %d chunks whose run-coded planes change, each the CPU's stream, %d not", chunks, bad);
    printf("runs paths, the plan's planes on the device: %d tails behind the gate where the planes changed, %d host "
           "plans not behind it (%d with the guess), %d run empty\n", changed_gated, plan_ungated, guess_ungated,
           plan_requeued);
    /* a tail still waits for its plan where its graph is captured anew (a new shape, fill value or none) */
    CHECK(changed_gated > 0 && plan_ungated < guess_ungated && plan_requeued == 0,
          "runs paths: the tail that takes the plan's planes goes behind the gate whatever the plan, and never runs empty");
    printf("runs paths: %d host plans after the device's (runs won), %d run-coded tails behind the gate, %d gated tails "
           "run empty and queued again\n", host_runs, gated_runs, requeued);
    /* (main's "entropy plans" check holds every plan to the CPU's bytes over the whole run too) */
    CHECK(gated_runs > 0 && requeued > 0 && host_runs > 0,
          "runs paths: a run-coded tail behind the gate, a gated tail of the other encoder run empty and requeued, "
          "a device plan the host redid for runs");
}

/* glide_compress / glide_decompress with a failing GPU run on the CPU and
 * lose nothing. */
/* Dictionary versions: the GPU names v2 only for v2's mixed books, as the
 * CPU does (compare() holds it to the CPU's bytes), and decodes a v1 book
 * named either way. The inputs are h5tests/c/test_stream.c's. */
static void dict_versions(void)
{
    uint64_t dims[3] = {24, 30, 36}, n = 24 * 30 * 36;
    float *x = malloc(n * 4), *yc = malloc(n * 4), *yg = malloc(n * 4);
    glide_params p;
    glide_params_init(&p, GLIDE_FLOAT32, 3, dims);
    p.mode = GLIDE_MODE_REL;
    p.eb = 1e-3;
    p.codebook = GLIDE_BOOK_DICT;
    const char *names[3] = {"dict v2 fill book", "dict v2 zero-code book", "dict v1 book"};
    for (int k = 0; k < 3; k++) {
        for (uint64_t i = 0; i < n; i++)
            x[i] = k == 0   ? (i % 3 == 0 ? 0.0f : (float)(280 + 10 * sin(0.002 * (double)i)))
                   : k == 1 ? (float)floor(4 * sin(0.0005 * (double)i))
                            : (float)(sin(0.01 * (double)i) + 0.3 * cos(0.0007 * (double)i));
        p.has_fill = k == 0;
        p.fill_bits = 0;
        size_t len = 0;
        force_slice = k == 2 ? -1 : 0; /* format 5's methods: the book this field's interpolation gets */
        uint8_t *s = compare(names[k], &p, x, &len);
        force_slice = 0;
        if (!s) continue;
        const unsigned book = get_u16(s + 10);
        CHECK(s[5] == (k < 2 ? 2 : 1) && s[9] == GLIDE_BOOKKIND_DICT && (k < 2) == (book >= 96),
              "%s: the GPU names dictionary v%u for book %u", names[k], s[5], book);
        if (k == 2) {
            s[5] = 2;
            put_u32(s + len - 4, glide_crc32(s, len - 4));
            glide_header h;
            glide_layout lay;
            size_t dc = glide_decompress_with(GLIDE_BACKEND_CPU, s, len, yc, n * 4);
            size_t dg = glide_header_read(s, len, &h, &lay);
            if (!glide_is_error(dg)) dg = glide_gpu_decompress(&h, &lay, s, len, yg, 0);
            CHECK(dc == n * 4 && !glide_is_error(dg) && !memcmp(yc, yg, n * 4),
                  "a v1 book named as v2's: the GPU decodes it as the CPU does");
        }
        free(s);
    }
    free(x), free(yc), free(yg);
}

/* The API's paths on an n0 x n1 x n2 chunk: main runs it below 1 MiB (a
 * pageable upload) and from 1 MiB (gated behind the helpers' copy,
 * gpu/gpu_transfer.c GG_GATE_MIN). */
static void api_paths(uint64_t n0, uint64_t n1, uint64_t n2)
{
    uint64_t dims[3] = {n0, n1, n2}, n = n0 * n1 * n2;
    float *x = malloc(n * 4), *y = malloc(n * 4);
    for (uint64_t i = 0; i < n; i++) x[i] = (float)smooth(i, n0, n1, n2);
    glide_params p;
    glide_params_init(&p, GLIDE_FLOAT32, 3, dims);
    size_t cap = glide_compress_bound(&p);
    uint8_t *a = malloc(cap), *b = malloc(cap);
    CHECK(glide_backend_resolve(GLIDE_BACKEND_AUTO) == GLIDE_BACKEND_GPU, "auto resolves to the GPU here");
    p.backend = GLIDE_BACKEND_GPU;
    size_t la = glide_compress(&p, x, n * 4, a, cap);
    p.backend = GLIDE_BACKEND_CPU;
    size_t lb = glide_compress(&p, x, n * 4, b, cap);
    CHECK(!glide_is_error(la) && la == lb && !memcmp(a, b, la), "API: GPU and CPU backends give the same stream");
    float *z = malloc(n * 4);
    CHECK(glide_decompress_with(GLIDE_BACKEND_CPU, b, lb, z, n * 4) == n * 4, "API: CPU decompress");
    memset(y, 0xA5, n * 4);
    CHECK(glide_decompress_with(GLIDE_BACKEND_GPU, a, la, y, n * 4) == n * 4 && !memcmp(y, z, n * 4),
          "API: GPU decompress, the CPU's values");
    /* the values written out by a kernel (up to 1 MiB): words that never
     * come fail the call, which the CPU then does; the next runs on the GPU */
    if (n * 4 <= ((size_t)1 << 20)) {
        glide_header hd;
        glide_layout ld;
        CHECK(!glide_is_error(glide_header_read(a, la, &hd, &ld)), "API: the stream's header");
        gg_test_lose_out_words(1);
        CHECK(glide_gpu_decompress(&hd, &ld, a, la, y, 0) == GLIDE_ERROR(GPU),
              "backend: lost words of the values written out are reported, not waited for");
    }
    gg_test_lose_out_words(1);
    memset(y, 0xA5, n * 4);
    CHECK(glide_decompress_with(GLIDE_BACKEND_GPU, a, la, y, n * 4) == n * 4 && !memcmp(y, z, n * 4),
          "API: decompress falls back to the CPU when the values' words are lost");
    gg_test_lose_out_words(0);
    memset(y, 0xA5, n * 4);
    CHECK(glide_decompress_with(GLIDE_BACKEND_GPU, a, la, y, n * 4) == n * 4 && !memcmp(y, z, n * 4) &&
              glide_gpu_usable(),
          "API: the next decompression on the GPU, the CPU's values");
    CHECK(glide_decompress_with(GLIDE_BACKEND_GPU, a, la, y, n * 4 - 1) == GLIDE_ERROR(DST_TOO_SMALL),
          "API: small destination refused");
    CHECK(glide_compress(&p, x, n * 4, a, 100) == GLIDE_ERROR(DST_TOO_SMALL), "API: small stream buffer refused");
    /* a failing GPU: the chunk is done on the CPU, same bytes, same values */
    p.backend = GLIDE_BACKEND_GPU;
    gg_test_inject_failures(1);
    memset(a, 0, cap);
    la = glide_compress(&p, x, n * 4, a, cap);
    CHECK(la == lb && !memcmp(a, b, la), "API: compress falls back to the CPU when the GPU fails");
    /* failing with the upload queued (a gated one waits on the helpers' copy):
     * through the API the CPU takes over; the backend itself reports the
     * failure without waiting forever on the device, and its next call
     * runs on the GPU */
    gg_test_inject_late_failures(1);
    memset(a, 0, cap);
    la = glide_compress(&p, x, n * 4, a, cap);
    CHECK(la == lb && !memcmp(a, b, la), "API: compress falls back to the CPU when the GPU fails mid-call");
    glide_encode_opts o = glide_default_encode_opts();
    gg_test_inject_late_failures(1);
    CHECK(glide_gpu_compress(&p, &o, x, 0, a, cap) == GLIDE_ERROR(GPU), "backend: a failure mid-call is reported");
    memset(a, 0, cap);
    la = glide_gpu_compress(&p, &o, x, 0, a, cap);
    CHECK(la == lb && !memcmp(a, b, la), "backend: the next call runs on the GPU, same stream");
    /* a driver that refuses stream waits: the gated upload turns itself
     * off and the chunk still runs on the GPU, pageable */
    gg_test_refuse_stream_waits(1);
    memset(a, 0, cap);
    la = glide_gpu_compress(&p, &o, x, 0, a, cap);
    CHECK(la == lb && !memcmp(a, b, la), "backend: stream waits refused, the chunk still runs on the GPU");
    gg_test_refuse_stream_waits(0);
    /* the host's plan with its tail queued behind the plan's gate: a
     * failure before the plan is made leaves nothing waiting; with the gate
     * off, the tail is queued after the plan; the gate needs no stream
     * memory operation */
    gg_test_planner(GG_PLANNER_HOST);
    memset(a, 0, cap);
    la = glide_gpu_compress(&p, &o, x, 0, a, cap); /* the process's first host plan, if it is, launches apply_plan_k */
    CHECK(la == lb && !memcmp(a, b, la), "backend: the host's plan, same stream");
    memset(a, 0, cap);
    la = glide_gpu_compress(&p, &o, x, 0, a, cap);
    CHECK(la == lb && !memcmp(a, b, la) && gg_test_last_plan_gated(),
          "backend: the host's plan, its tail queued behind the gate, same stream");
    gg_test_inject_plan_failures(1);
    CHECK(glide_gpu_compress(&p, &o, x, 0, a, cap) == GLIDE_ERROR(GPU), "backend: a failure behind the plan's gate is reported");
    gg_test_inject_plan_failures(1);
    memset(a, 0, cap);
    la = glide_compress(&p, x, n * 4, a, cap);
    CHECK(la == lb && !memcmp(a, b, la), "API: a failure behind the plan's gate falls back to the CPU");
    memset(a, 0, cap);
    la = glide_gpu_compress(&p, &o, x, 0, a, cap);
    CHECK(la == lb && !memcmp(a, b, la) && gg_test_last_plan_gated(), "backend: the next host plan runs gated, same stream");
    gg_test_plan_gate(0);
    memset(a, 0, cap);
    la = glide_gpu_compress(&p, &o, x, 0, a, cap);
    CHECK(la == lb && !memcmp(a, b, la) && !gg_test_last_plan_gated(), "backend: the plan's gate off, same stream");
    gg_test_plan_gate(1);
    gg_test_refuse_stream_waits(1);
    memset(a, 0, cap);
    la = glide_gpu_compress(&p, &o, x, 0, a, cap);
    CHECK(la == lb && !memcmp(a, b, la) && gg_test_last_plan_gated(),
          "backend: stream waits refused, the host's plan still queues its tail behind its gate (a kernel), same "
          "stream");
    gg_test_refuse_stream_waits(0);
    gg_test_planner(GG_PLANNER_AUTO);
    gg_test_inject_failures(1);
    CHECK(glide_decompress_with(GLIDE_BACKEND_GPU, b, lb, y, n * 4) == n * 4 && !memcmp(y, z, n * 4),
          "API: decompress falls back to the CPU when the GPU fails");
    CHECK(glide_gpu_usable(), "GPU still usable after an out-of-memory failure");
    free(z);
    free(x);
    free(y);
    free(a);
    free(b);
}

int main(int argc, char **argv)
{
    const char *fdir = NULL;
    int big = 0, no_merge = 0;
    long long split_points = -1, commit_grid = 0;
    for (int i = 1; i < argc; i++) {
        if (!strcmp(argv[i], "--fields") && i + 1 < argc) fdir = argv[++i];
        else if (!strcmp(argv[i], "--large")) big = 1;
        else if (!strcmp(argv[i], "--write-golden") && i + 1 < argc) golden_dir = argv[++i];
        else if (!strcmp(argv[i], "-v")) verbose = 1;
        else if (!strcmp(argv[i], "--quick")) quick = 1;
        else if (!strcmp(argv[i], "--race")) quick = race = 1;
        else if (!strcmp(argv[i], "--split-points") && i + 1 < argc) split_points = atoll(argv[++i]);
        else if (!strcmp(argv[i], "--commit-grid") && i + 1 < argc) commit_grid = atoll(argv[++i]);
        else if (!strcmp(argv[i], "--no-coarse-merge")) no_merge = 1;
        else {
            fprintf(stderr, "test_gpu_codec: unknown argument '%s'\n", argv[i]);
            return 2;
        }
    }
    if (!glide_gpu_usable()) {
        printf("test_gpu_codec: no usable GPU; skipped\n");
        return 77;
    }
    if (split_points >= 0) gg_test_split_points(split_points);
    if (commit_grid > 0) gg_test_commit_grid((unsigned)commit_grid);
    if (no_merge) gg_test_coarse_merge(0);
    printf("device: %s\n", glide_gpu_device_name());
    gg_test_keep_hist0(1);
    if (golden_dir) gpu_golden();
    if (!race) {
        api_paths(40, 50, 60);
        api_paths(41, 51, 61); /* values written out by a kernel, a last piece not a multiple of 16 bytes */
        /* the gated upload: 1 MiB (16 pieces, two DMAs), 1.37 MB (a short
         * last piece, groups of 6, 6 and 4), 6.3 MB (a DMA a piece) */
        api_paths(64, 64, 64);
        api_paths(70, 70, 70);
        api_paths(120, 120, 110);
    }
    dict_versions();
    graph_replay();
    runs_paths();
    runs_fields();
    synthetic();
    runs_decode();
    blend_decode();
    if (!race) spec_dropped();
    if (fdir) fields(fdir);
    if (big) large();
    printf("predictor choice (auto): %d streams interpolation, %d Lorenzo, %d slices\n", auto_interp, auto_lorenzo,
           auto_slice);
    printf("slice method (format 6): %d GPU streams\n", slice_streams);
    CHECK(slice_streams > 0, "GPU streams of the slice method");
    printf("blended levels (format 4): %d GPU streams\n", blended);
    printf("plane 0 histogram by the interpolation kernel: %d GPU streams\n", hist0_kernel);
    if (!race) CHECK(hist0_kernel > 0, "the interpolation kernel counted plane 0 in some GPU streams, checked");
    printf("plane 0 histogram by the Lorenzo or slice kernel: %d GPU streams\n", hist0_commit);
    if (!race) CHECK(hist0_commit > 0, "the Lorenzo or slice kernel counted plane 0 in some GPU streams, checked");
    printf("run statistics counted after the trial dropped the speculated interpolation: %d GPU streams\n", runs_other);
    if (!race) CHECK(runs_other > 0, "GPU streams planned from run statistics counted after another method's commit");
    printf("host plans with the tail behind the plan's gate: %d GPU streams (%d RAW)\n", gated_host, gated_raw);
    CHECK(gated_host > 0, "host plans queued their tail behind the plan's gate");
    if (!quick) CHECK(gated_raw > 0, "a host plan behind the gate found a chunk RAW, its tail ran empty");
    if (!quick) CHECK(blended > 0, "tuning blended levels in some GPU streams");
    if (fdir) CHECK(auto_interp > 0 && auto_lorenzo > 0 && auto_slice > 0,
                    "the real fields exercise every choice of the auto predictor");
    printf("run-coded planes (format 8): %d GPU streams with none, %d plane 0 only, %d plane 1 only, %d both; %d with FILL "
           "runs; %d read in place, %d split\n",
           runs_seen[0], runs_seen[1], runs_seen[2], runs_seen[3], runs_fill, runs_in_place, runs_split);
    if (!quick)
        CHECK(runs_seen[0] > 0 && runs_seen[1] > 0 && runs_seen[2] > 0 && runs_seen[3] > 0 && runs_fill > 0 &&
                  runs_in_place > 0 && runs_split > 0,
              "GPU streams with each set of run-coded planes, FILL runs, planes read in place and split");
    printf("entropy plans: %d by the device, %d RAW by the device, %d custom-book candidates by the host, %d by the host, "
           "%d disagreed, %d by the host where runs won\n",
           plans[GG_PLANNED_DEVICE], plans[GG_PLANNED_RAW], plans[GG_PLANNED_HOST_BOOK],
           plans[GG_PLANNED_HOST], plans[GG_PLANNED_DISAGREED], plans[GG_PLANNED_HOST_RUNS]);
    CHECK(plans[GG_PLANNED_HOST_RUNS] > 0, "the host redid device plans where a run-coded plane won");
    CHECK(plans[GG_PLANNED_DEVICE] > 0 && plans[GG_PLANNED_HOST_BOOK] > 0,
          "both the device's plan and the host's custom-book plan were used");
    if (!quick) CHECK(plans[GG_PLANNED_RAW] > 0, "the device found incompressible chunks RAW");
    CHECK(plans[GG_PLANNED_HOST] == 0, "the host planned no chunk unless forced");
    CHECK(plans[GG_PLANNED_DISAGREED] == 0, "the device's plan never disagreed with the host's");
    return CHECK_DONE();
}
