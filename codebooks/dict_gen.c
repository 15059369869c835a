/* Dictionary generator: binned Cauchy / Laplace / Gaussian distributions of
 * quantization codes, their length-limited Huffman codes, and the writer of
 * the frozen table source (codebooks/dict_vN.c).
 *
 * Everything here must be deterministic: the committed table is checked by
 * regenerating it byte for byte (h5tests/c/test_dict.c). So no threads, no
 * data-dependent summation order, fixed iteration counts, and builds use
 * -ffp-contract=off so that a*b+c is never fused differently by compilers. */
#include "dict.h"
#include "dict_params.h"
#include "format.h"
#include "huff_build.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

/* <math.h> in strict C11 has no M_PI / M_SQRT2. */
#define DG_PI 3.14159265358979323846
#define DG_SQRT2 1.41421356237309504880

/* Every symbol, including the fill symbol that no family predicts, must be
 * encodable by every book. 2^-24 is far below any probability a real
 * histogram bin would be rounded to in practice (it costs the distribution at
 * most 1025 * 2^-24 = 6e-5 of its mass, about 1.5e-3 bits of entropy), yet it
 * keeps log2q finite and representable as a float (>= about -24), so cost
 * estimates from log2q never see -inf. */
#define DG_FLOOR (1.0 / 16777216.0)

/* Scale search range, in bins. Below 2^-16 every family puts essentially all
 * mass on q = 0; above 2^16 essentially all mass is outliers. */
#define DG_SCALE_LO (1.0 / 65536.0)
#define DG_SCALE_HI 65536.0

#define DG_NFAMILIES 3

static const char *const family_name[DG_NFAMILIES] = {"Cauchy", "Laplace", "Gaussian"};

/* Upper-tail mass S(x) = P(X > x) for x > 0, written so that it never forms
 * 1 - (something close to 1). */
static double tail(int family, double s, double x)
{
    switch (family) {
    case GLIDE_FAMILY_CAUCHY: return atan2(s, x) / DG_PI; /* 0.5 - atan(x/s)/pi */
    case GLIDE_FAMILY_LAPLACE: return 0.5 * exp(-x / s);
    default: return 0.5 * erfc(x / (s * DG_SQRT2));
    }
}

/* Raw (unfloored) mass of quantization code |q| = q >= 1, i.e. S(q-0.5) - S(q+0.5).
 * The Cauchy and Laplace forms avoid the subtraction altogether; for the
 * Gaussian the difference of erfc values keeps full relative accuracy far out
 * in the tail, where a difference of erf values would be 0. */
static double bin_mass(int family, double s, unsigned q)
{
    double a = (double)q - 0.5, b = (double)q + 0.5;
    switch (family) {
    case GLIDE_FAMILY_CAUCHY:
        /* atan(s/a) - atan(s/b) = atan(s (b - a) / (a b + s^2)), a, b > 0 */
        return atan2(s, a * b + s * s) / DG_PI;
    case GLIDE_FAMILY_LAPLACE:
        return 0.5 * exp(-a / s) * -expm1(-1.0 / s);
    default:
        return 0.5 * (erfc(a / (s * DG_SQRT2)) - erfc(b / (s * DG_SQRT2)));
    }
}

/* Central bin [-0.5, 0.5]: computed directly because 1 - 2 S(0.5) loses
 * digits at large scales where the bin is small. */
static double center_mass(int family, double s)
{
    switch (family) {
    case GLIDE_FAMILY_CAUCHY: return 2.0 * atan2(0.5, s) / DG_PI;
    case GLIDE_FAMILY_LAPLACE: return -expm1(-0.5 / s);
    default: return erf(0.5 / (s * DG_SQRT2));
    }
}

/* The final distribution of a book and its entropy. Summation runs in symbol
 * order so the result does not depend on anything but the inputs. */
static double distribution(int family, double s, double *p)
{
    p[GLIDE_SYM_ZERO] = center_mass(family, s);
    for (unsigned q = 1; q < GLIDE_RADIUS; q++) {
        double m = bin_mass(family, s, q);
        p[GLIDE_SYM_ZERO + q] = m;
        p[GLIDE_SYM_ZERO - q] = m;
    }
    /* both tails beyond +-(RADIUS - 0.5) are stored as outliers */
    p[GLIDE_SYM_OUTLIER] = 2.0 * tail(family, s, (double)GLIDE_RADIUS - 0.5);
    p[GLIDE_SYM_FILL] = 0.0;

    double total = 0.0;
    for (unsigned i = 0; i < GLIDE_NSYM; i++) {
        p[i] += DG_FLOOR;
        total += p[i];
    }
    double h = 0.0;
    for (unsigned i = 0; i < GLIDE_NSYM; i++) {
        p[i] /= total;
        h -= p[i] * log2(p[i]);
    }
    return h;
}

