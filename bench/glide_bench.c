/* CPU benchmarks and design measurements of the codec, single-threaded.
 *   glide_bench [--data FILE] [--reps N] [--nyx N] [--hist-dir DIR] [--oracle-blog N] [--slice N] TABLE...
 * Without a TABLE, or with --help, it prints its usage (exit 2, resp. 0).
 * --slice N: glide_encode_opts.slice = N in every table's configurations
 * (0: format 5's methods without the block trial) unless a table sets it.
 * TABLE: rd (CR/PSNR, dictionary vs custom, interpolation vs Lorenzo),
 *        speed (MB/s per chunk size), blocks (anchor stride), alpha (level
 *        factor), dict (dictionary size and scoring rule), stack (format 1's
 *        merged slow axes vs format 2's slabs), fill (format 1's substitute
 *        vs format 3's fill-aware stencils), all; and oracle (tuning
 *        against a closed-loop search of level_cfg, slow; --oracle-blog N:
 *        its interpolation of 3-D fields at anchor stride 2^N), levels
 *        (interpolation's and Lorenzo's bits per point by interpolation
 *        level, 3-D fields at 1e-3 and 1e-4), planes (format 5's book per
 *        symbol plane against one book), coarse (an estimate: plane 0 by a
 *        stride-2 Lorenzo, 3-D fields at 1e-3 and 1e-4), hist
 *        (symbol histograms into DIR, for codebooks/explore_dict.py) and
 *        runs (format 8's run-coded planes against GLIDE 1.7, HDF5 chunks).
 * Prints Markdown. Every number in docs/PERFORMANCE.md and docs/DESIGN.md
 * comes from this program (see bench/run_cpu.sh). */
#define _POSIX_C_SOURCE 200809L
#include "glide.h"
#include "codec.h"
#include "nyx_field.h"
#include "bench_time.h"
#include <hdf5.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

typedef struct {
    char name[128];
    unsigned rank;
    uint64_t dims[8];
    uint64_t n;
    float *v;
    int has_fill;
    float fill;
} field;

static field fields[64];
static int n_fields;
static int reps = 5;
static unsigned oracle_blog; /* --oracle-blog N: the oracle's interpolation of 3-D fields at anchor stride 2^N */

static herr_t visit(hid_t obj, const char *name, const H5O_info_t *info, void *op)
{
    (void)op;
    if (info->type != H5O_TYPE_DATASET || n_fields >= 64) return 0;
    hid_t d = H5Dopen2(obj, name, H5P_DEFAULT), t = H5Dget_type(d), s = H5Dget_space(d);
    if (H5Tget_class(t) == H5T_FLOAT) {
        field *f = &fields[n_fields];
        hsize_t dims[8];
        int r = H5Sget_simple_extent_dims(s, dims, NULL);
        if (r > 0 && r <= 8) {
            snprintf(f->name, sizeof f->name, "%s", name);
            f->rank = (unsigned)r;
            f->n = 1;
            for (int i = 0; i < r; i++) { f->dims[i] = dims[i]; f->n *= dims[i]; }
            f->v = malloc(f->n * sizeof(float));
            H5Dread(d, H5T_NATIVE_FLOAT, H5S_ALL, H5S_ALL, H5P_DEFAULT, f->v);
            if (H5Aexists(d, "fill_value") > 0) {
                hid_t a = H5Aopen(d, "fill_value", H5P_DEFAULT);
                double fv;
                H5Aread(a, H5T_NATIVE_DOUBLE, &fv);
                H5Aclose(a);
                f->has_fill = 1;
                f->fill = (float)fv;
            }
            n_fields++;
        }
    }
    H5Sclose(s); H5Tclose(t); H5Dclose(d);
    return 0;
}

static void add_nyx(size_t n)
{
    static const char *names[3] = {"nyx_density", "nyx_temperature", "nyx_velocity"};
    for (int k = 0; k < 3; k++) {
        field *f = &fields[n_fields];
        snprintf(f->name, sizeof f->name, "generated/%s_%zu", names[k], n);
        f->rank = 3;
        f->dims[0] = f->dims[1] = f->dims[2] = n;
        f->n = n * n * n;
        f->v = malloc(f->n * sizeof(float));
        if (nyx_field(f->v, n, (nyx_kind)k, 1) == 0) n_fields++;
    }
}

static int eff_rank(const field *f)
{
    int r = 0;
    for (unsigned i = 0; i < f->rank; i++) r += f->dims[i] > 1;
    return r > 3 ? 3 : r;
}

typedef struct {
    double cr, psnr, maxerr_ratio, bits;
    char chose[48]; /* methods of the chunks: I, L, or counts of both */
    double c_mbs, d_mbs;
    uint8_t level_cfg[GLIDE_MAX_LEVELS]; /* the first chunk's */
    unsigned blog;
} result;

typedef struct {
    glide_params p;
    glide_encode_opts o;
    uint64_t chunk[8]; /* 0: whole field */
    int pad;           /* edge chunks padded to full size with the fill value (the field's, else 0), as HDF5 stores them */
} config;

