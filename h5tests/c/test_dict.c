/* Checks the codebook dictionary: the committed frozen table is exactly what
 * the generator produces with the frozen parameters, every book is a complete
 * prefix code within the length limit, and the scale search hits its target.
 *
 * usage: test_dict PATH/TO/codebooks (the folder holding dict_v1.c, dict_v2.c) */
#include "dict.h"
#include "dict_params.h"
#include "format.h"

#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define V1_BOOKS_PER_FAMILY GLIDE_DICT_V1_BOOKS_PER_FAMILY
#define V1_HMIN GLIDE_DICT_V1_HMIN
#define V1_HMAX GLIDE_DICT_V1_HMAX

static int n_pass, n_fail;

#ifdef __GNUC__
static void check(int ok, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
#endif
static void check(int ok, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    printf("%s: ", ok ? "PASS" : "FAIL");
    vprintf(fmt, ap);
    printf("\n");
    va_end(ap);
    if (ok) n_pass++;
    else n_fail++;
}

static const char *family_name(int f)
{
    static const char *const names[] = {"Cauchy", "Laplace", "Gaussian"};
    return f >= 0 && f < 3 ? names[f] : "?";
}

/* Compares a stream with a file byte for byte; reports the first differing
 * line so that a failure says what changed, not only that something did. */
static int same_bytes(FILE *a, const char *path, long *bad_line)
{
    FILE *b = fopen(path, "rb");
    if (!b) { *bad_line = -1; return 0; }
    rewind(a);
    long line = 1;
    int same = 1;
    for (;;) {
        int ca = fgetc(a), cb = fgetc(b);
        if (ca != cb) { same = 0; break; }
        if (ca == EOF) break;
        if (ca == '\n') line++;
    }
    fclose(b);
    *bad_line = same ? 0 : line;
    return same;
}

static void check_regeneration(const char *dir, unsigned version)
{
    char path[4096];
    snprintf(path, sizeof path, "%s/dict_v%u.c", dir, version);
    /* v2 extends the committed v1 table, as glide_gen_dict does */
    glide_dictionary *d = version == 1 ? glide_dict_build(1, V1_BOOKS_PER_FAMILY, V1_HMIN, V1_HMAX) : glide_dict_build_v2();
    check(d != NULL, "regenerate v%u in memory (dict_params.h)", version);
    if (!d) return;
    FILE *tmp = tmpfile();
    int wrote = tmp && glide_dict_write_c(tmp, d) == 0 && fflush(tmp) == 0;
    check(wrote, "write regenerated v%u table to a temporary file", version);
    if (wrote) {
        long bad_line;
        int same = same_bytes(tmp, path, &bad_line);
        if (bad_line < 0) check(0, "open committed table %s", path);
        else if (same) check(1, "regenerated table is byte-identical to %s", path);
        else check(0, "regenerated table is byte-identical to %s (first difference on line %ld)", path, bad_line);
    }
    if (tmp) fclose(tmp);
    glide_dict_free(d);
}

/* Kraft sum of a book's lengths in units of 2^-16; 0 if a length is out of range. */
static uint64_t kraft16(const uint8_t *len)
{
    uint64_t k = 0;
    for (unsigned i = 0; i < GLIDE_NSYM; i++) {
        if (len[i] < 1 || len[i] > GLIDE_HUFF_MAX_LEN) return 0;
        k += 1ull << (GLIDE_HUFF_MAX_LEN - len[i]);
    }
    return k;
}

static void check_frozen_v2(void)
{
    static const double fill[] = GLIDE_DICT_V2_FILL_MASSES, spike[] = GLIDE_DICT_V2_SPIKE_MASSES;
    const unsigned n_mix = sizeof fill / sizeof *fill + sizeof spike / sizeof *spike;
    const glide_dictionary *d = glide_dict_get(2), *v1 = glide_dict_get(1);
    check(d != NULL, "glide_dict_get(2) is present");
    if (!d || !v1) return;
    const unsigned per = v1->n_books / GLIDE_DICT_V2_STRIDE;
    check(d->version == 2 && d->prev_books == v1->n_books && d->n_books == v1->n_books + n_mix * per,
          "v2: version 2, %u books, the first %u v1's (got %u, %u)", v1->n_books + n_mix * per, v1->n_books,
          d->n_books, d->prev_books);
    if (d->n_books != v1->n_books + n_mix * per) return;
    unsigned same = 0, complete = 0, no_q = 0, placed = 0;
    for (unsigned b = 0; b < d->n_books; b++) {
        const glide_book *bk = &d->books[b];
        complete += kraft16(bk->len) == 1ull << GLIDE_HUFF_MAX_LEN;
        no_q += bk->log2q == NULL;
        if (b < v1->n_books) {
            same += memcmp(bk->len, v1->books[b].len, GLIDE_NSYM) == 0 && bk->mix == GLIDE_MIX_NONE &&
                    bk->scale == v1->books[b].scale;
            continue;
        }
        const unsigned run = (b - v1->n_books) / per, base = (b - v1->n_books) % per * GLIDE_DICT_V2_STRIDE;
        const int is_fill = run < sizeof fill / sizeof *fill;
        const double m = is_fill ? fill[run] : spike[run - sizeof fill / sizeof *fill];
        placed += bk->mix == (is_fill ? GLIDE_MIX_FILL : GLIDE_MIX_SPIKE) && bk->mix_mass == m &&
                  bk->family == v1->books[base].family && bk->scale == v1->books[base].scale;
    }
    check(same == v1->n_books, "v2: books 0..%u are v1's, unchanged (%u of %u)", v1->n_books - 1, same, v1->n_books);
    check(complete == d->n_books, "v2: every book is a complete prefix code within 16 bits (%u of %u)", complete,
          d->n_books);
    check(no_q == d->n_books, "v2: no book carries log2q (scored by size only)");
    check(placed == d->n_books - v1->n_books, "v2: mixed book id = %u + run * %u + base / %d (%u of %u in place)",
          v1->n_books, per, GLIDE_DICT_V2_STRIDE, placed, d->n_books - v1->n_books);
    /* what the mixed books are for: a heavy fill or zero code gets a short code */
    const unsigned half_fill = v1->n_books + 3 * per, spike3 = v1->n_books + 6 * per;
    unsigned fill_ok = 0, spike_ok = 0, shorter = 0;
    for (unsigned k = 0; k < per; k++) {
        fill_ok += d->books[half_fill + k].len[GLIDE_SYM_FILL] == 1;
        spike_ok += d->books[spike3 + k].len[GLIDE_SYM_ZERO] == 1;
        shorter += d->books[v1->n_books + k].len[GLIDE_SYM_FILL] < v1->books[k * GLIDE_DICT_V2_STRIDE].len[GLIDE_SYM_FILL];
    }
    check(fill_ok == per && spike_ok == per && shorter == per,
          "v2: fill mass 1/2 codes the fill symbol in 1 bit (%u of %u), zero-code mass 3/4 the zero code (%u), "
          "and fill mass 1/32 shortens v1's 16-bit fill code (%u)",
          fill_ok, per, spike_ok, shorter);

    /* the version a stream names, and which books the device's v2 table stands for */
    check(glide_dict_book_version(d, 0) == 1 && glide_dict_book_version(d, 95) == 1 &&
              glide_dict_book_version(d, 96) == 2 && glide_dict_book_version(d, d->n_books - 1) == 2 &&
              glide_dict_book_version(v1, 5) == 1,
          "streams name v1 for books 0..95 and v2 only for the mixed books");
    check(glide_dict_holds(d, 1, 0) && glide_dict_holds(d, 1, 95) && !glide_dict_holds(d, 1, 96) &&
              glide_dict_holds(d, 2, 431) && !glide_dict_holds(v1, 2, 0) && glide_dict_holds(v1, 1, 7),
          "glide_dict_holds: v2 holds v1's books, v1 holds no v2 book");
}

static void check_frozen_v1(void)
{
    const glide_dictionary *d = glide_dict_get(1);
    check(d != NULL, "glide_dict_get(1) is present");
    if (!d) return;
    check(d->version == 1 && d->n_books == 3 * V1_BOOKS_PER_FAMILY, "v1 has version 1 and %u books (got %u)",
          3u * V1_BOOKS_PER_FAMILY, d->n_books);
    if (d->n_books != 3 * V1_BOOKS_PER_FAMILY) return;

    unsigned bad_len = 0, bad_kraft = 0, bad_family = 0, bad_q = 0, bad_avg = 0;
    for (unsigned b = 0; b < d->n_books; b++) {
        const glide_book *bk = &d->books[b];
        uint64_t kraft = 0;
        int len_ok = 1;
        double avg = 0.0, qsum = 0.0;
        for (unsigned i = 0; i < GLIDE_NSYM; i++) {
            unsigned l = bk->len[i];
            if (l < 1 || l > GLIDE_HUFF_MAX_LEN) { len_ok = 0; continue; }
            kraft += 1ull << (GLIDE_HUFF_MAX_LEN - l);
            double q = exp2((double)bk->log2q[i]);
            if (!isfinite(bk->log2q[i]) || !(bk->log2q[i] < 0.0f)) bad_q++;
            qsum += q;
            avg += q * l;
        }
        if (!len_ok) bad_len++;
        else if (kraft != 1ull << GLIDE_HUFF_MAX_LEN) bad_kraft++;
        if (bk->family != b / V1_BOOKS_PER_FAMILY) bad_family++;
        if (fabs(qsum - 1.0) > 1e-5) bad_q++;
        /* a Huffman code never beats the entropy and (limited to 16 bits,
         * with 1025 symbols) should stay within a bit of it */
        if (!(avg >= bk->entropy - 1e-5 && avg < bk->entropy + 1.0)) bad_avg++;
    }
    check(bad_len == 0, "v1: every code length of every book is in 1..%d (%u bad books)", GLIDE_HUFF_MAX_LEN,
          bad_len);
    check(bad_kraft == 0, "v1: every book is a complete prefix code, Kraft sum == 1 (%u bad books)", bad_kraft);
    check(bad_family == 0, "v1: book id = family * %d + k (%u misplaced books)", V1_BOOKS_PER_FAMILY, bad_family);
    check(bad_q == 0, "v1: log2q finite, negative and sums to 1 (%u bad books)", bad_q);
    check(bad_avg == 0, "v1: entropy <= average code length < entropy + 1 (%u bad books)", bad_avg);

    for (int f = 0; f < 3; f++) {
        int inc = 1;
        for (unsigned k = 1; k < V1_BOOKS_PER_FAMILY; k++) {
            const glide_book *p = &d->books[f * V1_BOOKS_PER_FAMILY + k - 1], *c = p + 1;
            if (!(c->entropy > p->entropy && c->scale > p->scale)) inc = 0;
        }
        const glide_book *lo = &d->books[f * V1_BOOKS_PER_FAMILY], *hi = lo + V1_BOOKS_PER_FAMILY - 1;
        check(inc, "v1 %s: entropy and scale increase with book index (%.4f..%.4f bits)", family_name(f),
              lo->entropy, hi->entropy);
    }
}

static void check_scale_search(void)
{
    static const double targets[] = {0.3, 1.0, 2.5, 4.0, 6.0, 8.0, 8.7};
    for (int f = 0; f < 3; f++) {
        for (size_t t = 0; t < sizeof targets / sizeof targets[0]; t++) {
            double h = targets[t], e = -1.0;
            double s = glide_dict_scale_for_entropy(f, h);
            int rc = glide_dict_make_book(f, s, NULL, NULL, &e);
            check(rc == 0 && fabs(e - h) <= 1e-6, "%s: scale %.6g for target %.2f bits gives %.12f", family_name(f),
                  s, h, e);
        }
    }
    /* Cauchy cannot reach 9 bits: past its peak the outliers take over. The
     * search must return the peak, not a scale on the falling side. */
    double s_peak, h_peak = glide_dict_max_entropy(GLIDE_FAMILY_CAUCHY, &s_peak), e = -1.0;
    double s = glide_dict_scale_for_entropy(GLIDE_FAMILY_CAUCHY, 9.0);
    glide_dict_make_book(GLIDE_FAMILY_CAUCHY, s, NULL, NULL, &e);
    check(h_peak < 9.0 && s == s_peak && e == h_peak, "Cauchy: unreachable 9 bits clamps to the peak (%.6f bits at scale %.6g)",
          h_peak, s_peak);
    check(glide_dict_make_book(3, 1.0, NULL, NULL, &e) != 0 && glide_dict_make_book(0, 0.0, NULL, NULL, &e) != 0,
          "make_book rejects a bad family and a non-positive scale");
}

int main(int argc, char **argv)
{
    if (argc != 2) {
        fprintf(stderr, "usage: %s PATH/TO/codebooks\n", argv[0]);
        return 2;
    }
    check_regeneration(argv[1], 1);
    check_regeneration(argv[1], 2);
    check_frozen_v1();
    check_frozen_v2();
    check(glide_dict_get(3) == NULL, "glide_dict_get(3) is NULL (unknown version)");
    check(glide_dict_get(0) == NULL, "glide_dict_get(0) is NULL");
    check_scale_search();
    printf("%d passed, %d failed\n", n_pass, n_fail);
    return n_fail != 0;
}