static int valid_family(int family) { return family >= 0 && family < DG_NFAMILIES; }

static double entropy_at(int family, double s)
{
    double p[GLIDE_NSYM];
    return distribution(family, s, p);
}

/* Lengths of a length-limited Huffman code for distribution p. 2^40
 * resolves the 2^-24 floor with 16 bits to spare, and the sum of all weights
 * stays far below 2^64 inside the Huffman builder. */
static int code_for(const double *p, uint8_t *len)
{
    uint64_t w[GLIDE_NSYM];
    for (unsigned i = 0; i < GLIDE_NSYM; i++) {
        long long r = llround(ldexp(p[i], 40));
        w[i] = r < 1 ? 1u : (uint64_t)r;
    }
    if (glide_huff_lengths(w, GLIDE_NSYM, GLIDE_HUFF_MAX_LEN, len) != 0) return -1;
    for (unsigned i = 0; i < GLIDE_NSYM; i++)
        if (len[i] < 1 || len[i] > GLIDE_HUFF_MAX_LEN) return -1;
    return 0;
}

int glide_dict_make_book(int family, double scale, uint8_t *len, float *log2q, double *entropy)
{
    if (!valid_family(family) || !(scale > 0.0) || !isfinite(scale)) return -1;
    double p[GLIDE_NSYM];
    double h = distribution(family, scale, p);
    if (log2q)
        for (unsigned i = 0; i < GLIDE_NSYM; i++) log2q[i] = (float)log2(p[i]);
    if (len && code_for(p, len) != 0) return -1;
    if (entropy) *entropy = h;
    return 0;
}

int glide_dict_make_mixed_book(int family, double scale, unsigned sym, double mass, uint8_t *len,
                               double *entropy)
{
    if (!valid_family(family) || !(scale > 0.0) || !isfinite(scale) || sym >= GLIDE_NSYM || !(mass >= 0.0) ||
        !(mass < 1.0))
        return -1;
    double p[GLIDE_NSYM];
    distribution(family, scale, p);
    double h = 0.0;
    for (unsigned i = 0; i < GLIDE_NSYM; i++) {
        p[i] *= 1.0 - mass;
        if (i == sym) p[i] += mass;
        h -= p[i] * log2(p[i]);
    }
    if (len && code_for(p, len) != 0) return -1;
    if (entropy) *entropy = h;
    return 0;
}

/* Entropy is not monotone over all scales: it rises with the scale until the
 * outlier symbol starts to absorb most of the mass, then falls. The peak
 * bounds what a family can reach (Cauchy, with its heavy tail, peaks below
 * 9 bits). A coarse grid locates the peak robustly, a golden-section search
 * refines it; both use fixed step counts for determinism. */
double glide_dict_max_entropy(int family, double *scale_at_max)
{
    if (!valid_family(family)) return -1.0;
    const double step = log(2.0) / 8.0;
    const double llo = log(DG_SCALE_LO), lhi = log(DG_SCALE_HI);
    const int ngrid = (int)lround((lhi - llo) / step);
    int best = 0;
    double hbest = -1.0;
    for (int k = 0; k <= ngrid; k++) {
        double h = entropy_at(family, exp(llo + step * k));
        if (h > hbest) { hbest = h; best = k; }
    }
    double a = llo + step * (best > 0 ? best - 1 : 0);
    double b = llo + step * (best < ngrid ? best + 1 : ngrid);
    const double g = 0.61803398874989484820; /* 1/phi */
    double c = b - g * (b - a), d = a + g * (b - a);
    double hc = entropy_at(family, exp(c)), hd = entropy_at(family, exp(d));
    for (int it = 0; it < 80; it++) {
        if (hc >= hd) { b = d; d = c; hd = hc; c = b - g * (b - a); hc = entropy_at(family, exp(c)); }
        else { a = c; c = d; hc = hd; d = a + g * (b - a); hd = entropy_at(family, exp(d)); }
    }
    double lbest = llo + step * best;
    if (hc > hbest) { hbest = hc; lbest = c; }
    if (hd > hbest) { hbest = hd; lbest = d; }
    if (scale_at_max) *scale_at_max = exp(lbest);
    return hbest;
}