/* Compress a field in chunks (tiles; edge tiles at their real size). */
static result run(const field *f, const config *cfg, int timed)
{
    result res = {0};
    uint64_t cd[8], nc[8], total_chunks = 1;
    for (unsigned i = 0; i < f->rank; i++) {
        cd[i] = cfg->chunk[0] ? (cfg->chunk[i] < f->dims[i] ? cfg->chunk[i] : f->dims[i]) : f->dims[i];
        nc[i] = (f->dims[i] + cd[i] - 1) / cd[i];
        total_chunks *= nc[i];
    }
    float *out = malloc(f->n * sizeof(float));
    size_t maxc = 1;
    for (unsigned i = 0; i < f->rank; i++) maxc *= cd[i];
    float *tile = malloc(maxc * 4), *back = malloc(maxc * 4);
    unsigned char **streams = calloc(total_chunks, sizeof *streams);
    size_t *sizes = calloc(total_chunks, sizeof *sizes);
    uint64_t (*tdims)[8] = calloc(total_chunks, sizeof *tdims);
    uint64_t (*torg)[8] = calloc(total_chunks, sizeof *torg);
    double *tc = calloc(reps, sizeof(double)), *td = calloc(reps, sizeof(double));
    int R = timed ? reps : 1;
    unsigned long long n_lor = 0, n_int = 0, n_sli = 0; /* n_sli: slice streams (method byte 3) */
    for (int rep = 0; rep < R; rep++) {
        double tcomp = 0, tdec = 0;
        for (uint64_t c = 0; c < total_chunks; c++) {
            uint64_t rem = c, org[8], dd[8], cnt = 1;
            for (int i = (int)f->rank - 1; i >= 0; i--) {
                uint64_t ci = rem % nc[i];
                rem /= nc[i];
                org[i] = ci * cd[i];
                dd[i] = org[i] + cd[i] <= f->dims[i] || cfg->pad ? cd[i] : f->dims[i] - org[i];
                cnt *= dd[i];
            }
            const float fillv = f->has_fill ? f->fill : 0.0f;
            /* gather the tile (padded points: the fill value) */
            for (uint64_t k = 0; k < cnt; k++) {
                uint64_t r2 = k, src = 0, stride = 1, in = 1;
                uint64_t idx[8];
                for (int i = (int)f->rank - 1; i >= 0; i--) { idx[i] = r2 % dd[i]; r2 /= dd[i]; }
                for (int i = (int)f->rank - 1; i >= 0; i--) {
                    in &= org[i] + idx[i] < f->dims[i];
                    src += (org[i] + idx[i]) * stride;
                    stride *= f->dims[i];
                }
                tile[k] = in ? f->v[src] : fillv;
            }
            glide_params p = cfg->p;
            p.rank = f->rank;
            memcpy(p.dims, dd, sizeof dd);
            if (f->has_fill || cfg->pad) { uint32_t b; memcpy(&b, &fillv, 4); p.has_fill = 1; p.fill_bits = b; }
            size_t cap = glide_compress_bound(&p);
            if (!streams[c]) streams[c] = malloc(cap);
            double t0 = now();
            size_t s = glide_cpu_compress(&p, &cfg->o, tile, streams[c], cap);
            double t1 = now();
            if (glide_is_error(s)) { fprintf(stderr, "compress failed: %s\n", glide_error_name(s)); exit(1); }
            sizes[c] = s;
            if (rep == 0) {
                glide_params info;
                if (!glide_is_error(glide_stream_info(streams[c], s, &info))) {
                    const int sli = streams[c][GLIDE_HDR_METHOD] == GLIDE_METHOD_SLICE;
                    n_sli += sli;
                    n_lor += info.predictor == GLIDE_PRED_LORENZO, n_int += !sli && info.predictor == GLIDE_PRED_INTERP;
                }
                glide_header h;
                glide_layout lay;
                if (c == 0 && !glide_is_error(glide_header_read(streams[c], s, &h, &lay))) {
                    memcpy(res.level_cfg, h.level_cfg, sizeof res.level_cfg);
                    res.blog = h.block_log2;
                }
            }
            memcpy(tdims[c], dd, sizeof dd);
            memcpy(torg[c], org, sizeof org);
            tcomp += t1 - t0;
            if (cfg->o.dict == glide_dict_get(GLIDE_DICT_VERSION)) {
                t0 = now();
                size_t d = glide_decompress(streams[c], s, back, maxc * 4);
                t1 = now();
                if (glide_is_error(d)) { fprintf(stderr, "decompress failed: %s\n", glide_error_name(d)); exit(1); }
                tdec += t1 - t0;
                for (uint64_t k = 0; k < cnt; k++) {
                    uint64_t r2 = k, dst = 0, stride = 1, idx[8], in = 1;
                    for (int i = (int)f->rank - 1; i >= 0; i--) { idx[i] = r2 % dd[i]; r2 /= dd[i]; }
                    for (int i = (int)f->rank - 1; i >= 0; i--) {
                        in &= org[i] + idx[i] < f->dims[i];
                        dst += (org[i] + idx[i]) * stride;
                        stride *= f->dims[i];
                    }
                    if (in) out[dst] = back[k];
                }
            }
        }
        tc[rep] = tcomp;
        td[rep] = tdec;
    }
    double bytes = 0;
    for (uint64_t c = 0; c < total_chunks; c++) bytes += sizes[c];
    res.cr = (double)f->n * 4 / bytes;
    if ((n_lor != 0) + (n_int != 0) + (n_sli != 0) > 1)
        snprintf(res.chose, sizeof res.chose, "%lluI/%lluL/%lluS", n_int, n_lor, n_sli);
    else snprintf(res.chose, sizeof res.chose, "%s", n_lor ? "L" : n_int ? "I" : n_sli ? "S" : "raw");
    res.bits = bytes * 8 / (double)f->n;
    double mb = (double)f->n * 4 / 1e6;
    res.c_mbs = mb / median(tc, R);
    res.d_mbs = mb / median(td, R);
    if (cfg->o.dict == glide_dict_get(GLIDE_DICT_VERSION)) {
        double lo = INFINITY, hi = -INFINITY, se = 0, maxe = 0;
        uint64_t m = 0;
        for (uint64_t i = 0; i < f->n; i++) {
            float v = f->v[i];
            if (!isfinite(v) || (f->has_fill && v == f->fill)) continue;
            lo = fmin(lo, v); hi = fmax(hi, v);
            double e = fabs((double)v - (double)out[i]);
            se += e * e; maxe = fmax(maxe, e); m++;
        }
        double eb = cfg->p.mode == GLIDE_MODE_ABS ? cfg->p.eb : 0;
        if (cfg->p.mode == GLIDE_MODE_REL) {
            /* per chunk bounds differ; report against the loosest possible: whole-field range */
            eb = cfg->p.eb * (hi - lo);
        }
        res.maxerr_ratio = eb > 0 ? maxe / eb : 0;
        res.psnr = se > 0 ? 20 * log10(hi - lo) - 10 * log10(se / m) : INFINITY;
    }
    for (uint64_t c = 0; c < total_chunks; c++) free(streams[c]);
    free(streams); free(sizes); free(tdims); free(torg); free(out); free(tile); free(back); free(tc); free(td);
    return res;
}

static int g_slice = -1; /* --slice N */

static config base_config(double eb)
{
    config c;
    memset(&c, 0, sizeof c);
    uint64_t d1[1] = {1};
    glide_params_init(&c.p, GLIDE_FLOAT32, 1, d1);
    c.p.mode = GLIDE_MODE_REL;
    c.p.eb = eb;
    c.o = glide_default_encode_opts();
    if (g_slice >= 0) c.o.slice = g_slice;
    return c;
}

static const double bounds[] = {1e-2, 1e-3, 1e-4, 1e-5};

static void table_rd(void)
{
    printf("\n### Rate-distortion (REL bound, whole field as one chunk)\n\n");
    printf("Predictor columns use the dictionary (v%d); `default` is what users get (auto predictor, auto codebook),\n"
           "with the method it chose (I interpolation, L Lorenzo). `dict loss` = (CR custom - CR dict) / CR custom,\n"
           "with interpolation, for the current dictionary and for v1 (its first 96 books), and with the default\n"
           "(auto) predictor for the current dictionary.\n\n", GLIDE_DICT_VERSION);
    printf("| field | bound | CR interp+dict | CR interp+custom | dict loss | dict v1 loss | dict loss, auto predictor | CR Lorenzo+dict | CR default | chose | PSNR interp | PSNR Lorenzo | max err/eb |\n");
    printf("|---|---|---|---|---|---|---|---|---|---|---|---|---|\n");
    for (int i = 0; i < n_fields; i++)
        for (int b = 0; b < 3; b++) {
            config c = base_config(bounds[b]);
            c.p.predictor = GLIDE_PRED_INTERP;
            c.p.codebook = GLIDE_BOOK_DICT;
            result rd = run(&fields[i], &c, 0);
            c.o.dict = glide_dict_get(1);
            result r1 = run(&fields[i], &c, 0);
            c.o.dict = glide_dict_get(GLIDE_DICT_VERSION);
            c.p.codebook = GLIDE_BOOK_CUSTOM;
            result rc = run(&fields[i], &c, 0);
            c.p.codebook = GLIDE_BOOK_DICT;
            c.p.predictor = GLIDE_PRED_LORENZO;
            result rl = run(&fields[i], &c, 0);
            config a = base_config(bounds[b]); /* the defaults */
            result ra = run(&fields[i], &a, 0);
            a.p.codebook = GLIDE_BOOK_DICT; /* the auto predictor with each codebook kind */
            result rad = run(&fields[i], &a, 0);
            a.p.codebook = GLIDE_BOOK_CUSTOM;
            result rac = run(&fields[i], &a, 0);
            printf("| %s | %.0e | %.2f | %.2f | %.2f%% | %.2f%% | %.2f%% | %.2f | %.2f | %s | %.1f | %.1f | %.3f |\n",
                   fields[i].name, bounds[b], rd.cr, rc.cr, 100 * (rc.cr - rd.cr) / rc.cr, 100 * (rc.cr - r1.cr) / rc.cr,
                   100 * (rac.cr - rad.cr) / rac.cr, rl.cr, ra.cr, ra.chose, rd.psnr, rl.psnr,
                   fmax(fmax(rd.maxerr_ratio, ra.maxerr_ratio), fmax(rc.maxerr_ratio, rl.maxerr_ratio)));
        }
}

