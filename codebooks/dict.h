/* The codebook dictionary: Huffman books precomputed from Cauchy, Laplace and
 * Gaussian distributions of quantization codes. A stream names its book by
 * (dictionary version, book id); released versions are frozen forever. */
#ifndef GLIDE_DICT_H
#define GLIDE_DICT_H
#include <stdint.h>
#include <stdio.h>

#define GLIDE_DICT_VERSION 1 /* the version new streams are written with */

enum { GLIDE_FAMILY_CAUCHY = 0, GLIDE_FAMILY_LAPLACE = 1, GLIDE_FAMILY_GAUSSIAN = 2 };

typedef struct {
    uint8_t family;      /* GLIDE_FAMILY_* */
    double scale;        /* scale parameter, in quantization bins */
    double entropy;      /* bits/symbol of the book's own distribution */
    const uint8_t *len;  /* GLIDE_NSYM code lengths, each 1..GLIDE_HUFF_MAX_LEN */
    const float *log2q;  /* GLIDE_NSYM values of log2 q_i (the distribution, not the code) */
} glide_book;

typedef struct {
    unsigned version;
    unsigned n_books;
    const glide_book *books;
} glide_dictionary;

/* The frozen dictionary of a version, or NULL if this build does not know it. */
const glide_dictionary *glide_dict_get(unsigned version);

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

/* Writes the C source of a dictionary (the frozen table file). 0 on success. */
int glide_dict_write_c(FILE *f, const glide_dictionary *d);

#endif