double glide_dict_scale_for_entropy(int family, double target_bits)
{
    if (!valid_family(family) || isnan(target_bits)) return -1.0;
    double s_peak;
    double h_peak = glide_dict_max_entropy(family, &s_peak);
    /* unreachable targets get the nearest reachable book */
    if (target_bits >= h_peak) return s_peak;
    double lo = log(DG_SCALE_LO), hi = log(s_peak);
    if (target_bits <= entropy_at(family, DG_SCALE_LO)) return DG_SCALE_LO;
    /* bisect on log(scale) until the interval stops shrinking in double */
    for (int it = 0; it < 200; it++) {
        double mid = 0.5 * (lo + hi);
        if (mid <= lo || mid >= hi) break;
        if (entropy_at(family, exp(mid)) < target_bits) lo = mid;
        else hi = mid;
    }
    double slo = exp(lo), shi = exp(hi);
    return fabs(entropy_at(family, slo) - target_bits) <= fabs(entropy_at(family, shi) - target_bits) ? slo : shi;
}

/* The public struct comes first so that glide_dict_free can recover the
 * owned buffers from the pointer handed out. */
typedef struct {
    glide_dictionary pub;
    glide_book *books;
    uint8_t *len;
    float *log2q;
} dict_owned;

glide_dictionary *glide_dict_build(unsigned version, unsigned books_per_family, double hmin, double hmax)
{
    if (books_per_family == 0 || books_per_family > 65536u / DG_NFAMILIES) return NULL;
    if (!(hmin > 0.0) || !(hmax >= hmin) || !isfinite(hmax)) return NULL;
    unsigned n = DG_NFAMILIES * books_per_family;
    dict_owned *o = calloc(1, sizeof *o);
    if (!o) return NULL;
    o->books = calloc(n, sizeof *o->books);
    o->len = calloc((size_t)n * GLIDE_NSYM, 1);
    o->log2q = calloc((size_t)n * GLIDE_NSYM, sizeof(float));
    if (!o->books || !o->len || !o->log2q) goto fail;

    for (int f = 0; f < DG_NFAMILIES; f++) {
        /* A family that cannot reach hmax spreads its books up to its own
         * peak instead, so no two books of a family are the same. */
        double top = hmax;
        double h_peak = glide_dict_max_entropy(f, NULL);
        if (top > h_peak) top = h_peak;
        double bottom = hmin < top ? hmin : top;
        for (unsigned k = 0; k < books_per_family; k++) {
            unsigned id = (unsigned)f * books_per_family + k;
            double t = books_per_family == 1 ? bottom
                       : bottom + (top - bottom) * (double)k / (double)(books_per_family - 1);
            glide_book *b = &o->books[id];
            uint8_t *len = o->len + (size_t)id * GLIDE_NSYM;
            float *lq = o->log2q + (size_t)id * GLIDE_NSYM;
            b->family = (uint8_t)f;
            b->scale = glide_dict_scale_for_entropy(f, t);
            if (glide_dict_make_book(f, b->scale, len, lq, &b->entropy) != 0) goto fail;
            b->len = len;
            b->log2q = lq;
        }
    }
    o->pub.version = version;
    o->pub.n_books = n;
    o->pub.books = o->books;
    return &o->pub;
fail:
    glide_dict_free(&o->pub);
    return NULL;
}

glide_dictionary *glide_dict_build_mixed(unsigned version, const glide_dictionary *base, unsigned stride,
                                         const double *fill, unsigned n_fill, const double *spike,
                                         unsigned n_spike)
{
    if (!base || !base->n_books || stride == 0 || (n_fill && !fill) || (n_spike && !spike)) return NULL;
    const unsigned per = (base->n_books + stride - 1) / stride, nb = base->n_books;
    const unsigned n = nb + (n_fill + n_spike) * per;
    if (n > 65536u) return NULL;
    dict_owned *o = calloc(1, sizeof *o);
    if (!o) return NULL;
    o->books = calloc(n, sizeof *o->books);
    o->len = calloc((size_t)n * GLIDE_NSYM, 1);
    if (!o->books || !o->len) goto fail;
    for (unsigned b = 0; b < nb; b++) {
        glide_book *bk = &o->books[b];
        const glide_book *from = &base->books[b];
        bk->family = from->family;
        bk->scale = from->scale;
        bk->entropy = from->entropy;
        memcpy(o->len + (size_t)b * GLIDE_NSYM, from->len, GLIDE_NSYM);
        bk->len = o->len + (size_t)b * GLIDE_NSYM;
    }
    unsigned id = nb;
    for (unsigned m = 0; m < n_fill + n_spike; m++) {
        const int is_fill = m < n_fill;
        const double mass = is_fill ? fill[m] : spike[m - n_fill];
        for (unsigned k = 0; k < nb; k += stride, id++) {
            glide_book *bk = &o->books[id];
            const glide_book *from = &base->books[k];
            uint8_t *len = o->len + (size_t)id * GLIDE_NSYM;
            bk->family = from->family;
            bk->scale = from->scale;
            bk->mix = is_fill ? GLIDE_MIX_FILL : GLIDE_MIX_SPIKE;
            bk->mix_mass = mass;
            if (glide_dict_make_mixed_book(from->family, from->scale, is_fill ? GLIDE_SYM_FILL : GLIDE_SYM_ZERO, mass,
                                           len, &bk->entropy) != 0)
                goto fail;
            bk->len = len;
        }
    }
    o->pub.version = version;
    o->pub.n_books = n;
    o->pub.books = o->books;
    o->pub.prev_books = nb;
    return &o->pub;
fail:
    glide_dict_free(&o->pub);
    return NULL;
}