/* Format 4: tuned blending against GLIDE 1.3's interpolation (no_blend),
 * Lorenzo and the default, whole field as one chunk. */
static void table_blend(void)
{
    printf("\n### Blended levels (format 4; REL bound, whole field as one chunk, dictionary book)\n\n");
    printf("`I 1.3` = interpolation without blending (GLIDE 1.3), `I` = interpolation with tuning free to blend levels, "
           "`L` = Lorenzo, `default` = auto predictor and codebook with and without blending.\n\n");
    printf("| field | bound | CR I 1.3 | CR I | gain | CR L | CR default 1.3 | CR default | chose | max err/eb |\n");
    printf("|---|---|---|---|---|---|---|---|---|---|\n");
    int cases = 0, i_wins_old = 0, i_wins = 0, d_wins_old = 0, d_wins = 0;
    for (int i = 0; i < n_fields; i++) {
        if (eff_rank(&fields[i]) < 2) continue;
        for (int b = 0; b < 3; b++) {
            config c = base_config(bounds[b]);
            c.p.predictor = GLIDE_PRED_INTERP;
            c.p.codebook = GLIDE_BOOK_DICT;
            c.o.no_blend = 1;
            result r0 = run(&fields[i], &c, 0);
            c.o.no_blend = 0;
            result r1 = run(&fields[i], &c, 0);
            c.p.predictor = GLIDE_PRED_LORENZO;
            result rl = run(&fields[i], &c, 0);
            config a = base_config(bounds[b]);
            a.o.no_blend = 1;
            result a0 = run(&fields[i], &a, 0);
            a.o.no_blend = 0;
            result a1 = run(&fields[i], &a, 0);
            cases++;
            i_wins_old += r0.cr >= rl.cr;
            i_wins += r1.cr >= rl.cr;
            d_wins_old += a0.cr >= rl.cr;
            d_wins += a1.cr >= rl.cr;
            printf("| %s | %.0e | %.2f | %.2f | %+.1f%% | %.2f | %.2f | %.2f | %s | %.3f |\n", fields[i].name, bounds[b], r0.cr,
                   r1.cr, 100 * (r1.cr - r0.cr) / r0.cr, rl.cr, a0.cr, a1.cr, a1.chose,
                   fmax(fmax(r0.maxerr_ratio, r1.maxerr_ratio), fmax(a0.maxerr_ratio, a1.maxerr_ratio)));
        }
    }
    printf("\nAt least Lorenzo's CR in %d of %d cases with interpolation (%d without blending), "
           "%d with the default (%d without blending).\n", i_wins, cases, i_wins_old, d_wins, d_wins_old);
}

static void cfg_text(char *t, size_t cap, const uint8_t *cfg, unsigned blog)
{
    size_t k = 0;
    for (unsigned l = 0; l < blog && k < cap; l++)
        k += (size_t)snprintf(t + k, cap - k, "%s%u", l ? "," : "", cfg[l]);
}

/* How far tuning is from the best the format offers: per level, from the
 * finest, every level_cfg byte (spline | order << 2, the blends past the
 * orders) tried with the others held, the smallest stream kept, until a sweep
 * changes nothing (at most three sweeps; closed loop, actual sizes). Forced
 * interpolation, dictionary book, whole field as one chunk. */
static void table_oracle(void)
{
    printf("\n### Tuning against the best configuration (REL bound, interpolation, dictionary book, whole field)\n\n");
    if (oracle_blog)
        printf("3-D fields only; interpolation at anchor stride 2^%u, Lorenzo at the default stride.\n\n", oracle_blog);
    printf("`tuned` = the encoder's open-loop tuning; `best` = per-level coordinate descent on the real stream size "
           "(level_cfg bytes finest level first: spline | order << 2, orders past the axis orders are blends).\n\n");
    printf("| field | bound | CR L | CR I tuned | CR I best | best/tuned | tuned cfg | best cfg | best vs L | max err/eb |\n");
    printf("|---|---|---|---|---|---|---|---|---|---|\n");
    int cases = 0, tuned_wins = 0, best_wins = 0;
    for (int i = 0; i < n_fields; i++) {
        const int er = eff_rank(&fields[i]);
        if (er < 2 || (oracle_blog && er != 3)) continue;
        const unsigned n_cfg = GLIDE_NSPLINES * (glide_n_orders((unsigned)er) + GLIDE_NBLENDS);
        for (int b = 0; b < 3; b++) {
            config c = base_config(bounds[b]);
            c.p.codebook = GLIDE_BOOK_DICT;
            c.p.predictor = GLIDE_PRED_LORENZO;
            result rl = run(&fields[i], &c, 0);
            c.p.predictor = GLIDE_PRED_INTERP;
            c.p.block_log2 = oracle_blog; /* Lorenzo above at the default stride, as the goal compares */
            result rt = run(&fields[i], &c, 0), best = rt;
            uint8_t cfg[GLIDE_MAX_LEVELS];
            memcpy(cfg, rt.level_cfg, sizeof cfg);
            double maxr = fmax(rl.maxerr_ratio, rt.maxerr_ratio);
            c.o.level_cfg = cfg;
            for (int sweep = 0, changed = 1; sweep < 3 && changed; sweep++) {
                changed = 0;
                for (unsigned l = 0; l < rt.blog; l++) {
                    const uint8_t keep = cfg[l];
                    uint8_t pick = keep;
                    for (unsigned k = 0; k < n_cfg; k++) {
                        const uint8_t v = (uint8_t)(k % GLIDE_NSPLINES | (k / GLIDE_NSPLINES) << 2);
                        if (v == keep) continue;
                        cfg[l] = v;
                        result r = run(&fields[i], &c, 0);
                        maxr = fmax(maxr, r.maxerr_ratio);
                        if (r.cr > best.cr) { best = r; pick = v; changed = 1; }
                    }
                    cfg[l] = pick;
                }
            }
            char tt[64] = "", bt[64] = "";
            cfg_text(tt, sizeof tt, rt.level_cfg, rt.blog);
            cfg_text(bt, sizeof bt, cfg, rt.blog);
            cases++;
            tuned_wins += rt.cr >= rl.cr;
            best_wins += best.cr >= rl.cr;
            printf("| %s | %.0e | %.3f | %.3f | %.3f | %+.2f%% | %s | %s | %+.2f%% | %.3f |\n", fields[i].name, bounds[b], rl.cr,
                   rt.cr, best.cr, 100 * (best.cr / rt.cr - 1), tt, bt, 100 * (best.cr / rl.cr - 1), maxr);
        }
    }
    printf("\nAt least Lorenzo's CR in %d of %d cases as tuned, %d with the best configuration.\n", tuned_wins, cases,
           best_wins);
}

