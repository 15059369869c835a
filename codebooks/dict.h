/* The codebook dictionary: Huffman books precomputed from Cauchy, Laplace and
 * Gaussian distributions of quantization codes. A stream names its book by
 * (dictionary version, book id); released versions are frozen forever. */
#ifndef GLIDE_DICT_H
#define GLIDE_DICT_H
#include <stdint.h>
#include <stdio.h>

#define GLIDE_DICT_VERSION 2 /* the dictionary new streams choose their books from */
#define GLIDE_DICT_FIRST_VERSION 1 /* what streams without a dictionary book (custom, RAW) name */

enum { GLIDE_FAMILY_CAUCHY = 0, GLIDE_FAMILY_LAPLACE = 1, GLIDE_FAMILY_GAUSSIAN = 2 };

/* A mixed book (v2) moves mass mix_mass of a family's distribution onto one
 * symbol: the fill symbol (datasets whose fill value marks land or missing
 * data) or the zero code (fields that are mostly exactly predicted). */
enum { GLIDE_MIX_NONE = 0, GLIDE_MIX_FILL = 1, GLIDE_MIX_SPIKE = 2 };

typedef struct {
    uint8_t family;      /* GLIDE_FAMILY_* */
    double scale;        /* scale parameter, in quantization bins */
    double entropy;      /* bits/symbol of the book's own distribution */
    const uint8_t *len;  /* GLIDE_NSYM code lengths, each 1..GLIDE_HUFF_MAX_LEN */
    const float *log2q;  /* GLIDE_NSYM values of log2 q_i (the distribution, not the code); v1
                            only (NULL in v2, whose books are only ever scored by size) */
    uint8_t mix;         /* GLIDE_MIX_*; NONE in v1 */
    double mix_mass;     /* mass moved onto the mixed symbol */
} glide_book;

typedef struct {
    unsigned version;
    unsigned n_books;
    const glide_book *books;
    /* Books [0, prev_books) are version (version - 1)'s books 0.. unchanged, so
     * a stream using one of them names the older version and stays readable
     * by decoders that predate this one. 0 in v1. */
    unsigned prev_books;
} glide_dictionary;

/* The frozen dictionary of a version, or NULL if this build does not know it. */
const glide_dictionary *glide_dict_get(unsigned version);

/* The version a stream names for book `book` of d: the oldest dictionary
 * that holds that book unchanged. */
unsigned glide_dict_book_version(const glide_dictionary *d, unsigned book);

/* Whether book `book` of the dictionary `version` is book `book` of d (the
 * same lengths): d is that version, or holds it as its unchanged prefix. */
int glide_dict_holds(const glide_dictionary *d, unsigned version, unsigned book);

/* --- generator side (codebooks/dict_gen.c), also used by benchmarks --- */

/* Binned distribution of a family at a scale over the GLIDE_NSYM symbols
 * (tails beyond the radius go to the outlier symbol, every symbol gets a
 * small floor) and its length-limited Huffman code. Returns 0 on success. */
int glide_dict_make_book(int family, double scale, uint8_t *len, float *log2q, double *entropy);

/* Scale whose binned distribution has the given entropy (bisection). Entropy
 * rises with the scale only up to a peak (past it the outlier symbol takes
 * most of the mass); targets above the peak get the peak's scale, targets
 * below what the smallest scale gives get that scale. -1 for a bad family. */
double glide_dict_scale_for_entropy(int family, double target_bits);

/* Largest entropy a family's binned distribution reaches, and the scale at
 * which it does (if scale_at_max is not NULL). -1 for a bad family. */
double glide_dict_max_entropy(int family, double *scale_at_max);

/* A dictionary of books_per_family books per family, scales spaced evenly in
 * entropy over [hmin, hmax] (over [hmin, peak] for a family whose peak
 * entropy is below hmax). Book id = family * books_per_family + k.
 * Heap-allocated; free with glide_dict_free. NULL on bad arguments. */
glide_dictionary *glide_dict_build(unsigned version, unsigned books_per_family, double hmin, double hmax);
void glide_dict_free(glide_dictionary *d);

/* A mixed dictionary (v2): the books of `base` unchanged (ids 0..n-1), then,
 * for each mixed mass in order (the fill masses, then the spike masses), one
 * book per `stride`-th base book (k = 0, stride, 2 stride, ...): the base's
 * distribution times (1 - mass), plus mass on the fill symbol or the zero
 * code. Its books carry no log2q. Heap-allocated; free with glide_dict_free. */
glide_dictionary *glide_dict_build_mixed(unsigned version, const glide_dictionary *base, unsigned stride,
                                         const double *fill, unsigned n_fill, const double *spike,
                                         unsigned n_spike);

/* Dictionary v2 as committed: glide_dict_build_mixed over the frozen v1
 * table with the parameters of dict_params.h. */
glide_dictionary *glide_dict_build_v2(void);

/* Code lengths (and entropy) of a family's distribution at a scale with mass
 * `mass` moved onto symbol `sym` (glide_dict_make_book when mass is 0). */
int glide_dict_make_mixed_book(int family, double scale, unsigned sym, double mass, uint8_t *len,
                               double *entropy);

/* Writes the C source of a dictionary (the frozen table file). 0 on success. */
int glide_dict_write_c(FILE *f, const glide_dictionary *d);

#endif