glide_dictionary *glide_dict_build_v2(void)
{
    static const double fill[] = GLIDE_DICT_V2_FILL_MASSES, spike[] = GLIDE_DICT_V2_SPIKE_MASSES;
    return glide_dict_build_mixed(2, glide_dict_get(1), GLIDE_DICT_V2_STRIDE, fill, sizeof fill / sizeof *fill, spike,
                                  sizeof spike / sizeof *spike);
}

void glide_dict_free(glide_dictionary *d)
{
    if (!d) return;
    dict_owned *o = (dict_owned *)d;
    free(o->books);
    free(o->len);
    free(o->log2q);
    free(o);
}

/* %.9g round-trips a float, but "-24" or "1e-05" would not be float literals
 * with an f suffix unless they carry a '.' or an exponent. */
static void put_float(FILE *f, float v)
{
    char buf[48];
    snprintf(buf, sizeof buf, "%.9g", (double)v);
    if (!strpbrk(buf, ".eEn")) strcat(buf, ".");
    fprintf(f, "%sf", buf);
}

/* Every table's warning, under its first line. */
static const char frozen_notice[] =
    " *\n"
    " * GENERATED FILE, FROZEN. Never edit it, never regenerate it with other\n"
    " * parameters once released: streams name their books by (version, book id),\n"
    " * so changing any number here breaks every stream already written. A new\n"
    " * dictionary gets a new version number and a new file (codebooks/README.md).\n"
    " *\n";

/* Header of a mixed dictionary's table: what its books are, from the books
 * themselves (the masses in id order, the base ids a mass extends). */
static void write_mixed_preamble(FILE *f, const glide_dictionary *d)
{
    const unsigned v = d->version, n = d->n_books, nb = d->prev_books;
    fprintf(f, "/* GLIDE codebook dictionary, version %u: %u books.\n", v, n);
    fputs(frozen_notice, f);
    fprintf(f,
            " * Books 0..%u are the books of version %u, unchanged (a stream using one names\n"
            " * version %u). Each later book takes a version-%u book's distribution, scales it\n"
            " * by (1 - m) and adds m to one symbol:\n",
            nb - 1, v - 1, v - 1, v - 1);
    unsigned run = 0;
    for (unsigned b = nb; b < n;) {
        const glide_book *bk = &d->books[b];
        unsigned e = b;
        while (e < n && d->books[e].mix == bk->mix && d->books[e].mix_mass == bk->mix_mass) e++;
        fprintf(f, " *   books %u..%u: %s, m = %.17g\n", b, e - 1,
                bk->mix == GLIDE_MIX_FILL ? "fill symbol" : "zero code", bk->mix_mass);
        run = e - b;
        b = e;
    }
    fprintf(f,
            " * The base books of each run are version-%u books 0, %u, %u, ... in id order.\n"
            " *\n"
            " * Generated by:\n"
            " *   glide_gen_dict --version %u --out codebooks/dict_v%u.c\n"
            " * (codebooks/gen_dict.c, codebooks/dict_gen.c; parameters in codebooks/dict_params.h). */\n"
            "#include \"dict.h\"\n"
            "#include \"format.h\"\n"
            "#include <stddef.h>\n\n"
            "_Static_assert(GLIDE_NSYM == 1025 && GLIDE_HUFF_MAX_LEN == 16,\n"
            "               \"dictionary v%u was generated for 1025 symbols and 16-bit codes\");\n",
            v - 1, (nb + run - 1) / run, 2 * ((nb + run - 1) / run), v, v, v);
}