/* Where interpolation's bits go against Lorenzo's: the points of a 3-D
 * field (or stack of 3-D slabs) grouped as interpolation's levels group
 * them (the largest power of two s dividing every coordinate within the
 * slab: s = B, the anchor stride, for anchors; level s = 8, 4, 2, 1 at the
 * default B = 16), and each method's bits per point of a group under one
 * ideal code for all its symbols (-log2 of the symbol's frequency over the
 * whole field; an outlier adds its 32 bits). Whole field as one chunk, REL
 * bound, dictionary book, interpolation forced. */
static void table_levels(void)
{
    printf("\n### Bits per point by interpolation level: interpolation against Lorenzo (REL bound, whole field)\n\n");
    printf("Ideal code of each method's whole-field symbol frequencies, summed over the points of each group; "
           "`s` = the level's step (B = anchors). Lorenzo predicts the same points from its own neighbours. "
           "Both store their anchors (Lorenzo's block corners) exactly: their bits are not counted.\n\n");
    printf("| field | bound | s | share | interp bits/pt | Lorenzo bits/pt | interp − Lorenzo, bits/pt of the field |\n");
    printf("|---|---|---|---|---|---|---|\n");
    for (int i = 0; i < n_fields; i++) {
        const field *f = &fields[i];
        if (eff_rank(f) != 3 || f->rank < 3) continue;
        const uint64_t n2 = f->dims[f->rank - 1], n1 = f->dims[f->rank - 2], n0 = f->dims[f->rank - 3];
        uint16_t *sym[2] = {malloc(f->n * 2), malloc(f->n * 2)};
        for (int b = 1; b < 3; b++) {
            double bits[2][8] = {{0}}, cnt[8] = {0};
            unsigned blog = 0;
            for (int m = 0; m < 2; m++) {
                config c = base_config(bounds[b]);
                c.p.codebook = GLIDE_BOOK_DICT;
                c.p.predictor = m ? GLIDE_PRED_LORENZO : GLIDE_PRED_INTERP;
                c.o.sym_out = sym[m];
                result r = run(f, &c, 0);
                if (!m) blog = r.blog;
                uint64_t *h = calloc(GLIDE_NSYM, sizeof *h);
                for (uint64_t k = 0; k < f->n; k++) h[sym[m][k] < GLIDE_NSYM ? sym[m][k] : 0]++;
                for (uint64_t k = 0; k < f->n; k++) {
                    const uint64_t x = k % n2, y = k / n2 % n1, z = k / (n1 * n2) % n0, o = x | y | z;
                    unsigned lv = 0; /* trailing zero bits common to all three, at most blog: the group */
                    while (lv < blog && !(o >> lv & 1u)) lv++;
                    const unsigned sy = sym[m][k] < GLIDE_NSYM ? sym[m][k] : 0;
                    bits[m][lv] += -log2((double)h[sy] / (double)f->n) + (sy == GLIDE_SYM_OUTLIER ? 32 : 0);
                    if (!m) cnt[lv]++;
                }
                free(h);
            }
            double tot[2] = {0, 0};
            for (int lv = (int)blog; lv >= 0; lv--) {
                if (!cnt[lv]) continue;
                tot[0] += bits[0][lv];
                tot[1] += bits[1][lv];
                char sname[16];
                if ((unsigned)lv == blog) snprintf(sname, sizeof sname, "B");
                else snprintf(sname, sizeof sname, "%u", 1u << lv);
                printf("| %s | %.0e | %s | %.4f | %.3f | %.3f | %+.4f |\n", f->name, bounds[b], sname, cnt[lv] / (double)f->n,
                       bits[0][lv] / cnt[lv], bits[1][lv] / cnt[lv], (bits[0][lv] - bits[1][lv]) / (double)f->n);
            }
            printf("| %s | %.0e | all | 1 | %.3f | %.3f | %+.4f |\n", f->name, bounds[b], tot[0] / (double)f->n,
                   tot[1] / (double)f->n, (tot[0] - tot[1]) / (double)f->n);
        }
        free(sym[0]);
        free(sym[1]);
    }
}

/* Ideal code length (bits) of the symbols k < n with take[k] == want (all
 * of them with take NULL) under their own frequencies; an outlier adds its
 * 32 bits. */
static double ideal_bits(const uint16_t *sym, const unsigned char *take, uint64_t n, int want)
{
    uint64_t *h = calloc(GLIDE_NSYM + 1, sizeof *h), m = 0;
    for (uint64_t k = 0; k < n; k++)
        if (!take || take[k] == want) { h[sym[k] < GLIDE_NSYM ? sym[k] : GLIDE_NSYM]++; m++; }
    double b = 0;
    for (unsigned i = 0; i <= GLIDE_NSYM; i++)
        if (h[i]) b += (double)h[i] * (-log2((double)h[i] / (double)m) + (i == GLIDE_SYM_OUTLIER ? 32 : 0));
    free(h);
    return b;
}

/* A candidate for the coarse levels, not a format (issue 2: where
 * interpolation still loses to the Lorenzo option, it loses on plane 0,
 * table levels): plane 0's points (every coordinate even within the slab:
 * anchors and every level but the finest) predicted by a closed-loop 3-D
 * Lorenzo on that stride-2 grid (lower-dimensional stencils on its faces,
 * its own quantization with radius 512 and outliers as the codec's), the
 * finest level kept as interpolation codes it. Each plane costs the ideal
 * code of its own symbol frequencies, as format 5 gives each plane a book.
 * The finest level would interpolate from plane 0's other reconstructed
 * values (within the bound either way); its symbols are taken as they
 * are. Whole field as one chunk, REL bound, defaults otherwise; fields
 * with fill values are left out (fill points would need the fill-aware
 * stencils). */
static void table_coarse(void)
{
    printf("\n### Plane 0 by a stride-2 Lorenzo: an estimate (REL bound, whole field, bits per point of the field)\n\n");
    printf("Ideal codes of each plane's own symbol frequencies. `I` = interpolation (format 5's planes), `L` = the "
           "Lorenzo option, `I+L2` = plane 0 by a closed-loop Lorenzo on the stride-2 grid and plane 1 as "
           "interpolation codes it.\n\n");
    printf("| field | bound | plane 0 share | I plane 0 | L2 plane 0 | L plane 0 | I | I+L2 | L | I+L2 vs L |\n");
    printf("|---|---|---|---|---|---|---|---|---|---|\n");
    for (int i = 0; i < n_fields; i++) {
        const field *f = &fields[i];
        if (eff_rank(f) != 3 || f->rank < 3 || f->has_fill) continue;
        const uint64_t n2 = f->dims[f->rank - 1], n1 = f->dims[f->rank - 2], n0 = f->dims[f->rank - 3];
        const uint64_t slab = n0 * n1 * n2, slabs = f->n / slab;
        uint16_t *sym[2] = {malloc(f->n * 2), malloc(f->n * 2)};
        unsigned char *p0 = malloc(f->n);
        for (uint64_t k = 0; k < f->n; k++)
            p0[k] = !((k % n2 | k / n2 % n1 | k / (n1 * n2) % n0) & 1u);
        double lo = INFINITY, hi = -INFINITY;
        for (uint64_t k = 0; k < f->n; k++)
            if (isfinite(f->v[k])) { lo = fmin(lo, f->v[k]); hi = fmax(hi, f->v[k]); }
        const uint64_t z0 = (n0 + 1) / 2, y0 = (n1 + 1) / 2, x0 = (n2 + 1) / 2, ne = z0 * y0 * x0;
        uint16_t *s2 = malloc(slabs * ne * 2);
        double *r = malloc(ne * sizeof *r);
        for (int b = 1; b < 3; b++) {
            double bits[2][2];
            for (int m = 0; m < 2; m++) {
                config c = base_config(bounds[b]);
                c.p.predictor = m ? GLIDE_PRED_LORENZO : GLIDE_PRED_INTERP;
                c.o.sym_out = sym[m];
                run(f, &c, 0);
                bits[m][0] = ideal_bits(sym[m], p0, f->n, 1);
                bits[m][1] = ideal_bits(sym[m], p0, f->n, 0);
            }
            const double eb = bounds[b] * (hi - lo), step = 2 * eb;
            for (uint64_t sl = 0; sl < slabs; sl++) {
                const float *v = f->v + sl * slab;
                for (uint64_t z = 0; z < z0; z++)
                    for (uint64_t y = 0; y < y0; y++)
                        for (uint64_t x = 0; x < x0; x++) {
                            const uint64_t e = (z * y0 + y) * x0 + x;
                            const double val = v[(2 * z * n1 + 2 * y) * n2 + 2 * x];
                            /* Lorenzo over the axes whose neighbour exists */
                            const int az = z > 0, ay = y > 0, ax = x > 0;
                            double pred = 0;
                            for (int sset = 1; sset < 8; sset++) {
                                const int dz = sset & 1, dy = sset >> 1 & 1, dx = sset >> 2 & 1;
                                if ((dz && !az) || (dy && !ay) || (dx && !ax)) continue;
                                const double nb = r[((z - dz) * y0 + (y - dy)) * x0 + (x - dx)];
                                pred += (dz + dy + dx) & 1 ? nb : -nb;
                            }
                            const double q = eb > 0 ? nearbyint((val - pred) / step) : 0;
                            const float rec = (float)(pred + step * q);
                            if (eb > 0 && fabs(q) <= 511 && fabs((double)rec - val) <= eb) {
                                s2[sl * ne + e] = (uint16_t)(q + GLIDE_SYM_ZERO);
                                r[e] = rec;
                            } else {
                                s2[sl * ne + e] = GLIDE_SYM_OUTLIER;
                                r[e] = val;
                            }
                        }
            }
            const double l2 = ideal_bits(s2, NULL, slabs * ne, 0), np0 = (double)slabs * ne, n = (double)f->n;
            const double hyb = l2 + bits[0][1], ti = bits[0][0] + bits[0][1], tl = bits[1][0] + bits[1][1];
            printf("| %s | %.0e | %.4f | %.3f | %.3f | %.3f | %.3f | %.3f | %.3f | %+.2f%% |\n", f->name, bounds[b],
                   np0 / n, bits[0][0] / np0, l2 / np0, bits[1][0] / np0, ti / n, hyb / n, tl / n, 100 * (hyb / tl - 1));
        }
        free(r);
        free(s2);
        free(p0);
        free(sym[0]);
        free(sym[1]);
    }
}

/* Format 5's symbol planes (a book for the points with every coordinate
 * even, another for the finest level's) against format 1-4's one book:
 * interpolation forced, whole field and the benchmark chunks (64 per axis,
 * 512 for 2-D fields), against the Lorenzo option. */
/* Format 8's run-coded planes against GLIDE 1.7's streams (runs = 0), the
 * way the filter stores a field: chunks of at most 64 per axis (512 for 2-D
 * fields), edge chunks padded with the fill value, one absolute bound per
 * field (REL x its range), default options. */
static void table_runs(void)
{
    printf("\n### Run-coded planes (format 8) against GLIDE 1.7 (HDF5 chunks)\n\n");
    printf("Chunks of 64 per axis (512 for 2-D), edge chunks padded with the fill value as HDF5 stores them; the bound "
           "is absolute, REL x the field's range; default options; CR against the field's own bytes. `1.7` = the "
           "same encoder with runs off; PSNR and max err/eb of format 8 (the values are those of 1.7's streams).\n\n");
    printf("| field | bound | CR 1.7 | CR 1.8 | gain | PSNR | max err/eb | MB/s 1.7 (c / d) | MB/s 1.8 (c / d) |\n");
    printf("|---|---|---|---|---|---|---|---|---|\n");
    double lg[4] = {0}, mn[4] = {INFINITY, INFINITY, INFINITY, INFINITY};
    int cnt = 0;
    for (int i = 0; i < n_fields; i++) {
        const field *f = &fields[i];
        const int er = eff_rank(f);
        double lo = INFINITY, hi = -INFINITY;
        for (uint64_t k = 0; k < f->n; k++) {
            const float v = f->v[k];
            if (!isfinite(v) || (f->has_fill && v == f->fill)) continue;
            lo = fmin(lo, v), hi = fmax(hi, v);
        }
        cnt++;
        for (int b = 0; b < 4; b++) {
            result r[2];
            for (int m = 0; m < 2; m++) {
                config c = base_config(bounds[b]);
                c.p.mode = GLIDE_MODE_ABS;
                c.p.eb = bounds[b] * (hi - lo);
                c.o.runs = m;
                c.pad = 1;
                for (unsigned d = 0; d < f->rank; d++) c.chunk[d] = er == 2 ? 512 : 64;
                r[m] = run(f, &c, 1);
            }
            const double g = r[1].cr / r[0].cr;
            lg[b] += log(g);
            mn[b] = fmin(mn[b], g);
            printf("| %s | %.0e | %.2f | %.2f | x%.3f | %.1f | %.3f | %.0f / %.0f | %.0f / %.0f |\n", f->name, bounds[b],
                   r[0].cr, r[1].cr, g, r[1].psnr, r[1].maxerr_ratio,
                   r[0].c_mbs, r[0].d_mbs, r[1].c_mbs, r[1].d_mbs);
        }
    }
    printf("\nGeometric mean of the gain over the %d fields: ", cnt);
    for (int b = 0; b < 4; b++)
        printf("%s%.0e x%.3f (least x%.3f)", b ? ", " : "", bounds[b], exp(lg[b] / cnt), mn[b]);
    printf(".\n");
}