int glide_dict_write_c(FILE *f, const glide_dictionary *d)
{
    if (!f || !d || !d->books || d->n_books == 0) return -1;
    const unsigned v = d->version, n = d->n_books;
    const unsigned per = n % DG_NFAMILIES == 0 ? n / DG_NFAMILIES : n;
    const int mixed = d->prev_books > 0;

    if (mixed) {
        write_mixed_preamble(f, d);
    } else {
        /* The command line is rebuilt from the table itself: book entropies hit
         * their targets to a few ulps, so %.9g gives back the hmin / hmax typed. */
        double hmin = d->books[0].entropy, hmax = d->books[0].entropy;
        for (unsigned i = 0; i < n; i++) {
            if (d->books[i].entropy < hmin) hmin = d->books[i].entropy;
            if (d->books[i].entropy > hmax) hmax = d->books[i].entropy;
        }
        fprintf(f, "/* GLIDE codebook dictionary, version %u: %u books (%u per family: Cauchy, Laplace, Gaussian).\n", v,
                n, per);
        fputs(frozen_notice, f);
        fprintf(f,
                " * Generated by:\n"
                " *   glide_gen_dict --version %u --books-per-family %u --hmin %.9g --hmax %.9g --out codebooks/dict_v%u.c\n"
                " * (codebooks/gen_dict.c, codebooks/dict_gen.c). */\n"
                "#include \"dict.h\"\n"
                "#include \"format.h\"\n\n"
                "_Static_assert(GLIDE_NSYM == 1025 && GLIDE_HUFF_MAX_LEN == 16,\n"
                "               \"dictionary v%u was generated for 1025 symbols and 16-bit codes\");\n",
                v, per, hmin, hmax, v, v);
    }

    for (unsigned b = 0; b < n; b++) {
        const glide_book *bk = &d->books[b];
        if (!bk->len || (!mixed && !bk->log2q) || bk->family >= DG_NFAMILIES) return -1;
        if (bk->mix == GLIDE_MIX_NONE)
            fprintf(f, "\n/* book %u: %s, scale %.17g, entropy %.17g bits */\n", b, family_name[bk->family],
                    bk->scale, bk->entropy);
        else
            fprintf(f, "\n/* book %u: %s, scale %.17g, %s mass %.17g, entropy %.17g bits */\n", b,
                    family_name[bk->family], bk->scale, bk->mix == GLIDE_MIX_FILL ? "fill" : "zero-code",
                    bk->mix_mass, bk->entropy);
        /* v1's layout is frozen with it; later tables drop the blanks (a third smaller) */
        fprintf(f, "static const uint8_t v%u_len_%03u[%u] = {", v, b, (unsigned)GLIDE_NSYM);
        for (unsigned i = 0; i < GLIDE_NSYM; i++)
            fprintf(f, "%s%u%s", i % 32 == 0 ? "\n    " : "", (unsigned)bk->len[i],
                    i + 1 < GLIDE_NSYM ? (i % 32 == 31 || mixed ? "," : ", ") : "");
        fprintf(f, "\n};\n");
        if (mixed) continue;
        fprintf(f, "static const float v%u_log2q_%03u[%u] = {", v, b, (unsigned)GLIDE_NSYM);
        for (unsigned i = 0; i < GLIDE_NSYM; i++) {
            fputs(i % 8 == 0 ? "\n    " : " ", f);
            put_float(f, bk->log2q[i]);
            if (i + 1 < GLIDE_NSYM) fputc(',', f);
        }
        fprintf(f, "\n};\n");
    }

    fprintf(f, "\nstatic const glide_book v%u_books[%u] = {\n", v, n);
    for (unsigned b = 0; b < n; b++) {
        const glide_book *bk = &d->books[b];
        if (mixed)
            fprintf(f, "    {%u, %.17g, %.17g, v%u_len_%03u, NULL, %u, %.17g},\n", (unsigned)bk->family, bk->scale,
                    bk->entropy, v, b, (unsigned)bk->mix, bk->mix_mass);
        else
            fprintf(f, "    {%u, %.17g, %.17g, v%u_len_%03u, v%u_log2q_%03u},\n", (unsigned)bk->family,
                    bk->scale, bk->entropy, v, b, v, b);
    }
    if (mixed)
        fprintf(f, "};\n\nconst glide_dictionary glide_dict_v%u = {%u, %u, v%u_books, %u};\n", v, v, n, v,
                d->prev_books);
    else
        fprintf(f, "};\n\nconst glide_dictionary glide_dict_v%u = {%u, %u, v%u_books};\n", v, v, n, v);
    return ferror(f) ? -1 : 0;
}