static void table_planes(void)
{
    printf("\n### Symbol planes (format 5) against one book (REL bound, interpolation)\n\n");
    printf("`L` = the Lorenzo option, `I` = interpolation in format 1-4 (one book), `I5` = the same with a book per symbol "
           "plane; whole field with the dictionary (the goal's columns), and chunks of 64 per axis (512 for 2-D) with the "
           "default auto book; their speed single-threaded, median of the runs (--reps).\n\n");
    printf("| field | bound | L dict | I dict | I5 dict | I5/I | I5 vs L | L chunks | I chunks | I5 chunks | I5/I chunks | "
           "MB/s I chunks (c / d) | MB/s I5 chunks (c / d) | max err/eb I5 |\n");
    printf("|---|---|---|---|---|---|---|---|---|---|---|---|---|---|\n");
    int cases = 0, wins4 = 0, wins5 = 0, cw4 = 0, cw5 = 0;
    double gmin = INFINITY, gmax = -INFINITY;
    for (int i = 0; i < n_fields; i++) {
        const field *f = &fields[i];
        const int er = eff_rank(f);
        if (er < 2) continue;
        for (int b = 0; b < 3; b++) {
            result r[2][3]; /* [whole, chunks][L, I, I5] */
            for (int w = 0; w < 2; w++)
                for (int m = 0; m < 3; m++) {
                    config c = base_config(bounds[b]);
                    c.p.codebook = w ? GLIDE_BOOK_AUTO : GLIDE_BOOK_DICT;
                    c.p.predictor = m ? GLIDE_PRED_INTERP : GLIDE_PRED_LORENZO;
                    c.o.planes = m == 2 || (m == 0 && getenv("GLIDE_BENCH_LPLANES"));
                    if (w)
                        for (unsigned d = 0; d < f->rank; d++) c.chunk[d] = er == 3 ? 64 : 512;
                    r[w][m] = run(f, &c, w && m); /* chunked interpolation timed (median of --reps) */
                }
            const double g = r[0][2].cr / r[0][1].cr - 1;
            gmin = fmin(gmin, g);
            gmax = fmax(gmax, g);
            cases++;
            wins4 += r[0][1].cr >= r[0][0].cr;
            wins5 += r[0][2].cr >= r[0][0].cr;
            cw4 += r[1][1].cr >= r[1][0].cr;
            cw5 += r[1][2].cr >= r[1][0].cr;
            printf("| %s | %.0e | %.3f | %.3f | %.3f | %+.2f%% | %+.2f%% | %.3f | %.3f | %.3f | %+.2f%% | %.0f / %.0f | %.0f / %.0f | "
                   "%.3f |\n",
                   f->name, bounds[b], r[0][0].cr, r[0][1].cr, r[0][2].cr, 100 * g, 100 * (r[0][2].cr / r[0][0].cr - 1),
                   r[1][0].cr, r[1][1].cr, r[1][2].cr, 100 * (r[1][2].cr / r[1][1].cr - 1), r[1][1].c_mbs, r[1][1].d_mbs,
                   r[1][2].c_mbs, r[1][2].d_mbs, r[0][2].maxerr_ratio);
        }
    }
    printf("\nWhole field: interpolation at least Lorenzo's CR in %d of %d cases with one book, %d with planes "
           "(planes against one book: %+.2f%% to %+.2f%%). Chunks: %d and %d of %d.\n",
           wins4, cases, wins5, 100 * gmin, 100 * gmax, cw4, cw5, cases);
}

/* The slice method (format 6) in real streams against interpolation and the
 * Lorenzo option, whole field, dictionary book, REL bound, and the auto
 * predictor without slices (format 5's) and with its block trial (the
 * default). */
static void table_slice(void)
{
    printf("\n### The slice method in real streams (REL bound, dictionary book, whole field)\n\n");
    printf("`I` = interpolation (tuned), `L` = the Lorenzo option, `S xy` / `S yx` = the slice method (cubic, the given 2-D "
           "order, slow axis 0); `best S` = the better order. `auto5` = the auto predictor of format 5 (interpolation or "
           "Lorenzo by estimates); `auto` = the default auto predictor, choosing among interpolation, Lorenzo and both "
           "slice orders by its block trial (glide_encode_opts.slice = GLIDE_SLICE_TRIAL), with the method it took.\n\n");
    printf("| field | bound | I | L | S xy | S yx | best S vs L | best S vs I | auto5 | auto (took) | auto vs L | auto vs best "
           "| max err/eb |\n|---|---|---|---|---|---|---|---|---|---|---|---|---|\n");
    int cases = 0, s_wins = 0, i_wins = 0, any_wins = 0, a5_wins = 0, a_wins = 0, a_best = 0;
    double a_loss = 0;
    for (int i = 0; i < n_fields; i++) {
        const field *f = &fields[i];
        if (eff_rank(f) != 3) continue;
        for (int b = 0; b < 3; b++) {
            result r[6];
            for (int m = 0; m < 6; m++) {
                config c = base_config(bounds[b]);
                c.p.codebook = GLIDE_BOOK_DICT;
                c.p.predictor = m == 1 ? GLIDE_PRED_LORENZO : m >= 4 ? GLIDE_PRED_AUTO : GLIDE_PRED_INTERP;
                c.o.slice = m == 2 || m == 3 ? m - 1 : m == 5 ? GLIDE_SLICE_TRIAL : 0;
                r[m] = run(f, &c, 0);
            }
            const double bs = fmax(r[2].cr, r[3].cr), best = fmax(fmax(r[0].cr, r[1].cr), bs);
            cases++;
            s_wins += bs >= r[1].cr;
            i_wins += r[0].cr >= r[1].cr;
            any_wins += fmax(bs, r[0].cr) >= r[1].cr;
            a5_wins += r[4].cr >= r[1].cr;
            a_wins += r[5].cr >= r[1].cr;
            a_best += r[5].cr >= best * (1 - 1e-9);
            a_loss = fmin(a_loss, r[5].cr / best - 1);
            double me = 0;
            for (int m = 0; m < 6; m++) me = fmax(me, r[m].maxerr_ratio);
            printf("| %s | %.0e | %.3f | %.3f | %.3f | %.3f | %+.2f%% | %+.2f%% | %.3f | %.3f (%s) | %+.2f%% | %+.2f%% | %.3f |\n",
                   f->name, bounds[b], r[0].cr, r[1].cr, r[2].cr, r[3].cr, 100 * (bs / r[1].cr - 1), 100 * (bs / r[0].cr - 1),
                   r[4].cr, r[5].cr, r[5].chose, 100 * (r[5].cr / r[1].cr - 1), 100 * (r[5].cr / best - 1), me);
        }
    }
    printf("\nAt least Lorenzo's CR: interpolation in %d of %d cases, the slice method (better order) in %d, the better of "
           "the two in %d; format 5's auto predictor in %d, the default auto predictor in %d (the best of the four in %d, "
           "at worst %+.2f%% under the best).\n", i_wins, cases, s_wins, any_wins, a5_wins, a_wins, a_best, 100 * a_loss);
}

static void table_speed(void)
{
    printf("\n### Single-thread CPU speed (REL 1e-3, default options: auto predictor, auto codebook; median of %d runs)\n\n", reps);
    printf("| field | chunk | CR | compress MB/s | decompress MB/s |\n|---|---|---|---|---|\n");
    static const uint64_t sides3[3] = {32, 64, 128};
    static const uint64_t sides2[3] = {181, 512, 1448}; /* same element counts as 32^3, 64^3, 128^3 */
    for (int i = 0; i < n_fields; i++) {
        int er = eff_rank(&fields[i]);
        if (er < 2) continue;
        for (int s = 0; s < 3; s++) {
            config c = base_config(1e-3);
            for (unsigned d = 0; d < fields[i].rank; d++) c.chunk[d] = er == 3 ? sides3[s] : sides2[s];
            result r = run(&fields[i], &c, 1);
            char cs[64];
            if (er == 3) snprintf(cs, sizeof cs, "%llu^3", (unsigned long long)sides3[s]);
            else snprintf(cs, sizeof cs, "%llu^2", (unsigned long long)sides2[s]);
            printf("| %s | %s | %.2f | %.1f | %.1f |\n", fields[i].name, cs, r.cr, r.c_mbs, r.d_mbs);
        }
    }
}

static void table_blocks(void)
{
    printf("\n### Anchor stride (CR, REL bound, interpolation, dictionary)\n\n");
    printf("| field | rank | bound | CR by stride log2 |\n|---|---|---|---|\n");
    for (int i = 0; i < n_fields; i++) {
        int er = eff_rank(&fields[i]);
        unsigned lo = er == 3 ? 2 : er == 2 ? 3 : 6, hi = er == 3 ? 5 : er == 2 ? 7 : 10;
        for (int b = 0; b < 4; b++) {
            printf("| %s | %d | %.0e |", fields[i].name, er, bounds[b]);
            for (unsigned L = lo; L <= hi; L++) {
                config c = base_config(bounds[b]);
                c.p.predictor = GLIDE_PRED_INTERP; /* a parameter of interpolation */
                c.p.block_log2 = L;
                printf(" %u: %.2f", L, run(&fields[i], &c, 0).cr);
            }
            printf(" |\n");
        }
    }
}

static void table_alpha(void)
{
    static const double alphas[] = {1.0, 1.25, 1.5, 1.75, 2.0, 2.5};
    printf("\n### Level factor alpha (CR / PSNR, REL bound, interpolation)\n\n");
    printf("| field | bound | rule |");
    for (int a = 0; a < 6; a++) printf(" %.2f |", alphas[a]);
    printf("\n|---|---|---|---|---|---|---|---|---|\n");
    for (int i = 0; i < n_fields; i++)
        for (int b = 0; b < 4; b++) {
            config c = base_config(bounds[b]);
            c.p.predictor = GLIDE_PRED_INTERP; /* a parameter of interpolation */
            result r = run(&fields[i], &c, 0);
            printf("| %s | %.0e | %.2f/%.1f |", fields[i].name, bounds[b], r.cr, r.psnr);
            for (int a = 0; a < 6; a++) {
                c.o.alpha = alphas[a];
                r = run(&fields[i], &c, 0);
                printf(" %.2f/%.1f |", r.cr, r.psnr);
            }
            printf("\n");
        }
}

/* Symbol histograms of every field at 1e-2..1e-4 (whole field, default
 * options) as raw little-endian u64 x GLIDE_NSYM files, for
 * codebooks/explore_dict.py. */
static void table_hist(const char *dir)
{
    char path[1024];
    for (int i = 0; i < n_fields; i++)
        for (int b = 0; b < 3; b++) {
            uint64_t hist[GLIDE_NSYM];
            config c = base_config(bounds[b]);
            c.o.hist_out = hist;
            run(&fields[i], &c, 0);
            snprintf(path, sizeof path, "%s/", dir);
            size_t k = strlen(path);
            for (const char *q = fields[i].name; *q && k + 16 < sizeof path; q++) path[k++] = *q == '/' ? '.' : *q;
            snprintf(path + k, sizeof path - k, "__%.0e.hist", bounds[b]);
            FILE *f = fopen(path, "wb");
            if (!f || fwrite(hist, sizeof hist, 1, f) != 1) { fprintf(stderr, "cannot write %s\n", path); exit(1); }
            fclose(f);
        }
    printf("\nwrote %d histograms to %s\n", 3 * n_fields, dir);
}

static void table_dict(void)
{
    static const unsigned sizes[] = {2, 4, 8, 16, 32, 64};
    glide_dictionary *d[6];
    for (int k = 0; k < 6; k++) d[k] = glide_dict_build(0xFE, sizes[k], 0.3, 9.0);
    printf("\n### Dictionary size and scoring (CR loss vs custom codebook, %%, REL bound, whole field)\n\n");
    printf("| field | bound | custom CR |");
    for (int k = 0; k < 6; k++) printf(" %u/family |", sizes[k]);
    printf(" 32/family CE score |\n|---|---|---|---|---|---|---|---|---|---|\n");
    for (int i = 0; i < n_fields; i++)
        for (int b = 0; b < 4; b++) {
            config c = base_config(bounds[b]);
            c.p.predictor = GLIDE_PRED_INTERP; /* the histograms of the v1 design measurements */
            c.p.codebook = GLIDE_BOOK_CUSTOM;
            result rc = run(&fields[i], &c, 0);
            printf("| %s | %.0e | %.2f |", fields[i].name, bounds[b], rc.cr);
            c.p.codebook = GLIDE_BOOK_DICT;
            for (int k = 0; k < 6; k++) {
                c.o.dict = d[k];
                result r = run(&fields[i], &c, 0);
                printf(" %.2f |", 100 * (rc.cr - r.cr) / rc.cr);
            }
            c.o.dict = d[4];
            c.o.score = GLIDE_SCORE_CE;
            result r = run(&fields[i], &c, 0);
            printf(" %.2f |\n", 100 * (rc.cr - r.cr) / rc.cr);
        }
    for (int k = 0; k < 6; k++) glide_dict_free(d[k]);
}

/* Fields with more than three dims longer than 1. Format 1 merged their
 * slow axes into one 3-D grid ([t, z, y, x] -> [t*z, y, x]), so blocks and
 * interpolation steps along the merged axis ran across the seams between
 * the 3-D slabs; format 2 keeps the slabs apart (FORMAT.md §4). Format 1's
 * view is the same values given as that merged 3-D shape. */
static void table_stack(void)
{
    printf("\n### Chunks of more than three axes: merged grid (format 1) vs slabs apart (format 2) (CR, REL bound, whole field, no blended levels)\n\n");
    printf("| field | dims | bound | interp merged | interp slabs | Lorenzo merged | Lorenzo slabs | default merged | default slabs |\n");
    printf("|---|---|---|---|---|---|---|---|---|\n");
    int any = 0;
    for (int i = 0; i < n_fields; i++) {
        const field *f = &fields[i];
        uint64_t kept[8];
        unsigned k = 0;
        for (unsigned a = 0; a < f->rank; a++)
            if (f->dims[a] > 1) kept[k++] = f->dims[a];
        if (k <= 3) continue;
        any = 1;
        field merged = *f; /* the same values as format 1's 3-D grid */
        merged.rank = 3;
        merged.dims[0] = 1;
        for (unsigned a = 0; a + 2 < k; a++) merged.dims[0] *= kept[a];
        merged.dims[1] = kept[k - 2];
        merged.dims[2] = kept[k - 1];
        char dims[64];
        int at = 0;
        for (unsigned a = 0; a < f->rank; a++)
            at += snprintf(dims + at, sizeof dims - (size_t)at, "%s%llu", a ? "x" : "", (unsigned long long)f->dims[a]);
        for (int b = 0; b < 3; b++) {
            printf("| %s | %s | %.0e |", f->name, dims, bounds[b]);
            static const glide_predictor preds[3] = {GLIDE_PRED_INTERP, GLIDE_PRED_LORENZO, GLIDE_PRED_AUTO};
            for (int p = 0; p < 3; p++)
                for (int slabs = 0; slabs < 2; slabs++) {
                    config c = base_config(bounds[b]);
                    c.p.predictor = preds[p];
                    c.o.no_blend = 1; /* format 2's own effect (blends: table_blend) */
                    printf(" %.2f |", run(slabs ? f : &merged, &c, 0).cr);
                }
            printf("\n");
        }
    }
    if (!any) printf("| (no field with more than three dims longer than 1) | | | | | | | | |\n");
}

/* Format 3's fill-aware stencils against format 1's substitute, where fill
 * points occur: a field's own fill value (its fill_value attribute), else
 * HDF5's default fill 0, which the filter records for every dataset, for
 * fields that hold exact zeros. Whole field as one chunk. */
static void table_fill(void)
{
    printf("\n### Fill points: format 1's substitute vs format 3's fill-aware stencils (CR, REL bound, whole field, no blended levels)\n\n");
    printf("Fill: the field's own fill value, or HDF5's default 0 (recorded by the filter for every dataset) where the\n"
           "field holds exact zeros. `interp f1` = interpolation with the substitute standing in for fill neighbours\n"
           "(what GLIDE 1.2 wrote), `interp f3` = the stencils leave them out (format 3).\n\n");
    printf("| field | fill | fill points | bound | interp f1 | interp f3 | gain | Lorenzo | default f1 | default f3 | chose |\n");
    printf("|---|---|---|---|---|---|---|---|---|---|---|\n");
    for (int i = 0; i < n_fields; i++) {
        field f = fields[i];
        uint64_t nf = 0;
        if (!f.has_fill) {
            f.has_fill = 1;
            f.fill = 0.0f;
        }
        for (uint64_t k = 0; k < f.n; k++) nf += !memcmp(&f.v[k], &f.fill, 4);
        if (!nf) continue;
        for (int b = 0; b < 3; b++) {
            double cr[5];
            result ra = {0};
            for (int k = 0; k < 5; k++) {
                config c = base_config(bounds[b]);
                c.p.predictor = k < 2 ? GLIDE_PRED_INTERP : k == 2 ? GLIDE_PRED_LORENZO : GLIDE_PRED_AUTO;
                c.o.no_fill_aware = k == 0 || k == 3;
                c.o.no_blend = 1; /* format 3's own effect (blends: table_blend) */
                result r = run(&f, &c, 0);
                cr[k] = r.cr;
                if (k == 4) ra = r;
            }
            printf("| %s | %g | %.2g %% | %.0e | %.2f | %.2f | %+.1f %% | %.2f | %.2f | %.2f | %s |\n", f.name, (double)f.fill,
                   100.0 * (double)nf / (double)f.n, bounds[b], cr[0], cr[1], 100 * (cr[1] / cr[0] - 1), cr[2], cr[3],
                   cr[4], ra.chose);
        }
    }
}

static void usage(FILE *to)
{
    fprintf(to,
            "usage: glide_bench [--data FILE] [--reps N] [--nyx N] [--hist-dir DIR] [--oracle-blog N] [--slice N] TABLE...\n"
            "Prints Markdown tables of the CPU codec, single-threaded, on the float fields of FILE.\n"
            "  --data FILE       HDF5 file of fields (default ../shared/data/real_fields_dev.h5)\n"
            "  --reps N          timing repetitions (default 5)\n"
            "  --nyx N           also a generated Nyx-like N^3 field\n"
            "  --hist-dir DIR    where the hist table writes (default .)\n"
            "  --oracle-blog N   the oracle's interpolation of 3-D fields at anchor stride 2^N\n"
            "  --slice N         glide_encode_opts.slice = N unless a table sets it\n"
            "TABLE: rd speed blocks alpha dict stack fill blend all (those eight), and oracle levels planes\n"
            "       coarse slice hist runs (the header of bench/glide_bench.c says what each measures)\n");
}

int main(int argc, char **argv)
{
    const char *data = "../shared/data/real_fields_dev.h5", *hist_dir = ".";
    size_t nyx = 0;
    int ntab = 0;
    const char *tabs[16];
    static const char *const known[] = {"rd",   "speed", "blocks", "alpha",  "dict",   "stack", "fill", "blend",
                                        "all",  "oracle", "levels", "planes", "coarse", "slice", "hist", "runs"};
    for (int i = 1; i < argc; i++) {
        if (!strcmp(argv[i], "-h") || !strcmp(argv[i], "--help")) { usage(stdout); return 0; }
        else if (!strcmp(argv[i], "--data") && i + 1 < argc) data = argv[++i];
        else if (!strcmp(argv[i], "--reps") && i + 1 < argc) reps = atoi(argv[++i]);
        else if (!strcmp(argv[i], "--nyx") && i + 1 < argc) nyx = (size_t)atol(argv[++i]);
        else if (!strcmp(argv[i], "--hist-dir") && i + 1 < argc) hist_dir = argv[++i];
        else if (!strcmp(argv[i], "--oracle-blog") && i + 1 < argc) oracle_blog = (unsigned)atoi(argv[++i]);
        else if (!strcmp(argv[i], "--slice") && i + 1 < argc) g_slice = atoi(argv[++i]);
        else {
            /* A typo or an option missing its value would otherwise print nothing after loading every field. */
            int ok = 0;
            for (size_t k = 0; k < sizeof known / sizeof *known; k++) ok |= !strcmp(argv[i], known[k]);
            if (!ok || ntab >= 16) {
                fprintf(stderr, "glide_bench: %s '%s'\n", ok ? "too many tables at" : "unknown table or option", argv[i]);
                usage(stderr);
                return 2;
            }
            tabs[ntab++] = argv[i];
        }
    }
    /* No table: nothing to measure, so say how to ask for one (exit 2, a usage error) instead of printing nothing. */
    if (ntab == 0) {
        usage(stderr);
        return 2;
    }
    if (reps < 1) reps = 1;
    hid_t f = H5Fopen(data, H5F_ACC_RDONLY, H5P_DEFAULT);
    if (f < 0) { fprintf(stderr, "cannot open %s\n", data); return 1; }
    H5Ovisit(f, H5_INDEX_NAME, H5_ITER_NATIVE, visit, NULL);
    H5Fclose(f);
    if (nyx) add_nyx(nyx);
    for (int t = 0; t < ntab; t++) {
        int all = !strcmp(tabs[t], "all");
        if (all || !strcmp(tabs[t], "rd")) table_rd();
        if (all || !strcmp(tabs[t], "blocks")) table_blocks();
        if (all || !strcmp(tabs[t], "alpha")) table_alpha();
        if (all || !strcmp(tabs[t], "dict")) table_dict();
        if (all || !strcmp(tabs[t], "speed")) table_speed();
        if (all || !strcmp(tabs[t], "stack")) table_stack();
        if (all || !strcmp(tabs[t], "fill")) table_fill();
        if (all || !strcmp(tabs[t], "blend")) table_blend();
        if (!strcmp(tabs[t], "oracle")) table_oracle();
        if (!strcmp(tabs[t], "levels")) table_levels();
        if (!strcmp(tabs[t], "planes")) table_planes();
        if (!strcmp(tabs[t], "runs")) table_runs();
        if (!strcmp(tabs[t], "coarse")) table_coarse();
        if (!strcmp(tabs[t], "slice")) table_slice();
        if (!strcmp(tabs[t], "hist")) table_hist(hist_dir);
    }
    return 0;
}
